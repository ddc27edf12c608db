"""Settling the pots at the end of a hand, as Robert's Rules word it, for the final-stack check.

Written from the rulebook, independent of the engine (station/engine/pots.py, showdown.py):

- POT-SIDE-POTS (001-RR11 glossary "SIDE POT"): chips nobody matched go back to their owner; every
  all-in level of a player still in the hand starts a new pot layer; folded players' chips are
  dead money in the layers they reach.
- 001-RR11 §3 "Ties" r5(d): the main pot and each side pot are split as separate pots.
- §3 "Ties" r3-r5(a) (CHIP-ODD-ONE-PER-PLAYER, CHIP-ODD-BUTTON-GAME): an odd chip goes to the
  first tied hand clockwise from the button, one chip per player.

Hand strength comes from the oracle (PokerKit's hand objects compare with == and >), so only the
money rules are ours. `pokerkit_split` replays the same pots the way PokerKit 0.7.7 settles them:
pots whose surviving eligible players are the same are merged once the losing hands are killed
(`State.pots` merges equal `player_indices`), and the whole remainder goes to the first winner
(`State.push_chips`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any


def pot_layers(
    contrib: Mapping[int, int], live: Sequence[int]
) -> tuple[dict[int, int], list[tuple[int, list[int]]]]:
    """(uncalled chips returned, [(amount, eligible seats)]) from each seat's total put in."""
    contrib = dict(contrib)
    back: dict[int, int] = {}
    ranked = sorted(contrib.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) >= 2 and ranked[0][1] > ranked[1][1]:
        seat, top = ranked[0]
        back[seat] = top - ranked[1][1]
        contrib[seat] = ranked[1][1]
    levels = sorted({contrib[s] for s in live if contrib.get(s, 0) > 0})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contrib.values())
        eligible = sorted(s for s in live if contrib.get(s, 0) >= level)
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        prev = level
    return back, pots


def _winners(eligible: Sequence[int], hands: Mapping[int, Any]) -> list[int]:
    contenders = [s for s in eligible if hands.get(s) is not None]
    if not contenders:
        return list(eligible)
    best = max(hands[s] for s in contenders)
    return [s for s in contenders if hands[s] == best]


def rulebook_split(pots: Sequence[tuple[int, list[int]]], hands: Mapping[int, Any]) -> Counter[int]:
    """Each pot split on its own; odd chips one each, clockwise from the button (seat order:
    the button is the highest seat, heads-up too)."""
    won: Counter[int] = Counter()
    for amount, eligible in pots:
        winners = _winners(eligible, hands)
        share, odd = divmod(amount, len(winners))
        for k, seat in enumerate(sorted(winners)):
            won[seat] += share + (1 if k < odd else 0)
    return won


def pokerkit_split(
    pots: Sequence[tuple[int, list[int]]], hands: Mapping[int, Any], *, merge: bool
) -> Counter[int]:
    """PokerKit 0.7.7's settlement of the same pots (see the module docstring)."""
    survivors = [
        (amount, [s for s in eligible if hands.get(s) is not None] or eligible)
        for amount, eligible in pots
    ]
    merged: list[tuple[int, list[int]]] = []
    for amount, eligible in survivors:
        if merge and merged and merged[-1][1] == eligible:
            merged[-1] = (merged[-1][0] + amount, eligible)
        else:
            merged.append((amount, eligible))
    won: Counter[int] = Counter()
    for amount, eligible in merged:
        winners = sorted(_winners(eligible, hands))
        share, odd = divmod(amount, len(winners))
        for seat in winners:
            won[seat] += share
        won[winners[0]] += odd
    return won
