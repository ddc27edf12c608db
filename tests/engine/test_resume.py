"""The resume document: a table between hands written as JSON and read back goes on exactly as
the table it was written from. Checked at every hand end (and, for the rule scenarios and the
sessions with a dealer's mistakes, at every point between hands: a quarter of them unless
RESUME_FULL=1) of the replay corpus and of the
scripted multi-hand table: the document survives JSON, reads back to a table whose document is
the same, whose snapshot is the same, and which derives the same decisions and snapshots as the
original for every input that follows (the next hands; to the end of the session under
RESUME_FULL=1).

Also: every field of the table's state is carried or said not to be; the reader refuses another
format, an unknown field and a bad value naming where, and gives a missing field its default;
the records are written in their public forms (pinned to `station.formats`)."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from station.bench.scripted import nlhe_session
from station.engine.decisions import HandEnd
from station.engine.events import InputEvent, Setup
from station.engine.resume import CARRIED, ResumeError, between_hands, table_to_doc
from station.engine.resume_hand import HAND_NOT_CARRIED
from station.engine.resume_read import table_from_doc
from station.engine.table import Table
from station.engine.table_state import TableState, Tourney
from station.formats.decisions import decision_to_dict
from station.formats.payload import input_from_dict
from station.formats.session import event_to_dict, read_session
from tests.corpus.corpus import read_part
from tests.engine.dealerkit import (
    PROFILES,
    Drawn,
    Mistakes,
    follow_the_station,
    next_hand_starts,
    real_hand,
    sample_size,
)
from tests.engine.tablekit import Run
from tests.scenario_kit import all_scenarios

Events = list[tuple[InputEvent, float | None]]
FULL = os.environ.get("RESUME_FULL") == "1"  # every copy fed to the end of its session
NEXT_HANDS = 2  # otherwise: fed through this many more hand ends, then dropped


def _json(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as the journal keeps it: canonical JSON text, read back."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False)
    back: dict[str, Any] = json.loads(text)
    return back


class _Copy:
    """A table read back from the document of `live` at input `at`, fed what follows."""

    def __init__(self, live: Table, at: int, where: str) -> None:
        doc = _json(table_to_doc(live))
        self.table = table_from_doc(doc)
        assert table_to_doc(self.table) == doc, f"{where}: the document does not read back"
        assert self.table.snapshot() == live.snapshot(), f"{where}: another snapshot"
        self.where = where
        self.ends = 0

    def feed(self, event: InputEvent, seq: int, at: float | None, want: list[Any]) -> None:
        got = self.table.feed(event, seq=seq, at=at)
        assert got == want, f"{self.where}: input {seq} decides otherwise"
        self.ends += any(isinstance(d, HandEnd) for d in got)


def resumes_exactly(name: str, events: Events, *, every_point: bool) -> int:
    """Feed `events`; at every hand end (or every point between hands) fork a copy from the
    document and hold it to the original. Returns how many documents were checked."""
    live = Table()
    copies: list[_Copy] = []
    checked = 0
    for i, (event, at) in enumerate(events):
        seq = i + 1
        decisions = live.feed(event, seq=seq, at=at)
        snap = live.snapshot()
        for copy in copies:
            copy.feed(event, seq, at, decisions)
            assert copy.table.snapshot() == snap, f"{copy.where}: snapshot after input {seq}"
        copies = [c for c in copies if FULL or c.ends < NEXT_HANDS]
        ended = any(isinstance(d, HandEnd) for d in decisions)
        if between_hands(live) and (every_point or ended):
            copies.append(_Copy(live, seq, f"{name} after input {seq}"))
            checked += 1
    last = len(events) + 1
    end = live.finish(seq=last)
    for copy in copies:
        assert copy.table.finish(seq=last) == end, f"{copy.where}: the end of input"
        assert copy.table.snapshot() == live.snapshot(), f"{copy.where}: snapshot at the end"
    return checked


def _decoded(lines: Iterable[str]) -> Events:
    out: Events = []
    for line in lines:
        event, at = input_from_dict(json.loads(line))
        assert event is not None
        out.append((event, at))
    return out


def test_every_rule_scenario_resumes_exactly_from_every_point_between_hands() -> None:
    checked = 0
    for sc in all_scenarios():
        events: Events = [(line.event, line.t) for line in read_session(sc.path).lines]
        checked += resumes_exactly(sc.name, events, every_point=True)
    assert checked > 1000  # the scenarios stop between hands this often


def test_every_hand_with_a_dealers_mistakes_resumes_exactly_from_its_end() -> None:
    """At every hand end; at every point between hands for every fourth session (all of them
    under RESUME_FULL=1)."""
    checked = sum(
        resumes_exactly(e.name, _decoded(e.inputs), every_point=FULL or i % 4 == 0)
        for i, e in enumerate(read_part("mistakes"))
    )
    assert checked > (5000 if FULL else 1500)


@pytest.mark.slow
def test_every_real_hand_resumes_exactly_from_its_end() -> None:
    entries = read_part("phh")
    checked = sum(resumes_exactly(e.name, _decoded(e.inputs), every_point=False) for e in entries)
    assert checked >= len(entries)  # every PHH hand ends


def test_the_scripted_table_resumes_exactly_from_every_hand_end() -> None:
    """300 hands of one table, re-seated every eighth hand: the documents of a long session."""
    session = nlhe_session(300, seed=3)
    events: Events = [(item.event, item.t) for item in session.events]
    assert resumes_exactly("scripted", events, every_point=False) >= 300


def _tournament_sessions() -> list[tuple[str, Events]]:
    out = []
    for sc in all_scenarios():
        lines = read_session(sc.path).lines
        if any(isinstance(line.event, Setup) and line.event.tournament for line in lines):
            out.append((sc.name, [(line.event, line.t) for line in lines]))
    return out


def test_a_tournament_resumed_mid_event_plays_on_as_if_never_stopped() -> None:
    """Every tournament scenario: fed to the first point between hands past its middle, the
    table is written, read back, and fed the rest; from there it decides and shows exactly what
    an uninterrupted replay does, to the end of the session (the level clock, the next deal's
    level, the colour-up, the big blinds each seat paid, the players moved)."""
    sessions = _tournament_sessions()
    assert len(sessions) >= 10
    for name, events in sessions:
        whole = Table()
        decided = [whole.feed(e, seq=i, at=at) for i, (e, at) in enumerate(events, 1)]
        end = whole.finish(seq=len(events) + 1)
        first = Table()
        cut = None
        for i, (event, at) in enumerate(events, 1):
            first.feed(event, seq=i, at=at)
            if i >= len(events) // 2 and between_hands(first) and first.tourney is not None:
                cut = i
                break
        if cut is None:
            continue
        doc = _json(table_to_doc(first))
        assert doc["tournament"] is not None and "tournament" in doc["setup"], name
        resumed = table_from_doc(doc)
        for i, (event, at) in enumerate(events[cut:], cut + 1):
            got = resumed.feed(event, seq=i, at=at)
            assert got == decided[i - 1], f"{name}: input {i} after resuming at {cut}"
        assert resumed.finish(seq=len(events) + 1) == end, name
        assert resumed.snapshot() == whole.snapshot(), name


def test_the_tournament_state_between_hands_is_all_exercised() -> None:
    """The scenarios resume (above, and at every point between hands) from documents that hold
    each part of a tournament table's state, so a part dropped from the document fails them."""
    seen: set[str] = set()
    for _, events in _tournament_sessions():
        table = Table()
        for i, (event, at) in enumerate(events, 1):
            table.feed(event, seq=i, at=at)
            if not between_hands(table) or table.tourney is None:
                continue
            t = table.tourney
            doc = _json(table_to_doc(table))["tournament"]
            seen |= {k for k in ("locked", "colour_up", "raced", "levels") if doc[k]}
            flags = {
                "told": t.told > 0,
                "applied": t.applied > 0,
                "paused": t.clock.paused,
                "big_blind": any(table.lineup.big_blinds),
            }
            seen |= {k for k, v in flags.items() if v}
    assert seen >= {"locked", "colour_up", "raced", "told", "applied", "paused", "big_blind"}


def _mistakes_run(hand: int, profile: str, count: int, data: st.DataObject) -> Run:
    _, lines = real_hand(hand)
    lines[0]["profile"] = profile
    lines = Mistakes(Drawn(data.draw)).apply(lines, count)
    run = Run()
    run.feed(lines)
    follow_the_station(run)
    next_hand_starts(run)
    return run


@settings(max_examples=25, deadline=None)
@given(
    hand=st.integers(0, sample_size() - 1),
    profile=st.sampled_from(PROFILES),
    count=st.integers(1, 4),
    data=st.data(),
)
def test_a_real_hand_with_any_mistakes_resumes_exactly_from_every_point_between_hands(
    hand: int, profile: str, count: int, data: st.DataObject
) -> None:
    run = _mistakes_run(hand, profile, count, data)
    lines = [json.dumps(line) for line in run.lines]
    resumes_exactly("drawn", _decoded(lines), every_point=True)


# --- what is carried ----------------------------------------------------------------------------


def test_every_field_of_the_table_is_carried_or_said_not_to_be() -> None:
    """A field added to the table's state must be placed in the document (and JOURNAL.md)."""
    table = Table()
    missing = []
    for f in dataclasses.fields(TableState):
        if f.name == "tourney":  # None at a table that is not a tournament's
            assert f.name in CARRIED
            missing += [
                f"tourney.{sub.name}"
                for sub in dataclasses.fields(Tourney)
                if f"tourney.{sub.name}" not in CARRIED
            ]
            continue
        if f.name in CARRIED:
            continue
        part = getattr(table, f.name)
        assert dataclasses.is_dataclass(part), f"{f.name} is neither carried nor a part"
        missing += [
            f"{f.name}.{sub.name}"
            for sub in dataclasses.fields(part)
            if f"{f.name}.{sub.name}" not in CARRIED
        ]
    assert missing == []


def test_the_ended_hand_leaves_out_only_what_is_over() -> None:
    """The parts of a hand not carried are the ones a hand over no longer reads."""
    assert set(HAND_NOT_CARRIED) == {
        "terms",
        "bets",
        "show",
        "draws",
        "repair",
        "faults",
        "conduct",
        "out",
    }


# --- reading ------------------------------------------------------------------------------------


def _played(hands: int = 3) -> Table:
    table = Table()
    for i, item in enumerate(nlhe_session(hands, seed=2).events, 1):
        table.feed(item.event, seq=i, at=item.t)
    assert between_hands(table)
    return table


def test_the_reader_refuses_another_format_an_unknown_field_and_a_bad_value() -> None:
    doc = _json(table_to_doc(_played()))
    with pytest.raises(ResumeError, match=r"resume\.format: 2, this engine reads 1"):
        table_from_doc({**doc, "format": 2})
    with pytest.raises(ResumeError, match=r"resume\.colour: unknown field"):
        table_from_doc({**doc, "colour": "blue"})
    seats = {**doc["seats"], "2": {**doc["seats"]["2"], "stack": "lots"}}
    with pytest.raises(ResumeError, match=r"resume\.seats\.2\.stack: not a whole number"):
        table_from_doc({**doc, "seats": seats})
    last = {**doc["last_hand"], "board": ["Zz"]}
    with pytest.raises(ResumeError, match=r"resume\.last_hand\.board\[0\]: not a card"):
        table_from_doc({**doc, "last_hand": last})
    setup = {**doc["setup"], "game": "snap"}
    with pytest.raises(ResumeError, match=r"resume\.setup\.game: unknown game 'snap'"):
        table_from_doc({**doc, "setup": setup})
    with pytest.raises(ResumeError, match="not an object"):
        table_from_doc([doc])


def test_the_reader_refuses_a_tournament_clock_it_cannot_place() -> None:
    _, events = _tournament_sessions()[0]
    table = Table()
    for i, (event, at) in enumerate(events, 1):
        table.feed(event, seq=i, at=at)
        if between_hands(table) and table.tourney is not None:
            break
    doc = _json(table_to_doc(table))
    tourney = doc["tournament"]
    with pytest.raises(ResumeError, match=r"resume\.tournament\.told: 99 is not a level"):
        table_from_doc({**doc, "tournament": {**tourney, "told": 99}})
    clock = {**tourney["clock"], "index": -1}
    with pytest.raises(
        ResumeError, match=r"resume\.tournament\.clock\.index: -1 is not a level 0-"
    ):
        table_from_doc({**doc, "tournament": {**tourney, "clock": clock}})
    with pytest.raises(ResumeError, match=r"resume\.tournament: a tournament table has both"):
        table_from_doc({**doc, "tournament": None})
    setup = {**doc["setup"], "tournament": {**doc["setup"]["tournament"], "levels": []}}
    with pytest.raises(ResumeError, match=r"resume\.setup\.tournament\.levels: must be a list"):
        table_from_doc({**doc, "setup": setup})
    with pytest.raises(
        ResumeError, match=r"resume\.tournament: a tournament clock without a setup"
    ):
        table_from_doc({**doc, "setup": None})


def test_a_missing_field_takes_its_default() -> None:
    """What a later engine relies on to read an earlier one's documents."""
    assert table_to_doc(table_from_doc({"format": 1})) == table_to_doc(Table())
    doc = _json(table_to_doc(_played()))
    del doc["drop"], doc["race"], doc["time"]
    copy = table_from_doc(doc)
    assert copy.drop == Table().drop and copy.race is None
    for _, events in _tournament_sessions():  # a tournament's next stakes: its level's
        table = Table()
        for i, (event, at) in enumerate(events, 1):
            table.feed(event, seq=i, at=at)
            if between_hands(table) and table.tourney is not None:
                doc = _json(table_to_doc(table))
                del doc["tournament"]["stakes"]
                assert table_to_doc(table_from_doc(doc)) == table_to_doc(table)


def test_a_table_with_a_hand_in_progress_has_no_document() -> None:
    table = _played()
    for i, item in enumerate(nlhe_session(4, seed=2).events[:40], 1000):
        table.feed(item.event, seq=i, at=item.t)
        if not between_hands(table):
            break
    with pytest.raises(ResumeError, match="not between hands"):
        table_to_doc(table)


def test_the_records_are_written_in_their_public_forms() -> None:
    """The setup as the session format's setup line, decisions as `station replay --json`."""
    table = _played()
    doc = table_to_doc(table)
    assert table.setup is not None
    line = event_to_dict(table.setup)
    del line["type"]
    assert doc["setup"] == line
    hand = table.hand
    assert hand is not None and hand.result is not None
    assert doc["last_hand"]["result"] == decision_to_dict(hand.result)
    assert doc["screen"]["prompts"] == [
        {**p, "prompt": decision_to_dict(s.prompt)}
        for p, s in zip(doc["screen"]["prompts"], table.screen.said, strict=True)
    ]
    incidents = [i for sc in all_scenarios() for i in _incidents_of(sc.path)]
    assert incidents  # scenarios with incidents on the ended hand
    for table_doc, table_obj in incidents[:50]:
        assert table_doc == [decision_to_dict(i) for i in table_obj]


def _incidents_of(path: Any) -> Iterator[tuple[list[dict[str, Any]], list[Any]]]:
    table = Table()
    for line in read_session(path).lines:
        table.feed(line.event, seq=line.line, at=line.t)
        hand = table.hand
        if between_hands(table) and hand is not None and hand.alerts.incidents:
            yield table_to_doc(table)["last_hand"]["incidents"], list(hand.alerts.incidents)


def test_a_setup_with_a_big_blind_ante_keeps_it_in_the_document_and_the_session_line() -> None:
    """The document's setup and the session format's setup line are one writer: a cash table
    with a big-blind ante (`bb_ante`) keeps it in both (the document's list of stakes had left
    it out, so a resumed table lost its ante)."""
    from station.engine.events import Setup, Stakes
    from station.engine.resume_setup import setup_from_dict, setup_to_dict
    from station.formats.events import event_to_dict

    setup = Setup("nlhe", "RR11", Stakes(sb=100, bb=200, bb_ante=200), {1: 5000, 2: 5000}, 1)
    doc = setup_to_dict(setup)
    assert doc["stakes"] == {"sb": 100, "bb": 200, "bb_ante": 200}
    assert setup_from_dict(doc, "setup") == setup
    assert event_to_dict(setup) == {"type": "setup", **doc}
