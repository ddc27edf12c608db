"""The central ingest's judgement of one station's incoming rows against its stored chain.
Pure.

The centre stores a row only when it extends the stored head: `seq = head + 1`, `prev_hash =`
the head's hash, and its own hash recomputed from its columns. Every other row is one of:

- a duplicate: a seq already stored with the same hash (a resend; absorbed);
- a gap: beyond head + 1 (rows before it were lost in transit): not stored, the station is
  told to send again from head + 1;
- a fork: a seq already stored with another hash, or a row at head + 1 that chains to another
  hash: the station's journal was rolled back or rewritten;
- a chain break: a row whose hash does not match its content, or that names another station.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from station.fleet.messages import Verdict
from station.journal.rows import LogRow


@dataclass(frozen=True, slots=True)
class Head:
    seq: int
    hash: str


@dataclass(frozen=True, slots=True)
class Conflict:
    seq: int
    stored_hash: str
    offered: LogRow | None  # the row offered (None when only its prev_hash showed the fork)
    offered_hash: str


@dataclass(frozen=True, slots=True)
class Outcome:
    verdict: Verdict
    head: Head  # the head after storing `store`
    store: tuple[LogRow, ...] = ()
    duplicates: int = 0
    seq: int | None = None  # the row the verdict is about (gap, fork, chain break)
    detail: str = ""
    conflict: Conflict | None = None


def needs_lookup(head: Head, rows: Iterable[LogRow]) -> list[int]:
    """The seqs at or below the head whose stored hashes `judge` must see."""
    return sorted({r.seq for r in rows if r.seq <= head.seq})


def judge(
    station_id: str, head: Head, rows: Iterable[LogRow], stored: Mapping[int, str]
) -> Outcome:
    """What to do with `rows` (any order, any duplicates) given the stored `head` and the
    stored hashes of the seqs `needs_lookup` named."""
    new: list[LogRow] = []
    hashes: dict[int, str] = dict(stored)
    h = head
    dups = 0
    for row in sorted(rows, key=lambda r: r.seq):
        if row.station_id != station_id:
            return _stop(Verdict.CHAIN_BREAK, h, new, dups, row.seq, "row of another station")
        if row.seq <= h.seq:
            known = hashes.get(row.seq)
            if known is None:  # not looked up: judge it when it comes again
                continue
            if known == row.hash:
                dups += 1
                continue
            return _stop(
                Verdict.FORK,
                h,
                new,
                dups,
                row.seq,
                f"seq {row.seq} is stored with another hash",
                Conflict(row.seq, known, row, row.hash),
            )
        if row.seq > h.seq + 1:
            return _stop(Verdict.GAP, h, new, dups, h.seq + 1, f"seq {h.seq + 1} missing")
        if row.computed_hash() != row.hash:
            return _stop(Verdict.CHAIN_BREAK, h, new, dups, row.seq, "hash does not match row")
        if row.prev_hash != h.hash:
            return _stop(
                Verdict.FORK,
                h,
                new,
                dups,
                h.seq,
                f"seq {row.seq} chains to another row {h.seq}",
                Conflict(h.seq, h.hash, None, row.prev_hash),
            )
        new.append(row)
        hashes[row.seq] = row.hash
        h = Head(row.seq, row.hash)
    return Outcome(Verdict.OK, h, tuple(new), dups)


def _stop(
    verdict: Verdict,
    head: Head,
    new: list[LogRow],
    dups: int,
    seq: int,
    detail: str,
    conflict: Conflict | None = None,
) -> Outcome:
    return Outcome(verdict, head, tuple(new), dups, seq, detail, conflict)


def judge_hello(head: Head, hello_seq: int, hello_hash: str) -> Verdict:
    """The station's announced head against the stored one: behind = rollback; the same seq
    with another hash = fork (a head ahead is checked by the station against our head)."""
    if hello_seq < head.seq:
        return Verdict.ROLLBACK
    if hello_seq == head.seq and hello_hash != head.hash:
        return Verdict.FORK
    return Verdict.OK
