"""Real hands with a dealer's mistakes in them, and a dealer who then does what the station asks.

`real_hand(i)` is hand i of the PHH sample (station/data) as a recorded session (the importer's
own conversion, as `station import-phh` writes it). `Mistakes` injects what a dealer or a player
gets wrong at a real table: a joker or a card the deck does not hold in the shoe, a card drawn
too many or one skipped, a key pressed for the wrong seat or in the wrong order, a verbal
declaration that differs from the chips, a zone reading that is not what the round needs, a
face-up card, a player leaving his seat; the events after it are the real hand going on as if
nobody noticed (every prompt ignored). `follow_the_station` then plays the part of a dealer who
does exactly what the station shows (the seat to act folds or checks, the cards due are dealt,
the recovery keys are pressed, the hands are tabled) until the hand is over.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, Protocol, TypeVar, cast

from hypothesis import strategies as st

from station.data import phh_sample
from station.engine.cards import STANDARD_DECK
from station.engine.recovery import Expect
from station.engine.snapshot import Phase
from station.phh.convert import convert_hand
from station.phh.reader import loads_phh
from tests.engine.tablekit import Run

Line = dict[str, Any]
T = TypeVar("T")


class Chooser(Protocol):
    """Where the choices come from: hypothesis (`Drawn`) or a seeded `random.Random` (`Rolled`)."""

    def choice(self, options: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...


@dataclass
class Drawn:
    """Choices drawn by hypothesis (`data.draw`), so failures shrink."""

    draw: Callable[[Any], Any]

    def choice(self, options: Sequence[T]) -> T:
        return cast(T, self.draw(st.sampled_from(options)))

    def integer(self, low: int, high: int) -> int:
        return int(self.draw(st.integers(low, high)))


@dataclass
class Rolled:
    """Choices from a seeded generator (the exploratory runs)."""

    rng: random.Random

    def choice(self, options: Sequence[T]) -> T:
        return self.rng.choice(list(options))

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


PROFILES = ("RR11", "RRPG", "RR5", "USPA", "GN")
KEYS = (
    "FOLD",
    "CHECK",
    "ALLIN",
    "EXPOSED",
    "FLASH",
    "BOXED",
    "MISDEAL",
    "STUB_RESHUFFLE",
    "TABLED",
    "MUCK",
    "FLOOR",
    "CONFIRM",
    "CANCEL",
    "TIME",
    "ELIMINATE",
    "RUN_IT",
    "DRAW",
    "CLOCK",
)
VERBALS = ("fold", "check", "call", "bet", "raise", "complete", "allin")


@cache
def _sample() -> tuple[tuple[str, str], ...]:
    return tuple(phh_sample())


def sample_size() -> int:
    return len(_sample())


@cache
def _converted(i: int) -> tuple[str, tuple[str, ...]]:
    import json

    name, text = _sample()[i]
    (hand,) = loads_phh(text, name, name)
    return name, tuple(json.dumps(line) for line in convert_hand(hand, seed=0).lines)


def real_hand(i: int) -> tuple[str, list[Line]]:
    """(name, session lines) of hand i of the PHH sample; fresh dicts, safe to change."""
    import json

    name, lines = _converted(i)
    return name, [json.loads(line) for line in lines]


class Outcome(StrEnum):
    ENDED = "hand_end"  # the pot was pushed (or the hand voided)
    MISDEAL = "misdeal"  # the deal was called off: the redeal is the next deal
    FLOOR = "floor"  # the station called the floor and nothing the dealer does ends the hand
    STUCK = "stuck"  # no floor call, and a dealer doing what the station shows cannot end it


@dataclass
class Mistakes:
    """Inject `count` mistakes into a session, drawing the choices from hypothesis."""

    pick: Chooser
    notes: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def apply(self, lines: list[Line], count: int) -> list[Line]:
        out = [dict(line) for line in lines]
        for _ in range(count):
            kind = self.pick.choice(sorted(MUTATIONS))
            self.kinds.append(kind)
            out = MUTATIONS[kind](self, out)
        return out

    def index(self, lines: list[Line], kinds: tuple[str, ...] = ()) -> int | None:
        """A random line after the setup (of one of `kinds`, when given)."""
        at = [i for i, ln in enumerate(lines) if i > 0 and (not kinds or ln["type"] in kinds)]
        return self.pick.choice(at) if at else None

    def seat(self, lines: list[Line]) -> int:
        seats = sorted(int(s) for s in lines[0]["seats"])
        return self.pick.choice([*seats, seats[-1] + 1])

    def flip(self) -> bool:
        return self.pick.choice((False, True))


def _unused_card(m: Mistakes, lines: list[Line]) -> str:
    used = {ln.get("card") for ln in lines if ln["type"] == "draw"}
    free = [c.code for c in STANDARD_DECK if c.code not in used]
    return str(m.pick.choice(free)) if free else "JOKER"


def _joker(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("draw",))
    if i is None:
        return lines
    m.notes.append(f"joker before line {i + 1}")
    return [*lines[:i], {"type": "draw", "card": "JOKER", "face_up": False}, *lines[i:]]


def _extra_draw(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines)
    if i is None:
        return lines
    card = _unused_card(m, lines)
    m.notes.append(f"extra draw {card} before line {i + 1}")
    return [*lines[:i], {"type": "draw", "card": card, "face_up": False}, *lines[i:]]


def _skip(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("draw", "key", "zone"))
    if i is None:
        return lines
    m.notes.append(f"line {i + 1} left out: {lines[i]}")
    return lines[:i] + lines[i + 1 :]


def _wrong_key(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines)
    if i is None:
        return lines
    line: Line = {"type": "key", "key": m.pick.choice(KEYS)}
    if m.flip():
        line["seat"] = m.seat(lines)
    if line["key"] == "DRAW":
        line["count"] = m.pick.integer(0, 5)
    elif line["key"] == "RUN_IT":
        line["count"] = m.pick.integer(1, 3)
    m.notes.append(f"key {line} before line {i + 1}")
    return [*lines[:i], line, *lines[i:]]


def _verbal(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("zone",))
    if i is None:
        return lines
    zone = lines[i]
    line: Line = {
        "type": "key",
        "key": "VERBAL",
        "seat": zone["seat"],
        "action": m.pick.choice(VERBALS),
    }
    if m.flip():
        line["amount"] = max(0, zone["amount"] + m.pick.integer(-3, 3) * 50)
    at = i + int(m.flip())  # before or just after the chips
    m.notes.append(f"verbal {line} at line {at + 1}")
    return [*lines[:at], line, *lines[at:]]


def _zone_amount(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("zone",))
    if i is None:
        return lines
    old = lines[i]["amount"]
    new = max(0, m.pick.choice([old // 2, old - 1, old + 1, old * 2, old + 100, 0]))
    m.notes.append(f"zone at line {i + 1}: {old} -> {new}")
    out = list(lines)
    out[i] = {**lines[i], "amount": new}
    return out


def _swap(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines)
    if i is None or i + 1 >= len(lines):
        return lines
    m.notes.append(f"lines {i + 1} and {i + 2} swapped")
    out = list(lines)
    out[i], out[i + 1] = out[i + 1], out[i]
    return out


def _face_up(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("draw",))
    if i is None:
        return lines
    m.notes.append(f"line {i + 1} drawn face up")
    out = list(lines)
    out[i] = {**lines[i], "face_up": True}
    return out


def _seat_sensor(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines)
    if i is None:
        return lines
    line = {"type": "seat", "seat": m.seat(lines), "occupied": m.flip()}
    m.notes.append(f"seat sensor {line} before line {i + 1}")
    return [*lines[:i], line, *lines[i:]]


def _odd_card(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("draw",))
    if i is None:
        return lines
    kind = m.pick.choice(["foreign back", "unknown tag", "duplicate"])
    out = list(lines)
    if kind == "foreign back":
        out[i] = {**lines[i], "back": "red"}
    elif kind == "unknown tag":
        out[i] = {"type": "draw", "tag": "DEADBEEF", "face_up": lines[i].get("face_up", False)}
    elif "card" in lines[i]:
        out.insert(i + 1, {"type": "draw", "card": lines[i]["card"], "face_up": False})
    m.notes.append(f"{kind} at line {i + 1}")
    return out


def _repeat(m: Mistakes, lines: list[Line]) -> list[Line]:
    i = m.index(lines, ("zone", "key"))
    if i is None:
        return lines
    m.notes.append(f"line {i + 1} repeated")
    return [*lines[: i + 1], dict(lines[i]), *lines[i + 1 :]]


MUTATIONS: dict[str, Callable[[Mistakes, list[Line]], list[Line]]] = {
    "joker": _joker,
    "extra_draw": _extra_draw,
    "skip": _skip,
    "wrong_key": _wrong_key,
    "verbal": _verbal,
    "zone_amount": _zone_amount,
    "swap": _swap,
    "face_up": _face_up,
    "seat_sensor": _seat_sensor,
    "odd_card": _odd_card,
    "repeat": _repeat,
}


# --- a dealer who does what the station shows ------------------------------------------------


def _over(run: Run, number: int) -> Outcome | None:
    hand = run.table.hand
    if hand is None or hand.number != number:
        return (
            Outcome.ENDED
            if any(d["type"] == "hand_end" and d["hand"] == number for d in run.out)
            else None
        )
    if hand.result is not None:
        return Outcome.ENDED
    if hand.phase is Phase.MISDEAL:
        return Outcome.MISDEAL
    return None


def _station_asks(run: Run) -> Line | None:
    """The input a dealer following the station's screen gives next; None if it asks nothing."""
    table = run.table
    hand = table.hand
    assert hand is not None
    snap = table.snapshot()
    if hand.faults.faceup is not None:
        return {"type": "key", "key": "EXPOSED"}  # answers the BOXED-or-EXPOSED question
    rec = hand.repair.recovery
    step = rec.current if rec is not None else None
    if hand.repair.awaiting_reshuffle or (step is not None and step.expect is Expect.RESHUFFLE):
        return {"type": "key", "key": "STUB_RESHUFFLE"}
    if hand.phase is Phase.BETTING and snap.to_act is not None:
        seat = snap.to_act
        if hand.bring_in_pending() and seat == hand.stud.bring_in_seat:
            bring = hand.terms.stakes.bring_in or hand.bet_size(0)
            return {"type": "zone", "seat": seat, "amount": hand.chips.offset.get(seat, 0) + bring}
        return {"type": "key", "key": "CHECK" if snap.to_call == 0 else "FOLD", "seat": seat}
    if hand.deal.slots:
        seen = set(hand.deal.seen)
        for c in STANDARD_DECK:
            if c not in seen:
                return {"type": "draw", "card": c.code, "face_up": False}
        return None
    if hand.phase is Phase.DRAWING and hand.draws.pending:
        return {"type": "key", "key": "DRAW", "seat": hand.draws.pending[0], "count": 0}
    if hand.phase is Phase.SHOWDOWN:
        for s in hand.contenders():
            if s not in hand.show.tabled:
                return {"type": "key", "key": "TABLED", "seat": s}
    return None


def follow_the_station(run: Run, *, limit: int = 400) -> Outcome:
    """Play the hand on as the station asks until it is over (or the station asks nothing)."""
    hand = run.table.hand
    if hand is None:
        return Outcome.ENDED
    number = hand.number
    for _ in range(limit):
        done = _over(run, number)
        if done is not None:
            return done
        line = _station_asks(run)
        if line is None:
            break
        run.feed(line)
    done = _over(run, number)
    if done is not None:
        return done
    called = any(
        d["type"] == "incident" and d["hand"] == number and d["ruling"] == "floor" for d in run.out
    )
    return Outcome.FLOOR if called else Outcome.STUCK


def next_hand_starts(run: Run) -> bool:
    """The floor confirms (CONFIRM), the blinds the station names are posted (or the antes),
    NEW_HAND: a new deal starts (the next hand, or the redeal of a misdealt one)."""
    table = run.table
    run.feed({"type": "key", "key": "CONFIRM"})
    assert table.setup is not None
    with_chips = [s for s, st in table.stacks.items() if st != 0 and s in table.occupied]
    if len(with_chips) < 2:
        return True  # nobody left to play against: the table needs new players, not a deal
    prompt = table.lineup.posts_prompt
    if prompt and (table.hand is None or table.hand.phase is not Phase.MISDEAL):
        for part in prompt.split(" / ")[1:]:
            words = part.split()  # "SB SEAT 4 1"
            seat, amount = int(words[2]), int(words[3])
            have = table.posting.zone.get(seat, 0)
            run.feed({"type": "zone", "seat": seat, "amount": have + amount})
    before = len(run.out)
    run.feed({"type": "key", "key": "NEW_HAND"})
    return any(d["type"] == "prompt" and d.get("code") == "deal" for d in run.out[before:])
