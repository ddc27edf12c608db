"""The demo's programme: real hands from the shipped PHH sample, turned into dealer steps, with
one irregularity injected into each of the first hands. Pure (the seed picks and shuffles).

Every injection is what a dealer really does wrong, followed by what the station then asks for:

1. premature flop: the burn and the flop dealt before the last preflop action; the dealer then
   finishes the betting, reshuffles the stub (STUB_RESHUFFLE), deals a flop without a burn;
2. boxed card: a card found face up in the deck during the deal; the dealer keys BOXED and
   the next card goes to the seat;
3. exposed hole card: the fourth card dealt face up; the dealer answers CONFIRM (exposed), the
   seat gets a card after the deal and there is no burn before the flop;
4. misdeal declared (MISDEAL, CONFIRM) after five cards; NEW_HAND and the hand is redealt;
5. duplicate card: a card of the spare blue deck on the flop voids the hand; the dealer calls
   the floor, who signs in with a PIN and clears the call;
6. the shoe's cable pulled before the flop: the dealer keeps dealing and plugs it back; the
   draws made meanwhile arrive, in order.

Later hands are dealt clean.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from station.data import phh_sample
from station.demo.steps import (
    SPARE_DECK,
    Chips,
    Collect,
    Deal,
    DropRake,
    FloorClears,
    MovePuck,
    Narrate,
    Press,
    Replug,
    Reseat,
    Step,
    Unplug,
    chip_unit,
    forced_bet_chips,
)
from station.engine.cards import STANDARD_DECK, Card
from station.engine.events import Draw, Key, KeyPress, Setup, Zone
from station.engine.rake import RakeSchedule, schedule_from_dict
from station.formats.session import event_from_dict
from station.phh.convert import ConvertError, convert_hand
from station.phh.reader import PhhError, loads_phh

# The demo's house rule: 004-GN §I r28 "House Rake is 10%, up to $6 maximum", the $6 cap of a
# $1-$2 game being three big blinds, at the demo hands' 50-100 blinds.
DEMO_RAKE = schedule_from_dict({"percent": 10, "cap": 300})
SAMPLE_PREFIX = "pluribus/"  # six-handed no-limit hold'em: every injection fits these hands
HOLE_CARDS = 2


class Injection(StrEnum):
    PREMATURE_FLOP = "premature flop"
    BOXED_CARD = "boxed card"
    EXPOSED_HOLE_CARD = "exposed hole card"
    MISDEAL = "misdeal"
    DUPLICATE_CARD = "duplicate card"
    SHOE_UNPLUGGED = "shoe unplugged"


ORDER: tuple[Injection, ...] = tuple(Injection)
# What the station must find for each injection (catalog rule ids); the unplug is operational.
EXPECTED_RULES: dict[Injection, tuple[str, ...]] = {
    Injection.PREMATURE_FLOP: ("PREMATURE-FLOP",),
    Injection.BOXED_CARD: ("DECK-BOXED-SINGLE",),
    Injection.EXPOSED_HOLE_CARD: ("EXPOSE-HOLDEM-OTHER-HOLECARD",),
    Injection.MISDEAL: ("MISDEAL-CUTOFF-BUTTON",),
    Injection.DUPLICATE_CARD: ("DECK-DUPLICATE-CARD", "STATION-FLOOR-CALL"),
    Injection.SHOE_UNPLUGGED: (),
}


@dataclass(frozen=True, slots=True)
class PlannedHand:
    number: int  # 1-based position in the demo
    source: str  # the PHH sample name
    injection: Injection | None
    steps: tuple[Step, ...]

    @property
    def expect_rules(self) -> tuple[str, ...]:
        return EXPECTED_RULES[self.injection] if self.injection is not None else ()


class PlanError(ValueError):
    """The sample has no hand that fits an injection (it always has; this guards the data)."""


# --- the shape of one converted hand ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Shape:
    setup: Setup
    steps: list[Step]  # everything after the setup
    deals: list[int]  # indices of the Deal steps in `steps`
    players: int

    @property
    def hole(self) -> int:
        return self.players * HOLE_CARDS

    @property
    def reaches_flop(self) -> bool:
        return len(self.deals) >= self.hole + 4

    def used_cards(self) -> set[Card]:
        return {s.card for s in self.steps if isinstance(s, Deal)}

    def spare_card(self, rng: random.Random, avoid: set[Card]) -> Card:
        unused = [c for c in STANDARD_DECK if c not in self.used_cards() and c not in avoid]
        return rng.choice(unused)

    def closing_action(self) -> int | None:
        """Index of the action that closes the preflop round (before its collection)."""
        burn = self.deals[self.hole]
        j = burn - 1
        while j >= 0 and isinstance(self.steps[j], Collect):
            j -= 1
        return j if j > self.deals[self.hole - 1] else None


def _shape(lines: Sequence[dict[str, Any]]) -> _Shape:
    setup: Setup | None = None
    steps: list[Step] = []
    for obj in lines:
        _, event = event_from_dict(obj)
        match event:
            case Setup():
                setup = event
            case Zone(seat=seat, amount=0):
                if steps and isinstance(steps[-1], Collect):
                    steps[-1] = Collect((*steps[-1].seats, seat))
                else:
                    steps.append(Collect((seat,)))
            case Zone(seat=seat, amount=amount):
                steps.append(Chips(seat, amount))
            case Draw(card=card, face_up=face_up) if card is not None:
                steps.append(Deal(card, face_up))
            case KeyPress():
                steps.append(Press(event))
            case _:
                raise PlanError(f"unexpected line in a converted hand: {obj}")
    if setup is None:
        raise PlanError("a converted hand without a setup line")
    unit = chip_unit(s.amount for s in steps if isinstance(s, Chips))
    for i, step in enumerate(steps):
        if isinstance(step, Press) and step.key.key is Key.NEW_HAND:
            break
        if isinstance(step, Chips):
            steps[i] = Chips(step.seat, step.amount, forced_bet_chips(step.amount, unit))
    deals = [i for i, s in enumerate(steps) if isinstance(s, Deal)]
    return _Shape(setup, steps, deals, len(setup.seats))


# --- injections ---------------------------------------------------------------------------------


def _premature_flop(h: _Shape, rng: random.Random) -> list[Step] | None:
    close = h.closing_action() if h.reaches_flop else None
    if close is None:
        return None
    s = h.steps
    burn_i = h.deals[h.hole]
    flop = [s[i] for i in h.deals[h.hole + 1 : h.hole + 4]]
    after_flop = h.deals[h.hole + 3] + 1
    # The reshuffled stub gives a new flop. (Cards the shoe has read once in a hand are taken
    # as re-reads if they come out again, so the new flop is drawn from cards not yet out.)
    fresh: set[Card] = set()
    for _ in range(3):
        fresh.add(h.spare_card(rng, fresh))
    return [
        *s[:close],
        Narrate("deals the burn and the flop before the preflop betting is complete"),
        s[burn_i],
        *flop,
        *s[close:burn_i],
        Narrate("follows the recovery: reshuffles the stub, deals the flop without a burn"),
        Press(KeyPress(Key.STUB_RESHUFFLE)),
        *(Deal(c) for c in sorted(fresh, key=lambda c: c.index)),
        *s[after_flop:],
    ]


def _boxed_card(h: _Shape, rng: random.Random) -> list[Step] | None:
    s, at = h.steps, h.deals[2]
    boxed = h.spare_card(rng, set())
    return [
        *s[:at],
        Narrate(f"finds {boxed.code} face up in the deck during the deal and keys BOXED"),
        Deal(boxed, face_up=True),
        Press(KeyPress(Key.BOXED)),
        *s[at:],
    ]


def _exposed_hole_card(h: _Shape, rng: random.Random) -> list[Step] | None:
    s = list(h.steps)
    at, last_hole = h.deals[3], h.deals[h.hole - 1]
    card = s[at]
    assert isinstance(card, Deal)
    if h.reaches_flop:  # the exposed card is the burn: the planned burn card is not burned
        burn_i = h.deals[h.hole]
        replacement = s[burn_i]
        assert isinstance(replacement, Deal)
        del s[burn_i]
    else:
        replacement = Deal(h.spare_card(rng, set()))
    return [
        *s[:at],
        Narrate(f"turns {card.card.code} face up while dealing the fourth card"),
        Deal(card.card, face_up=True),
        Press(KeyPress(Key.CONFIRM)),
        *s[at + 1 : last_hole + 1],
        Narrate("gives the seat its replacement card after the deal"),
        replacement,
        *s[last_hole + 1 :],
    ]


def _misdeal(h: _Shape, rng: random.Random) -> list[Step] | None:
    s = h.steps
    first, fifth = h.deals[0], h.deals[4]
    return [
        *s[:fifth],
        Narrate("declares a misdeal after five cards (MISDEAL, CONFIRM)"),
        Press(KeyPress(Key.MISDEAL)),
        Narrate("gathers the cards, reshuffles and redeals"),
        Press(KeyPress(Key.NEW_HAND)),
        *s[first:],
    ]


def _duplicate_card(h: _Shape, rng: random.Random) -> list[Step] | None:
    if not h.reaches_flop:
        return None
    s = h.steps
    first = s[h.deals[0]]
    assert isinstance(first, Deal)
    at = h.deals[h.hole + 1]
    return [
        *s[:at],
        Narrate(f"deals a second {first.card.code} (from the spare blue deck) on the flop"),
        Deal(first.card, deck=SPARE_DECK),
        Narrate("calls the floor for the void hand"),
        Press(KeyPress(Key.FLOOR)),
        FloorClears(),
    ]


def _shoe_unplugged(h: _Shape, rng: random.Random) -> list[Step] | None:
    if not h.reaches_flop:
        return None
    s = h.steps
    burn_i, after_flop = h.deals[h.hole], h.deals[h.hole + 3] + 1
    blind = [s[i] for i in h.deals[h.hole : h.hole + 4]]
    return [
        *s[:burn_i],
        Narrate("pulls the shoe's cable by accident and keeps dealing"),
        Unplug(),
        *(Deal(d.card, d.face_up, d.deck, wait=False) for d in blind if isinstance(d, Deal)),
        Narrate("plugs the shoe back in"),
        Replug(),
        *s[after_flop:],
    ]


_INJECT = {
    Injection.PREMATURE_FLOP: _premature_flop,
    Injection.BOXED_CARD: _boxed_card,
    Injection.EXPOSED_HOLE_CARD: _exposed_hole_card,
    Injection.MISDEAL: _misdeal,
    Injection.DUPLICATE_CARD: _duplicate_card,
    Injection.SHOE_UNPLUGGED: _shoe_unplugged,
}


# --- the programme ----------------------------------------------------------------------------


def _candidates(seed: int) -> Iterator[tuple[str, _Shape]]:
    sample = list(phh_sample(SAMPLE_PREFIX))
    random.Random(seed).shuffle(sample)
    for name, text in sample:
        try:
            hands = loads_phh(text, name, name)
            for hand in hands:
                conv = convert_hand(hand, seed)
                shape = _shape(conv.lines)
                if shape.setup.game == "nlhe" and shape.players > 2:
                    yield name, shape
        except (PhhError, ConvertError):
            continue


def plan_hands(
    count: int,
    seed: int = 1,
    *,
    inject: bool = True,
    rake: RakeSchedule | None = None,
    again_every: int = 0,
) -> list[PlannedHand]:
    """`count` hands: the first ones each with one injection (in `ORDER`), then clean ones
    (all clean with `inject=False`); with `again_every` K, every K-th hand after those has the
    next injection again (a room of tables keeps making mistakes). With a `rake` schedule every
    re-seat carries it and each hand ends with the dealer's drop."""
    rng = random.Random(seed)
    out: list[PlannedHand] = []
    zones: dict[int, int] = {}  # what the betting zones hold, as the dealer left them
    puck: int | None = None
    candidates = _candidates(seed)
    for number in range(1, count + 1):
        injection = _injection(number, again_every) if inject else None
        found = _fitting(candidates, injection, rng)
        if found is None:
            raise PlanError(f"no hand in the sample fits hand {number} ({injection})")
        name, shape, steps = found
        prelude: list[Step] = []
        left = tuple(s for s, a in sorted(zones.items()) if a)
        if left:
            prelude.append(Collect(left))  # the pot pushed, uncalled chips handed back
        prelude.append(Reseat(replace(shape.setup, rake=rake)))
        button = shape.setup.button
        if button is not None and button != puck:
            prelude.append(MovePuck(button))
            puck = button
        zones = _zones_after([*prelude, *steps], zones)
        drop = (DropRake(),) if rake is not None else ()
        out.append(PlannedHand(number, name, injection, (*prelude, *steps, *drop)))
    return out


def _injection(number: int, again_every: int) -> Injection | None:
    if number <= len(ORDER):
        return ORDER[number - 1]
    later = number - len(ORDER)
    if again_every > 0 and later % again_every == 0:
        return ORDER[(later // again_every - 1) % len(ORDER)]
    return None


def _fitting(
    candidates: Iterator[tuple[str, _Shape]], injection: Injection | None, rng: random.Random
) -> tuple[str, _Shape, list[Step]] | None:
    for name, shape in candidates:
        steps = shape.steps if injection is None else _INJECT[injection](shape, rng)
        if steps is not None:
            return name, shape, steps
    return None


def _zones_after(steps: Sequence[Step], zones: dict[int, int]) -> dict[int, int]:
    out = dict(zones)
    for step in steps:
        if isinstance(step, Chips):
            out[step.seat] = step.amount
        elif isinstance(step, Collect):
            out.update(dict.fromkeys(step.seats, 0))
    return out


def blind_deals(hand: PlannedHand) -> int:
    return sum(1 for s in hand.steps if isinstance(s, Deal) and not s.wait)
