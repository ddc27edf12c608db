"""`station config check`: validate the station config, its pin map and its deck registry
without starting play. Edge adapter (CLI).

Exit status: 0 and one `ok:` line per file when everything is valid; 2 and every problem as
`FILE: KEY: problem` on stderr when not (bad input, README's convention). Without `--config`
the embedded pin map and registry are checked.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from station.config.checks import CheckInputs, run_checks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="config_command", metavar="SUBCOMMAND", required=True)
    check = sub.add_parser(
        "check",
        help="validate station.toml, the pin map and the deck registry without opening hardware",
        description="Validate the station config, the pin map and the deck registry (every "
        "problem is printed as FILE: KEY: problem).",
    )
    check.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="station.toml to check, with the pin map and deck registry it names",
    )
    check.add_argument(
        "--pinmap",
        type=Path,
        default=None,
        metavar="FILE",
        help="pin map TOML to check (default: the one the config names, else the embedded "
        "revision A map)",
    )


def run(args: argparse.Namespace) -> int:
    results = run_checks(CheckInputs(pinmap=args.pinmap, station=args.config))
    problems = [p for r in results for p in r.problems]
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"station config check: {len(problems)} problem(s)", file=sys.stderr)
        return 2
    for result in results:
        if result.summary:
            print(f"ok: {result.summary}")
    return 0
