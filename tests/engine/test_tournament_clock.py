"""The tournament structure and its clock (`station.engine.levels`), the `tournament` setup key
and the `clock` line (`station.formats.events`): where the clock stands at an event time, what a
structure may say, and that both read back what they write."""

from __future__ import annotations

import json
from typing import Any

import pytest

from station.engine.decisions import Incident
from station.engine.events import ClockSet, Setup, Stakes
from station.engine.levels import (
    AnteType,
    ClockState,
    Level,
    ScheduleError,
    clock_text,
    ends_at,
    initial_state,
    level_label,
    level_number,
    playing_index,
    reading,
    schedule_from_dict,
    stakes_text,
)
from station.engine.table import Table
from station.formats.session import SessionFormatError, event_from_dict, event_to_dict

LEVELS = (
    Level(20, sb=25, bb=50),
    Level(20, sb=50, bb=100, ante=100),
    Level(10, is_break=True, colour_up=25, colour_up_to=100),
    Level(20, sb=100, bb=200),
)


def test_the_clock_runs_down_through_the_levels_and_a_break() -> None:
    state = ClockState(at=100.0, index=0, remaining_s=1200.0)
    assert reading(LEVELS, state, 100.0).index == 0
    r = reading(LEVELS, state, 1299.0)
    assert (r.index, r.remaining_s) == (0, 1.0)
    r = reading(LEVELS, state, 1300.0)  # level 1 over: level 2 starts with its full time
    assert (r.index, r.remaining_s) == (1, 1200.0)
    r = reading(LEVELS, state, 100 + 1200 + 1200 + 60)  # a minute into the break
    assert (r.index, r.remaining_s) == (2, 540.0)
    r = reading(LEVELS, state, 100 + 1200 + 1200 + 600 + 300)  # the blinds' time stood still
    assert (r.index, r.remaining_s, r.last) == (3, 900.0, True)
    r = reading(LEVELS, state, 1e7)  # the last level runs on
    assert (r.index, r.remaining_s, r.last) == (3, 0.0, True)


def test_a_paused_clock_stands_and_before_its_start_it_waits() -> None:
    paused = ClockState(at=50.0, index=1, remaining_s=300.0, paused=True)
    r = reading(LEVELS, paused, 5000.0)
    assert (r.index, r.remaining_s, r.paused) == (1, 300.0, True)
    waiting = ClockState(at=50.0, index=0, remaining_s=1200.0)
    assert reading(LEVELS, waiting, 10.0).waiting
    assert reading(LEVELS, waiting, None).remaining_s == 1200.0  # no event times: as set


def test_when_a_level_ends() -> None:
    state = ClockState(at=0.0, index=0, remaining_s=600.0)
    assert ends_at(LEVELS, state, 0) == 600.0
    assert ends_at(LEVELS, state, 2) == 600.0 + 1200 + 600
    assert ends_at(LEVELS, state, 3) is None  # the last level runs on
    assert ends_at(LEVELS, ClockState(0.0, 0, 600.0, paused=True), 0) is None


def test_breaks_are_not_counted_as_levels_on_the_screens() -> None:
    assert [level_label(LEVELS, i) for i in range(4)] == ["LEVEL 1", "LEVEL 2", "BREAK", "LEVEL 3"]
    assert level_number(LEVELS, 3) == 3
    assert playing_index(LEVELS, 2) == 3  # a deal during the break: the next level
    assert stakes_text(LEVELS[1], "nlhe") == "50-100 ANTE 100"
    assert stakes_text(Level(20, sb=50, bb=100, ante=100, ante_type=AnteType.BB), "nlhe") == (
        "50-100 BB ANTE 100"
    )
    assert clock_text(61.2) == "1:02"
    assert clock_text(3600) == "1:00:00"
    assert clock_text(0) == "0:00"


def test_initial_state_from_the_structure() -> None:
    schedule = schedule_from_dict(
        {
            "levels": [{"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "minutes": 20}],
            "start_t": 30,
            "level": 2,
            "elapsed_s": 200,
        },
        "nlhe",
    )
    assert initial_state(schedule) == ClockState(30.0, 1, 1000.0)


@pytest.mark.parametrize(
    ("structure", "says"),
    [
        ({"levels": []}, "levels"),
        ({"levels": [{"sb": 25, "bb": 50}]}, "levels[0].minutes"),
        ({"levels": [{"sb": 25, "bb": 50, "minutes": 0}]}, "levels[0].minutes"),
        ({"levels": [{"sb": 25, "bb": 50, "minutes": 20, "antes": 5}]}, "levels[0].antes"),
        ({"levels": [{"sb": 25, "minutes": 20}]}, "levels[0].bb"),
        ({"levels": [{"break": True, "minutes": 10, "sb": 5}]}, "levels[0].sb"),
        ({"levels": [{"break": True, "minutes": 10}]}, "levels"),
        ({"levels": [{"bb": 50, "minutes": 20, "ante_type": "all"}]}, "levels[0].ante_type"),
        ({"levels": [{"bb": 50, "minutes": 20, "game": "poker"}]}, "levels[0].game"),
        ({"levels": [{"bb": 50, "minutes": 20, "game": "stud"}]}, "levels[0].small_bet"),
        ({"levels": [{"break": True, "minutes": 5, "colour_up": 25}]}, "levels[0].colour_up"),
        ({"levels": [{"bb": 50, "minutes": 20}], "level": 2}, "level"),
        ({"levels": [{"bb": 50, "minutes": 20}], "elapsed_s": 1201}, "elapsed_s"),
        ({"levels": [{"bb": 50, "minutes": 20}], "clock": 1}, "clock"),
    ],
)
def test_a_bad_structure_is_named(structure: dict[str, Any], says: str) -> None:
    with pytest.raises(ScheduleError) as err:
        schedule_from_dict(structure, "nlhe")
    assert err.value.key == says


SETUP: dict[str, Any] = {
    "type": "setup",
    "game": "nlhe",
    "profile": "RR11",
    "seats": {"1": 1000, "2": 1000},
    "tournament": {
        "event": "E1",
        "levels": [
            {"sb": 25, "bb": 50, "minutes": 20},
            {"sb": 50, "bb": 100, "ante": 100, "ante_type": "bb", "minutes": 20},
            {"break": True, "minutes": 10, "colour_up": 25, "colour_up_to": 100},
            {"sb": 100, "bb": 200, "minutes": 20, "game": "flhe", "small_bet": 200},
        ],
        "start_t": 0,
        "level": 2,
        "elapsed_s": 60,
    },
}


def test_a_tournament_setup_takes_its_stakes_from_its_level_and_reads_back_the_same() -> None:
    _, event = event_from_dict(SETUP)
    assert isinstance(event, Setup)
    assert event.stakes == Stakes(sb=50, bb=100, bb_ante=100)
    assert event.tournament is not None
    assert event.tournament.levels[3].big_bet == 400  # a limit level's big bet: twice the small
    written = event_to_dict(event)
    assert "stakes" not in written
    assert event_from_dict(json.loads(json.dumps(written)))[1] == event


def test_a_tournament_setup_with_stakes_of_its_own_is_refused() -> None:
    with pytest.raises(SessionFormatError, match="stakes"):
        event_from_dict({**SETUP, "stakes": {"sb": 1, "bb": 2}})


def test_the_clock_line_reads_back_the_same() -> None:
    line = {
        "type": "clock",
        "t": 12.5,
        "level": 3,
        "remaining_s": 612,
        "paused": True,
        "event": "E1",
    }
    t, event = event_from_dict(line)
    assert (t, event) == (12.5, ClockSet(3, 612.0, True, None, "E1"))
    assert event_to_dict(event, t) == line
    with pytest.raises(SessionFormatError, match="remaining_s"):
        event_from_dict({"type": "clock", "level": 1, "remaining_s": -1})
    with pytest.raises(SessionFormatError, match="unknown key 'minutes'"):
        event_from_dict({"type": "clock", "level": 1, "remaining_s": 5, "minutes": 1})


def test_a_clock_line_sets_the_table_clock_and_a_bad_one_is_an_incident() -> None:
    table = Table()
    _, setup = event_from_dict(SETUP)
    assert isinstance(setup, Setup)
    table.feed(setup, seq=1, at=0.0)
    view = table.snapshot().tournament
    assert view is not None
    assert (view.label, view.stakes, view.remaining_s) == ("LEVEL 2", "50-100 BB ANTE 100", 1140.0)
    table.feed(ClockSet(1, 30.0, paused=True), seq=2, at=10.0)
    view = table.snapshot().tournament
    assert view is not None
    assert (view.label, view.stakes, view.paused) == ("LEVEL 1", "25-50", True)
    out = table.feed(ClockSet(9, 30.0), seq=3, at=20.0)
    assert [d.rule for d in out if isinstance(d, Incident)] == ["STATION-UNEXPECTED-KEY"]
    out = table.feed(ClockSet(1, 30.0, event="E2"), seq=4, at=20.0)
    assert [d.rule for d in out if isinstance(d, Incident)] == ["STATION-UNEXPECTED-KEY"]
