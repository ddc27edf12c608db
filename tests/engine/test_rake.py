"""MISC-TIME-COLLECTION / RAKE: the rake schedule as data and the arithmetic of a hand's rake.

004-GN §I r28: "House Rake is 10%, up to $6 maximum unless the game is time raked with the rate
indicated on the placard." The schedule's keys are documented in `station/engine/rake.py` and the
README; the rule scenarios are in tests/scenarios/MISC-TIME-COLLECTION.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from station.cli import main
from station.config.station_toml import ConfigError, load_station
from station.engine.events import RakeZone
from station.engine.rake import (
    RakeSchedule,
    RakeScheduleError,
    TimeCollection,
    TimeMode,
    describe,
    rake_for,
    schedule_from_dict,
    schedule_to_dict,
    take_from_pots,
)
from station.formats.session import SessionFormatError, format_session, parse_session
from tests.daemon.conftest import write_config
from tests.engine.tablekit import Run, cards, key, setup, zone
from tests.engine.test_engine_properties import GAMES, _dealt_hand, _setup, event

GN = schedule_from_dict({"percent": 10, "cap": 6})
SETUP_LINE = (
    '{"type":"setup","game":"nlhe","profile":"RR11","stakes":{"sb":1,"bb":2},'
    '"seats":{"1":200,"2":200}}\n'
)


def rake(schedule: RakeSchedule, pot: int, players: int = 6, *, flop: bool = True) -> int:
    return rake_for(schedule, pot, game="nlhe", players=players, flop=flop)


def test_gn_ten_percent_up_to_six() -> None:
    """004-GN r28: 10% of the pot, rounded down to whole chips, never more than 6."""
    assert [rake(GN, pot) for pot in (0, 9, 10, 19, 21, 59, 60, 61, 120, 5000)] == [
        0, 0, 1, 1, 2, 5, 6, 6, 6, 6,
    ]  # fmt: skip


def test_the_rake_starts_at_the_placard_pot_and_counts_whole_steps() -> None:
    steps = schedule_from_dict({"percent": 10, "every": 20, "min_pot": 20, "cap": 6})
    assert [rake(steps, pot) for pot in (19, 20, 39, 40, 59, 60, 200)] == [0, 2, 2, 4, 4, 6, 6]
    # A fractional percentage is exact: 5.5% of 200 is 11.
    assert rake(schedule_from_dict({"percent": 5.5}), 200) == 11


def test_no_flop_no_drop() -> None:
    nfnd = schedule_from_dict({"percent": 10, "cap": 6, "no_flop_no_drop": True})
    assert rake(nfnd, 50, flop=False) == 0
    assert rake(nfnd, 50, flop=True) == 5
    assert rake(GN, 50, flop=False) == 5  # without the rule a preflop pot pays


def test_caps_per_players_and_per_game_all_hold() -> None:
    s = schedule_from_dict(
        {"percent": 10, "cap": 6, "cap_by_players": {"2": 1, "4": 3}, "cap_by_game": {"plo": 4}}
    )
    assert s.cap_for("nlhe", 2) == 1
    assert s.cap_for("nlhe", 3) == 1
    assert s.cap_for("nlhe", 5) == 3
    assert s.cap_for("plo", 9) == 3
    assert schedule_from_dict({"percent": 10, "cap_by_game": {"plo": 4}}).cap_for("plo", 9) == 4
    assert schedule_from_dict({"percent": 10}).cap_for("nlhe", 9) is None
    assert rake_for(s, 100, game="nlhe", players=2, flop=True) == 1


def test_the_rake_comes_from_the_main_pot_first() -> None:
    assert take_from_pots([120, 90, 80], 6) == (6, 0, 0)
    assert take_from_pots([4, 90, 80], 6) == (4, 2, 0)
    assert take_from_pots([], 0) == ()


@given(st.lists(st.integers(0, 10_000), max_size=5), st.integers(0, 50_000))
def test_taking_never_takes_more_than_a_pot_holds(amounts: list[int], want: int) -> None:
    parts = take_from_pots(amounts, want)
    assert all(0 <= p <= a for p, a in zip(parts, amounts, strict=True))
    assert sum(parts) == min(want, sum(amounts))


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ({}, "rake.percent"),
        ({"percent": 101}, "rake.percent"),
        ({"percent": 10.555}, "rake.percent"),
        ({"percent": "10"}, "rake.percent"),
        ({"percent": 10, "cap": -1}, "rake.cap"),
        ({"percent": 10, "capp": 6}, "rake.capp"),
        ({"percent": 5, "every": 10}, "rake.every"),
        ({"percent": 10, "every": 0}, "rake.every"),
        ({"percent": 10, "no_flop_no_drop": "yes"}, "rake.no_flop_no_drop"),
        ({"percent": 10, "cap_by_players": {"1": 2}}, "rake.cap_by_players"),
        ({"percent": 10, "cap_by_game": {"holdem": 2}}, "rake.cap_by_game"),
        ({"percent": 10, "time": {"per_seat": 6}}, "rake.time"),
        ({"time": {"per_seat": 0}}, "rake.time.per_seat"),
        ({"time": {}}, "rake.time.per_seat"),
        ({"time": {"per_seat": 6, "mode": "hourly"}}, "rake.time.mode"),
        ({"time": {"per_seat": 6}, "cap": 6}, "rake.cap"),
        ([10], "rake"),
    ],
)
def test_a_bad_schedule_names_its_key(raw: object, key: str) -> None:
    with pytest.raises(RakeScheduleError) as err:
        schedule_from_dict(raw)
    assert err.value.key == key


schedules = st.builds(
    RakeSchedule,
    basis_points=st.integers(0, 10_000),
    cap=st.one_of(st.none(), st.integers(0, 100)),
    min_pot=st.integers(0, 100),
    no_flop_no_drop=st.booleans(),
    cap_by_players=st.lists(st.tuples(st.integers(2, 10), st.integers(0, 50)), max_size=3).map(
        lambda xs: tuple(sorted(dict(xs).items()))
    ),
    cap_by_game=st.lists(st.tuples(st.sampled_from(["nlhe", "plo"]), st.integers(0, 50))).map(
        lambda xs: tuple(sorted(dict(xs).items()))
    ),
) | st.builds(
    lambda n, m, mode: RakeSchedule(time=TimeCollection(n, m, mode)),
    st.integers(1, 50),
    st.integers(1, 120),
    st.sampled_from(TimeMode),
)


@given(schedules)
def test_a_schedule_reads_back_from_its_json_form(schedule: RakeSchedule) -> None:
    assert schedule_from_dict(schedule_to_dict(schedule)) == schedule
    assert describe(schedule)


def test_describe() -> None:
    assert describe(GN) == "rake 10% up to 6"
    time = schedule_from_dict({"time": {"per_seat": 6, "mode": "pot"}})
    assert describe(time) == "time 6 a seat every 30 min (time-pot)"


# --- where schedules come from: a session's setup, the station config --------------------------


def test_a_session_setup_takes_a_schedule_and_names_a_bad_one() -> None:
    head = '{"type":"setup","game":"nlhe","stakes":{"sb":1,"bb":2},"seats":{"1":200,"2":200}'
    session = parse_session(head + ',"rake":{"percent":10,"cap":6}}\n', "s.jsonl")
    assert session.lines[0].event.rake == GN  # type: ignore[union-attr]
    with pytest.raises(SessionFormatError) as err:
        parse_session(head + ',"rake":{"percent":10,"cap":"six"}}\n', "s.jsonl")
    assert err.value.problems == ["s.jsonl:1: rake.cap: must be a whole number >= 0, not 'six'"]


def test_the_config_takes_a_schedule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, extra="[table.rake]\npercent = 10\ncap = 6\n")
    assert load_station(config).config.table.setup().rake == GN
    assert main(["config", "check", "--config", str(config)]) == 0
    assert "nlhe RR11, 3 seats, rake 10% up to 6;" in capsys.readouterr().out
    timed = write_config(tmp_path, extra="[table.rake.time]\nper_seat = 5\n")
    rake_of = load_station(timed).config.table.rake
    assert rake_of is not None and rake_of.time == TimeCollection(5, 30, TimeMode.SEAT)


def test_a_bad_schedule_in_the_config_is_a_config_problem(tmp_path: Path) -> None:
    config = write_config(tmp_path, extra="[table.rake]\npercent = 10\ncapp = 6\n")
    with pytest.raises(ConfigError) as err:
        load_station(config)
    assert [(p.key, p.message) for p in err.value.problems] == [
        (
            "table.rake.capp",
            "unknown key (known: percent, cap, min_pot, every, no_flop_no_drop, cap_by_players, "
            "cap_by_game, time) (did you mean cap?)",
        )
    ]


# --- any input: nothing is created or lost, the rake included -----------------------------------


def _ends(
    schedule: dict[str, Any] | None, game: str, n: int, dealt: bool, events: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    run = Run()
    setup = _setup(game, n)
    run.feed(setup if schedule is None else {**setup, "rake": schedule})
    if dealt:
        run.feed(_dealt_hand(n))
    run.feed(events)
    run.finish()
    return [d for d in run.out if d["type"] == "hand_end"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(GAMES),
    st.integers(2, 6),
    st.booleans(),
    st.lists(event, max_size=60),
    st.sampled_from(
        [
            {"percent": 10, "cap": 6},
            {"percent": 50, "min_pot": 4, "no_flop_no_drop": True},
            {"percent": 100, "cap_by_players": {"3": 5}},
            {"time": {"per_seat": 7, "mode": "pot"}},
            {"time": {"per_seat": 5, "mode": "flop"}},
        ]
    ),
)
def test_any_event_sequence_under_a_rake_keeps_every_chip(
    game: str, n: int, dealt: bool, events: list[dict[str, Any]], schedule: dict[str, Any]
) -> None:
    """The same events with and without the schedule: hand by hand, while the two tables still
    play the same pots, payouts + rake = what the unraked table paid (every chip put in);
    within each raked pot the winners get its amount less the house's cut."""
    raked = _ends(schedule, game, n, dealt, events)
    plain = _ends(None, game, n, dealt, events)
    for end, same in zip(raked, plain, strict=False):
        taken = end["rake"]
        assert len(taken["pots"]) == len(end["pots"]) and sum(taken["pots"]) == taken["total"]
        for pot, cut in zip(end["pots"], taken["pots"], strict=True):
            assert sum(pot["won"].values()) + cut == pot["amount"]
        assert all(v >= 0 for v in end["payouts"].values())
        if [p["amount"] for p in end["pots"]] != [p["amount"] for p in same["pots"]]:
            break  # the rake changed a stack, and with it what happened next
        assert sum(end["payouts"].values()) + taken["total"] == sum(same["payouts"].values())


# --- the drop: the rake zone checked against what the house is due --------------------------------


def _walk(run: Run, button: int) -> None:
    """A hand won by the big blind after everyone folds (seats 1-3): a pot of 2, the big blind's
    other chip uncalled. The positions follow the button."""
    sb, bb, first = (button % 3) + 1, ((button + 1) % 3) + 1, button
    run.feed(zone(sb, 1), zone(bb, 2), key("NEW_HAND"), cards(6))
    run.feed(key("FOLD", first), key("FOLD", sb), zone(sb, 0), zone(bb, 0))


def _raked_run(schedule: dict[str, Any], rake_zone: bool = True) -> Run:
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200, 3: 200}, stakes={"sb": 1, "bb": 2}, button=3,
                   rake=schedule))  # fmt: skip
    if rake_zone:
        run.feed({"type": "zone", "zone": "rake", "amount": 0})
    return run


def _drops(run: Run) -> list[dict[str, Any]]:
    return [d for d in run.out if d["type"] == "incident" and d["rule"] == "MISC-TIME-COLLECTION"]


def test_a_drop_never_made_is_found_at_the_next_deal() -> None:
    """A walk pays 100% of its pot of 2 here; the dealer deals on without dropping."""
    run = _raked_run({"percent": 100})
    _walk(run, 3)
    assert not _drops(run)
    _walk(run, 1)
    (found,) = _drops(run)
    assert found["hand"] == 1 and found["ruling"] == "floor"
    assert found["text"] == "WRONG DROP: 0 TAKEN FOR THE HOUSE, 2 DUE (RAKE 2): CALL FLOOR"
    assert run.table.floor_call


def test_chips_still_in_the_rake_zone_at_the_next_deal_count_as_taken() -> None:
    run = _raked_run({"percent": 100})
    _walk(run, 3)
    run.feed({"type": "zone", "zone": "rake", "amount": 2})
    _walk(run, 1)  # the zone was not emptied before the deal: the 2 are hand 1's
    run.feed({"type": "zone", "zone": "rake", "amount": 4}, {"type": "zone", "zone": "rake",
                                                              "amount": 0})  # fmt: skip
    run.finish()
    assert not _drops(run)


def test_time_collected_is_part_of_the_drop() -> None:
    run = _raked_run({"time": {"per_seat": 5}})
    _walk(run, 3)
    run.feed({"type": "zone", "zone": "rake", "amount": 10}, {"type": "zone", "zone": "rake",
                                                               "amount": 0})  # fmt: skip
    (found,) = _drops(run)
    assert found["text"] == "WRONG DROP: 10 TAKEN FOR THE HOUSE, 15 DUE (TIME 15): CALL FLOOR"


def test_without_a_rake_zone_or_a_schedule_nothing_is_checked() -> None:
    run = _raked_run({"percent": 100}, rake_zone=False)
    _walk(run, 3)
    _walk(run, 1)
    run.finish()
    assert not _drops(run)
    plain = Run()
    plain.feed(setup("nlhe", {1: 200, 2: 200, 3: 200}, stakes={"sb": 1, "bb": 2}, button=3))
    plain.feed({"type": "zone", "zone": "rake", "amount": 3})
    _walk(plain, 3)
    plain.finish()
    assert not _drops(plain) and all("rake" not in d for d in plain.out)


def test_the_rake_zone_line_reads_and_writes_back() -> None:
    text = SETUP_LINE + '{"type":"zone","zone":"rake","amount":3,"chips":[1,2]}\n'
    session = parse_session(text, "s.jsonl")
    assert session.lines[1].event == RakeZone(3, (1, 2))
    assert format_session(session.lines) == text
    for bad, problem in (
        ('{"type":"zone","zone":"drop","amount":3}', "only 'rake'"),
        ('{"type":"zone","zone":"rake","seat":2,"amount":3}', "a rake-zone line has no 'seat'"),
    ):
        with pytest.raises(SessionFormatError) as err:
            parse_session(SETUP_LINE + bad + "\n", "s.jsonl")
        assert problem in err.value.problems[0]


def test_the_snapshot_holds_the_drop_until_it_is_made() -> None:
    """The display's short form: DROP n from the push until the drop (or the next deal)."""
    run = _raked_run({"percent": 100})
    _walk(run, 3)
    assert run.snap.drop == 2
    run.feed({"type": "zone", "zone": "rake", "amount": 2})
    assert run.snap.drop == 2
    run.feed({"type": "zone", "zone": "rake", "amount": 0})
    assert run.snap.drop == 0 and not _drops(run)
    plain = _raked_run({"percent": 100}, rake_zone=False)
    _walk(plain, 3)
    assert plain.snap.drop == 2
    plain.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    assert plain.snap.drop == 0
