"""`station import-phh PATH... --out DIR [--seed S]`: PHH hand histories -> recorded sessions. Edge
adapter (files, stdout, stderr).

Each hand becomes one session file under DIR, mirroring the path under the directory given (a
`.phhs` bundle becomes a folder with one session per table). Every good file is converted; each
bad one is reported as `FILE: problem` on stderr and makes the exit status 2. The sessions hold
every hole card, so they are written owner-only (0600), each through `station.output`: a session
already there is kept unless `--force`, and no journal or config is ever written over.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from station.cli.common import output_guard
from station.output import OutputRefusedError, output_folder, write_output
from station.phh.convert import ConvertError, convert_hand
from station.phh.reader import PhhError, find_phh_files, read_phh


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".phh/.phhs files or folders")
    # `--out`, as every command that writes files spells it (`-o` and `--output` still work).
    parser.add_argument(
        "--out", "-o", "--output", dest="output", required=True, metavar="DIR",
        help="output folder",
    )  # fmt: skip
    parser.add_argument(
        "--force", action="store_true", help="replace sessions that are already there"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for burns and unknown cards (default 0)"
    )


def run(args: argparse.Namespace) -> int:
    guard = output_guard(args)
    try:
        out_dir = output_folder(Path(args.output), guard)
    except OutputRefusedError as exc:
        print(f"station import-phh: {exc}", file=sys.stderr)
        return 2
    files = hands = failed = 0
    for path, name in find_phh_files(args.paths):
        files += 1
        try:
            parsed = read_phh(path, name)
        except PhhError as exc:
            print(exc, file=sys.stderr)
            failed += 1
            continue
        for hand in parsed:
            try:
                conversion = convert_hand(hand, seed=args.seed)
            except ConvertError as exc:
                print(f"{hand.source}: {exc}", file=sys.stderr)
                failed += 1
                continue
            target = out_dir / f"{conversion.name}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                write_output(target, conversion.text(), guard, force=args.force, private=True)
            except (OutputRefusedError, OSError) as exc:
                print(f"{hand.source}: {exc}", file=sys.stderr)
                failed += 1
                continue
            hands += 1
    if files == 0:
        print("import-phh: no .phh or .phhs files found", file=sys.stderr)
        return 2
    print(f"converted {hands} hands from {files} files into {out_dir}; {failed} failed")
    return 2 if failed else 0
