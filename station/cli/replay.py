"""`station replay SESSION.jsonl [--json] [--trace]`: feed a recorded session through the engine
and print its decisions. Edge adapter (files, stdout)."""

from __future__ import annotations

import argparse
import sys

from station.formats.decisions import decision_to_dict, dumps, is_public
from station.formats.replay import replay_lines
from station.formats.session import SessionFormatError, read_session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", help="recorded session (.jsonl)")
    parser.add_argument("--json", action="store_true", help="print JSON lines (the public format)")
    parser.add_argument(
        "--trace", action="store_true", help="also print each draw's role and each action"
    )


def run(args: argparse.Namespace) -> int:
    try:
        session = read_session(args.session)
    except SessionFormatError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2
    out = sys.stdout
    for decision in replay_lines(session.lines):
        if not args.trace and not is_public(decision):
            continue
        if args.json:
            out.write(dumps(decision) + "\n")
        else:
            out.write(_human(decision_to_dict(decision)) + "\n")
    out.flush()
    return 0


def _human(d: dict[str, object]) -> str:
    kind = d["type"]
    if kind == "incident":
        return (
            f"hand {d['hand']} line {d['event']}: INCIDENT {d['rule']} ({d['ruling']}) {d['text']}"
        )
    if kind == "prompt":
        return f"hand {d['hand']} line {d['event']}: {d['text']}"
    if kind == "hand_end":
        return f"hand {d['hand']} ends: board {' '.join(d['board'])} payouts {d['payouts']}"  # type: ignore[arg-type]
    return " ".join(f"{k}={v}" for k, v in d.items())
