"""`station config check`: validate the pin map without starting play. Edge adapter (CLI).

Later the same command checks the station config too (add checks to `checks.CHECKS`).

Exit status: 0 and one `ok:` line per check when everything is valid; 2 and every problem as
`FILE: KEY: problem` on stderr when not (bad input, README's convention).
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
        help="validate the pin map without opening any hardware",
        description="Validate the pin map (every problem is printed as FILE: KEY: problem).",
    )
    check.add_argument(
        "--pinmap",
        type=Path,
        default=None,
        metavar="FILE",
        help="pin map TOML to check (default: the embedded revision A map)",
    )


def run(args: argparse.Namespace) -> int:
    results = run_checks(CheckInputs(pinmap=args.pinmap))
    problems = [p for r in results for p in r.problems]
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"station config check: {len(problems)} problem(s)", file=sys.stderr)
        return 2
    for result in results:
        print(f"ok: {result.summary}")
    return 0
