"""`station bench long`: the cost of one input in a hand that never ends. Edge adapter (clock,
a temporary journal).

A table can stay in one hand for hours (a stuck FOLD key, a long tournament hand): every input
must cost the same at the 300,000th as at the 10,000th. The bench deals one six-seat hold'em
hand and then presses FOLD for seat 3 again and again (the first fold counts, each later one is
a "does not apply" warning on the dealer screen), and measures:

- the engine: `Table.feed` and the snapshot the daemon publishes after each input, per input,
  over the `--window` inputs ending at 1/30, 1/10, 1/3 and all of `--lines` (10,000 / 30,000 /
  100,000 / 300,000 by default), in CPU time of this process (other work on the machine does
  not inflate it), timed in five pieces of which the fastest counts; `ratio` is the slowest
  mark over the fastest (bar: <= 1.5, flat);
- the journal: the same inputs through the `Recorder` into a real journal in a temporary
  folder (commit, witness, snapshot), at the same fractions of `--journal-lines` (each commit
  is an fsync, so this part is shorter by default): in CPU time (`journal_per_input_us`,
  `journal_ratio`, bar <= 1.5: what the station does per input) and on the wall clock
  (`journal_wall_*`, no bar: it adds the waits for the disk, which other work on a shared
  machine's disk lengthens at random);
- `station replay`'s path: the whole session as text, read and replayed (`replay_s`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from station.bench.report import Bar, emit, say
from station.engine.events import InputEvent, Key, KeyPress
from station.engine.table import Table
from station.formats.replay import replay_lines
from station.formats.session import parse_session
from station.journal import Journal, Recorder, SystemClock
from station.journal.codes import ActorRole
from station.native import engine_kind

BARS = (Bar("ratio", "<=", 1.5), Bar("journal_ratio", "<=", 1.5))
FRACTIONS = (30, 10, 3, 1)  # the marks: lines // each
CHUNKS = 5  # each mark's window is timed in this many pieces: the fastest counts

DEAL = (
    '{"type":"setup","game":"nlhe","profile":"RR11","stakes":{"sb":50,"bb":100},'
    '"seats":{"1":10000,"2":10000,"3":10000,"4":10000,"5":10000,"6":10000},"button":6}\n'
    '{"type":"puck","seat":6}\n'
    '{"type":"zone","seat":1,"amount":50}\n'
    '{"type":"zone","seat":2,"amount":100}\n'
    '{"type":"key","key":"NEW_HAND"}\n'
    + "".join(
        f'{{"type":"draw","card":"{c}"}}\n'
        for c in ("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc")
    )
)
STUCK = '{"type":"key","key":"FOLD","seat":3}\n'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lines", type=int, default=300_000, help="FOLD inputs in the one hand (default 300000)"
    )
    parser.add_argument(
        "--journal-lines",
        type=int,
        default=30_000,
        help="of them through a real journal (default 30000; each is a commit)",
    )
    parser.add_argument(
        "--window", type=int, default=2000, help="inputs averaged at each mark (default 2000)"
    )


def session_text(lines: int) -> str:
    """The one-hand session: the deal, then `lines` FOLD keys for seat 3."""
    return DEAL + STUCK * lines


def _deal_events() -> list[tuple[InputEvent, float | None]]:
    return [(line.event, line.t) for line in parse_session(DEAL, "deal").lines]


def marks(lines: int) -> list[int]:
    return sorted({max(1, lines // f) for f in FRACTIONS})


def _timed(
    feed: Callable[[int], None],
    lines: int,
    window: int,
    clocks: tuple[Callable[[], float], ...] = (time.perf_counter,),
    chunks: int = CHUNKS,
) -> list[dict[str, float]]:
    """Per-input microseconds at each mark, one table per clock: the `window` inputs ending
    there, timed in `chunks` pieces, the fastest piece (as `timeit` does: a busy machine only
    adds time)."""
    piece = max(1, window // chunks)
    starts: dict[int, list[int]] = {}
    for m in marks(lines):
        begin = max(0, m - piece * chunks)
        for k in range(chunks):
            starts.setdefault(begin + k * piece, []).append(m)
    best: list[dict[int, float]] = [{} for _ in clocks]
    began: dict[int, tuple[int, list[float]]] = {}
    for i in range(lines):
        for m in starts.get(i, ()):
            began[m] = (i, [c() for c in clocks])
        feed(i)
        for m, (first, t0) in list(began.items()):
            if i + 1 - first == piece or i + 1 == m:
                for b, c, t in zip(best, clocks, t0, strict=True):
                    took = (c() - t) / (i + 1 - first)
                    b[m] = min(b.get(m, took), took)
                del began[m]
    return [{str(m): round(b[m] * 1e6, 2) for m in sorted(b)} for b in best]


def _engine(lines: int, window: int) -> dict[str, float]:
    table = Table()
    for n, (event, t) in enumerate(_deal_events(), 1):
        table.feed(event, seq=n, at=t)
    fold = KeyPress(Key.FOLD, seat=3)
    base = 1000

    def feed(i: int) -> None:
        table.feed(fold, seq=base + i, at=None)
        table.snapshot()

    # The engine is pure CPU: the process's CPU time, which other work on the machine does not
    # inflate.
    (cpu,) = _timed(feed, lines, window, (time.process_time,))
    return cpu


def _journal(lines: int, window: int) -> list[dict[str, float]]:
    """(CPU time, wall clock) per input through the recorder."""
    with tempfile.TemporaryDirectory(prefix="bench-long-") as folder:
        journal = Journal.open(
            Path(folder) / "journal.sqlite", clock=SystemClock(), station_id="BENCH", create=True
        )
        try:
            recorder = Recorder(journal)
            recorder.recover()
            for event, t in _deal_events():
                recorder.record(event, actor="bench", role=ActorRole.DEVICE, at=t)
            fold = KeyPress(Key.FOLD, seat=3)

            def feed(i: int) -> None:
                recorder.record(fold, actor="bench", role=ActorRole.DEVICE, at=None)
                recorder.snapshot()

            return _timed(feed, lines, window, (time.process_time, time.perf_counter))
        finally:
            journal.close()


def _ratio(per_input: dict[str, float]) -> float | None:
    """The slowest mark over the fastest: 1.0 when the cost per input is flat."""
    values = list(per_input.values())
    if len(values) < 2 or min(values) <= 0:
        return None
    return round(max(values) / min(values), 2)


def run(args: argparse.Namespace) -> int:
    if args.lines < 1 or args.journal_lines < 0 or args.window < 1:
        print(
            "station bench long: --lines and --window must be at least 1, --journal-lines 0 "
            "or more",
            file=sys.stderr,
        )
        return 2
    say(f"engine: {args.lines} FOLD inputs in one hand")
    engine = _engine(args.lines, args.window)
    say(f"replay: the {args.lines + DEAL.count(chr(10))}-line session as text")
    started = time.perf_counter()
    session = parse_session(session_text(args.lines), "long.jsonl")
    decisions = sum(1 for _ in replay_lines(session.lines))
    replay_s = time.perf_counter() - started
    journal: dict[str, float] = {}
    journal_wall: dict[str, float] = {}
    if args.journal_lines:
        say(f"journal: {args.journal_lines} FOLD inputs recorded")
        journal, journal_wall = _journal(args.journal_lines, min(args.window, args.journal_lines))
    emit(
        "long",
        {
            "lines": args.lines,
            "per_input_us": engine,
            "ratio": _ratio(engine),
            "replay_s": round(replay_s, 2),
            "replay_decisions": decisions,
            "journal_lines": args.journal_lines,
            "journal_per_input_us": journal,
            "journal_ratio": _ratio(journal),
            "journal_wall_per_input_us": journal_wall,
            "journal_wall_ratio": _ratio(journal_wall),
            "engine": engine_kind(),
        },
        BARS,
    )
    return 0
