"""Input events as dictionaries, both ways: the one decoder (strict or lenient) and the encoder.
Pure.

A session line (docs/session-format.md) and a journal's input payload are the same dictionary, the
one `event_to_dict` writes, and `decode_event` reads both: one function per line type, each field
read in one place, in one of two modes.

- strict (`formats.session`: session files, the config's setup, the demo planner): every rule of
  the public format. No unknown keys; seats 1-10; amounts 0..MAX_AMOUNT; the game's stakes present
  (limit sizes filled in); a key's fields consistent with the key; a setup line first. A problem
  raises `EventFormatError` with the message `FILE:LINE: ` is put in front of.
- lenient (`formats.payload`: the journal read back by recovery, replay and the history check,
  and the recorder, which feeds the engine the payload it journals): each field of the JSON type
  the event holds, nothing more. Whatever `event_to_dict` writes from any event, even one a
  session file could not say (seat 11, a stud setup without its bring-in), decodes back to that
  same event, so what a live table journaled always replays; `{"type": "end"}` (the end of input)
  decodes to None. A malformed payload still raises (`EventFormatError`, a ValueError).

Adding an event type or a field: its decoder here (the dispatch table `_DECODERS`), its branch of
`event_to_dict`, and its keys in the `_..._KEYS` set the strict mode allows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Final

from station.engine.cards import Card, CardError
from station.engine.events import (
    ClockSet,
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    Rotation,
    RotationGame,
    SeatSensor,
    Setup,
    Stakes,
    VerbalAction,
    Zone,
)
from station.engine.games import GAMES, NOT_YET_RUN, Family, Structure
from station.engine.levels import (
    ScheduleError,
    levels_from_list,
    levels_to_list,
    playing_index,
)
from station.engine.levels import (
    schedule_from_dict as tournament_from_dict,
)
from station.engine.levels import (
    schedule_to_dict as tournament_to_dict,
)
from station.engine.profiles import PROFILES
from station.engine.rake import RakeScheduleError, schedule_from_dict
from station.engine.resume_setup import STAKE_KEYS, setup_to_dict
from station.engine.tournament import level_stakes

MAX_SEAT = 10
RAKE_ZONE = "rake"  # a `zone` line's `zone`: the rake (drop) zone instead of a seat's
MAX_AMOUNT = 10**12  # a strict amount's cap (hostile input: a replayed file may come from anywhere)
END_TYPE: Final = "end"  # the journal's end-of-input marker (lenient only)

_KEYS: Final = {k.value: k for k in Key}
_ACTIONS: Final = {a.value: a for a in VerbalAction}


class EventFormatError(ValueError):
    """A dictionary that is not an input event (strict: not a valid session line)."""


def decode_event(
    obj: object, *, strict: bool, after_setup: bool = True
) -> tuple[float | None, InputEvent | None]:
    """One event dictionary -> (t, event). `strict`: the session format's every rule (and
    `after_setup` False refuses any line but a setup); lenient: only the shape, and the end
    marker gives the event None. Raises EventFormatError naming the first problem."""
    if not isinstance(obj, dict):
        raise EventFormatError("each line must be a JSON object")
    kind = obj.get("type")
    if type(kind) is not str:
        raise EventFormatError("missing 'type'")
    t = obj.get("t")
    if t is not None and (
        (type(t) is not float and type(t) is not int)
        or (strict and not (math.isfinite(t) and t >= 0))
    ):
        raise EventFormatError(f"'t' must be seconds >= 0, not {t!r}")
    decoder = _DECODERS.get(kind)
    if decoder is None:
        if kind == END_TYPE and not strict:
            return (None if t is None else float(t)), None
        raise EventFormatError(_unknown_type(kind))
    if not after_setup and kind != "setup":
        raise EventFormatError(f"a setup line must come before the first {kind!r} line")
    return (None if t is None else float(t)), decoder(obj, strict)


# --- the line types ---------------------------------------------------------------------------

_COMMON_KEYS = ("type", "t", "note")
_SETUP_KEYS = frozenset(
    (
        *_COMMON_KEYS,
        *("game", "profile", "stakes", "seats", "button", "deck", "rules", "rake"),
        *("structure", "kill", "rotation", "tournament"),
    )
)
_ROTATION_KEYS = frozenset(("games", "hands"))
_ROTATION_GAME_KEYS = frozenset(("game", "stakes", "structure"))
KILL_KINDS = ("full", "half")
FL = Structure.FIXED_LIMIT
_CLOCK_KEYS = frozenset((*_COMMON_KEYS, "level", "remaining_s", "paused", "levels", "event"))
_SEAT_KEYS = frozenset((*_COMMON_KEYS, "seat", "occupied"))
_PUCK_KEYS = frozenset((*_COMMON_KEYS, "seat"))
_KEY_KEYS = frozenset(
    (*_COMMON_KEYS, "key", "seat", "count", "action", "amount", "card", "to_seat", "cards")
)
_DRAW_KEYS = frozenset((*_COMMON_KEYS, "card", "tag", "face_up", "back"))
_ZONE_KEYS = frozenset((*_COMMON_KEYS, "seat", "amount", "chips", "zone"))


def _setup(obj: dict[str, Any], strict: bool) -> Setup:
    if strict:
        _check_keys(obj, _SETUP_KEYS, "setup")
    game = obj.get("game")
    if strict and type(game) is str and game in NOT_YET_RUN:
        planned = NOT_YET_RUN[game]
        raise EventFormatError(f"game {game!r} ({planned.title}) is not run yet: {planned.reason}")
    if type(game) is not str or (strict and game not in GAMES):
        raise EventFormatError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    profile = obj.get("profile", "RR11")
    if type(profile) is not str or (strict and profile not in PROFILES):
        raise EventFormatError(f"unknown profile {profile!r} (known: {', '.join(PROFILES)})")
    structure = _structure(obj.get("structure"), game, strict)
    tournament = None
    if obj.get("tournament") is not None:
        if strict and game not in GAMES:
            raise EventFormatError(f"unknown game {game!r}")
        try:
            tournament = tournament_from_dict(obj["tournament"], game)
        except ScheduleError as exc:
            raise EventFormatError(str(exc)) from None
        if strict and "stakes" in obj:
            raise EventFormatError(
                "a tournament setup takes its stakes from its levels: remove 'stakes'"
            )
        if strict and obj.get("rotation") is not None:
            raise EventFormatError(
                "a tournament setup takes its games from its levels: remove 'rotation'"
            )
    if tournament is not None:
        _stakes(obj.get("stakes", {}), game, structure, False)  # its shape only
        start = tournament.levels[playing_index(tournament.levels, tournament.level - 1)]
        stakes = level_stakes(start)
    else:
        stakes = _stakes(obj.get("stakes", {}), game, structure, strict)
    spec = GAMES[game] if strict else None
    if spec is not None and structure is not None:
        spec = spec.with_structure(Structure(structure))
    seats_obj = obj.get("seats")
    if type(seats_obj) is not dict or (strict and not seats_obj):
        raise EventFormatError(
            "'seats' must be an object of seat number -> stack, e.g. {\"1\": 200}"
        )
    seats: dict[int, int | None] = {}
    for key, stack in seats_obj.items():
        # ASCII digits only: int() reads an Arabic-Indic one (U+0661) as 1, "²" not at all.
        if strict and (not (key.isascii() and key.isdecimal()) or not 1 <= int(key) <= MAX_SEAT):
            raise EventFormatError(f"seat {key!r} is not a seat number 1-{MAX_SEAT}")
        seats[int(key)] = None if stack is None else _amount(stack, f"stack of seat {key}", strict)
    if spec is not None:
        if len(seats) < 2:
            raise EventFormatError("a hand needs at least two seats")
        if len(seats) > spec.max_players:
            raise EventFormatError(f"{spec.title} is played by at most {spec.max_players} players")
    # A dead button may sit in front of an empty seat, so any real seat number is accepted.
    button = _opt_seat(obj, "button", strict)
    deck = obj.get("deck")
    if deck is not None and type(deck) is not str:
        raise EventFormatError("'deck' must name a back colour")
    rules = obj.get("rules", {})
    if type(rules) is not dict:
        raise EventFormatError("'rules' must be an object of rule switches")
    if strict:
        try:
            PROFILES[profile].with_overrides(rules)
        except ValueError as exc:
            raise EventFormatError(str(exc)) from None
    rake = None
    if obj.get("rake") is not None:
        try:
            rake = schedule_from_dict(obj["rake"])
        except RakeScheduleError as exc:
            raise EventFormatError(str(exc)) from None
    kill = obj.get("kill")
    if kill is not None and (type(kill) is not str or (strict and kill not in KILL_KINDS)):
        raise EventFormatError(f"'kill' must be one of {', '.join(KILL_KINDS)}, not {kill!r}")
    if strict and kill is not None and spec is not None and spec.structure is not FL:
        raise EventFormatError(f"a kill raises the limits: {spec.title} is not played limit")
    rotation = _rotation(obj.get("rotation"), game, structure, stakes, strict)
    return Setup(
        game=game,
        profile=profile,
        stakes=stakes,
        seats=seats,
        button=button,
        deck=deck,
        rules=dict(rules),
        rake=rake,
        tournament=tournament,
        structure=structure,
        kill=kill,
        rotation=rotation,
    )


def _structure(value: object, game: str, strict: bool) -> str | None:
    """`structure` (extension): another of the game's betting structures."""
    if value is None:
        return None
    if type(value) is not str:
        raise EventFormatError("'structure' must be no_limit, pot_limit or fixed_limit")
    if strict:
        try:
            GAMES[game].with_structure(Structure(value))
        except ValueError as exc:
            raise EventFormatError(f"structure {value!r}: {exc}") from None
    return value


def _stakes(stakes_obj: object, game: str, structure: str | None, strict: bool) -> Stakes:
    if type(stakes_obj) is not dict:
        raise EventFormatError("'stakes' must be an object")
    for key in stakes_obj:
        if key not in STAKE_KEYS:
            raise EventFormatError(f"unknown stake {key!r} (known: {', '.join(STAKE_KEYS)})")
    stakes = Stakes(
        **{k: _amount(v, f"stake {k!r}", strict) for k, v in stakes_obj.items() if v is not None}
    )
    if strict:
        spec = GAMES[game]
        if structure is not None:
            spec = spec.with_structure(Structure(structure))
        stakes = _complete_stakes(stakes, spec.structure, spec.family, game)
    return stakes


def _rotation(
    value: object, game: str, structure: str | None, stakes: Stakes, strict: bool
) -> Rotation | None:
    """`rotation` (extension): a mixed game. `{"games": [{"game": "flhe", "stakes": {...}},
    ...], "hands": 8}`; the setup's own game is the first, and an entry without stakes uses
    the setup's; `hands` 0 or absent: each game for one orbit."""
    if value is None:
        return None
    if type(value) is not dict:
        raise EventFormatError("'rotation' must be an object with 'games' (and 'hands')")
    if strict:
        _check_keys(value, _ROTATION_KEYS, "rotation")
    games_obj = value.get("games")
    if type(games_obj) is not list or (strict and len(games_obj) < 2):
        raise EventFormatError("a rotation's 'games' is a list of at least two games")
    games: list[RotationGame] = []
    for item in games_obj:
        entry = {"game": item} if type(item) is str else item
        if type(entry) is not dict:
            raise EventFormatError("each rotation game is an object with 'game' and 'stakes'")
        if strict:
            _check_keys(entry, _ROTATION_GAME_KEYS, "rotation game")
        name = entry.get("game")
        if type(name) is not str or (strict and name not in GAMES):
            raise EventFormatError(f"unknown game {name!r} in the rotation")
        shape = _structure(entry.get("structure"), name, strict)
        own = entry.get("stakes")
        rstakes = stakes if own is None else _stakes(own, name, shape, strict)
        if own is None and strict:
            rstakes = _stakes(
                {k: v for k in STAKE_KEYS if (v := getattr(stakes, k)) is not None},
                name,
                shape,
                strict,
            )
        games.append(RotationGame(name, rstakes, shape))
    if strict and (games[0].game != game or games[0].structure != structure):
        raise EventFormatError("a rotation starts with the setup's own game")
    hands = value.get("hands", 0)
    if type(hands) is not int or hands < 0 or (strict and hands > 1000):
        raise EventFormatError("a rotation's 'hands' is a whole number of hands (0: an orbit)")
    return Rotation(tuple(games), hands)


def _clock(obj: dict[str, Any], strict: bool) -> ClockSet:
    """A `clock` line: the tournament clock as the event's clock stands now."""
    if strict:
        _check_keys(obj, _CLOCK_KEYS, "clock")
    level = obj.get("level")
    if type(level) is not int or level < 1:
        raise EventFormatError(f"'level' must be a level number >= 1, not {level!r}")
    left_raw = obj.get("remaining_s")
    if type(left_raw) not in (int, float):
        raise EventFormatError(f"'remaining_s' must be seconds >= 0, not {left_raw!r}")
    left = float(left_raw)  # type: ignore[arg-type]
    if not math.isfinite(left) or left < 0:
        raise EventFormatError(f"'remaining_s' must be seconds >= 0, not {left_raw!r}")
    paused = obj.get("paused", False)
    if type(paused) is not bool:
        raise EventFormatError("'paused' must be true or false")
    event = obj.get("event")
    if event is not None and type(event) is not str:
        raise EventFormatError("'event' must name the event")
    levels = None
    if obj.get("levels") is not None:
        try:
            # A level without a game of its own is checked against the table's game when the
            # clock is applied; here only its shape (any game's completion rules are the same
            # for the forced bets of a blind game).
            levels = levels_from_list(obj["levels"], "")
        except ScheduleError as exc:
            raise EventFormatError(str(exc)) from None
        if level > len(levels):
            raise EventFormatError(f"'level' {level} is past the last of the {len(levels)} levels")
    return ClockSet(level, left, paused, levels, event)


def _seat_sensor(obj: dict[str, Any], strict: bool) -> SeatSensor:
    if strict:
        _check_keys(obj, _SEAT_KEYS, "seat")
    occupied = obj.get("occupied")
    if type(occupied) is not bool:
        raise EventFormatError("'occupied' must be true or false")
    return SeatSensor(_seat(obj, "seat", strict), occupied)


def _puck(obj: dict[str, Any], strict: bool) -> Puck:
    if strict:
        _check_keys(obj, _PUCK_KEYS, "puck")
    return Puck(_seat(obj, "seat", strict))


def _key(obj: dict[str, Any], strict: bool) -> KeyPress:
    if strict:
        _check_keys(obj, _KEY_KEYS, "key")
    name = obj.get("key")
    key = _KEYS.get(name) if type(name) is str else None
    if key is None:
        raise EventFormatError(f"unknown key {name!r}")
    seat = _opt_seat(obj, "seat", strict)
    count = obj.get("count")
    if count is not None and (type(count) is not int or (strict and not 0 <= count <= 7)):
        raise EventFormatError(f"'count' must be 0-7, not {count!r}")
    action_raw = obj.get("action")
    action = None
    if action_raw is not None:
        action = _ACTIONS.get(action_raw) if type(action_raw) is str else None
        if action is None:
            allowed = ", ".join(_ACTIONS)
            raise EventFormatError(f"unknown action {action_raw!r} (known: {allowed})")
    amount = obj.get("amount")
    if amount is not None:
        amount = _amount(amount, "'amount'", strict)
    card = obj.get("card")
    if card is not None:
        card = _card(card)
    if strict:
        if key is Key.VERBAL and action is None:
            raise EventFormatError("a VERBAL key needs an 'action'")
        if key in (Key.DRAW, Key.DISCARD) and count is None:
            raise EventFormatError(f"a {key.value} key needs a 'count' (cards exchanged)")
        if key is Key.RUN_IT and (count is None or not 1 <= count <= 3):
            raise EventFormatError("a RUN_IT key needs a 'count' of 1-3")
        if key is Key.FORFEIT and seat is None:
            raise EventFormatError("a FORFEIT key needs the 'seat' whose refund is forfeited")
    if strict and key is Key.SEAT_CHANGE:
        to_seat: int | None = _seat(obj, "to_seat", strict)
    else:
        to_seat = _opt_seat(obj, "to_seat", strict)
    cards_raw = obj.get("cards")
    cards: tuple[Card, ...] = ()
    if cards_raw is not None:
        if type(cards_raw) is not list:
            raise EventFormatError('\'cards\' must be a list of cards such as ["Qd", "Jc"]')
        cards = tuple([_card(c) for c in cards_raw])
        if strict:
            if key not in (Key.DRAW, Key.DISCARD):
                raise EventFormatError(
                    "only a DRAW or DISCARD key may carry 'cards' (the cards discarded)"
                )
            if count != len(cards):
                raise EventFormatError(f"'cards' lists {len(cards)} cards but 'count' is {count}")
    return KeyPress(key, seat, count, action, amount, card, to_seat, cards)


def _draw(obj: dict[str, Any], strict: bool) -> Draw:
    if strict:
        _check_keys(obj, _DRAW_KEYS, "draw")
    card, tag = obj.get("card"), obj.get("tag")
    # Leniently a draw may hold neither: `event_to_dict` writes such a Draw as "tag": null.
    if strict and (card is None) == (tag is None):
        raise EventFormatError("a draw needs exactly one of 'card' or 'tag'")
    if tag is not None and (type(tag) is not str or (strict and not tag.strip())):
        raise EventFormatError(f"'tag' must be the RFID tag id as text, not {tag!r}")
    face_up = obj.get("face_up", False)
    if type(face_up) is not bool:
        raise EventFormatError("'face_up' must be true or false")
    back = obj.get("back")
    if back is not None and type(back) is not str:
        raise EventFormatError("'back' must name a back colour")
    return Draw(None if card is None else _card(card), face_up, tag, back)


def _zone(obj: dict[str, Any], strict: bool) -> Zone | RakeZone:
    if strict:
        _check_keys(obj, _ZONE_KEYS, "zone")
    if "amount" not in obj:
        raise EventFormatError("missing 'amount'")
    amount = _amount(obj["amount"], "'amount'", strict)
    chips_raw = obj.get("chips")
    chips: tuple[int, ...] | None = None
    if chips_raw is not None:
        if type(chips_raw) is not list or not all(
            type(c) is int and (c > 0 or not strict) for c in chips_raw
        ):
            raise EventFormatError("'chips' must be a list of chip denominations > 0")
        chips = tuple(chips_raw)
        if strict and sum(chips) != amount:
            raise EventFormatError(f"'chips' add up to {sum(chips)}, not the amount {amount}")
    zone = obj.get("zone")
    if strict and "zone" in obj:
        if zone != RAKE_ZONE:
            raise EventFormatError(f"'zone' names a zone that is not a seat's: only {RAKE_ZONE!r}")
        if "seat" in obj:
            raise EventFormatError("a rake-zone line has no 'seat'")
    if zone == RAKE_ZONE:
        return RakeZone(amount, chips)
    return Zone(_seat(obj, "seat", strict), amount, chips)


_DECODERS: Final[dict[str, Callable[[dict[str, Any], bool], InputEvent]]] = {
    "setup": _setup,
    "seat": _seat_sensor,
    "puck": _puck,
    "key": _key,
    "draw": _draw,
    "zone": _zone,
    "clock": _clock,
}


# --- the fields ---------------------------------------------------------------------------------


def _check_keys(obj: Mapping[str, Any], allowed: frozenset[str], what: str) -> None:
    for key in obj:
        if key not in allowed and not key.startswith("_"):
            raise EventFormatError(f"unknown key {key!r} in a {what} line")


def _seat(obj: Mapping[str, Any], key: str, strict: bool) -> int:
    v = obj.get(key)
    if v is None:
        raise EventFormatError(f"missing {key!r}")
    if type(v) is not int or (strict and not 1 <= v <= MAX_SEAT):
        raise EventFormatError(f"{key!r} must be a seat number 1-{MAX_SEAT}, not {v!r}")
    return v


def _opt_seat(obj: Mapping[str, Any], key: str, strict: bool) -> int | None:
    v = obj.get(key)
    if v is not None and (type(v) is not int or (strict and not 1 <= v <= MAX_SEAT)):
        raise EventFormatError(f"{key!r} must be a seat number 1-{MAX_SEAT}, not {v!r}")
    return v


def _amount(v: object, what: str, strict: bool) -> int:
    if type(v) is not int or (strict and v < 0):
        raise EventFormatError(f"{what} must be a whole number of chips >= 0, not {_short(v)}")
    if strict and v > MAX_AMOUNT:
        raise EventFormatError(f"{what} must be at most {MAX_AMOUNT} chips")
    return v


def _card(raw: object) -> Card:
    if type(raw) is not str:
        raise EventFormatError(f"'card' must be text such as 'Ah', not {raw!r}")
    try:
        return Card.parse(raw)
    except CardError as exc:
        raise EventFormatError(str(exc)) from None


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _unknown_type(kind: str) -> str:
    return f"unknown line type {kind!r} (known: setup, seat, puck, key, draw, zone, clock)"


def _complete_stakes(stakes: Stakes, structure: Structure, family: Family, game: str) -> Stakes:
    """Check that the game has the stakes it needs; fill the usual defaults."""
    if family is Family.STUD:
        if stakes.small_bet is None or stakes.big_bet is None:
            raise EventFormatError(f"{game} needs stakes 'small_bet' and 'big_bet'")
        if stakes.bring_in is None:
            raise EventFormatError(f"{game} needs the stake 'bring_in'")
        return stakes
    if stakes.bb is None and stakes.ante is None:
        raise EventFormatError(f"{game} needs the stake 'bb' (or 'ante' for an ante-only game)")
    if structure is Structure.FIXED_LIMIT:
        small = stakes.small_bet if stakes.small_bet is not None else stakes.bb
        if small is None:
            raise EventFormatError(f"{game} needs the stake 'small_bet'")
        big = stakes.big_bet if stakes.big_bet is not None else 2 * small
        return Stakes(
            stakes.sb, stakes.bb, stakes.ante, stakes.bring_in, small, big, stakes.straddle
        )
    return stakes


# --- writing ------------------------------------------------------------------------------------


def _stakes_dict(stakes: Stakes) -> dict[str, int]:
    return {k: v for k in STAKE_KEYS if (v := getattr(stakes, k)) is not None}


def event_to_dict(event: InputEvent, t: float | None = None) -> dict[str, Any]:
    """The session-line object for one event (the exact public format); `decode_event` reads it."""
    out: dict[str, Any]
    match event:
        case Setup():
            out = {"type": "setup", **setup_to_dict(event, tournament_to_dict)}
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
        case ClockSet():
            out = {
                "type": "clock",
                "level": event.level,
                "remaining_s": _num(event.remaining_s),
                "paused": event.paused,
            }
            if event.levels is not None:
                out["levels"] = levels_to_list(event.levels)
            if event.event is not None:
                out["event"] = event.event
    if t is not None:
        out = {"type": out.pop("type"), "t": round(t, 3), **out}
    return out


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else round(v, 3)
