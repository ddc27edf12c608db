"""`station bench history [--hands N] [--before B]`: the history check after a start, per new
hand, and the scrub's rate. Edge adapter (a journal file in a temporary folder, the clock).

A start resumes from the newest resume row and checks, after READY, what it took on trust
(`station.journal.history.check_history`): SQLite's quick_check of the file, the hash chain from
the last verified anchor (the rows the station wrote since the last check: walked, not
re-derived) and the hand before the resume row re-derived from the resume row before it. The
bench writes B hands of the scripted four-seat hold'em table (`station.bench.scripted`, the
crash test's table) through the recorder, starts once and checks (the anchor), writes N more
hands, starts again and times that check (`check_s`), and its parts each alone, best of three:
the chain walk (`walk_ms_per_new_hand`) and the re-derived hand (`rederive_ms`), whose sum per
new hand is `incremental_ms_per_new_hand` (bar: 0.3 ms), and the quick_check, which is linear in
the file's size, not in the new hands (`quick_check_ms`, `quick_check_ms_per_mb`).

Then the scrub, the full re-derivation of all B + N hands (`station.journal.scrub`, unpaced
here): `scrub_hands_per_s`; and, on the same rows, the parts of any full re-derivation that are C
code, each timed alone (`floor_*`): SQLite reading the rows, SHA-256 over each row's hashed
text, the JSON decoding of the payloads and the engine fed the decoded inputs; their sum is what
a full re-derivation costs in Python on this machine, whatever else it does. The journal is
written with `synchronous = OFF` (only the writing is faster; the reading is the same) and the
figures name the engine that ran (`engine`: station.native).
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
from contextlib import closing
from pathlib import Path
from typing import Any

from station.bench.report import Bar, emit
from station.bench.scripted import nlhe_session
from station.engine.table import Table
from station.formats.payload import input_from_dict
from station.journal.chainwalk import walk
from station.journal.clock import SystemClock
from station.journal.codes import DERIVED_CODES, INPUT_CODES, ActorRole
from station.journal.engine_id import deriving_code
from station.journal.history import HistoryPlan, check_history, rederive_before
from station.journal.recorder import Recorder
from station.journal.rows import COLUMNS, LogRow
from station.journal.scrub import ScrubProgress, scrub
from station.journal.store import Journal
from station.native import engine_kind
from station.people.check import PEOPLE_CHECKS

BARS = (Bar("incremental_ms_per_new_hand", "<=", 0.3), Bar("mismatches", "==", 0))
STATION = "bench-history"
RUNS = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hands", type=int, default=200, help="new hands since the last check (default 200)"
    )
    parser.add_argument(
        "--before", type=int, default=200, help="hands before the last check (default 200)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the scripted table's seed")


def _write(path: Path, before: int, new: int, seed: int) -> HistoryPlan:
    """B hands, a start and its check, N hands more, a start: what that start leaves to check."""
    events = nlhe_session(before + new, seed).events
    cut = _after_hand(events, before)
    with Journal.open(path, clock=SystemClock(), station_id=STATION, create=True) as journal:
        journal.conn.execute("PRAGMA synchronous = OFF")  # the writing is not what is measured
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        _record(recorder, events[:cut])
    with Journal.open(path, clock=SystemClock(), station_id=STATION) as journal:
        journal.conn.execute("PRAGMA synchronous = OFF")
        recorder = Recorder(journal)
        recorder.recover()
        checked = recorder.check_history()
        if checked is not None and not checked.ok:
            raise RuntimeError(f"the first check found problems: {checked}")
        _record(recorder, events[cut:])
    with Journal.open(path, clock=SystemClock(), station_id=STATION) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        if recorder.history is None:
            raise RuntimeError("the start did not resume from a resume row")
        return recorder.history


def _after_hand(events: Any, hands: int) -> int:
    """The index of the first event after hand `hands` (the next hand's puck move)."""
    from station.engine.events import Key, KeyPress, Puck  # noqa: PLC0415

    dealt = 0
    for i, item in enumerate(events):
        if isinstance(item.event, KeyPress) and item.event.key is Key.NEW_HAND:
            dealt += 1
        elif isinstance(item.event, Puck) and dealt == hands:
            return i
    return len(events)


def _record(recorder: Recorder, events: Any) -> None:
    for n, item in enumerate(events, 1):
        recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
        if n % 5000 == 0:
            print(f"written {n} of {len(events)} events", file=sys.stderr)


def _best(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def incremental(path: Path, plan: HistoryPlan, new: int) -> dict[str, object]:
    """The check (best of RUNS) and its parts, each timed alone."""
    reports = []

    def check() -> None:
        reports.append(check_history(path, STATION, None, plan))

    took = _best(check)
    report = reports[-1]
    assert report is not None
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        walked = _best(lambda: walk(conn, STATION, plan.anchor, plan.start[0] - 1))
        rederived = _best(lambda: rederive_before(conn, STATION, None, plan, None))
        quick = _best(lambda: conn.execute("PRAGMA quick_check").fetchall())
    size_mb = path.stat().st_size / 1e6
    return {
        "new_hands": new,
        "rows_walked": report.rows,
        "rows_rederived": report.rederived_rows,
        "check_s": round(took, 4),
        "incremental_ms_per_new_hand": round((walked + rederived) * 1000 / new, 3),
        "walk_ms_per_new_hand": round(walked * 1000 / new, 3),
        "walk_us_per_row": round(walked * 1e6 / max(report.rows, 1), 2),
        "rederive_ms": round(rederived * 1000, 2),
        "quick_check_ms": round(quick * 1000, 1),
        "quick_check_ms_per_mb": round(quick * 1000 / size_mb, 2),
        "journal_mb": round(size_mb, 1),
        "mismatches": report.mismatch_count,
        "history_ok": report.ok,
    }


def scrub_rate(path: Path, hands: int) -> dict[str, object]:
    with closing(sqlite3.connect(path)) as conn:
        head = int(conn.execute("SELECT MAX(seq) FROM log").fetchone()[0])
    started = time.perf_counter()
    found = scrub(
        path,
        STATION,
        None,
        ScrubProgress(run=1, target_seq=head),
        running=deriving_code(),
        report=lambda _p: None,
    )
    took = time.perf_counter() - started
    return {
        "scrub_rows": found.rows,
        "scrub_s": round(took, 3),
        "scrub_hands_per_s": round(hands / took, 1),
        "scrub_ms_per_hand": round(took * 1000 / hands, 3),
        "scrub_ok": found.ok,
        "scrub_mismatches": found.mismatches,
        **floor(path, head, hands),
    }


def floor(path: Path, upto_seq: int, hands: int) -> dict[str, float]:
    """ms per hand of the parts of a full re-derivation that are C code (see the docstring)."""
    query = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq <= ? ORDER BY seq"
    with closing(sqlite3.connect(path)) as conn:
        read = _best(lambda: conn.execute(query, (upto_seq,)).fetchall())
        rows = [LogRow.from_tuple(t) for t in conn.execute(query, (upto_seq,))]
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


def measure(folder: Path, before: int, new: int, seed: int) -> dict[str, object]:
    path = folder / "journal.sqlite3"
    plan = _write(path, before, new, seed)
    with closing(sqlite3.connect(path)) as conn:
        rows = int(conn.execute("SELECT COUNT(*) FROM log").fetchone()[0])
    figures: dict[str, object] = {
        "hands_before": before,
        "rows": rows,
        "engine": engine_kind(),
        **incremental(path, plan, new),
    }
    print(f"incremental check: {figures['incremental_ms_per_new_hand']} ms/hand", file=sys.stderr)
    figures.update(scrub_rate(path, before + new))
    return figures


def run(args: argparse.Namespace) -> int:
    if args.hands < 1 or args.before < 1:
        print("station bench history: --hands and --before must be at least 1", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="station-bench-history-") as tmp:
        figures = measure(Path(tmp), args.before, args.hands, args.seed)
    emit("history", figures, BARS)
    return 0
