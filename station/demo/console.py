"""The emulated table's console: a technician's line (`draw Ah`, `zone 3 100`, `key FOLD 4`, or
a recorded-session line as JSON) or a whole recorded session, turned into what the dealer's
hands do on the emulated hardware (`station.demo.steps`). Pure.

Every input goes the way a table's does: a card through the shoe's mouth, chips into a betting
zone, a key on the panel, a sensor on its pin; a `setup` line is the floor seating the table
on the screen. Nothing here reaches the engine directly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from station.demo.steps import (
    MAIN_DECK,
    Chips,
    Collect,
    Deal,
    DealTag,
    MovePuck,
    Narrate,
    Press,
    RakeChips,
    Reseat,
    Sit,
    Step,
    chip_unit,
    forced_bet_chips,
)
from station.engine.events import (
    ClockSet,
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Zone,
)
from station.formats.session import SessionFormatError, event_from_dict

HELP = """\
draw CARD [up]          a card through the shoe (Ah, Td, 7c; `up`: dealt face up)
tag HEX [up]            a tag as the shoe reads it (e.g. one not in any enrolled deck)
zone SEAT AMOUNT        the chips now in a seat's betting zone (0: collected)
zone rake AMOUNT        the chips in the rake (drop) zone
key KEY [SEAT] [ACTION] a panel key: key NEW_HAND, key FOLD 4, key VERBAL 6 raise
puck SEAT               the dealer button puck moves to a seat
seat SEAT on|off        a seat's occupancy sensor
unplug shoe|zones       pull a device's USB cable (replug shoe|zones puts it back)
{"type": ...}           any recorded-session line, e.g. a setup that seats the table
help                    this text
quit                    stop the station (as Ctrl-C or systemctl stop)"""

BACK_DECKS = {"blue": MAIN_DECK, "red": "red-1"}  # the emulated registry's decks by back


@dataclass(frozen=True, slots=True)
class Hands:
    """What the dealer's hands do for one console line (one step, or none for `help`)."""

    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Cable:
    """A device's USB cable pulled out or put back ("shoe" or "zones")."""

    device: str
    plugged: bool


@dataclass(frozen=True, slots=True)
class Quit:
    pass


@dataclass(frozen=True, slots=True)
class ShowHelp:
    pass


@dataclass(frozen=True, slots=True)
class Refused:
    """The line means nothing (said in words, nothing done)."""

    text: str


Command = Hands | Cable | Quit | ShowHelp | Refused


def parse_command(line: str) -> Command:
    """One console line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return Hands(())
    if text.startswith("{"):
        return _json_line(text)
    word, *rest = text.split()
    match word.lower():
        case "help" | "?":
            return ShowHelp()
        case "quit" | "exit" | "stop":
            return Quit()
        case "unplug" | "replug":
            return _cable(word.lower(), rest)
        case "draw" | "tag" | "zone" | "key" | "puck" | "seat":
            obj = _short_line(word.lower(), rest)
            if isinstance(obj, Refused):
                return obj
            return _event_line(obj)
    return Refused(f"{word}: not a command (help lists them)")


def _cable(word: str, rest: list[str]) -> Command:
    if len(rest) != 1 or rest[0].lower() not in ("shoe", "zones"):
        return Refused(f"usage: {word} shoe|zones")
    return Cable(rest[0].lower(), plugged=word == "replug")


def _short_line(word: str, rest: list[str]) -> dict[str, object] | Refused:
    up = [r for r in rest if r.lower() == "up"]
    args = [r for r in rest if r.lower() != "up"]
    try:
        match word:
            case "draw" if len(args) == 1:
                return {"type": "draw", "card": args[0], "face_up": bool(up)}
            case "tag" if len(args) == 1:
                return {"type": "draw", "tag": args[0].upper(), "face_up": bool(up)}
            case "zone" if len(args) == 2 and args[0].lower() == "rake":
                return {"type": "zone", "zone": "rake", "amount": int(args[1])}
            case "zone" if len(args) == 2:
                return {"type": "zone", "seat": int(args[0]), "amount": int(args[1])}
            case "key" if 1 <= len(args) <= 4:
                obj: dict[str, object] = {"type": "key", "key": args[0].upper()}
                if len(args) > 1:
                    obj["seat"] = int(args[1])
                if len(args) > 2:
                    obj["action"] = args[2].lower()
                if len(args) > 3:
                    obj["amount"] = int(args[3])
                return obj
            case "puck" if len(args) == 1:
                return {"type": "puck", "seat": int(args[0])}
            case "seat" if len(args) == 2 and args[1].lower() in ("on", "off"):
                return {"type": "seat", "seat": int(args[0]), "occupied": args[1].lower() == "on"}
    except ValueError:
        return Refused(f"{word}: a seat and an amount are whole numbers")
    first = next(line for line in HELP.splitlines() if line.startswith(word))
    return Refused(f"usage: {first.split('  ')[0]}")


def _json_line(text: str) -> Command:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return Refused(f"not a JSON object: {exc.msg}")
    return _event_line(obj)


def _event_line(obj: object) -> Command:
    try:
        _, event = event_from_dict(obj)
    except SessionFormatError as exc:
        return Refused("; ".join(exc.problems))
    return Hands(session_steps([event]))


def event_step(event: InputEvent) -> Step:
    """The dealer's (or floor's) action that produces `event` on the emulated table."""
    match event:
        case Setup():
            return Reseat(event)
        case Zone(seat=seat, amount=0):
            return Collect((seat,))
        case Zone(seat=seat, amount=amount, chips=chips):
            return Chips(seat, amount, tuple(chips) if chips else None)
        case RakeZone(amount=amount):
            return RakeChips(amount)
        case Draw(card=card, face_up=face_up, back=back) if card is not None:
            return Deal(card, face_up, BACK_DECKS.get(back or "blue", MAIN_DECK))
        case Draw(tag=tag, face_up=face_up):
            return DealTag(tag or "", face_up)
        case KeyPress():
            return Press(event)
        case Puck(seat=seat):
            return MovePuck(seat)
        case SeatSensor(seat=seat, occupied=occupied):
            return Sit(seat, occupied)
        case ClockSet():
            return Narrate(
                "a tournament clock line comes from the centre, not from the table's "
                "hardware: not played here"
            )


def session_steps(events: Sequence[InputEvent]) -> tuple[Step, ...]:
    """A recorded session's inputs as the dealer's steps. Zones falling to 0 one after another
    are one sweep. The forced bets (zones before a NEW_HAND with no card between) carry the
    session's smallest chip, which the bet-zone board reports as denominations, so that the
    engine reads the same chip unit as from the session itself (BET-SMALLEST-CHIP)."""
    unit = chip_unit(e.amount for e in events if isinstance(e, Zone))
    steps: list[Step] = []
    for i, event in enumerate(events):
        step = event_step(event)
        if isinstance(step, Collect) and steps and isinstance(steps[-1], Collect):
            steps[-1] = Collect((*steps[-1].seats, *step.seats))
            continue
        if isinstance(step, Chips) and step.chips is None and _forced(events, i):
            step = Chips(step.seat, step.amount, forced_bet_chips(step.amount, unit))
        steps.append(step)
    return tuple(steps)


def _forced(events: Sequence[InputEvent], at: int) -> bool:
    for later in events[at + 1 :]:
        if isinstance(later, Draw):
            return False
        if isinstance(later, KeyPress) and later.key is Key.NEW_HAND:
            return True
    return False
