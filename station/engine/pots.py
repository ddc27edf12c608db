"""Main and side pots from what each seat put in; odd-chip splitting. Pure.

POT-SIDE-POTS: a player can win from each other player at most what he put in himself, so every
all-in level of a player still in the hand starts a new pot layer. Chips nobody matched (an
uncalled bet) go back to their owner before the pots are formed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats still in the hand that can win it, ascending


def uncalled(contrib: Mapping[int, int]) -> tuple[int | None, int]:
    """(seat, chips) of the part of the largest contribution nobody matched, or (None, 0)."""
    if len(contrib) < 2:
        seat = next(iter(contrib), None)
        return seat, (contrib[seat] if seat is not None else 0)
    ranked = sorted(contrib.items(), key=lambda kv: kv[1], reverse=True)
    (top_seat, top), (_, second) = ranked[0], ranked[1]
    return (top_seat, top - second) if top > second else (None, 0)


def build_pots(contrib: Mapping[int, int], live: Sequence[int], dead: int = 0) -> list[Pot]:
    """Pot layers from the contributions (after uncalled chips are returned).

    `live` are the seats still in the hand (not folded); folded seats' chips are dead money in
    the layers they reach. `dead` (antes) goes to the main pot, which every seat still in the
    hand can win. Layers with the same eligible seats are merged."""
    live_set = set(live)
    if dead:
        layers = build_pots(contrib, live)
        if layers and set(layers[0].eligible) == live_set:
            return [Pot(layers[0].amount + dead, layers[0].eligible), *layers[1:]]
        return [Pot(dead, tuple(sorted(live_set))), *layers]
    levels = sorted({contrib.get(s, 0) for s in live_set if contrib.get(s, 0) > 0})
    pots: list[Pot] = []
    prev = 0
    for i, level in enumerate(levels):
        top = level if i < len(levels) - 1 else max(contrib.values(), default=0)
        amount = sum(min(c, top) - min(c, prev) for c in contrib.values())
        eligible = tuple(sorted(s for s in live_set if contrib.get(s, 0) >= level))
        if amount > 0:
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        prev = top
    if not levels and contrib:
        total = sum(contrib.values())
        if total:
            pots.append(Pot(total, tuple(sorted(live_set))))
    return pots


def split(amount: int, winners_in_odd_chip_order: Sequence[int], unit: int = 1) -> dict[int, int]:
    """Split `amount` evenly; each odd chip, of `unit` (the smallest chip used in the game),
    goes one per player in the given order (CHIP-ODD-UNIT and CHIP-ODD-ONE-PER-PLAYER: no player
    receives more than one odd chip). Less than a unit left over goes with the first odd chip."""
    n = len(winners_in_odd_chip_order)
    unit = max(1, unit)
    units, rest = divmod(amount, unit)
    share, odd = divmod(units, n)
    out = dict.fromkeys(winners_in_odd_chip_order, share * unit)
    for seat in winners_in_odd_chip_order[:odd]:
        out[seat] += unit
    out[winners_in_odd_chip_order[0]] += rest
    return out
