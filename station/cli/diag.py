"""`station diag`: link state, firmware, frame/CRC/retransmit counters, last frames, GPIO inputs,
journal health (head, chain, size, outbox) and clock sync, from the running daemon or from the
journal alone. Edge adapter (CLI).

    station diag [--journal PATH | --config FILE] [--json] [--watch [SECONDS]] [--offline]

The journal is found as the floor commands find it (`station.journal.locate`); the daemon's
status socket sits beside it (`station.diag.server`). When no daemon answers, or with
`--offline`, everything comes from the journal alone and the chain is checked by reading it
whole. Exit 0 when nothing needs a technician, 1 when `problems` lists something, 2 when the
journal cannot be found or read.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Final

from station.cli.common import EXIT_CHECK_FAILED, EXIT_OK, add_journal_argument, fail

if TYPE_CHECKING:
    from station.diag.take import Taker

DEFAULT_WATCH_S: Final = 2.0
FULL_BELOW: Final = 64 * 1024  # free bytes below which the journal's disk counts as full
CLEAR: Final = "\x1b[H\x1b[2J"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_journal_argument(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object (a line per refresh)")
    parser.add_argument(
        "--watch",
        nargs="?",
        type=float,
        const=DEFAULT_WATCH_S,
        default=None,
        metavar="SECONDS",
        help=f"refresh until Ctrl-C (every {DEFAULT_WATCH_S:g} s unless given)",
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help="read the journal alone, even when the daemon is running",
    )


def run(args: argparse.Namespace) -> int:
    from station.diag.take import Taker  # noqa: PLC0415 (the CLI parser stays light)
    from station.journal.locate import JournalNotLocatedError, locate_journal  # noqa: PLC0415

    if args.watch is not None and args.watch <= 0:
        return fail("diag", "--watch needs a positive number of seconds")
    try:
        path = locate_journal(args.journal, args.config).path
    except JournalNotLocatedError as exc:
        return fail("diag", str(exc))
    taker = Taker(path, offline=args.offline)
    try:
        if args.watch is None:
            return _print(taker, args.json, clear=False)
        return _watch(taker, args.json, args.watch)
    except sqlite3.DatabaseError as exc:  # the file is damaged, or not a journal
        return fail("diag", damaged_advice(path, exc), EXIT_CHECK_FAILED)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        return fail("diag", f"{path}: {exc.strerror or exc}")


def damaged_advice(path: Path, exc: Exception) -> str:
    """What is wrong with a journal SQLite cannot read, and what a technician does about it."""
    free = _free_bytes(path.parent)
    if free is not None and free < FULL_BELOW:
        return (
            f"JOURNAL FULL: the disk holding {path} has no room ({free} bytes free), so the "
            f"journal cannot even be read ({exc}) and the station cannot record: play is "
            "refused until there is room. Free space on that disk (old logs, copies, anything "
            "but the journal's own files); the station puts the outage on record by itself"
        )
    return (
        f"cannot read the journal {path}: {exc}. The file is damaged or is not a journal. "
        f"Keep it as it is (copy {path}* aside before anything else), run `station journal "
        f"verify --journal {path}` for what it finds, and do not start the station on it: a "
        "new journal, or one restored from a copy, is the floor's decision (the central store "
        "keeps every row it received)"
    )


def _free_bytes(folder: Path) -> int | None:
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    return st.f_bavail * st.f_frsize


def _print(taker: Taker, as_json: bool, *, clear: bool) -> int:
    from station.diag.model import render  # noqa: PLC0415

    snap = taker.take()
    if as_json:
        print(json.dumps(snap.to_dict()), flush=True)
    else:
        text = "\n".join(render(snap))
        sys.stdout.write((CLEAR if clear else "") + text + "\n")
        sys.stdout.flush()
    return EXIT_CHECK_FAILED if snap.problems else EXIT_OK


def _watch(taker: Taker, as_json: bool, every_s: float) -> int:
    clear = not as_json and sys.stdout.isatty()
    try:
        while True:
            started = time.monotonic()
            _print(taker, as_json, clear=clear)
            time.sleep(max(0.0, every_s - (time.monotonic() - started)))
    except KeyboardInterrupt:
        return EXIT_OK
