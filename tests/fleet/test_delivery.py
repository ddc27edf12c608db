"""Forwarding a station's journal to the central store, for real: mosquitto with TLS and the
site ACL, PostgreSQL, paho-mqtt, the ingest (standards-ux requirements 17-19, 22)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from station.fleet.forwarder import FleetState
from station.fleet.outbox import outbox_status
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code
from station.journal.rows import GENESIS_HASH, Entry, LogRow
from tests.fleet.conftest import (
    RunningIngest,
    append,
    forwarder,
    new_journal,
    start_ingest,
    wait_until,
)


def central_rows(ingest: RunningIngest, station: str) -> list[LogRow]:
    found = ingest.query(
        "SELECT seq, station_id, boot_id, recorded_utc, recorded_at_ns, clock_ok::int, hand,"
        " code, actor, role, ref, payload, prev_hash, hash FROM rows WHERE station_id = %s"
        " ORDER BY seq",
        (station,),
    )
    return [LogRow.from_tuple(t) for t in found]


def assert_chain_verified_centrally(ingest: RunningIngest, station: str, journal_rows: int) -> None:
    rows = central_rows(ingest, station)
    assert [r.seq for r in rows] == list(range(1, journal_rows + 1))
    prev = GENESIS_HASH
    for r in rows:
        assert r.prev_hash == prev
        assert r.computed_hash() == r.hash
        prev = r.hash


def test_rows_count_as_delivered_only_after_the_central_commit(
    services: Any, tmp_path: Path
) -> None:
    """With no ingest, the broker PUBACKs every publication, yet the cursor does not move: a
    PUBACK is not delivery. Once the ingest runs, every row is stored, chained and acked."""
    path = tmp_path / "journal.sqlite"
    journal = new_journal(path, "T01")
    append(journal, 40)
    fwd = forwarder(services, path, "T01", batch=7, resend_s=1.0)
    journal.subscribe(lambda _r, _own: fwd.wake())
    fwd.start()
    try:
        wait_until(lambda: fwd.status().state is FleetState.ONLINE, what="the broker")
        append(journal, 10)
        wait_until(lambda: fwd.status().head_seq == journal.head()[0], what="the head")
        import time

        time.sleep(2.0)  # two resend periods: every row was published, some twice
        status = fwd.status()
        assert status.acked_seq == 0
        assert status.outbox_rows == journal.head()[0]

        ingest = start_ingest(services)
        try:
            head = journal.head()
            wait_until(lambda: fwd.status().acked_seq == head[0], what="every row acked")
            assert fwd.status().outbox_rows == 0
            assert_chain_verified_centrally(ingest, "T01", head[0])
            stored = ingest.query("SELECT head_seq, head_hash FROM stations WHERE station_id='T01'")
            assert stored == [head]
        finally:
            ingest.halt()
    finally:
        fwd.stop()
    # The ack cursor is journaled beside the chain: it survives the process.
    assert outbox_status(path).acked_seq == journal.head()[0]
    journal.close()


def test_a_station_offline_for_a_simulated_day_catches_up_with_nothing_lost(
    services: Any, ingest: RunningIngest, tmp_path: Path
) -> None:
    """The broker is down while the station journals a day (8,640 rows, one every 10 s of a
    manual clock); the forwarder keeps trying, the outbox grows and says how old it is; when the
    broker is back every row reaches the central store once, in one chain."""
    clock = ManualClock()
    path = tmp_path / "journal.sqlite"
    journal = new_journal(path, "T07", clock)
    services.broker.kill()
    fwd = forwarder(services, path, "T07", utc=clock.utc)
    journal.subscribe(lambda _r, _own: fwd.wake())
    fwd.start()
    try:
        for _ in range(864):  # 10 rows per transaction, 100 s apart: 86,400 s
            clock.advance(100.0)
            journal.append(
                [Entry(Code.TILT_CLEARED, {"i": i}, "t", ActorRole.STATION) for i in range(10)]
            )
        wait_until(lambda: fwd.status().head_seq == journal.head()[0], what="the outbox")
        status = fwd.status()
        assert status.state in (FleetState.CONNECTING, FleetState.OFFLINE)
        assert status.outbox_rows == journal.head()[0] > 8640
        assert status.outbox_age_s is not None
        assert status.outbox_age_s >= 86_000

        services.broker.start()
        head = journal.head()
        wait_until(lambda: fwd.status().acked_seq == head[0], 90, "the backlog delivered")
        assert_chain_verified_centrally(ingest, "T07", head[0])
        assert fwd.status().outbox_age_s is None
    finally:
        fwd.stop()
        journal.close()


def test_an_outage_with_rows_in_flight_leaves_the_forwarder_asleep(
    services: Any, tmp_path: Path
) -> None:
    """Rows sent and never acknowledged, then the broker goes: the forwarder waits for the
    reconnect (it polls once a second) instead of spinning on the resend it cannot send."""
    import time

    path = tmp_path / "journal.sqlite"
    journal = new_journal(path, "T08")
    append(journal, 20)
    fwd = forwarder(services, path, "T08", resend_s=0.2)
    fwd.start()
    try:
        wait_until(lambda: fwd.status().state is FleetState.ONLINE, what="the broker")
        time.sleep(0.5)  # published, no ingest: in flight, the resend already due
        services.broker.kill()
        wait_until(lambda: fwd.status().state is FleetState.OFFLINE, what="the outage")
        before = fwd.steps
        time.sleep(2.0)
        assert fwd.steps - before <= 10  # a busy loop makes hundreds of thousands
    finally:
        fwd.stop()
        journal.close()
