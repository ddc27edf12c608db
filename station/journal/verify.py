"""Verifying a journal: gap-free sequence, hash chain, anchored head, protective triggers, the
people table and SQLite's own integrity check. `ChainChecker` is pure; `verify_file` is the edge
adapter behind `station journal verify` and never writes to the file it checks.

How the first bad row is named:
- a row whose own hash does not match its content (edited field, edited `prev_hash`, a row
  inserted or moved, since the sequence number is hashed) -> that row;
- a sequence number missing (a deleted row) -> the missing number;
- a row whose hash is right but chained to a hash that is not its predecessor's -> the
  predecessor, which was rewritten and re-hashed;
- rows missing from the tail (truncation) -> the first missing number, known from the anchor,
  a one-row table moved by a trigger in the same transaction as every insert. Cutting the tail
  therefore needs the anchor rewritten too: that defeats a local check, and only an off-station
  copy of the head (standards-ux requirement 6, the forwarder) closes the gap;
- tampering the station itself found and put on record (a `journal_integrity` or
  `replay_mismatch` tilt row) -> the seq that tilt names: once found, always reported.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from station.journal.codes import Code, TiltCode
from station.journal.pins import credential_digest
from station.journal.roster import PEOPLE_CODES, fold_people
from station.journal.rows import COLUMNS, GENESIS_HASH, LogRow
from station.journal.schema import tampered_triggers


@dataclass(frozen=True, slots=True)
class Problem:
    seq: int | None  # the first bad sequence number, when the problem has one
    text: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    rows: int
    head_seq: int
    head_hash: str
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_bad_seq(self) -> int | None:
        seqs = [p.seq for p in self.problems if p.seq is not None]
        return min(seqs) if seqs else None


class ChainChecker:
    """Walks rows in sequence order; remembers the first chain problem and stops judging there
    (everything after a break is suspect anyway)."""

    def __init__(self, station_id: str) -> None:
        self.station_id = station_id
        self.expected = 1
        self.prev_hash = GENESIS_HASH
        self.problem: Problem | None = None
        self.count = 0

    def check(self, row: LogRow) -> Problem | None:
        if self.problem is not None:
            return self.problem
        self.count += 1
        if row.seq != self.expected:
            if row.seq > self.expected:
                return self._bad(
                    self.expected,
                    f"seq {self.expected} is missing (the next row is seq {row.seq}): "
                    "a row was deleted",
                )
            return self._bad(row.seq, f"seq {row.seq} is out of order")
        if row.computed_hash() != row.hash:
            return self._bad(row.seq, "hash mismatch: the row's content was changed")
        if row.prev_hash != self.prev_hash:
            if row.seq == 1:
                return self._bad(1, "the first row does not start the chain")
            return self._bad(
                row.seq - 1,
                f"seq {row.seq} is chained to a different hash: seq {row.seq - 1} was "
                "rewritten and re-hashed",
            )
        if row.station_id != self.station_id:
            return self._bad(row.seq, f"row of another station ({row.station_id})")
        self.prev_hash = row.hash
        self.expected += 1
        return None

    def unreadable(self, seq: int | None, why: str) -> Problem:
        return self._bad(seq if seq is not None else self.expected, f"unreadable row: {why}")

    def finish(self, anchor: tuple[int, str] | None) -> Problem | None:
        """Compare the end of the chain with the anchored head."""
        if self.problem is not None:
            return self.problem
        last = self.expected - 1
        if anchor is None:
            return self._bad(None, "the anchor is missing: truncation cannot be ruled out")
        head_seq, head_hash = anchor
        if head_seq > last:
            return self._bad(
                last + 1,
                f"truncated: the anchor records head seq {head_seq} but the journal ends at "
                f"seq {last}",
            )
        if head_seq < last:
            return self._bad(head_seq + 1, f"rows after the anchored head seq {head_seq}")
        if head_hash != self.prev_hash:
            return self._bad(
                head_seq,
                f"the head hash differs from the anchor: the chain was rewritten at or before "
                f"seq {head_seq}",
            )
        return None

    def _bad(self, seq: int | None, text: str) -> Problem:
        self.problem = Problem(seq, text)
        return self.problem


def verify_rows(
    rows: Iterable[LogRow], station_id: str, anchor: tuple[int, str] | None
) -> VerifyReport:
    """Pure verification of rows already read (used by tests and by recovery)."""
    checker = ChainChecker(station_id)
    for row in rows:
        if checker.check(row) is not None:
            break
    problem = checker.finish(anchor)
    head = anchor if anchor is not None else (0, GENESIS_HASH)
    return VerifyReport(checker.count, head[0], head[1], (problem,) if problem else ())


def verify_file(path: str | Path) -> VerifyReport:
    """Everything `station journal verify` checks. Opens the file without migrating it."""
    p = Path(path)
    if not p.is_file():
        return VerifyReport(0, 0, GENESIS_HASH, (Problem(None, f"no journal at {p}"),))
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        return _verify(conn)
    except sqlite3.DatabaseError as exc:
        return VerifyReport(0, 0, GENESIS_HASH, (Problem(None, f"not a readable journal: {exc}"),))
    finally:
        conn.close()


def _verify(conn: sqlite3.Connection) -> VerifyReport:
    problems: list[Problem] = []
    integrity = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if integrity != ["ok"]:
        problems.append(Problem(None, "SQLite integrity_check: " + "; ".join(integrity[:5])))
    found = conn.execute("SELECT value FROM meta WHERE key = 'station_id'").fetchone()
    if found is None:
        return VerifyReport(0, 0, GENESIS_HASH, (Problem(None, "journal meta is missing"),))
    station_id = str(found[0])
    anchor_row = conn.execute("SELECT head_seq, head_hash FROM anchor WHERE id = 1").fetchone()
    anchor = None if anchor_row is None else (int(anchor_row[0]), str(anchor_row[1]))
    checker = ChainChecker(station_id)
    people_rows: list[LogRow] = []
    recorded: list[Problem] = []
    cursor = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log ORDER BY seq")
    for raw in cursor:
        try:
            row = LogRow.from_tuple(raw)
        except (TypeError, ValueError) as exc:
            checker.unreadable(raw[0] if isinstance(raw[0], int) else None, str(exc))
            break
        if checker.check(row) is not None:
            break
        if row.code in PEOPLE_CODES:
            people_rows.append(row)
        elif row.code == Code.TILT_RAISED:
            found_by_station = _recorded_tampering(row)
            if found_by_station is not None:
                recorded.append(found_by_station)
    cursor.close()
    chain_problem = checker.finish(anchor)
    if chain_problem is not None:
        problems.insert(0, chain_problem)
    problems.extend(recorded)
    for name in tampered_triggers(conn):
        problems.append(Problem(None, f"protective trigger {name} is missing or altered"))
    if chain_problem is None:
        problems.extend(_people_problems(conn, people_rows))
    head = anchor if anchor is not None else (0, GENESIS_HASH)
    return VerifyReport(checker.count, head[0], head[1], tuple(problems))


def _recorded_tampering(row: LogRow) -> Problem | None:
    """A tilt in which the station itself recorded finding the journal tampered with."""
    d = row.data()
    if d.get("tilt") not in (TiltCode.JOURNAL_INTEGRITY, TiltCode.REPLAY_MISMATCH):
        return None
    seq = d.get("seq")
    where = seq if isinstance(seq, int) else None
    return Problem(where, f"the station recorded at seq {row.seq}: {d['tilt']}: {d.get('detail')}")


def _people_problems(conn: sqlite3.Connection, rows: list[LogRow]) -> list[Problem]:
    journaled = fold_people(rows)
    table: dict[str, tuple[Any, ...]] = {
        str(r[0]): r
        for r in conn.execute(
            "SELECT name, role, active, kdf, salt, pin_hash, changed_seq FROM people"
        )
    }
    problems: list[Problem] = []
    for name in sorted(set(journaled) | set(table)):
        record, found = journaled.get(name), table.get(name)
        if record is None:
            problems.append(
                Problem(None, f"people table holds {name}, whom the journal never enrolled")
            )
            continue
        if found is None:
            text = f"{name} is enrolled in the journal but missing from the people table"
            problems.append(Problem(record.added_seq, text))
            continue
        _, role, active, kdf, salt, pin_hash, changed_seq = found
        digest = credential_digest(str(kdf), bytes(salt), bytes(pin_hash))
        if (str(role), bool(active), digest, int(changed_seq)) != (
            record.role,
            record.active,
            record.credential,
            record.changed_seq,
        ):
            problems.append(
                Problem(
                    record.changed_seq,
                    f"people table entry of {name} does not match its journal row",
                )
            )
    return problems
