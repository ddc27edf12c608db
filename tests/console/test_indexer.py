"""The console's indexer on the central store: a station's stored rows folded in several
catch-ups give exactly the incidents the station's own fold gives over its whole journal,
rulings on incidents of earlier hands included (brought back from the store), and the CALL
FLOOR the station's operational fold shows. Uses the session's PostgreSQL (its own station
id)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from station.central.console.indexer import Indexer
from station.central.console.records import ops_from_json, record_from_json
from station.daemon.operations import StationOps
from station.incidents.workflow import incidents, review, rule
from station.journal import ActorRole, Journal, Recorder, SystemClock
from station.journal.ops import OpsTracker
from station.people.staff import authenticate
from tests.console.fleet import PINS, TABLES, Fleet, fill_journal
from tests.fleet.conftest import wait_until

STATION = "X01"


def _copy_rows(fleet: Fleet, journal: Journal, after: int, upto: int) -> None:
    import psycopg

    from station.central.ingest import _INSERT, _params

    rows = [r for r in journal.rows() if after < r.seq <= upto]
    with psycopg.connect(fleet.cfg.conninfo(), autocommit=True) as conn:
        conn.execute(
            "INSERT INTO stations (station_id, site, head_hash) VALUES (%s, 't', %s)"
            " ON CONFLICT DO NOTHING",
            (STATION, "0" * 64),
        )
        conn.cursor().executemany(_INSERT, [_params(r) for r in rows])


def test_catch_ups_in_pieces_give_the_station_s_own_incidents(fleet: Fleet, tmp_path: Path) -> None:
    import psycopg

    path = tmp_path / "journal.sqlite"
    # A misdeal, then hands dealt on (their NEW_HAND keys end the incidents' own hand).
    fill_journal(path, STATION, [*TABLES["T02"], "scripted:2"])
    journal = Journal.open(path, clock=SystemClock())
    try:
        recorder = Recorder(journal)
        recorder.recover()
        ops = StationOps(recorder)
        first = next(iter(incidents(journal).values()))
        middle = journal.head()[0]
        flo = authenticate(journal, "flo", PINS["flo"], purpose="test")
        fay = authenticate(journal, "fay", PINS["fay"], purpose="test")
        rule(journal, first.id, flo, "misdeal")
        review(journal, first.id, fay, "seen")
        if recorder.op_state().floor_call is not None:
            ops.clear_floor_call("flo", PINS["flo"], "seen")
        assert ops.raise_floor_call("dan", ActorRole.DEALER, "test") is not None
        head = journal.head()[0]
        want = incidents(journal)
        tracker = OpsTracker()
        for row in journal.rows():
            tracker.apply(row)

        indexer = Indexer()
        with psycopg.connect(fleet.cfg.conninfo(), autocommit=True) as conn:
            _copy_rows(fleet, journal, 0, middle)
            assert indexer.catch_up(conn, STATION).rows > 0
            _copy_rows(fleet, journal, middle, head)
            # a new indexer: the state stored beside the cursor, not memory, carries on
            done = Indexer().catch_up(conn, STATION)
            assert first.id in done.incidents
            assert done.ops_changed
            stored = conn.execute(
                "SELECT id, record, state, people FROM console_incidents WHERE station_id = %s",
                (STATION,),
            ).fetchall()
            ops_json = conn.execute(
                "SELECT ops FROM console_fold WHERE station_id = %s", (STATION,)
            ).fetchone()
    finally:
        journal.close()
    got = {int(i): record_from_json(dict(rec)) for i, rec, _, _ in stored}
    assert got == want
    states: dict[Any, Any] = {int(i): (st, list(people)) for i, _, st, people in stored}
    assert states[first.id] == ("reviewed", ["dan", "fay", "flo"])
    assert ops_json is not None
    assert ops_from_json(dict(ops_json[0])).floor_call == tracker.floor_call
    assert tracker.floor_call is not None


def test_the_central_recall_of_every_hand_is_the_station_s_own(fleet: Fleet) -> None:
    """The console recalls a hand by the station's own code from the stored rows: equal to
    `station hands show` on the station's journal, for every hand of the three tables."""
    import psycopg

    from station.central.console.views import load_hand as central_hand
    from station.recall.hands import load_hand

    for station in ("T01", "T02", "T03"):
        wait_until(lambda s=station: fleet.delivered(s), what=f"{station} delivered")
    compared = 0
    with psycopg.connect(fleet.cfg.conninfo(), autocommit=True) as conn:
        for station in ("T01", "T02", "T03"):
            journal = Journal.open(fleet.journal_path(station), clock=SystemClock())
            try:
                last = max(r.hand for r in journal.rows(codes=["table.hand_start"]))
                for hand in range(1, last + 1):
                    here = load_hand(journal, hand)
                    assert here is not None, (station, hand)
                    assert central_hand(conn, station, hand) == here, (station, hand)
                    compared += 1
            finally:
                journal.close()
    assert compared >= 5
