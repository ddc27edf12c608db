"""Seat geometry: clockwise order, button, blinds, first to act. Pure.

Seats are numbered 1..TABLE_SEATS clockwise; the dealer sits between the last seat and seat 1,
so "the dealer's left" is the lowest-numbered seat (stud deals from there).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

TABLE_SEATS = 10


def clockwise_after(seats: Iterable[int], after: int) -> list[int]:
    """`seats` in clockwise order starting with the first seat after `after`."""
    return sorted(seats, key=lambda s: (s - after - 1) % TABLE_SEATS)


def next_seat(seats: Iterable[int], after: int) -> int | None:
    order = clockwise_after(seats, after)
    return order[0] if order else None


@dataclass(frozen=True, slots=True)
class ButtonLayout:
    """Who deals first and who posts what, for a button game (BLIND-POSITIONS, BUTTON-HEADS-UP)."""

    button: int
    deal_order: tuple[int, ...]  # first card to deal_order[0]; the button gets the last card
    small_blind: int | None
    big_blind: int | None

    def preflop_order(self, last_forced: int | None = None) -> list[int]:
        """Action order for the first round: the seat after the last blind (or straddle) first."""
        last = last_forced if last_forced is not None else self.big_blind
        order = list(self.deal_order)
        if last is None or last not in order:
            return order
        i = order.index(last)
        return order[i + 1 :] + order[: i + 1]

    def postflop_order(self, seats: Iterable[int]) -> list[int]:
        keep = set(seats)
        return [s for s in self.deal_order if s in keep]


def button_layout(
    dealt: Iterable[int], button: int, blinds: tuple[int | None, int | None] | None = None
) -> ButtonLayout:
    """Deal order and blind seats for a button game. `blinds` fixes (small, big) when the dead
    button method places them (BUTTON-METHOD); otherwise they follow the button."""
    seats = sorted(set(dealt))
    order = clockwise_after(seats, button)
    if blinds is not None and len(order) > 2:
        return ButtonLayout(button, tuple(order), blinds[0], blinds[1])
    if len(order) == 2:
        # Heads-up: the button posts the small blind; the other player gets the first card.
        sb = button if button in order else order[1]
        bb = order[0] if order[0] != sb else order[1]
        deal = (bb, sb)
        return ButtonLayout(button, deal, sb, bb)
    first = order[0] if order else None
    second = order[1] if len(order) > 1 else None
    return ButtonLayout(button, tuple(order), first, second)


def dead_button_next(
    dealt: Iterable[int], last_small: int | None, last_big: int
) -> tuple[int, tuple[int | None, int]]:
    """BUTTON-METHOD, dead button: the big blind moves to the next player; the small blind and
    the button follow behind it even onto empty seats (a dead small blind or dead button).
    Returns (button, (small blind or None, big blind))."""
    seats = sorted(set(dealt))
    big = next_seat([s for s in seats if s != last_big], last_big)
    assert big is not None
    small = last_big if last_big in seats else None
    if last_small is not None:
        button = last_small
    else:  # last hand's small blind was dead: the button is the seat before last big blind
        button = (last_big - 2) % TABLE_SEATS + 1
    return button, (small, big)


def stud_order(dealt: Iterable[int]) -> list[int]:
    """Stud deals clockwise from the dealer's left: ascending seat numbers (DEAL-STUD-ORDER)."""
    return sorted(set(dealt))
