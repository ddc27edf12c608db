"""`station bench history [--hands N]`: the history check after READY, per hand of journal.
Edge adapter (a journal file in a temporary folder, the clock).

A restart recovers from the newest checkpoint and checks what it skipped after READY, on a
thread of its own (`station.journal.history.check_history`: the hash chain, every input row
replayed through the engine and every derived row compared, the operational state folded, the
state compared with the checkpoint's, SQLite's quick_check). That check is linear in the
journal, and so is the first start after an upgrade of the engine, which replays everything.

The bench writes a journal of N hands of the scripted four-seat hold'em table
(`station.bench.scripted`, the crash test's table) through the recorder, with a checkpoint at
its end (the journal is written with `synchronous = OFF`, which only speeds up the writing:
the check reads it back the same), then runs the check three times and reports the best, per
hand and per row, and which engine ran (`engine`: station.native). The bar is the issue's: at
most 0.3 ms per hand.

It also times, on the same rows, the parts of the check that are C code no change of ours can
take out, each alone (`floor_*`): SQLite reading the rows, SHA-256 over each row's hashed text,
the JSON decoding of every input and derived payload (comparing a derived row needs it decoded
or the engine's re-encoded: the same cost), and the engine fed the decoded inputs. Their sum is
what any full re-derivation of the history costs in Python on this machine, whatever else it does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from station.bench.report import Bar, emit
from station.bench.scripted import nlhe_session
from station.engine.table import Table
from station.formats.payload import input_from_dict
from station.journal.clock import SystemClock
from station.journal.codes import DERIVED_CODES, INPUT_CODES, ActorRole
from station.journal.history import check_history
from station.journal.recorder import Recorder
from station.journal.rows import COLUMNS, LogRow
from station.journal.store import Journal
from station.native import engine_kind
from station.people.check import PEOPLE_CHECKS

BARS = (Bar("history_ms_per_hand", "<=", 0.3), Bar("mismatches", "==", 0))
STATION = "bench-history"
RUNS = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=200, help="hands in the journal (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the scripted table's seed")


def _write(path: Path, hands: int, seed: int) -> None:
    session = nlhe_session(hands, seed)
    with Journal.open(path, clock=SystemClock(), station_id=STATION, create=True) as journal:
        journal.conn.execute("PRAGMA synchronous = OFF")  # the writing is not what is measured
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        for n, item in enumerate(session.events, 1):
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
            if n % 2000 == 0:
                print(f"written {n} of {len(session.events)} events", file=sys.stderr)
        recorder.save_checkpoint()


def _best(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def floor(path: Path, upto_seq: int, hands: int) -> dict[str, float]:
    """ms per hand of the parts of a full re-derivation that are C code (see the docstring)."""
    query = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq <= ? ORDER BY seq"
    conn = sqlite3.connect(path)
    try:
        read = _best(lambda: conn.execute(query, (upto_seq,)).fetchall())
        rows = [LogRow.from_tuple(t) for t in conn.execute(query, (upto_seq,))]
    finally:
        conn.close()
    texts = [(r.prev_hash + r.fields_json()).encode() for r in rows]
    sha = hashlib.sha256
    hashed = _best(lambda: [sha(t).hexdigest() for t in texts])
    payloads = [r.payload for r in rows if r.code in INPUT_CODES or r.code in DERIVED_CODES]
    loads = json.loads
    decoded = _best(lambda: [loads(p) for p in payloads])
    inputs = [(r.seq, *input_from_dict(r.data())) for r in rows if r.code in INPUT_CODES]

    def feed() -> None:
        table = Table(None)
        for seq, event, at in inputs:
            if event is None:
                table.finish(seq=seq)
            else:
                table.feed(event, seq=seq, at=at)

    engine = _best(feed)
    parts = {"read": read, "hash": hashed, "json": decoded, "engine": engine}
    figures = {f"floor_{k}_ms_per_hand": round(v * 1000 / hands, 3) for k, v in parts.items()}
    figures["floor_ms_per_hand"] = round(sum(parts.values()) * 1000 / hands, 3)
    return figures


def measure(folder: Path, hands: int, seed: int) -> dict[str, object]:
    path = folder / "journal.sqlite3"
    _write(path, hands, seed)
    with Journal.open(path, clock=SystemClock(), station_id=STATION) as journal:
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()  # from the checkpoint at the end: the history is everything before it
        found = recorder.history
        rows = int(journal.conn.execute("SELECT COUNT(*) FROM log").fetchone()[0])
    if found is None:
        raise RuntimeError("the recovery did not start from the checkpoint")
    best = float("inf")
    report = None
    for run in range(RUNS):
        started = time.perf_counter()
        report = check_history(path, STATION, None, found)
        took = time.perf_counter() - started
        best = min(best, took)
        print(f"run {run + 1}: {took:.3f} s", file=sys.stderr)
    assert report is not None
    return {
        "hands": hands,
        "rows": rows,
        "rows_checked": report.rows,
        "history_check_s": round(best, 3),
        "history_ms_per_hand": round(best * 1000 / hands, 3),
        "history_us_per_row": round(best * 1e6 / max(report.rows, 1), 2),
        "mismatches": report.mismatch_count,
        "history_ok": report.ok,
        "engine": engine_kind(),
        **floor(path, found.seq, hands),
    }


def run(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("station bench history: --hands must be at least 1", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="station-bench-history-") as tmp:
        figures = measure(Path(tmp), args.hands, args.seed)
    emit("history", figures, BARS)
    return 0
