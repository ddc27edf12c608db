"""`station bench startup [--runs N]`: process start to READY=1, as systemd sees it. Edge
adapter (child processes, a notify socket).

Each run starts `station run` (see `station.bench.spawned`: emulated shoe and board on ptys,
display on SDL's dummy driver) and times it from just before the process is created to the
READY=1 datagram on `NOTIFY_SOCKET`; then it is stopped with SIGTERM. The runs share one folder:
the first creates the journal, the later ones recover it (a restart), as on a table.
`--journal FILE` copies an existing journal of the emulated table (one a `station bench soak`
left behind, say) into the folder first, to show what a restart on a long journal costs: the
runs restart on it one after the other, as a table does. `recoveries` says, per run, what its
recovery replayed (from its `station.recovered` row): the rows after the checkpoint it started
from (`checkpoint_seq`, 0 for the first row: a journal from before checkpoints, whose first
start replays it all and saves one).

Bar (docs/performance.md): `median_s` <= 2.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from station.bench.report import Bar, emit, say

BARS = (Bar("median_s", "<=", 2),)
READY_TIMEOUT_S = 600.0  # a long journal is replayed before READY


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=5, help="starts to time (default 5)")
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        metavar="FILE",
        help="restart on a copy of this journal (of the emulated table, station id DEMO)",
    )


def measure(runs: int, folder: Path, journal: Path | None = None) -> dict[str, object]:
    from station.bench.spawned import copy_journal, emulated_table, stop  # noqa: PLC0415

    times: list[float] = []
    rows: int | None = None
    with emulated_table(folder) as table:
        if journal is not None:
            rows = copy_journal(journal, table.journal)
        for i in range(runs):
            table.notify.drain()
            started = time.monotonic()
            proc = table.spawn()
            try:
                ready = table.notify.wait_for("READY=1", READY_TIMEOUT_S)
            finally:
                code = stop(proc)
            if ready is None:
                raise RuntimeError(f"run {i + 1}: no READY=1 (exit {code}): {table.log_tail()}")
            times.append(ready[0] - started)
            say(f"run {i + 1}: READY=1 after {times[-1]:.3f} s")
        recoveries = recovered(table.journal, runs)
    out: dict[str, object] = {
        "runs": runs,
        "median_s": round(statistics.median(times), 3),
        "min_s": round(min(times), 3),
        "max_s": round(max(times), 3),
        "runs_s": [round(t, 3) for t in times],
        "recoveries": recoveries,
    }
    if journal is not None:
        out["journal_rows"] = rows
    return out


def recovered(path: Path, runs: int) -> list[dict[str, object]]:
    """What each run's recovery did, from its `station.recovered` row: rows replayed, the
    checkpoint it started from (0: the first row), its own duration."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        found = conn.execute(
            "SELECT payload FROM log WHERE code = 'station.recovered' ORDER BY seq DESC LIMIT ?",
            (runs,),
        ).fetchall()
    out = []
    for (payload,) in reversed(found):
        data = json.loads(payload)
        out.append({k: data.get(k) for k in ("rows", "inputs", "checkpoint_seq", "duration_s")})
    return out


def run(args: argparse.Namespace) -> int:
    if args.runs < 1:
        print("station bench startup: --runs must be at least 1", file=sys.stderr)
        return 2
    if args.journal is not None and not args.journal.is_file():
        print(f"station bench startup: {args.journal}: no such journal", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        try:
            figures = measure(args.runs, Path(tmp), args.journal)
        except RuntimeError as exc:
            print(f"station bench startup: {exc}", file=sys.stderr)
            return 1
    emit("startup", figures, BARS)
    return 0
