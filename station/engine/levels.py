"""A tournament's structure and its clock: the levels, breaks and colour-ups, and where the clock
stands at an event time. Pure.

The structure is a session `setup`'s `"tournament"` (and the config's `[tournament]`):

    {"event": "E1", "levels": [
        {"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
        {"sb": 50, "bb": 100, "ante": 100, "ante_type": "bb", "minutes": 20},
        {"break": true, "minutes": 10, "colour_up": 25, "colour_up_to": 100},
        {"sb": 100, "bb": 200, "minutes": 20, "game": "flhe", "small_bet": 200, "big_bet": 400}],
     "start_t": 0, "level": 1, "elapsed_s": 0}

Levels are numbered by their place in the list, from 1, breaks included (the format's `level`);
the screens count only the playing levels ("LEVEL 3", `level_label`). `start_t` is the session
time (`t`) at which the clock stood at `level`, `elapsed_s` into it: a station joining a running
event, or a replay starting mid-event. Before `start_t` the clock waits there.

The clock is a state (`ClockState`: at event time `at`, level `index` with `remaining_s` left,
running or paused) and the structure; `reading` says where it stands at any later event time:
the time left runs down, a level that runs out gives way to the next (a break is a level with its
own minutes, so the blind levels' time stands still through it), and the last level runs on. The
engine never reads a clock: every time here is an event's `t`. A `clock` input (the event's
clock from the centre, `station.engine.events.ClockSet`) sets a new state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from station.engine.games import GAMES, Family, Structure

MAX_LEVELS = 200
MAX_MINUTES = 24 * 60  # one level (or break) lasts at most a day
MAX_CHIPS = 10**12

LEVEL_KEYS: Final = (
    "sb",
    "bb",
    "ante",
    "ante_type",
    "bring_in",
    "small_bet",
    "big_bet",
    "game",
    "minutes",
    "break",
    "colour_up",
    "colour_up_to",
)
BREAK_KEYS: Final = ("break", "minutes", "colour_up", "colour_up_to")
KEYS: Final = (
    "event",
    "levels",
    "start_t",
    "level",
    "elapsed_s",
    "final_table",
    "winner_take_all",
)
_AMOUNTS: Final = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet")


class AnteType(StrEnum):
    """Who pays a level's ante: every player dealt in, or the big blind for the table (the
    big-blind ante)."""

    PLAYER = "player"
    BB = "bb"


@dataclass(frozen=True, slots=True)
class Level:
    """One level of the structure: its forced bets and limits (and its game, in a mixed event),
    or a break (`is_break`), which may colour up: the `colour_up` chips leave play, raced off
    for `colour_up_to` chips (TOURN-CHIP-RACE)."""

    minutes: float
    sb: int | None = None
    bb: int | None = None
    ante: int | None = None
    ante_type: AnteType = AnteType.PLAYER
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    game: str | None = None  # None: the setup's game
    is_break: bool = False
    colour_up: int | None = None
    colour_up_to: int | None = None

    @property
    def duration_s(self) -> float:
        return float(self.minutes) * 60.0


@dataclass(frozen=True, slots=True)
class Schedule:
    """The structure of a session's `"tournament"`: its levels and where the clock stood at
    `start_t`; `final_table` (the event is down to this table) and `winner_take_all` decide
    whether the last two players are treated as the event's last two (TOURN-SHOWING-CARDS,
    BET-CAP-HEADS-UP)."""

    levels: tuple[Level, ...]
    start_t: float = 0.0
    level: int = 1  # 1-based place in `levels`
    elapsed_s: float = 0.0
    event: str | None = None
    final_table: bool = False
    winner_take_all: bool = False


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock as last set: at event time `at` it stood at level `index` (0-based) with
    `remaining_s` left, running or `paused`."""

    at: float
    index: int
    remaining_s: float
    paused: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    """Where the clock stands at one event time: level `index` (0-based), `remaining_s` left of
    it; `waiting` before the structure's `start_t`; `last`: the last level, running on."""

    index: int
    remaining_s: float
    paused: bool = False
    waiting: bool = False
    last: bool = False


class ScheduleError(ValueError):
    """A structure that cannot be used; `key` names the offending key (`levels[2].bb`)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"tournament.{key}: {message}")
        self.key = key
        self.message = message


# --- the clock ----------------------------------------------------------------------------------


def initial_state(schedule: Schedule) -> ClockState:
    """The clock at the structure's `start_t`: `level`, `elapsed_s` into it; running."""
    index = schedule.level - 1
    left = schedule.levels[index].duration_s - schedule.elapsed_s
    return ClockState(schedule.start_t, index, max(0.0, left))


def reading(levels: Sequence[Level], state: ClockState, t: float | None) -> Reading:
    """Where the clock stands at event time `t` (None: no time known, it stands as set)."""
    last_index = len(levels) - 1
    if t is None or t <= state.at or state.paused:
        return Reading(
            state.index,
            state.remaining_s,
            state.paused,
            waiting=t is not None and t < state.at and not state.paused,
            last=state.index == last_index,
        )
    elapsed = t - state.at
    index, left = state.index, state.remaining_s
    while elapsed >= left and index < last_index:
        elapsed -= left
        index += 1
        left = levels[index].duration_s
    if index == last_index:
        return Reading(index, max(0.0, left - elapsed), last=True)
    return Reading(index, left - elapsed)


def ends_at(levels: Sequence[Level], state: ClockState, index: int) -> float | None:
    """The event time at which level `index` ends (None: paused, the last level, or already
    over)."""
    if state.paused or index < state.index or index >= len(levels) - 1:
        return None
    at = state.at + state.remaining_s
    for i in range(state.index + 1, index + 1):
        at += levels[i].duration_s
    return at


def playing_index(levels: Sequence[Level], index: int) -> int:
    """The level the next deal plays at when the clock stands at `index`: itself, or after a
    break the next playing level (the level before it when no playing level follows)."""
    for i in range(index, len(levels)):
        if not levels[i].is_break:
            return i
    for i in range(index - 1, -1, -1):
        if not levels[i].is_break:
            return i
    return index


def level_number(levels: Sequence[Level], index: int) -> int:
    """The screens' level number: playing levels counted from 1, breaks not counted."""
    return sum(1 for lv in levels[: index + 1] if not lv.is_break)


def level_label(levels: Sequence[Level], index: int) -> str:
    """LEVEL n, or BREAK."""
    if levels[index].is_break:
        return "BREAK"
    return f"LEVEL {level_number(levels, index)}"


def stakes_text(level: Level, game: str) -> str:
    """A level's forced bets and limits as the dealer reads them: 100-200 ANTE 25, 100-200 BB
    ANTE 200, LIMIT 200-400 (100-200), ANTE 25 BRING-IN 50 LIMIT 100-200."""
    if level.is_break:
        return "BREAK"
    spec = GAMES.get(level.game or game)
    parts: list[str] = []
    if spec is not None and spec.family is Family.STUD:
        if level.ante:
            parts.append(f"ANTE {level.ante}")
        if level.bring_in:
            parts.append(f"BRING-IN {level.bring_in}")
    else:
        if level.sb or level.bb:
            parts.append(f"{level.sb or 0}-{level.bb or 0}")
        if level.ante:
            kind = "BB ANTE" if level.ante_type is AnteType.BB else "ANTE"
            parts.append(f"{kind} {level.ante}")
    limit = spec is not None and spec.structure is Structure.FIXED_LIMIT
    if limit and level.small_bet and level.big_bet:
        parts.append(f"LIMIT {level.small_bet}-{level.big_bet}")
    if level.game is not None and level.game != game and spec is not None:
        parts.insert(0, spec.title.upper())
    return " ".join(parts)


def clock_text(seconds: float) -> str:
    """Time left as the screens show it: 12:05, or 1:02:05 past an hour (rounded up, so the
    clock reads 0:00 only when the time is out)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# --- the structure as a dictionary --------------------------------------------------------------


def schedule_from_dict(obj: object, game: str) -> Schedule:
    """A session's `"tournament"` -> Schedule, for a table of `game` (the game of every level
    that names none). Raises ScheduleError naming the first problem."""
    if not isinstance(obj, Mapping):
        raise ScheduleError("", "must be an object with 'levels'")
    for key in obj:
        if key not in KEYS:
            raise ScheduleError(str(key), f"unknown key (known: {', '.join(KEYS)})")
    levels = levels_from_list(obj.get("levels"), game)
    level = obj.get("level", 1)
    if type(level) is not int or not 1 <= level <= len(levels):
        raise ScheduleError("level", f"must be a level 1-{len(levels)}, not {level!r}")
    start_t = _seconds(obj.get("start_t", 0), "start_t")
    elapsed = _seconds(obj.get("elapsed_s", 0), "elapsed_s")
    if elapsed > levels[level - 1].duration_s:
        raise ScheduleError(
            "elapsed_s", f"level {level} lasts only {levels[level - 1].minutes} min"
        )
    event = obj.get("event")
    if event is not None and (type(event) is not str or not event.strip() or len(event) > 64):
        raise ScheduleError("event", "must name the event (1-64 characters)")
    flags = {}
    for key in ("final_table", "winner_take_all"):
        value = obj.get(key, False)
        if type(value) is not bool:
            raise ScheduleError(key, "must be true or false")
        flags[key] = value
    return Schedule(
        levels=levels,
        start_t=start_t,
        level=level,
        elapsed_s=elapsed,
        event=event,
        final_table=flags["final_table"],
        winner_take_all=flags["winner_take_all"],
    )


def levels_from_list(raw: object, game: str) -> tuple[Level, ...]:
    """The `levels` list (also a `clock` line's changed structure)."""
    if not isinstance(raw, list) or not raw:
        raise ScheduleError(
            "levels", 'must be a list of levels, e.g. [{"sb": 25, "bb": 50, "minutes": 20}]'
        )
    if len(raw) > MAX_LEVELS:
        raise ScheduleError("levels", f"at most {MAX_LEVELS} levels")
    levels = tuple(_level(item, f"levels[{i}]", game) for i, item in enumerate(raw))
    if all(lv.is_break for lv in levels):
        raise ScheduleError("levels", "needs at least one playing level")
    return levels


def _level(obj: object, where: str, game: str) -> Level:
    if not isinstance(obj, Mapping):
        raise ScheduleError(where, "must be an object")
    is_break = obj.get("break", False)
    if type(is_break) is not bool:
        raise ScheduleError(f"{where}.break", "must be true or false")
    allowed = BREAK_KEYS if is_break else LEVEL_KEYS
    for key in obj:
        if key not in allowed:
            what = "a break" if is_break else "a level"
            raise ScheduleError(
                f"{where}.{key}", f"unknown key in {what} (known: {', '.join(allowed)})"
            )
    minutes = obj.get("minutes")
    if (
        type(minutes) not in (int, float)
        or not math.isfinite(float(minutes))  # type: ignore[arg-type]
        or not 0 < float(minutes) <= MAX_MINUTES  # type: ignore[arg-type]
    ):
        raise ScheduleError(
            f"{where}.minutes", f"must be minutes > 0 (at most {MAX_MINUTES}), not {minutes!r}"
        )
    mins: float = minutes  # type: ignore[assignment]
    colour_up = _opt_chips(obj, "colour_up", where)
    colour_up_to = _opt_chips(obj, "colour_up_to", where)
    if (colour_up is None) != (colour_up_to is None):
        raise ScheduleError(
            f"{where}.colour_up",
            "a colour-up names the chip that leaves play ('colour_up') and the chip it is raced "
            "for ('colour_up_to')",
        )
    if colour_up is not None and colour_up_to is not None and not 0 < colour_up < colour_up_to:
        raise ScheduleError(f"{where}.colour_up_to", "must be a larger chip than 'colour_up'")
    if is_break:
        return Level(mins, is_break=True, colour_up=colour_up, colour_up_to=colour_up_to)
    level_game = obj.get("game")
    if level_game is not None and (type(level_game) is not str or level_game not in GAMES):
        raise ScheduleError(f"{where}.game", f"unknown game {level_game!r}")
    amounts = {k: _opt_chips(obj, k, where) for k in _AMOUNTS}
    ante_raw = obj.get("ante_type", AnteType.PLAYER.value)
    try:
        ante_type = AnteType(ante_raw) if type(ante_raw) is str else None
    except ValueError:
        ante_type = None
    if ante_type is None:
        raise ScheduleError(f"{where}.ante_type", f"must be 'player' or 'bb', not {ante_raw!r}")
    if amounts["ante"] == 0:
        amounts["ante"] = None
    spec = GAMES.get(level_game or game)
    if spec is not None:
        amounts = _complete(amounts, spec.family, spec.structure, where, level_game or game)
    if ante_type is AnteType.BB and (spec is None or spec.family is Family.STUD):
        raise ScheduleError(f"{where}.ante_type", "a big-blind ante needs a blind game")
    return Level(
        mins,
        sb=amounts["sb"],
        bb=amounts["bb"],
        ante=amounts["ante"],
        ante_type=ante_type,
        bring_in=amounts["bring_in"],
        small_bet=amounts["small_bet"],
        big_bet=amounts["big_bet"],
        game=level_game,
    )


def complete_levels(levels: Sequence[Level], game: str) -> tuple[Level, ...]:
    """Levels read without knowing the table's game (a `clock` line's changed structure), made
    complete for `game` as `schedule_from_dict` would; raises ScheduleError."""
    return levels_from_list(levels_to_list(levels), game)


def _complete(
    amounts: dict[str, int | None], family: Family, structure: Structure, where: str, game: str
) -> dict[str, int | None]:
    """The level's stakes complete for its game (as a setup's `stakes`): stud needs the
    limits and the bring-in, blind games a big blind (or an ante); fixed-limit games take the
    small bet from the big blind and the big bet as twice the small one when not given."""
    out = dict(amounts)
    if family is Family.STUD:
        for key in ("small_bet", "big_bet", "bring_in"):
            if out[key] is None:
                raise ScheduleError(f"{where}.{key}", f"a {game} level needs '{key}'")
        return out
    if out["bb"] is None and out["ante"] is None:
        raise ScheduleError(f"{where}.bb", f"a {game} level needs 'bb' (or 'ante')")
    if structure is Structure.FIXED_LIMIT:
        small = out["small_bet"] if out["small_bet"] is not None else out["bb"]
        if small is None:
            raise ScheduleError(f"{where}.small_bet", f"a {game} level needs 'small_bet'")
        out["small_bet"] = small
        if out["big_bet"] is None:
            out["big_bet"] = 2 * small
    return out


def _opt_chips(obj: Mapping[str, object], key: str, where: str) -> int | None:
    v = obj.get(key)
    if v is None:
        return None
    if type(v) is not int or not 0 <= v <= MAX_CHIPS:
        raise ScheduleError(f"{where}.{key}", f"must be a whole number of chips >= 0, not {v!r}")
    return v


def _seconds(v: object, key: str) -> float:
    if type(v) not in (int, float) or not math.isfinite(float(v)) or float(v) < 0:  # type: ignore[arg-type]
        raise ScheduleError(key, f"must be seconds >= 0, not {v!r}")
    return float(v)  # type: ignore[arg-type]


def schedule_to_dict(schedule: Schedule) -> dict[str, object]:
    """The `"tournament"` object `schedule_from_dict` reads back to the same Schedule."""
    out: dict[str, object] = {}
    if schedule.event is not None:
        out["event"] = schedule.event
    out["levels"] = levels_to_list(schedule.levels)
    out["start_t"] = _num(schedule.start_t)
    out["level"] = schedule.level
    out["elapsed_s"] = _num(schedule.elapsed_s)
    if schedule.final_table:
        out["final_table"] = True
    if schedule.winner_take_all:
        out["winner_take_all"] = True
    return out


def levels_to_list(levels: Sequence[Level]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for lv in levels:
        item: dict[str, object]
        if lv.is_break:
            item = {"break": True, "minutes": lv.minutes}
        else:
            item = {
                k: getattr(lv, k)
                for k in ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet")
                if getattr(lv, k) is not None
            }
            if lv.ante_type is not AnteType.PLAYER:
                item["ante_type"] = lv.ante_type.value
            if lv.game is not None:
                item["game"] = lv.game
            item["minutes"] = lv.minutes
        if lv.colour_up is not None:
            item["colour_up"] = lv.colour_up
            item["colour_up_to"] = lv.colour_up_to
        out.append(item)
    return out


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else round(v, 3)
