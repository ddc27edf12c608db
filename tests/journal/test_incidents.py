"""The incident workflow (standards-ux requirement 15): open -> ruled -> reviewed -> closed, with
ruling text, who acted, camera and time window, whether the ruling was asked for before the next
deal; the reviewer differs from the dealer and from the floor person who ruled."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest

from station.bench.scripted import nlhe_session
from station.daemon.operations import StationOps
from station.engine.events import Key, KeyPress
from station.incidents.exc import TransitionError, UnknownIncidentError
from station.incidents.export import CSV_COLUMNS, to_csv, to_json
from station.incidents.workflow import close, incident, incidents, review, rule
from station.journal.clock import ManualClock, format_utc, parse_utc
from station.journal.codes import ActorRole, IncidentState
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.people.staff import Authenticated, authenticate, set_role

from .conftest import PINS
from .synth import Writer, write_hand


def _shift(utc: str, seconds: float) -> str:
    return format_utc(parse_utc(utc) + timedelta(seconds=seconds))


def _who(journal: Journal, name: str) -> Authenticated:
    return authenticate(journal, name, PINS[name], purpose="test")


def test_an_engine_incident_goes_through_the_whole_workflow(
    staffed: Journal, clock: ManualClock
) -> None:
    recorder = Recorder(staffed)
    recorder.recover()
    StationOps(recorder).login("dan", PINS["dan"])
    notes = write_hand(Writer(staffed, clock), 1, setup=True)
    iid = notes["incident"] + 2  # the decision row that opened it
    rec = incident(staffed, iid)
    assert (rec.state, rec.rule, rec.citation, rec.engine_ruling) == (
        IncidentState.OPEN,
        "DECK-BOXED-SINGLE",
        "001-RR11 §4 r1",
        "play_on",
    )
    assert (rec.hand, rec.dealer, rec.events, rec.source) == (
        1,
        "dan",
        (notes["incident"],),
        "engine",
    )
    flo, fay, ada = (_who(staffed, n) for n in ("flo", "fay", "ada"))
    with pytest.raises(TransitionError, match="only a ruled incident"):
        review(staffed, iid, fay)
    ruled = rule(staffed, iid, flo, "card replaced, play on", camera="CAM-07")
    assert (ruled.actor, ruled.role) == ("flo", "floor")
    rec = incident(staffed, iid)
    ruling = rec.ruling
    assert ruling is not None and rec.state is IncidentState.RULED
    assert (ruling.text, ruling.person, ruling.role, ruling.camera) == (
        "card replaced, play on",
        "flo",
        "floor",
        "CAM-07",
    )
    start = staffed.row(notes["new_hand"] + 1)  # the hand_start row
    opened = staffed.row(iid)
    assert start is not None and opened is not None
    assert ruling.window_start_utc == _shift(start.recorded_utc, -60)
    assert ruling.window_end_utc == _shift(opened.recorded_utc, 120)
    assert ruling.asked_before_next_deal is True  # no new deal has started since
    with pytest.raises(TransitionError, match="ruled on this incident"):
        review(staffed, iid, flo)
    with pytest.raises(TransitionError, match="only a reviewed incident"):
        close(staffed, iid, fay)
    review(staffed, iid, fay, "footage checked")
    close(staffed, iid, ada, "filed")
    rec = incident(staffed, iid)
    assert rec.state is IncidentState.CLOSED
    assert rec.review is not None and (rec.review.person, rec.review.role) == ("fay", "floor")
    assert rec.close is not None and (rec.close.person, rec.close.role) == ("ada", "admin")
    with pytest.raises(TransitionError, match="too late"):
        rule(staffed, iid, flo, "again")


def _floor_key_incident(staffed: Journal) -> tuple[Recorder, int]:
    recorder = Recorder(staffed)
    recorder.recover()
    ops = StationOps(recorder)
    ops.login("dan", PINS["dan"])
    events = nlhe_session(2, seed=9).events
    for item in events[:10]:
        recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    recorder.record(KeyPress(Key.FLOOR, seat=3), actor="panel", role=ActorRole.DEVICE, at=50.0)
    key = recorder.last_input_seq
    # the engine may open its own incident for the key; otherwise the key row is the incident
    iid = next(i.id for i in incidents(staffed).values() if key in (i.id, *i.events))
    return recorder, iid


def test_a_floor_key_is_an_incident_and_the_next_deal_decides_the_default(
    staffed: Journal,
) -> None:
    recorder, iid = _floor_key_incident(staffed)
    rec = incident(staffed, iid)
    key = rec.events[0]
    assert rec.rule in ("FLOOR-CALL", "STATION-FLOOR-CALL") and rec.engine_ruling == "floor"
    assert rec.floor_called_seq == key and rec.dealer == "dan"
    assert rec.asked_before_next_deal() is True
    recorder.record(KeyPress(Key.NEW_HAND), actor="panel", role=ActorRole.DEVICE, at=60.0)
    rec = incident(staffed, iid)
    assert rec.next_deal_seq == recorder.last_input_seq
    assert rec.asked_before_next_deal() is True  # the floor was called before the next deal


def test_a_ruling_asked_for_after_the_next_deal(staffed: Journal, clock: ManualClock) -> None:
    notes = write_hand(Writer(staffed, clock), 1, setup=True)
    write_hand(Writer(staffed, clock), 2, setup=True, incident=False)
    iid = notes["incident"] + 2
    assert incident(staffed, iid).asked_before_next_deal() is False
    flo = _who(staffed, "flo")
    rule(staffed, iid, flo, "too late to change the pot")
    ruling = incident(staffed, iid).ruling
    assert ruling is not None and ruling.asked_before_next_deal is False
    rule(staffed, iid, flo, "amended", asked_before_next_deal=True)
    rec = incident(staffed, iid)
    assert [r.text for r in rec.rulings] == ["too late to change the pot", "amended"]
    assert rec.ruling is not None and rec.ruling.asked_before_next_deal is True


def test_the_reviewer_may_not_be_the_dealer_of_the_hand(staffed: Journal) -> None:
    _, iid = _floor_key_incident(staffed)
    rule(staffed, iid, _who(staffed, "flo"), "dispute settled")
    admin = _who(staffed, "ada")
    set_role(staffed, "dan", ActorRole.FLOOR, by=admin)
    with pytest.raises(TransitionError, match="dealt this hand"):
        review(staffed, iid, _who(staffed, "dan"))
    review(staffed, iid, _who(staffed, "fay"))
    assert incident(staffed, iid).state is IncidentState.REVIEWED


def test_only_the_right_roles_act(staffed: Journal) -> None:
    _, iid = _floor_key_incident(staffed)
    with pytest.raises(TransitionError, match="only a floor person rules"):
        rule(staffed, iid, _who(staffed, "ada"), "x")
    with pytest.raises(TransitionError, match="needs its text"):
        rule(staffed, iid, _who(staffed, "flo"), "  ")
    with pytest.raises(UnknownIncidentError):
        incident(staffed, 99999)


def test_exports_carry_every_field(staffed: Journal, clock: ManualClock) -> None:
    notes = write_hand(Writer(staffed, clock), 1, setup=True)
    iid = notes["incident"] + 2
    rule(staffed, iid, _who(staffed, "flo"), 'card replaced, "play on"', camera="CAM-07")
    records = list(incidents(staffed).values())
    rows = list(csv.DictReader(io.StringIO(to_csv(records, "T01"))))
    assert list(rows[0]) == list(CSV_COLUMNS)
    row = rows[0]
    assert (row["incident"], row["station_id"], row["rule"], row["state"]) == (
        str(iid),
        "T01",
        "DECK-BOXED-SINGLE",
        "ruled",
    )
    assert (row["ruling"], row["ruled_by"], row["ruled_role"], row["camera"]) == (
        'card replaced, "play on"',
        "flo",
        "floor",
        "CAM-07",
    )
    assert row["asked_before_next_deal"] == "yes" and row["window_start_utc"]
    data = json.loads(to_json(records, "T01"))
    assert data[0]["rulings"][0]["by"] == "flo" and data[0]["review"] is None


def test_the_floor_views_fold_new_rows_into_what_a_fresh_fold_of_the_journal_gives(
    staffed: Journal, clock: ManualClock
) -> None:
    """The daemon folds incidents as the journal grows (each build reads only the new rows);
    after every step its list equals that of a fold of the whole journal."""
    from station.daemon.views import FloorViews

    recorder = Recorder(staffed)
    recorder.recover()
    StationOps(recorder).login("dan", PINS["dan"])
    views = FloorViews(recorder)
    views.build()
    writer = Writer(staffed, clock)
    notes = write_hand(writer, 1, setup=True)
    iid = notes["incident"] + 2
    steps = [
        lambda: rule(staffed, iid, _who(staffed, "flo"), "card replaced, play on"),
        lambda: review(staffed, iid, _who(staffed, "fay"), "footage checked"),
        lambda: write_hand(writer, 2, setup=False),
        lambda: close(staffed, iid, _who(staffed, "ada"), "filed"),
    ]
    seen = []
    for step in [lambda: None, *steps]:
        step()
        built = views.build()
        assert built.incidents == FloorViews(recorder).build().incidents
        seen.append([row.status for row in built.incidents if row.event == notes["incident"]])
    assert seen == [["open"], ["ruled"], ["reviewed"], ["reviewed"], ["closed"]]
    assert len(built.incidents) == 2  # hand 2 opened one of its own
