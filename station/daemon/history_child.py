"""The child process that checks the journal's history for the daemon, beside it. Edge adapter
(process, stdout, the journal file read-only).

    python -m station.daemon.history_child check --journal J --station ID [--registry FILE]
        --anchor SEQ:HASH --start SEQ:HASH --upto SEQ:HASH
    python -m station.daemon.history_child scrub --journal J --station ID [--registry FILE]
        --progress JSON [--duty F]

`check` runs the history check after a start (`station.journal.history`) at a lowered priority
(nice 10) and prints one line, `{"check": {...}}`. `scrub` runs the full re-derivation
(`station.journal.scrub`) at idle priority (SCHED_IDLE, nice 19: it runs only when no other
process wants the CPU), working at most `--duty` of the time, and prints `{"scrub": {...}}` as
it goes and at the end. A process of its own rather than a thread, so that the work never holds
the interpreter's lock the daemon's core needs. It only reads the journal: the daemon's core
journals what it reports. SIGTERM stops it (a scrub stopped goes on at the next start; a check
ends at once).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from station.config.registry import RegistryError, load_registry
from station.engine.cards import DeckRegistry, default_registry
from station.journal.engine_id import deriving_code
from station.journal.history import HistoryPlan, check_history, report_to_dict
from station.journal.scrub import ScrubProgress, pacer, scrub


def _pair(text: str) -> tuple[int, str]:
    seq, _, digest = text.partition(":")
    return int(seq), digest


def _say(obj: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _lower_priority(idle: bool) -> None:
    try:
        os.nice(19 if idle else 10)
        if idle and hasattr(os, "SCHED_IDLE"):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except OSError:
        pass  # as it is: still a process of its own


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="history_child")
    parser.add_argument("mode", choices=("check", "scrub"))
    parser.add_argument("--journal", required=True, type=Path)
    parser.add_argument("--station", required=True)
    parser.add_argument("--registry", type=Path, default=None)
    parser.add_argument("--anchor", type=_pair)
    parser.add_argument("--start", type=_pair)
    parser.add_argument("--upto", type=_pair)
    parser.add_argument("--progress", default="{}")
    parser.add_argument("--duty", type=float, default=0.5)
    args = parser.parse_args(argv)
    stop = threading.Event()

    def halt(_sig: int, _frame: FrameType | None) -> None:
        stop.set()

    if args.mode == "scrub":  # a scrub stopped says where it was, to go on from there
        signal.signal(signal.SIGTERM, halt)
    # A check keeps SIGTERM's default and ends at once: it has nothing to keep, and its
    # quick_check reads the whole file inside SQLite (about a minute on a year's journal),
    # where a Python handler would not run until it returned.
    _lower_priority(idle=args.mode == "scrub")
    try:
        registry: DeckRegistry = (
            load_registry(args.registry) if args.registry is not None else default_registry()
        )
    except (OSError, RegistryError) as exc:
        print(f"history_child: the deck registry cannot be read: {exc}", file=sys.stderr)
        return 2
    if args.mode == "check":
        plan = HistoryPlan(args.anchor, args.start, args.upto)
        report = check_history(args.journal, args.station, registry, plan, stop)
        if report is not None:
            _say({"check": report_to_dict(report)})
        return 0
    start = ScrubProgress.from_dict(json.loads(args.progress))
    scrub(
        args.journal,
        args.station,
        registry,
        start,
        running=deriving_code(),
        report=lambda p: _say({"scrub": p.to_dict()}),
        pace=pacer(args.duty, sleep=stop.wait),  # a stop ends a rest at once
        stop=stop,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
