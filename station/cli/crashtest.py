"""`station crashtest --rounds N`: kill -9 a scripted table at random points and check that
nothing acknowledged was lost (`station.bench.crashtest`). Edge adapter (CLI).

One JSON line (rounds, lost_events, integrity_failures, state_mismatches, then `bench`, `bar`
and `ok` as every `station bench` prints them). Exit 0 when all three counts are 0, else 1; 2
on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=int, default=100, help="kills (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="kill-point and script seed")
    parser.add_argument("--hands", type=int, default=None, help="hands in the script (auto)")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep the journals")


def run(args: argparse.Namespace) -> int:
    from station.bench.crashtest import crashtest, result_line  # noqa: PLC0415
    from station.cli.common import output_guard  # noqa: PLC0415
    from station.output import OutputRefusedError, fresh_folder  # noqa: PLC0415

    if args.rounds < 1:
        print("station crashtest: --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.keep:
        try:
            keep = fresh_folder(Path(args.keep), output_guard(args))
        except OutputRefusedError as exc:
            print(f"station crashtest: --keep: {exc}", file=sys.stderr)
            return 2
        result = crashtest(args.rounds, args.seed, keep, args.hands)
    else:
        with tempfile.TemporaryDirectory(prefix="station-crashtest-") as tmp:
            result = crashtest(args.rounds, args.seed, Path(tmp), args.hands)
    print(json.dumps(result_line(result)), flush=True)
    return 0 if result.clean else 1
