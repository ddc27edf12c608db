"""The history check after a start: what a recovery from a resume row did not replay, checked on
a read-only connection of its own so that it can run beside the live station. Edge adapter
(SQLite).

A start resumes from the newest `table.resume` row and replays only the rows after it. What it
took on trust is checked here, incrementally, from the last verified anchor (the row a previous
check or a full replay verified, named in its `station.history_checked` or `station.recovered`
row):

- the hash chain over every row from the anchor to the resume row, the fast way
  (`chainwalk`): the rows a station wrote live since the last check are not re-derived, only
  checked to be the rows it wrote;
- the hand before the resume row re-derived from the resume row before it: every derived row
  compared, and the document the re-derivation arrives at compared with the one the start
  used (`Replay`, exact in a stretch this code wrote, engine drift in another);
- SQLite's `PRAGMA quick_check` of the file, which a start from a resume row leaves out (the
  one part linear in the file's size: C code, and it does not hold the interpreter's lock).

The full re-derivation of every hand and SQLite's `integrity_check` are the scrub's (`scrub`):
linear in the journal, they run at low priority once a day and after an upgrade.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from station.engine.cards import DeckRegistry
from station.engine.resume import ResumeError
from station.journal.chainwalk import walk
from station.journal.codes import Code
from station.journal.engine_id import writer_at
from station.journal.replay import Mismatch, Replay
from station.journal.resume_rows import load
from station.journal.rows import COLUMNS, GENESIS_HASH, LogRow
from station.journal.verify import Problem

_ROWS = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq >= ? AND seq <= ? ORDER BY seq"
_BEFORE = (
    f"SELECT {', '.join(COLUMNS)} FROM log WHERE code = ? AND seq < ? ORDER BY seq DESC LIMIT 1"
)


@dataclass(frozen=True, slots=True)
class HistoryPlan:
    """What a recovery from a resume row leaves to check: the chain from `anchor` (the last
    verified row: seq, hash) to the resume row `start` (seq, its prev_hash), and the hand
    before it. `upto` (seq, hash) is the head the recovery checked from the resume row on:
    the anchor a clean check records."""

    anchor: tuple[int, str]
    start: tuple[int, str]
    upto: tuple[int, str]


NO_ANCHOR = (0, GENESIS_HASH)


@dataclass(frozen=True, slots=True)
class HistoryReport:
    from_seq: int  # the anchor the walk started after
    upto_seq: int  # the resume row the start used
    rows: int  # rows of the chain walked
    rederived_from: int  # the resume row the re-derived hand started from (0: none)
    rederived_rows: int
    inputs: int
    duration_s: float
    mismatches: tuple[Mismatch, ...]  # the first replay.MAX_REPORTED
    mismatch_count: int
    chain: Problem | None
    drifts: tuple[Mismatch, ...] = ()  # differences in a stretch other engine code wrote
    drift_count: int = 0
    anchor: tuple[int, str] | None = None  # verified up to here (None: not clean)
    note: str = ""
    quick_check: tuple[str, ...] = ()  # `PRAGMA quick_check` of the file (empty: sound)

    @property
    def ok(self) -> bool:
        return self.mismatch_count == 0 and self.chain is None and not self.quick_check


def check_history(
    path: str | Path,
    station_id: str,
    registry: DeckRegistry | None,
    plan: HistoryPlan,
    stop: threading.Event | None = None,
) -> HistoryReport | None:
    """Check what the start took on trust (see the module). None when `stop` was set first."""
    started = time.monotonic()
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    quick: tuple[str, ...] = ()
    try:
        found = [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
        quick = () if found == ["ok"] else tuple(found)
        chain, rows = _walk(conn, station_id, plan, stop)
        if chain is _STOPPED:
            return None
        replay, origin, note = rederive_before(conn, station_id, registry, plan, stop)
    except sqlite3.DatabaseError as exc:
        chain, rows, replay, origin, note = Problem(None, f"unreadable: {exc}"), 0, None, 0, ""
        quick = quick or (str(exc),)
    finally:
        conn.close()
    if stop is not None and stop.is_set():
        return None
    count = replay.count if replay is not None else 0
    chain = chain or (replay.chain.problem if replay is not None else None)
    clean = chain is None and count == 0 and not quick
    return HistoryReport(
        from_seq=plan.anchor[0],
        upto_seq=plan.start[0],
        rows=rows,
        rederived_from=origin,
        rederived_rows=replay.rows if replay is not None else 0,
        inputs=replay.inputs if replay is not None else 0,
        duration_s=round(time.monotonic() - started, 3),
        mismatches=tuple(replay.mismatches) if replay is not None else (),
        mismatch_count=count,
        chain=chain,
        drifts=tuple(replay.drifts) if replay is not None else (),
        drift_count=replay.drift if replay is not None else 0,
        anchor=plan.upto if clean else None,
        note=note,
        quick_check=quick,
    )


_STOPPED = Problem(None, "stopped")


def _walk(
    conn: sqlite3.Connection,
    station_id: str,
    plan: HistoryPlan,
    stop: threading.Event | None,
) -> tuple[Problem | None, int]:
    """The chain from the anchor to the row before the resume row, and its link to it."""
    (anchor_seq, anchor_hash), (start_seq, start_prev) = plan.anchor, plan.start
    if anchor_seq >= start_seq:  # verified past it already: the anchor must still be there
        found = conn.execute("SELECT hash FROM log WHERE seq = ?", (anchor_seq,)).fetchone()
        if found is None or found[0] != anchor_hash:
            return Problem(anchor_seq, f"seq {anchor_seq} is not the row verified before"), 0
        return None, 0
    walked = walk(conn, station_id, plan.anchor, start_seq - 1, stop)
    if walked.stopped:
        return _STOPPED, walked.rows
    if walked.problem is not None:
        return walked.problem, walked.rows
    if walked.last_hash != start_prev:
        return Problem(
            start_seq - 1,
            f"the resume row at seq {start_seq} is not chained to the verified history: "
            f"seq {start_seq - 1} was rewritten",
        ), walked.rows
    return None, walked.rows


def rederive_before(
    conn: sqlite3.Connection,
    station_id: str,
    registry: DeckRegistry | None,
    plan: HistoryPlan,
    stop: threading.Event | None,
) -> tuple[Replay | None, int, str]:
    """The hand before the resume row, from the resume row before it: (replay, its seq, note)."""
    start_seq = plan.start[0]
    raw = conn.execute(_BEFORE, (Code.TABLE_RESUME.value, start_seq)).fetchone()
    if raw is None:
        return None, 0, "no resume row before the one the start used: nothing re-derived"
    try:
        row = LogRow.from_tuple(raw)
        point = load(row, registry, writer_at(conn, row.seq))
    except (ResumeError, TypeError, ValueError) as exc:
        return None, 0, f"the resume row before it cannot be read here ({exc}): nothing re-derived"
    replay = Replay(registry, station_id, point)
    cursor = conn.execute(_ROWS, (point.seq, start_seq))
    try:
        while batch := cursor.fetchmany(512):
            if stop is not None and stop.is_set():
                return None, point.seq, ""
            for t in batch:
                try:
                    row = LogRow.from_tuple(t)
                except (TypeError, ValueError) as exc:
                    replay.chain.unreadable(t[0] if isinstance(t[0], int) else None, str(exc))
                    break
                replay.row(row)
    finally:
        cursor.close()
    replay.finish()
    reached = replay.resumed is not None and replay.resumed[0] == start_seq
    if not reached and not any(m.seq == start_seq for m in (*replay.mismatches, *replay.drifts)):
        replay.mismatch(start_seq, "the re-derivation did not reach the resume row")
    return replay, point.seq, ""


# --- across a pipe (the daemon runs the check in a child process) ---------------------------------


def report_to_dict(r: HistoryReport) -> dict[str, object]:
    def found(ms: tuple[Mismatch, ...]) -> list[list[object]]:
        return [[m.seq, m.text] for m in ms]

    return {
        "from_seq": r.from_seq,
        "upto_seq": r.upto_seq,
        "rows": r.rows,
        "rederived_from": r.rederived_from,
        "rederived_rows": r.rederived_rows,
        "inputs": r.inputs,
        "duration_s": r.duration_s,
        "mismatches": found(r.mismatches),
        "mismatch_count": r.mismatch_count,
        "chain": None if r.chain is None else [r.chain.seq, r.chain.text],
        "drifts": found(r.drifts),
        "drift_count": r.drift_count,
        "anchor": None if r.anchor is None else list(r.anchor),
        "note": r.note,
        "quick_check": list(r.quick_check),
    }


def report_from_dict(d: dict[str, object]) -> HistoryReport:
    """What `report_to_dict` wrote; ValueError (or TypeError, KeyError) when it is not."""

    def found(raw: object) -> tuple[Mismatch, ...]:
        if not isinstance(raw, list):
            raise ValueError("not a list of [seq, text]")
        return tuple(Mismatch(int(seq), str(text)) for seq, text in raw)

    chain, anchor = d.get("chain"), d.get("anchor")
    quick = d.get("quick_check", [])
    if not isinstance(quick, list):
        raise ValueError("quick_check: not a list")
    return HistoryReport(
        from_seq=_whole(d["from_seq"]),
        upto_seq=_whole(d["upto_seq"]),
        rows=_whole(d["rows"]),
        rederived_from=_whole(d["rederived_from"]),
        rederived_rows=_whole(d["rederived_rows"]),
        inputs=_whole(d["inputs"]),
        duration_s=float(str(d["duration_s"])),
        mismatches=found(d["mismatches"]),
        mismatch_count=_whole(d["mismatch_count"]),
        chain=None if chain is None else Problem(*_pair(chain)),
        drifts=found(d["drifts"]),
        drift_count=_whole(d["drift_count"]),
        anchor=None if anchor is None else _anchor(anchor),
        note=str(d.get("note", "")),
        quick_check=tuple(str(q) for q in quick),
    )


def _whole(v: object) -> int:
    if type(v) is not int:
        raise ValueError(f"{v!r} is not a whole number")
    return v


def _pair(v: object) -> tuple[int | None, str]:
    if not isinstance(v, list) or len(v) != 2:
        raise ValueError("not [seq, text]")
    return (None if v[0] is None else _whole(v[0])), str(v[1])


def _anchor(v: object) -> tuple[int, str]:
    if not isinstance(v, list) or len(v) != 2 or not isinstance(v[1], str):
        raise ValueError("not [seq, hash]")
    return _whole(v[0]), v[1]
