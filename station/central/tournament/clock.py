"""The event's one clock: started, paused and resumed at the floor console, read at any wall-clock
time, and the `tournament.clock` command that tells every table where it stands. Pure (the
times are passed in: seconds since the epoch, UTC).

The levels and the reading are the station's own (`station.engine.levels`): the same structure
means the same levels at the tables and at the centre. The clock's state is the engine's
`ClockState` with `at` in epoch seconds: at `at` it stood at level `index` with `remaining_s`
left, running or paused. Before the floor starts it, the clock stands at the first level,
paused, with the whole level left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from station.engine.levels import (
    ClockState,
    Level,
    Reading,
    clock_text,
    level_label,
    levels_from_list,
    playing_index,
    reading,
    stakes_text,
)


def parse_levels(structure: Mapping[str, Any], game: str) -> tuple[Level, ...]:
    """The structure's levels (raises `station.engine.levels.ScheduleError`, naming the key)."""
    return levels_from_list(structure.get("levels"), game)


def not_started(levels: Sequence[Level], now_utc: float) -> ClockState:
    return ClockState(now_utc, 0, levels[0].duration_s, paused=True)


def start(levels: Sequence[Level], now_utc: float) -> ClockState:
    return ClockState(now_utc, 0, levels[0].duration_s)


def pause(levels: Sequence[Level], state: ClockState, now_utc: float) -> ClockState:
    r = reading(levels, state, now_utc)
    return ClockState(now_utc, r.index, r.remaining_s, paused=True)


def resume(levels: Sequence[Level], state: ClockState, now_utc: float) -> ClockState:
    r = reading(levels, state, now_utc)
    return ClockState(now_utc, r.index, r.remaining_s, paused=False)


def level_index(levels: Sequence[Level], state: ClockState, now_utc: float) -> int:
    """The level (0-based) the clock stands at, at `now_utc`."""
    return reading(levels, state, now_utc).index


def to_json(state: ClockState) -> dict[str, Any]:
    return {
        "at_utc": state.at,
        "index": state.index,
        "remaining_s": state.remaining_s,
        "paused": state.paused,
    }


def from_json(d: Mapping[str, Any] | None, levels: Sequence[Level], now_utc: float) -> ClockState:
    if not d:
        return not_started(levels, now_utc)
    return ClockState(
        float(d["at_utc"]), int(d["index"]), float(d["remaining_s"]), bool(d.get("paused"))
    )


def command_body(
    event: str, levels: Sequence[Level], state: ClockState, now_utc: float
) -> dict[str, Any]:
    """The `tournament.clock` command: the level (1-based, breaks counted, as the station's
    structure numbers them), the seconds left of it, paused or not, and when it was sent (the
    station takes the time on the way off)."""
    r = reading(levels, state, now_utc)
    return {
        "event": event,
        "level": r.index + 1,
        "remaining_s": round(r.remaining_s, 3),
        "paused": r.paused,
        "sent_utc": datetime.fromtimestamp(now_utc, UTC).isoformat(timespec="milliseconds"),
    }


@dataclass(frozen=True, slots=True)
class ClockView:
    """What the console shows of the clock."""

    label: str  # LEVEL 3, BREAK
    stakes: str  # 100-200 ANTE 25
    left: str  # 12:05
    remaining_s: float
    paused: bool
    started: bool
    next_label: str  # what comes after this level
    level: int  # the 1-based index
    finished: bool = False  # the event has its winner: the clock stopped where it stood

    @property
    def state(self) -> str:
        if self.finished:
            return "FINISHED"
        if not self.started:
            return "NOT STARTED"
        return "PAUSED" if self.paused else "RUNNING"


def view(
    levels: Sequence[Level], state: ClockState, game: str, now_utc: float, started: bool
) -> ClockView:
    r: Reading = reading(levels, state, now_utc)
    lv = levels[r.index]
    nxt = ""
    if r.index + 1 < len(levels):
        n = levels[r.index + 1]
        nxt = f"{level_label(levels, r.index + 1)} {stakes_text(n, game)}".strip()
        if n.is_break:
            nxt = f"BREAK {n.minutes:g} MIN{_colour_up(n)}"
    playing = levels[playing_index(levels, r.index)]
    stakes = stakes_text(lv, game) if not lv.is_break else stakes_text(playing, game)
    if lv.is_break:
        stakes += _colour_up(lv)  # the floor sees the race the tables are running
    return ClockView(
        label=level_label(levels, r.index),
        stakes=stakes,
        left=clock_text(r.remaining_s),
        remaining_s=r.remaining_s,
        paused=r.paused,
        started=started,
        next_label=nxt,
        level=r.index + 1,
    )


def _colour_up(level: Level) -> str:
    """A break's colour-up in the console's words (empty when it has none)."""
    if level.colour_up is None or level.colour_up_to is None:
        return ""
    return f" · COLOUR UP: {level.colour_up}s RACED OFF FOR {level.colour_up_to}s"
