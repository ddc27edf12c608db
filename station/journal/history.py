"""Checking what a recovery from a checkpoint skipped: the journal from its first row up to the
checkpoint, replayed on a read-only connection of its own, so that it can run on a thread
beside the live station. Edge adapter (SQLite).

The same `Replay` as recovery: every derived row re-derived and compared, the operational state
folded, the hash chain checked; then the chain must end in the very row the checkpoint was
taken at, and the state replay arrives at must equal the checkpoint's (`same_state`). SQLite's
`PRAGMA quick_check` of the file, which a recovery from a checkpoint leaves out, runs first.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from station.engine.cards import DeckRegistry
from station.journal.checkpoint import Checkpoint, CheckpointError, load_state, same_state
from station.journal.replay import Mismatch, Replay
from station.journal.rows import COLUMNS, LogRow
from station.journal.verify import Problem

BATCH = 512


@dataclass(frozen=True, slots=True)
class HistoryReport:
    upto_seq: int  # the checkpoint's row
    rows: int
    inputs: int
    duration_s: float
    mismatches: tuple[Mismatch, ...]  # the first replay.MAX_REPORTED
    mismatch_count: int
    chain: Problem | None
    state: str | None  # where the replayed state differs from the checkpoint's
    quick_check: tuple[str, ...] = ()  # `PRAGMA quick_check` of the file (recovery skipped it)

    @property
    def ok(self) -> bool:
        return (
            self.mismatch_count == 0
            and self.chain is None
            and self.state is None
            and not self.quick_check
        )


def check_history(
    path: str | Path,
    station_id: str,
    registry: DeckRegistry | None,
    found: Checkpoint,
    stop: threading.Event | None = None,
) -> HistoryReport | None:
    """Replay rows 1..`found.seq` and compare. None when `stop` was set before the end."""
    started = time.monotonic()
    replay = Replay(registry, station_id)
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    quick: tuple[str, ...] = ()
    try:
        found_quick = [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
        quick = () if found_quick == ["ok"] else tuple(found_quick)
        cursor = conn.execute(
            f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq <= ? ORDER BY seq", (found.seq,)
        )
        while batch := cursor.fetchmany(BATCH):
            if stop is not None and stop.is_set():
                return None
            for raw in batch:
                try:
                    row = LogRow.from_tuple(raw)
                except (TypeError, ValueError) as exc:
                    replay.chain.unreadable(raw[0] if isinstance(raw[0], int) else None, str(exc))
                    break
                replay.row(row)
            time.sleep(0)  # let the live station's threads in between batches
    except sqlite3.DatabaseError as exc:
        replay.chain.unreadable(None, str(exc))
        quick = quick or (str(exc),)
    finally:
        conn.close()
    replay.finish()
    chain = replay.chain.problem
    if chain is None and (replay.chain.expected, replay.chain.prev_hash) != (
        found.seq + 1,
        found.row_hash,
    ):
        chain = Problem(
            found.seq,
            f"the chain up to seq {found.seq} does not end in the row the checkpoint was taken at",
        )
    try:
        saved = load_state(found.state)
    except CheckpointError as exc:
        state: str | None = str(exc)
    else:
        state = same_state(
            (replay.table, replay.ops, replay.hand), (saved.table, saved.ops, saved.hand)
        )
    return HistoryReport(
        found.seq,
        replay.rows,
        replay.inputs,
        round(time.monotonic() - started, 3),
        tuple(replay.mismatches),
        replay.count,
        chain,
        state,
        quick,
    )
