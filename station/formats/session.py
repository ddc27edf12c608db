"""The recorded table session (PRODUCT.md section 4): reader and writer. Edge adapter (files).

A session is JSON lines, one object per line. `parse_session` checks the whole text before
returning anything, so a bad file is never half-applied; every problem is reported as
`FILE:LINE: what is wrong`. Extensions over the public format, all compatible: blank lines and
lines starting with `#` are ignored, and any object may carry a `note` or keys starting with `_`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from station.engine.cards import Card, CardError
from station.engine.events import (
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Stakes,
    VerbalAction,
    Zone,
)
from station.engine.games import GAMES, Family, Structure
from station.engine.profiles import PROFILES
from station.engine.rake import RakeScheduleError, schedule_from_dict, schedule_to_dict

MAX_SEAT = 10
MAX_ERRORS = 20
RAKE_ZONE = "rake"  # a `zone` line's `zone`: the rake (drop) zone instead of a seat's
# Caps on hostile input (a replayed file may come from anywhere): a line, a number and the
# nesting of JSON beyond these is refused as FILE:LINE, never a traceback. A session's lines
# are short (a setup line is a few hundred characters); amounts are chips.
MAX_LINE_CHARS = 65_536
MAX_DEPTH = 8
MAX_AMOUNT = 10**12
STAKE_KEYS = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "straddle")


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One input event with its 1-based line number and optional time (s since start)."""

    line: int
    t: float | None
    event: InputEvent


@dataclass(frozen=True, slots=True)
class Session:
    name: str
    lines: tuple[SessionLine, ...]


class SessionFormatError(ValueError):
    """The file is not a valid session; `problems` holds `FILE:LINE: message` strings."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class _LineError(ValueError):
    pass


def read_session(path: str | Path) -> Session:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise SessionFormatError([f"{p}: cannot read: {exc.strerror}"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SessionFormatError([f"{p}:{line}: not UTF-8 text ({exc.reason})"]) from None
    return parse_session(text, str(p))


# JSON Lines ends a line at LF (CRLF and CR tolerated), never at the other Unicode line
# boundaries `str.splitlines` knows: NEL, LS, PS and the like may stand raw inside JSON strings.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def parse_session(text: str, name: str = "<session>") -> Session:
    problems: list[str] = []
    lines: list[SessionLine] = []
    parser = _Parser()
    last_t: float | None = None
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = _load_line(stripped)
        except _LineError as exc:
            problems.append(f"{name}:{number}: {exc}")
            continue
        try:
            t, event = parser.parse(obj)
            if t is not None:
                if last_t is not None and t < last_t:
                    raise _LineError(f"time goes backwards: t={t} after t={last_t}")
                last_t = t
            lines.append(SessionLine(number, t, event))
        except _LineError as exc:
            problems.append(f"{name}:{number}: {exc}")
        if len(problems) >= MAX_ERRORS:
            problems.append(f"{name}: too many problems; stopped reading")
            break
    if not problems and not lines:
        problems.append(f"{name}:1: the session is empty (it needs a setup line first)")
    if problems:
        raise SessionFormatError(problems)
    return Session(name, tuple(lines))


def _load_line(text: str) -> object:
    """One line's JSON, within the caps (length, nesting, digits of a number)."""
    if len(text) > MAX_LINE_CHARS:
        raise _LineError(f"line too long ({len(text):,} characters; at most {MAX_LINE_CHARS:,})")
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise _LineError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _LineError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except ValueError:  # int() of more digits than Python converts
        raise _LineError("not valid JSON here: a number with too many digits") from None
    except RecursionError:
        raise _LineError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)") from None


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects, outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def event_from_dict(obj: object) -> tuple[float | None, InputEvent]:
    """One session-line object -> (t, event); raises SessionFormatError naming the problem.

    For objects that were written by `event_to_dict` (the journal, the emulators)."""
    parser = _Parser()
    parser.have_setup = True
    try:
        return parser.parse(obj)
    except _LineError as exc:
        raise SessionFormatError([str(exc)]) from None


# --- parsing one line -------------------------------------------------------------------------


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_keys(obj: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    allowed_set = set(allowed) | {"type", "t", "note"}
    for key in obj:
        if key not in allowed_set and not key.startswith("_"):
            raise _LineError(f"unknown key {key!r} in a {what} line")


def _seat(obj: Mapping[str, Any], key: str = "seat", *, required: bool = True) -> int | None:
    if key not in obj or obj[key] is None:
        if required:
            raise _LineError(f"missing {key!r}")
        return None
    v = obj[key]
    if not _is_int(v) or not 1 <= v <= MAX_SEAT:
        raise _LineError(f"{key!r} must be a seat number 1-{MAX_SEAT}, not {v!r}")
    return int(v)


def _amount(v: object, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise _LineError(f"{what} must be a whole number of chips >= 0, not {_short(v)}")
    if v > MAX_AMOUNT:
        raise _LineError(f"{what} must be at most {MAX_AMOUNT} chips")
    return v


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


class _Parser:
    """Parses line objects; remembers whether a setup line has been seen."""

    def __init__(self) -> None:
        self.have_setup = False

    def parse(self, obj: object) -> tuple[float | None, InputEvent]:
        if not isinstance(obj, dict):
            raise _LineError("each line must be a JSON object")
        kind = obj.get("type")
        if not isinstance(kind, str):
            raise _LineError("missing 'type'")
        t = obj.get("t")
        if t is not None and (
            isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0
        ):
            raise _LineError(f"'t' must be seconds >= 0, not {t!r}")
        if kind == "setup":
            event: InputEvent = self._setup(obj)
            self.have_setup = True
        elif not self.have_setup:
            if kind in ("seat", "puck", "key", "draw", "zone"):
                raise _LineError(f"a setup line must come before the first {kind!r} line")
            raise _LineError(_unknown_type(kind))
        elif kind == "seat":
            _check_keys(obj, ("seat", "occupied"), "seat")
            occupied = obj.get("occupied")
            if not isinstance(occupied, bool):
                raise _LineError("'occupied' must be true or false")
            event = SeatSensor(_seat(obj) or 0, occupied)
        elif kind == "puck":
            _check_keys(obj, ("seat",), "puck")
            event = Puck(_seat(obj) or 0)
        elif kind == "key":
            event = self._key(obj)
        elif kind == "draw":
            event = self._draw(obj)
        elif kind == "zone":
            event = self._zone(obj)
        else:
            raise _LineError(_unknown_type(kind))
        return (float(t) if t is not None else None), event

    def _setup(self, obj: Mapping[str, Any]) -> Setup:
        _check_keys(
            obj, ("game", "profile", "stakes", "seats", "button", "deck", "rules", "rake"), "setup"
        )
        game = obj.get("game")
        if not isinstance(game, str) or game not in GAMES:
            known = ", ".join(GAMES)
            raise _LineError(f"unknown game {game!r} (known: {known})")
        spec = GAMES[game]
        prof_name = obj.get("profile", "RR11")
        if not isinstance(prof_name, str) or prof_name not in PROFILES:
            raise _LineError(f"unknown profile {prof_name!r} (known: {', '.join(PROFILES)})")
        stakes_obj = obj.get("stakes", {})
        if not isinstance(stakes_obj, dict):
            raise _LineError("'stakes' must be an object")
        for key in stakes_obj:
            if key not in STAKE_KEYS:
                raise _LineError(f"unknown stake {key!r} (known: {', '.join(STAKE_KEYS)})")
        stakes_vals = {
            k: _amount(v, f"stake {k!r}") for k, v in stakes_obj.items() if v is not None
        }
        stakes = _complete_stakes(Stakes(**stakes_vals), spec.structure, spec.family, game)
        seats_obj = obj.get("seats")
        if not isinstance(seats_obj, dict) or not seats_obj:
            raise _LineError("'seats' must be an object of seat number -> stack, e.g. {\"1\": 200}")
        seats: dict[int, int | None] = {}
        for key, stack in seats_obj.items():
            if not key.isdigit() or not 1 <= int(key) <= MAX_SEAT:
                raise _LineError(f"seat {key!r} is not a seat number 1-{MAX_SEAT}")
            seats[int(key)] = None if stack is None else _amount(stack, f"stack of seat {key}")
        if len(seats) < 2:
            raise _LineError("a hand needs at least two seats")
        if len(seats) > spec.max_players:
            raise _LineError(f"{spec.title} is played by at most {spec.max_players} players")
        # A dead button may sit in front of an empty seat, so any real seat number is accepted.
        button = _seat(obj, "button", required=False)
        deck = obj.get("deck")
        if deck is not None and not isinstance(deck, str):
            raise _LineError("'deck' must name a back colour")
        rules = obj.get("rules", {})
        if not isinstance(rules, dict):
            raise _LineError("'rules' must be an object of rule switches")
        try:
            PROFILES[prof_name].with_overrides(rules)
        except ValueError as exc:
            raise _LineError(str(exc)) from None
        rake = None
        if obj.get("rake") is not None:
            try:
                rake = schedule_from_dict(obj["rake"])
            except RakeScheduleError as exc:
                raise _LineError(str(exc)) from None
        return Setup(
            game=game,
            profile=prof_name,
            stakes=stakes,
            seats=seats,
            button=button,
            deck=deck,
            rules=rules,
            rake=rake,
        )

    def _key(self, obj: Mapping[str, Any]) -> KeyPress:
        _check_keys(
            obj, ("key", "seat", "count", "action", "amount", "card", "to_seat", "cards"), "key"
        )
        name = obj.get("key")
        try:
            key = Key(str(name))
        except ValueError:
            raise _LineError(f"unknown key {name!r}") from None
        seat = _seat(obj, required=False)
        count = obj.get("count")
        if count is not None and (not _is_int(count) or not 0 <= count <= 7):
            raise _LineError(f"'count' must be 0-7, not {count!r}")
        action_raw = obj.get("action")
        action: VerbalAction | None = None
        if action_raw is not None:
            try:
                action = VerbalAction(action_raw)
            except ValueError:
                allowed = ", ".join(a.value for a in VerbalAction)
                raise _LineError(f"unknown action {action_raw!r} (known: {allowed})") from None
        amount = obj.get("amount")
        amount_v = None if amount is None else _amount(amount, "'amount'")
        card = None
        if obj.get("card") is not None:
            card = _card(obj["card"])
        if key is Key.VERBAL and action is None:
            raise _LineError("a VERBAL key needs an 'action'")
        if key in (Key.DRAW, Key.DISCARD) and count is None:
            raise _LineError(f"a {key.value} key needs a 'count' (cards exchanged)")
        if key is Key.RUN_IT and (count is None or not 1 <= count <= 3):
            raise _LineError("a RUN_IT key needs a 'count' of 1-3")
        if key is Key.FORFEIT and seat is None:
            raise _LineError("a FORFEIT key needs the 'seat' whose refund is forfeited")
        to_seat = _seat(obj, "to_seat", required=key is Key.SEAT_CHANGE)
        cards_raw = obj.get("cards")
        cards: tuple[Card, ...] = ()
        if cards_raw is not None:
            if not isinstance(cards_raw, list):
                raise _LineError('\'cards\' must be a list of cards such as ["Qd", "Jc"]')
            cards = tuple(_card(c) for c in cards_raw)
            if key is not Key.DRAW:
                raise _LineError("only a DRAW key may carry 'cards' (the cards discarded)")
            if count != len(cards):
                raise _LineError(f"'cards' lists {len(cards)} cards but 'count' is {count}")
        return KeyPress(key, seat, count, action, amount_v, card, to_seat, cards)

    def _draw(self, obj: Mapping[str, Any]) -> Draw:
        _check_keys(obj, ("card", "tag", "face_up", "back"), "draw")
        card_raw, tag = obj.get("card"), obj.get("tag")
        if (card_raw is None) == (tag is None):
            raise _LineError("a draw needs exactly one of 'card' or 'tag'")
        if tag is not None and (not isinstance(tag, str) or not tag.strip()):
            raise _LineError(f"'tag' must be the RFID tag id as text, not {tag!r}")
        face_up = obj.get("face_up", False)
        if not isinstance(face_up, bool):
            raise _LineError("'face_up' must be true or false")
        back = obj.get("back")
        if back is not None and not isinstance(back, str):
            raise _LineError("'back' must name a back colour")
        card = _card(card_raw) if card_raw is not None else None
        return Draw(card=card, face_up=face_up, tag=tag, back=back)

    def _zone(self, obj: Mapping[str, Any]) -> Zone | RakeZone:
        _check_keys(obj, ("seat", "amount", "chips", "zone"), "zone")
        if "amount" not in obj:
            raise _LineError("missing 'amount'")
        amount = _amount(obj["amount"], "'amount'")
        chips_raw = obj.get("chips")
        chips: tuple[int, ...] | None = None
        if chips_raw is not None:
            if not isinstance(chips_raw, list) or not all(_is_int(c) and c > 0 for c in chips_raw):
                raise _LineError("'chips' must be a list of chip denominations > 0")
            chips = tuple(chips_raw)
            if sum(chips) != amount:
                raise _LineError(f"'chips' add up to {sum(chips)}, not the amount {amount}")
        if "zone" in obj:
            if obj["zone"] != RAKE_ZONE:
                raise _LineError(f"'zone' names a zone that is not a seat's: only {RAKE_ZONE!r}")
            if "seat" in obj:
                raise _LineError("a rake-zone line has no 'seat'")
            return RakeZone(amount, chips)
        return Zone(_seat(obj) or 0, amount, chips)


def _card(raw: object) -> Card:
    if not isinstance(raw, str):
        raise _LineError(f"'card' must be text such as 'Ah', not {raw!r}")
    try:
        return Card.parse(raw)
    except CardError as exc:
        raise _LineError(str(exc)) from None


def _unknown_type(kind: str) -> str:
    return f"unknown line type {kind!r} (known: setup, seat, puck, key, draw, zone)"


def _complete_stakes(stakes: Stakes, structure: Structure, family: Family, game: str) -> Stakes:
    """Check that the game has the stakes it needs; fill the usual defaults."""
    if family is Family.STUD:
        if stakes.small_bet is None or stakes.big_bet is None:
            raise _LineError(f"{game} needs stakes 'small_bet' and 'big_bet'")
        if stakes.bring_in is None:
            raise _LineError(f"{game} needs the stake 'bring_in'")
        return stakes
    if stakes.bb is None and stakes.ante is None:
        raise _LineError(f"{game} needs the stake 'bb' (or 'ante' for an ante-only game)")
    if structure is Structure.FIXED_LIMIT:
        small = stakes.small_bet if stakes.small_bet is not None else stakes.bb
        if small is None:
            raise _LineError(f"{game} needs the stake 'small_bet'")
        big = stakes.big_bet if stakes.big_bet is not None else 2 * small
        return Stakes(
            stakes.sb, stakes.bb, stakes.ante, stakes.bring_in, small, big, stakes.straddle
        )
    return stakes


# --- writing ------------------------------------------------------------------------------------


def event_to_dict(event: InputEvent, t: float | None = None) -> dict[str, Any]:
    """The session-line object for one event (the exact public format)."""
    out: dict[str, Any]
    match event:
        case Setup():
            stakes = {k: getattr(event.stakes, k) for k in STAKE_KEYS}
            out = {
                "type": "setup",
                "game": event.game,
                "profile": event.profile,
                "stakes": {k: v for k, v in stakes.items() if v is not None},
                "seats": {str(s): st for s, st in sorted(event.seats.items())},
            }
            if event.button is not None:
                out["button"] = event.button
            if event.deck is not None:
                out["deck"] = event.deck
            if event.rules:
                out["rules"] = dict(event.rules)
            if event.rake is not None:
                out["rake"] = schedule_to_dict(event.rake)
        case SeatSensor():
            out = {"type": "seat", "seat": event.seat, "occupied": event.occupied}
        case Puck():
            out = {"type": "puck", "seat": event.seat}
        case KeyPress():
            out = {"type": "key", "key": event.key.value}
            if event.seat is not None:
                out["seat"] = event.seat
            if event.count is not None:
                out["count"] = event.count
            if event.action is not None:
                out["action"] = event.action.value
            if event.amount is not None:
                out["amount"] = event.amount
            if event.card is not None:
                out["card"] = event.card.code
            if event.to_seat is not None:
                out["to_seat"] = event.to_seat
            if event.cards:
                out["cards"] = [c.code for c in event.cards]
        case Draw():
            out = {"type": "draw"}
            if event.card is not None:
                out["card"] = event.card.code
            else:
                out["tag"] = event.tag
            out["face_up"] = event.face_up
            if event.back is not None:
                out["back"] = event.back
        case Zone():
            out = {"type": "zone", "seat": event.seat, "amount": event.amount}
            if event.chips is not None:
                out["chips"] = list(event.chips)
        case RakeZone():
            out = {"type": "zone", "zone": RAKE_ZONE, "amount": event.amount}
            if event.chips is not None:
                out["chips"] = list(event.chips)
    if t is not None:
        out = {"type": out.pop("type"), "t": round(t, 3), **out}
    return out


def format_session(lines: Iterable[SessionLine | InputEvent]) -> str:
    out = []
    for item in lines:
        if isinstance(item, SessionLine):
            out.append(json.dumps(event_to_dict(item.event, item.t), separators=(",", ":")))
        else:
            out.append(json.dumps(event_to_dict(item), separators=(",", ":")))
    return "\n".join(out) + "\n"


def write_session(path: str | Path, lines: Iterable[SessionLine | InputEvent]) -> None:
    Path(path).write_text(format_session(lines), encoding="utf-8")
