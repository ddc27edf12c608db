"""`station bench startup [--runs N] [--journal FILE]`: process start to READY=1, as systemd sees
it; `station bench startup --make N --out FILE`: a journal of N hands written by a previous
engine, to start on. Edge adapter (child processes, a notify socket, files).

Each run starts `station run` (see `station.bench.spawned`: emulated shoe and board on ptys,
display on SDL's dummy driver) and times it from just before the process is created to the
READY=1 datagram on `NOTIFY_SOCKET`; then it is stopped with SIGTERM. The runs share one folder:
the first creates the journal, the later ones recover it (a restart), as on a table.
`--journal FILE` copies an existing journal of the emulated table (station id DEMO: one
`--make` wrote, or one a `station bench soak` left behind) into the folder first, to show what
a restart on a long journal costs: the runs restart on it one after the other, as a table does.
`recoveries` says, per run, what its recovery replayed (from its `station.recovered` row): the
rows from the resume row it started at (`resume_seq`; 0: the first row, a journal from before
resume rows, whose first start replays it all and writes one) and whether the rows it replayed
re-derived differently because another engine wrote them (`drift`). The line names the
journal's rows, hands and size.

`--make N --out FILE` writes N hands of the scripted table (`station.bench.make_journal`: the
recorder in bulk, every row as a live table writes it) with a *previous engine*: a copy of this
package in a temporary folder whose engine words its first deal prompt otherwise ("DEAL THE
FIRST CARD TO SEAT n" for "DEAL: FIRST CARD TO SEAT n"), run as pure Python. So the journal is
what an upgrade finds: written by other engine code (its `station.boot` rows name another
code, its rows differ where the prompt does) and another engine build, in the resume format
this one reads. Then `--journal FILE` starts the current engine on it.

Bar (docs/performance.md): `median_s` <= 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from station.bench.report import Bar, emit, say
from station.output import Guard, OutputRefusedError, check_target

BARS = (Bar("median_s", "<=", 2),)
READY_TIMEOUT_S = 900.0  # a journal from before resume rows is replayed before READY
PACKAGE = Path(__file__).resolve().parent.parent  # station/
# The previous engine's difference: one prompt worded otherwise (file, this text, that text).
ALTERED = (
    "engine/dispatch.py",
    'f"DEAL:{each} FIRST CARD TO SEAT {order[0]}{flops}"',
    'f"DEAL THE{each} FIRST CARD TO SEAT {order[0]}{flops}"',
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=5, help="starts to time (default 5)")
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        metavar="FILE",
        help="restart on a copy of this journal (of the emulated table, station id DEMO)",
    )
    parser.add_argument(
        "--make",
        type=int,
        default=None,
        metavar="HANDS",
        help="write a journal of this many hands with a previous engine (to --out), then stop",
    )
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="for --make")


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
        out.update(_size(table.journal, journal))
    return out


def _size(copy: Path, source: Path) -> dict[str, object]:
    """The journal's hands and size in MB (its file and WAL, as handed to the bench)."""
    with closing(sqlite3.connect(f"file:{copy}?mode=ro", uri=True)) as conn:
        found = conn.execute("SELECT MAX(hand) FROM log WHERE code = 'table.resume'").fetchone()
    wal = source.with_name(source.name + "-wal")
    size = source.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    return {"journal_hands": int(found[0] or 0), "journal_mb": round(size / 1e6, 1)}


def recovered(path: Path, runs: int) -> list[dict[str, object]]:
    """What each run's recovery did, from its `station.recovered` row: rows replayed, the
    resume row it started from (0: the first row), engine drift, its own duration."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        found = conn.execute(
            "SELECT payload FROM log WHERE code = 'station.recovered' ORDER BY seq DESC LIMIT ?",
            (runs,),
        ).fetchall()
    out = []
    for (payload,) in reversed(found):
        data = json.loads(payload)
        keys = ("rows", "inputs", "resume_seq", "drift", "mismatches", "duration_s")
        out.append({k: data.get(k) for k in keys})
    return out


def make(hands: int, out: Path) -> dict[str, object]:
    """Write the journal with the previous engine (see the module); its JSON line."""
    with tempfile.TemporaryDirectory(prefix="previous-engine-") as tmp:
        copy = Path(tmp) / "station"
        shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("_native", "__pycache__"))
        source = copy / ALTERED[0]
        text = source.read_text(encoding="utf-8")
        if ALTERED[1] not in text:
            raise RuntimeError(f"{ALTERED[0]} no longer says {ALTERED[1]}: update ALTERED")
        source.write_text(text.replace(ALTERED[1], ALTERED[2]), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=tmp, STATION_ENGINE="pure")
        command = [sys.executable, "-m", "station.bench.make_journal"]
        command += ["--out", str(out.resolve()), "--hands", str(hands)]
        proc = subprocess.run(
            command, env=env, cwd=tmp, stdout=subprocess.PIPE, text=True, check=False
        )
    if proc.returncode != 0:
        raise RuntimeError(f"writing the journal failed (exit {proc.returncode})")
    made: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return made


def run(args: argparse.Namespace) -> int:
    if args.make is not None:
        if args.make < 1 or args.out is None:
            print(
                "station bench startup: --make needs a number of hands and --out", file=sys.stderr
            )
            return 2
        try:  # a new file only: never a journal, its companions or a config (station.output)
            check_target(args.out, Guard())
        except OutputRefusedError as exc:
            print(f"station bench startup: {exc}", file=sys.stderr)
            return 2
        try:
            figures = make(args.make, args.out)
        except RuntimeError as exc:
            print(f"station bench startup: {exc}", file=sys.stderr)
            return 1
        emit("startup", figures, ())
        return 0
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
