"""`station incidents list|show|rule|review|close|export`: the incident workflow from a desk.
Edge adapter (CLI).

    station incidents list [--state open|ruled|reviewed|closed|all] [--json]
    station incidents show ID [--json]
    station incidents rule ID --text "..." --person FLOOR [--camera CAM]
                           [--asked-before-next-deal yes|no] [--pin-stdin]
    station incidents review ID --person NAME [--note "..."] [--pin-stdin]
    station incidents close ID --person NAME [--note "..."] [--pin-stdin]
    station incidents export --format csv|json [--out FILE [--force]] [--state ...] [--excel]

An incident's ID is the journal sequence number of the row that opened it.
"""

from __future__ import annotations

import argparse
import json
import sys

from station.cli.common import (
    EXIT_OK,
    UsageError,
    add_credential_arguments,
    add_journal_argument,
    add_output_arguments,
    credential,
    guarded,
    open_journal,
    output_guard,
    write_out,
)
from station.incidents.export import incident_to_dict, to_csv, to_json
from station.incidents.records import IncidentRecord
from station.incidents.workflow import (
    CLOSE_ROLES,
    REVIEW_ROLES,
    RULE_ROLES,
    close,
    incident,
    incidents,
    review,
    rule,
)
from station.journal.codes import IncidentState

STATES = [s.value for s in IncidentState] + ["all"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="incidents, newest last")
    add_journal_argument(p)
    p.add_argument(
        "--state", choices=STATES, default="all", help="only incidents in this state (default all)"
    )
    p.add_argument("--json", action="store_true", help="a JSON array")
    p = sub.add_parser("show", help="one incident in full")
    add_journal_argument(p)
    p.add_argument("id", type=int, help="the incident's number (from incidents list)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p = sub.add_parser("rule", help="record the floor's ruling")
    add_journal_argument(p)
    p.add_argument("id", type=int, help="the incident's number (from incidents list)")
    p.add_argument("--text", required=True, help="the ruling, as told to the table")
    p.add_argument("--camera", default="", help="camera id covering the table")
    p.add_argument(
        "--asked-before-next-deal",
        choices=["yes", "no"],
        help="was the ruling asked for before the next deal (default: from the journal)",
    )
    add_credential_arguments(p, required=True)
    for name, text in (("review", "sign off a ruled incident"), ("close", "close it")):
        p = sub.add_parser(name, help=text)
        add_journal_argument(p)
        p.add_argument("id", type=int, help="the incident's number (from incidents list)")
        p.add_argument("--note", default="", help="a remark kept with the step in the journal")
        add_credential_arguments(p, required=True)
    p = sub.add_parser("export", help="every incident as CSV or JSON")
    add_journal_argument(p)
    p.add_argument("--format", choices=["csv", "json"], required=True, help="the file format")
    add_output_arguments(p, "the incidents")
    p.add_argument(
        "--state", choices=STATES, default="all", help="only incidents in this state (default all)"
    )
    p.add_argument(
        "--excel",
        action="store_true",
        help="CSV for spreadsheet programs: UTF-8 with a byte-order mark, CRLF line ends",
    )


def run(args: argparse.Namespace) -> int:
    return guarded("incidents", args, _run)


def _selected(records: dict[int, IncidentRecord], state: str) -> list[IncidentRecord]:
    return [r for r in records.values() if state in ("all", r.state.value)]


def _run(args: argparse.Namespace) -> int:
    with open_journal(args, reads_only=args.action in ("list", "show", "export")) as journal:
        action = args.action
        if action == "list":
            records = _selected(incidents(journal), args.state)
            if args.json:
                print(json.dumps([incident_to_dict(r, journal.station_id) for r in records]))
            else:
                _print_list(records)
        elif action == "show":
            rec = incident(journal, args.id)
            if args.json:
                print(json.dumps(incident_to_dict(rec, journal.station_id), indent=2))
            else:
                _print_one(rec)
        elif action == "export":
            records = _selected(incidents(journal), args.state)
            if args.excel and args.format != "csv":
                raise UsageError("--excel applies to --format csv")
            if args.format == "csv":
                text = to_csv(records, journal.station_id, excel=args.excel)
            else:
                text = to_json(records, journal.station_id)
            if args.out:
                write_out("incidents", args.out, text, output_guard(args, journal.path), args)
            else:
                sys.stdout.write(text)
        elif action == "rule":
            incident(journal, args.id)  # an unknown id fails before a PIN is asked
            who = credential(journal, args, f"rule incident {args.id}", RULE_ROLES)
            asked = (
                None
                if args.asked_before_next_deal is None
                else args.asked_before_next_deal == "yes"
            )
            rule(journal, args.id, who, args.text, camera=args.camera, asked_before_next_deal=asked)
            print(f"incident {args.id} ruled by {who.person}")
        elif action in ("review", "close"):
            incident(journal, args.id)
            roles = REVIEW_ROLES if action == "review" else CLOSE_ROLES
            who = credential(journal, args, f"{action} incident {args.id}", roles)
            step = review if action == "review" else close
            step(journal, args.id, who, args.note)
            done = "reviewed" if action == "review" else "closed"
            print(f"incident {args.id} {done} by {who.person}")
        else:  # pragma: no cover - argparse rejects other actions
            raise UsageError(f"unknown action {action}")
    return EXIT_OK


def _print_list(records: list[IncidentRecord]) -> None:
    print(f"{'id':>7}  {'hand':>5}  {'state':<8}  {'rule':<28}  {'detected (UTC)':<24}  text")
    for r in records:
        state = r.state.value
        print(f"{r.id:>7}  {r.hand:>5}  {state:<8}  {r.rule:<28}  {r.detected_utc:<24}  {r.text}")


def _print_one(r: IncidentRecord) -> None:
    lines = [
        f"incident {r.id}  ({r.state.value})",
        f"hand {r.hand}, detected {r.detected_utc} by {r.source}",
        f"rule {r.rule}" + (f"  [{r.citation}]" if r.citation else ""),
        f"engine ruling: {r.engine_ruling}",
        f"text: {r.text}",
        f"seat: {'-' if r.seat is None else r.seat}  seats: {' '.join(map(str, r.seats)) or '-'}",
        f"triggering events: {' '.join(map(str, r.events)) or '-'}",
        f"dealer: {r.dealer or '-'}",
        f"floor called: {'seq ' + str(r.floor_called_seq) if r.floor_called_seq else '-'}",
        f"next deal: {'seq ' + str(r.next_deal_seq) if r.next_deal_seq else 'not yet'}",
    ]
    for i, ru in enumerate(r.rulings):
        label = "ruling" if i == len(r.rulings) - 1 else "earlier ruling"
        lines += [
            f"{label}: {ru.text}",
            f"  by {ru.person} ({ru.role}) at {ru.utc}, seq {ru.seq}",
            f"  camera {ru.camera or '-'} from {ru.window_start_utc} to {ru.window_end_utc}",
            f"  asked for before the next deal: {'yes' if ru.asked_before_next_deal else 'no'}",
        ]
    if r.review is not None:
        lines.append(
            f"reviewed by {r.review.person} ({r.review.role}) at {r.review.utc}: {r.review.note}"
        )
    if r.close is not None:
        lines.append(
            f"closed by {r.close.person} ({r.close.role}) at {r.close.utc}: {r.close.note}"
        )
    print("\n".join(lines))
