"""The central ingest's judgement of incoming rows (station.central.chain): what extends the
stored chain is stored, a resend is a duplicate, a hole is a gap, another history is a fork,
a row that does not match its hash is a chain break (standards-ux requirements 5, 17, 20)."""

from __future__ import annotations

import pytest

from station.central.chain import Head, judge, judge_hello, needs_lookup
from station.fleet.messages import Verdict
from station.journal.codes import ActorRole, Code
from station.journal.rows import GENESIS_HASH, Entry, LogRow, seal

GENESIS = Head(0, GENESIS_HASH)


def chain(n: int, station: str = "T01", salt: str = "") -> list[LogRow]:
    rows: list[LogRow] = []
    prev = GENESIS_HASH
    for seq in range(1, n + 1):
        row = seal(
            seq=seq,
            station_id=station,
            boot_id="b",
            recorded_utc="2026-01-01T00:00:00.000Z",
            recorded_at_ns=seq,
            clock_ok=True,
            hand=0,
            entry=Entry(Code.TILT_CLEARED, {"i": seq, "salt": salt}, "t", ActorRole.STATION),
            prev_hash=prev,
        )
        rows.append(row)
        prev = row.hash
    return rows


def test_rows_that_extend_the_head_are_stored_in_order_whatever_order_they_came_in() -> None:
    rows = chain(5)
    out = judge("T01", GENESIS, list(reversed(rows)), {})
    assert out.verdict is Verdict.OK
    assert [r.seq for r in out.store] == [1, 2, 3, 4, 5]
    assert out.head == Head(5, rows[-1].hash)


def test_a_resend_is_absorbed_as_duplicates() -> None:
    rows = chain(6)
    head = Head(4, rows[3].hash)
    stored = {r.seq: r.hash for r in rows[:4]}
    assert needs_lookup(head, rows) == [1, 2, 3, 4]
    out = judge("T01", head, rows, stored)
    assert out.verdict is Verdict.OK
    assert out.duplicates == 4
    assert [r.seq for r in out.store] == [5, 6]


def test_a_hole_is_a_gap_and_nothing_after_it_is_stored() -> None:
    rows = chain(6)
    out = judge("T01", Head(2, rows[1].hash), rows[3:], {})
    assert out.verdict is Verdict.GAP
    assert out.seq == 3
    assert out.store == ()
    assert out.head == Head(2, rows[1].hash)


def test_the_same_seq_with_another_hash_is_a_fork() -> None:
    ours, theirs = chain(4), chain(4, salt="rewritten")
    head = Head(4, ours[-1].hash)
    out = judge("T01", head, theirs[2:3], {3: ours[2].hash})
    assert out.verdict is Verdict.FORK
    assert out.seq == 3
    assert out.conflict is not None
    assert out.conflict.offered_hash == theirs[2].hash


def test_a_row_chaining_to_another_head_is_a_fork_at_the_head() -> None:
    ours, theirs = chain(4), chain(5, salt="rewritten")
    out = judge("T01", Head(4, ours[-1].hash), theirs[4:], {})
    assert out.verdict is Verdict.FORK
    assert out.seq == 4
    assert out.store == ()


def test_a_row_whose_content_does_not_match_its_hash_is_a_chain_break() -> None:
    rows = chain(3)
    forged = rows[2]._replace(payload='{"i":99}')
    out = judge("T01", Head(2, rows[1].hash), [forged], {})
    assert out.verdict is Verdict.CHAIN_BREAK
    assert out.store == ()


def test_a_row_of_another_station_is_refused() -> None:
    out = judge("T02", GENESIS, chain(1, station="T01"), {})
    assert out.verdict is Verdict.CHAIN_BREAK


@pytest.mark.parametrize(
    ("seq", "same_hash", "verdict"),
    [
        (3, True, Verdict.ROLLBACK),
        (5, True, Verdict.OK),
        (5, False, Verdict.FORK),
        (9, True, Verdict.OK),
    ],
)
def test_a_hello_behind_the_stored_head_is_a_rollback(
    seq: int, same_hash: bool, verdict: Verdict
) -> None:
    head = Head(5, "a" * 64)
    assert judge_hello(head, seq, "a" * 64 if same_hash else "b" * 64) is verdict
