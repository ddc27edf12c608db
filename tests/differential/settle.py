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


# --- games settled in parts (issue 29: two boards, a high and a low half) ----------------------
#
# `parts` maps (board, hand type) to each seat's hand (None: folded, or no hand of that type),
# hand type 0 the high and 1 the low (PokerKit's order). The rulebook: each pot is halved between
# the boards, the odd chip to the first (004-GN §VIII "Double Board Omaha", r211); a hi-lo pot
# (board) is halved between the best high and the best low among its own players when one of
# them has a low, the odd chip to the high, else the high takes it all (CHIP-ODD-HILO; 001-RR11
# §3 "Ties" r5(c), §7 r2); ties within a part share it as above.


def _shares(amount: int, winners: Sequence[int]) -> Counter[int]:
    won: Counter[int] = Counter()
    share, odd = divmod(amount, len(winners))
    for k, seat in enumerate(sorted(winners)):
        won[seat] += share + (1 if k < odd else 0)
    return won


def rulebook_split_parts(
    pots: Sequence[tuple[int, list[int]]], parts: Mapping[tuple[int, int], Mapping[int, Any]]
) -> Counter[int]:
    boards = 1 + max(j for j, _ in parts)
    won: Counter[int] = Counter()
    for amount, eligible in pots:
        share, odd = divmod(amount, boards)
        for j in range(boards):
            sub = share + (odd if j == 0 else 0)
            high, low = parts[(j, 0)], parts.get((j, 1), {})
            lows = [s for s in eligible if low.get(s) is not None]
            if lows:
                won += _shares((sub + 1) // 2, _winners(eligible, high))
                won += _shares(sub // 2, _winners(lows, low))
            else:
                won += _shares(sub, _winners(eligible, high))
    return won


def pokerkit_split_parts(
    pots: Sequence[tuple[int, list[int]]],
    parts: Mapping[tuple[int, int], Mapping[int, Any]],
    *,
    merge: bool,
) -> Counter[int]:
    """PokerKit 0.7.7's (`State._begin_chips_pushing`, `push_chips`): each pot halved between
    the boards, the remainder to board 0; a board's part halved between the hand types any
    player still in holds (not only the pot's), the remainder to the high; each part to its
    best hand among the pot's players, the whole remainder to the first. A low half of a pot
    none of whose players has a low goes, as PokerKit compares their missing lows as equal, to
    its players not killed: after its hand killing, the pot's high winners."""
    boards = 1 + max(j for j, _ in parts)
    types = 1 + max(k for _, k in parts)
    high0 = parts[(0, 0)]
    survivors = [
        (amount, [s for s in eligible if high0.get(s) is not None] or eligible)
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
        share, odd = divmod(amount, boards)
        for j in range(boards):
            sub = share + (odd if j == 0 else 0)
            held = [k for k in range(types) if any(h is not None for h in parts[(j, k)].values())]
            part, rest = divmod(sub, len(held))
            for k in held:
                chips = part + (rest if k == held[0] else 0)
                hands = parts[(j, k)]
                contenders = [s for s in eligible if hands.get(s) is not None]
                if not chips:
                    continue
                if contenders:
                    best = max(hands[s] for s in contenders)
                    winners = sorted(s for s in contenders if hands[s] == best)
                else:
                    winners = sorted(_winners(eligible, parts[(j, 0)]))
                each, left = divmod(chips, len(winners))
                for seat in winners:
                    won[seat] += each
                won[winners[0]] += left
    return won
