"""A scripted table: a deterministic multi-hand no-limit hold'em session, as the table's sensors
would report it (docs/session-format.md conventions). Pure (a seeded RNG of its own).

Four seats, blinds 1/2. Each hand: the puck moves to the next seat, the blinds go out as zone
amounts before NEW_HAND, hole cards are drawn one at a time from the small blind round, then
betting rounds (CHECK and FOLD keys; bets, calls and raises as zone totals), the dealer
collecting each finished round (zones falling to 0), burns and board cards, and TABLED keys at a
showdown. Bets stay small and the table is re-seated every few hands, so nobody is ever all in.
The crash test and the log-canary test drive the real engine with it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from station.engine.cards import STANDARD_DECK
from station.engine.events import Draw, InputEvent, Key, KeyPress, Puck, Setup, Stakes, Zone

SB, BB = 1, 2
STREET_CAP = 10 * BB  # the most any seat puts in on one street


@dataclass(frozen=True, slots=True)
class ScriptedEvent:
    event: InputEvent
    t: float  # seconds since the session start


@dataclass(frozen=True, slots=True)
class ScriptedSession:
    events: tuple[ScriptedEvent, ...]
    hole_cards: tuple[tuple[str, ...], ...]  # per hand, every hole card dealt


class _Script:
    def __init__(self, seed: int, seats: int, stack: int) -> None:
        self.rng = random.Random(seed)
        self.seats = list(range(1, seats + 1))
        self.stack = stack
        self.t = 0.0
        self.events: list[ScriptedEvent] = []
        self.holes: list[tuple[str, ...]] = []

    def emit(self, event: InputEvent) -> None:
        self.t = round(self.t + self.rng.uniform(0.3, 2.0), 3)
        self.events.append(ScriptedEvent(event, self.t))

    def after(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def order_from(self, first: int) -> list[int]:
        i = self.seats.index(first)
        return self.seats[i:] + self.seats[:i]

    def setup(self, button: int) -> None:
        self.emit(
            Setup(
                game="nlhe",
                profile="RR11",
                stakes=Stakes(sb=SB, bb=BB),
                seats=dict.fromkeys(self.seats, self.stack),
                button=button,
            )
        )

    def hand(self, button: int) -> None:
        sb, bb = self.after(button), self.after(self.after(button))
        self.emit(Zone(sb, SB))
        self.emit(Zone(bb, BB))
        self.emit(KeyPress(Key.NEW_HAND))
        deck = list(STANDARD_DECK)
        self.rng.shuffle(deck)
        cards = iter(deck)
        hole: list[str] = []
        for _ in range(2):
            for _seat in self.order_from(sb):
                card = next(cards)
                hole.append(card.code)
                self.emit(Draw(card))
        self.holes.append(tuple(hole))
        active = list(self.order_from(sb))
        bets = {sb: SB, bb: BB}
        active = self.betting(self.order_from(self.after(bb)), active, bets, current=BB)
        for count in (3, 1, 1):
            if len(active) < 2:
                break
            self.emit(Draw(next(cards)))  # burn
            for _ in range(count):
                self.emit(Draw(next(cards)))  # every card leaves the shoe face down
            active = self.betting(self.order_from(sb), active, {}, current=0)
        if len(active) >= 2:
            for seat in self.order_from(sb):
                if seat in active:
                    self.emit(KeyPress(Key.TABLED, seat=seat))

    def betting(
        self, order: list[int], active: list[int], bets: dict[int, int], current: int
    ) -> list[int]:
        """One betting round; returns who is still in. Ends with the dealer collecting."""
        to_act = [s for s in order if s in active]
        raises = 0
        while to_act and len(active) > 1:
            seat = to_act.pop(0)
            mine = bets.get(seat, 0)
            roll = self.rng.random()
            can_raise = raises < 2 and current + BB * (1 + raises) <= STREET_CAP
            if mine == current:
                if can_raise and roll < 0.3:
                    current = current + max(BB, current)
                    self._raise(seat, current, bets, active, to_act, order)
                    raises += 1
                else:
                    self.emit(KeyPress(Key.CHECK, seat=seat))
            elif roll < 0.25:
                self.emit(KeyPress(Key.FOLD, seat=seat))
                active.remove(seat)
            elif can_raise and roll > 0.85:
                current = min(STREET_CAP, current + max(BB, current))
                self._raise(seat, current, bets, active, to_act, order)
                raises += 1
            else:
                bets[seat] = current
                self.emit(Zone(seat, current))
        for seat in self.seats:
            if bets.get(seat, 0) > 0:
                self.emit(Zone(seat, 0))
        return active

    def _raise(
        self,
        seat: int,
        to: int,
        bets: dict[int, int],
        active: list[int],
        to_act: list[int],
        order: list[int],
    ) -> None:
        bets[seat] = to
        self.emit(Zone(seat, to))
        i = order.index(seat)
        after = order[i + 1 :] + order[:i]
        to_act[:] = [s for s in after if s in active]


def nlhe_session(
    hands: int, seed: int = 1, *, seats: int = 4, stack: int = 1000, reseat_every: int = 8
) -> ScriptedSession:
    """`hands` hands of deterministic no-limit hold'em (the same seed gives the same events)."""
    script = _Script(seed, seats, stack)
    for _ in _hands(script, hands, reseat_every):
        pass
    return ScriptedSession(tuple(script.events), tuple(script.holes))


def nlhe_stream(
    hands: int, seed: int = 1, *, seats: int = 4, stack: int = 1000, reseat_every: int = 8
) -> Iterator[ScriptedEvent]:
    """The events of `nlhe_session` one hand at a time, for sessions too long to hold."""
    script = _Script(seed, seats, stack)
    for _ in _hands(script, hands, reseat_every):
        yield from script.events
        script.events.clear()
        script.holes.clear()


def _hands(script: _Script, hands: int, reseat_every: int) -> Iterator[int]:
    button = script.seats[-1]
    script.setup(button)
    for n in range(hands):
        if n > 0:
            button = script.after(button)
            script.emit(Puck(button))  # the dealer moves the button puck
            if n % reseat_every == 0:
                script.setup(button)
        script.hand(button)
        yield n
