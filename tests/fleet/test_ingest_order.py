"""The ingest judges what one station sent in the order it was sent: a hello is compared with
the head as it stood when the hello came, so a hello queued in the same batch as rows the
station sent after it is no rollback, while a hello behind rows it sent before is one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from station.fleet.messages import Hello, encode_rows
from station.fleet.topics import StationTopics
from tests.fleet.conftest import SITE
from tests.fleet.test_chain import chain


@pytest.fixture
def ingest(services: Any) -> Iterator[Any]:
    """An ingest whose batches the test hands over directly (as it handles whatever its
    transport queued meanwhile), on the real database."""
    from station.central.config import load_central
    from station.central.ingest import Ingest

    made = Ingest(load_central(services.write_central_toml()))
    yield made
    if made.conn is not None:
        made.conn.close()


def batch(ingest: Any, *messages: tuple[str, bytes]) -> None:
    ingest._handle_until_done(list(messages), threading.Event())


def query(ingest: Any, sql: str) -> list[tuple[Any, ...]]:
    return list(ingest.conn.execute(sql).fetchall())


def test_a_hello_before_later_rows_in_one_batch_is_not_a_rollback(ingest: Any) -> None:
    t = StationTopics(SITE, "T01")
    rows = chain(8)
    batch(
        ingest,
        (t.events, encode_rows(rows[:5])),
        (t.hello, Hello(5, rows[4].hash).encode()),  # reconnected with head 5 ...
        (t.events, encode_rows(rows[5:])),  # ... then sent 6-8
    )
    assert query(ingest, "SELECT head_seq FROM stations WHERE station_id = 'T01'") == [(8,)]
    assert query(ingest, "SELECT kind FROM alarms") == []


def test_a_hello_behind_rows_sent_before_it_is_a_rollback(ingest: Any) -> None:
    t = StationTopics(SITE, "T02")
    rows = chain(5, station="T02")
    batch(
        ingest,
        (t.events, encode_rows(rows)),
        (t.hello, Hello(3, rows[2].hash).encode()),  # the journal lost rows 4 and 5
    )
    assert query(ingest, "SELECT kind, seq FROM alarms") == [("rollback", 3)]


def _hands_chain(hands: list[int], station: str) -> list[Any]:
    from station.journal.codes import ActorRole, Code
    from station.journal.rows import GENESIS_HASH, Entry, seal

    rows, prev = [], GENESIS_HASH
    for seq, hand in enumerate(hands, start=1):
        row = seal(
            seq=seq, station_id=station, boot_id="b", recorded_utc="2026-01-01T00:00:00.000Z",
            recorded_at_ns=seq, clock_ok=True, hand=hand,
            entry=Entry(Code.TILT_CLEARED, {"i": seq}, "t", ActorRole.STATION), prev_hash=prev,
        )  # fmt: skip
        rows.append(row)
        prev = row.hash
    return rows


def test_the_map_s_hand_is_the_station_s_latest_never_a_ruled_hand_s(ingest: Any) -> None:
    """Issue 31: a ruling on hand 4, journaled while the table deals hand 6, is a row of hand
    4; the map's hand stays 6 (in one batch, and when the ruling comes in a batch of its own)."""
    t = StationTopics(SITE, "T05")
    rows = _hands_chain([1, 2, 3, 4, 5, 6, 4, 6, 1], "T05")
    batch(ingest, (t.events, encode_rows(rows[:7])))  # ... hand 6, then the ruling on hand 4
    assert query(ingest, "SELECT hand FROM stations WHERE station_id = 'T05'") == [(6,)]
    batch(ingest, (t.events, encode_rows(rows[7:8])), (t.events, encode_rows(rows[8:])))
    assert query(ingest, "SELECT head_seq, hand FROM stations WHERE station_id = 'T05'") == [(9, 6)]
