"""`station hands list|show`: recall finished hands step by step. Edge adapter (CLI).

    station hands list [--last 100] [--json]
    station hands show N [--reveal --person FLOOR [--pin-stdin]] [--json]

Hole cards print as [hidden]. `--reveal` shows them to a floor person, technician or admin and
journals who looked (`recall.revealed`).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from station.cli.common import (
    EXIT_OK,
    UsageError,
    add_credential_arguments,
    add_journal_argument,
    credential,
    guarded,
    open_journal,
)
from station.journal.codes import Code
from station.people.access import REVEAL_ROLES
from station.recall.hands import RECALL_DEPTH, load_hand, recent_hands
from station.recall.text import HIDDEN, render_hand, render_list


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="the last finished hands")
    add_journal_argument(p)
    p.add_argument(
        "--last", type=int, default=RECALL_DEPTH, help=f"how many (default {RECALL_DEPTH})"
    )
    p.add_argument("--json", action="store_true", help="a JSON array, oldest first")
    p = sub.add_parser("show", help="one hand, step by step")
    add_journal_argument(p)
    p.add_argument("hand", type=int, help="the hand's number (from hands list)")
    p.add_argument("--reveal", action="store_true", help="show hole cards (credential needed)")
    p.add_argument("--json", action="store_true", help="the steps as JSON")
    add_credential_arguments(p, required=False)


def run(args: argparse.Namespace) -> int:
    return guarded("hands", args, _run)


def _run(args: argparse.Namespace) -> int:
    reads_only = args.action == "list" or not args.reveal  # a reveal journals who looked
    with open_journal(args, reads_only=reads_only) as journal:
        if args.action == "list":
            hands = recent_hands(journal, args.last)
            if args.json:
                print(json.dumps([asdict(h) for h in hands]))
            else:
                for line in render_list(hands):
                    print(line)
            return EXIT_OK
        recall = load_hand(journal, args.hand)
        if recall is None:
            raise UsageError(f"hand {args.hand} is not in this journal")
        if args.reveal:
            if not args.person:
                raise UsageError("--reveal needs --person")
            who = credential(journal, args, f"reveal hand {args.hand}", REVEAL_ROLES)
            journal.append(
                [
                    who.entry(Code.RECALL_REVEALED, {"hand": args.hand}, hand=args.hand),
                ]
            )
        if args.json:
            steps = []
            for step in recall.steps:
                d = asdict(step)
                d.pop("decision")
                if step.private and not args.reveal:
                    d["card"] = HIDDEN
                steps.append(d)
            print(json.dumps({"hand": recall.hand, "finished": recall.finished, "steps": steps}))
        else:
            for line in render_hand(recall, reveal=args.reveal):
                print(line)
    return EXIT_OK
