"""A tournament table's structure and clock in the resume document, both ways. Pure.

The setup keeps its structure (`Setup.tournament`, written as the session format's
`"tournament"` object with its times exact); the document's `tournament` object carries the
rest of `Tourney` (station.engine.tournament): the setup's game (the game of every level that
names none), the stakes the table holds for the next deal, the clock as last set, the latest
event time, the level the next deal takes and whether a forced bet fixed it, the level of the
hand in progress, the level the table was last told of, a break's colour-up still to race, the
breaks whose colour-up was raced, and the levels when a `clock` line changed them.
station/journal/JOURNAL.md ("The resume document") describes each field.
"""

from __future__ import annotations

from typing import Any, Final

from station.engine.events import Stakes
from station.engine.levels import (
    ClockState,
    Schedule,
    ScheduleError,
    initial_state,
    levels_from_list,
    levels_to_list,
    playing_index,
)
from station.engine.resume_fields import Fields, ResumeError, whole
from station.engine.resume_setup import STAKE_KEYS
from station.engine.table_state import Tourney
from station.engine.tournament import level_stakes

_TOURNAMENT: Final = frozenset(
    {
        "game",
        "stakes",
        "clock",
        "now",
        "applied",
        "locked",
        "hand_level",
        "told",
        "colour_up",
        "raced",
        "levels",
    }
)
_CLOCK: Final = frozenset({"at", "index", "remaining_s", "paused"})
_BB_ANTE: Final = "bb_ante"


def stakes_doc(stakes: Stakes) -> dict[str, int]:
    keys = (*STAKE_KEYS, _BB_ANTE)
    return {k: v for k in keys if (v := getattr(stakes, k)) is not None}


def tourney_to_doc(t: Tourney, stakes: Stakes) -> dict[str, Any]:
    """The `tournament` object of a tournament table holding `stakes` for the next deal."""
    c = t.clock
    return {
        "game": t.game,
        "stakes": stakes_doc(stakes),
        "clock": {"at": c.at, "index": c.index, "remaining_s": c.remaining_s, "paused": c.paused},
        "now": t.now,
        "applied": t.applied,
        "locked": t.locked,
        "hand_level": t.hand_level,
        "told": t.told,
        "colour_up": list(t.colour_up) if t.colour_up is not None else None,
        "raced": sorted(t.raced),
        "levels": levels_to_list(t.levels) if t.levels != t.schedule.levels else None,
    }


def tourney_game(raw: object, default: str) -> str:
    """The setup's game as the `tournament` object names it (read before the setup)."""
    if isinstance(raw, dict) and "game" in raw:
        return Fields(raw, "resume.tournament", _TOURNAMENT).text("game")
    return default


def tourney_from_doc(
    raw: object, where: str, schedule: Schedule, game: str
) -> tuple[Tourney, Stakes]:
    """The tourney of `schedule` the object describes, and the stakes of the next deal."""
    f = Fields(raw, where, _TOURNAMENT)
    levels = schedule.levels
    if f.raw("levels") is not None:
        try:
            levels = levels_from_list(f.raw("levels"), game)
        except ScheduleError as exc:
            raise ResumeError(f"{f.where('levels')}: {exc}") from None
    count = len(levels)

    def index(value: int, key: str, low: int) -> int:
        if not low <= value < count:
            raise ResumeError(f"{f.where(key)}: {value} is not a level {low}-{count - 1}")
        return value

    c = f.obj_of("clock", _CLOCK)
    start = initial_state(schedule)  # a missing part of the clock: as the structure starts it
    at, left = c.opt_number("at"), c.opt_number("remaining_s")
    clock = ClockState(
        start.at if at is None else at,
        index(c.whole("index", start.index), "clock.index", 0),
        start.remaining_s if left is None else left,
        c.flag("paused"),
    )
    hand_level = f.opt_whole("hand_level")
    colour_up = None
    raw_colour = f.raw("colour_up")
    if raw_colour is not None:
        if type(raw_colour) is not list or len(raw_colour) != 2:
            raise ResumeError(f"{f.where('colour_up')}: not [chip, new chip]")
        colour_up = (
            whole(raw_colour[0], f.where("colour_up")),
            whole(raw_colour[1], f.where("colour_up")),
        )
    tourney = Tourney(
        schedule=schedule,
        levels=levels,
        clock=clock,
        game=game,
        now=f.opt_number("now"),
        applied=index(f.whole("applied", -1), "applied", -1),
        locked=f.flag("locked"),
        hand_level=None if hand_level is None else index(hand_level, "hand_level", 0),
        told=index(f.whole("told", -1), "told", -1),
        colour_up=colour_up,
        raced={index(v, "raced", 0) for v in f.wholes("raced")},
    )
    if f.has("stakes"):
        st = f.obj_of("stakes", frozenset((*STAKE_KEYS, _BB_ANTE)))
        stakes = Stakes(**{k: st.opt_whole(k) for k in (*STAKE_KEYS, _BB_ANTE)})
    else:  # the stakes of the level the next deal takes (or of the structure's first)
        first = playing_index(levels, clock.index)
        stakes = level_stakes(levels[tourney.applied if tourney.applied >= 0 else first])
    return tourney, stakes
