"""`station journal init|verify|status|export|users`: the journal itself. Edge adapter (CLI).

    station journal init --station T01
    station journal verify [--json] [--witness FILE] [--head SEQ:HASH]
                                                    exit 1 and the first bad seq on tampering,
                                                    2 when the file cannot be read
    station journal status [--json]
    station journal export --phh --person FLOOR [--pin-stdin] [--out FILE [--force]] [--hand N]
                                                    hole and burn cards: a floor, technician
                                                    or admin credential; journaled
    station journal users add NAME --role ROLE [--person ADMIN] [--pin-stdin]
    station journal users list [--json] | pin NAME | role NAME --role ROLE | disable NAME

Every command takes `--journal PATH` or `--config FILE` (see `station.journal.locate` for how the
journal is found without them).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from station.cli.common import (
    EXIT_CHECK_FAILED,
    EXIT_OK,
    UsageError,
    add_credential_arguments,
    add_journal_argument,
    add_output_arguments,
    credential,
    guarded,
    journal_path,
    open_journal,
    output_guard,
    read_pin,
    write_out,
)
from station.journal import locate
from station.journal.clock import SystemClock
from station.journal.codes import PERSON_ROLES, ActorRole
from station.journal.files import GROUP_READ, OWNER_ONLY
from station.journal.locate import Located, locate_journal
from station.journal.opstate import op_state
from station.journal.queries import ended_hands
from station.journal.store import Journal
from station.journal.witness import Head, witness_path
from station.output import check_target
from station.people.access import NEEDS_CREDENTIAL, REVEAL_ROLES, journal_reveal
from station.people.check import verify_journal
from station.people.staff import (
    add_person,
    change_pin,
    disable_person,
    list_people,
    random_pin,
    set_role,
)
from station.phh.export import hand_to_phh, phh_document
from station.recall.hands import load_hand
from station.recall.steps import HandRecall

STATION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")  # as station.toml's station_id

ROLE_CHOICES = sorted(r.value for r in PERSON_ROLES)
NAME_HELP = "the name they sign in with: a letter, then up to 31 letters, digits, '.', '_' or '-'"
ROLE_HELP = (
    "dealer: deals and signs in at the table; floor: rules on incidents, clears CALL FLOOR; "
    "technician: diagnostics, decks, tilts; admin: enrols people and sets roles"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser(
        "init",
        help="create a new journal for a station",
        description="Create a new, empty journal for one station: the station id it is created "
        "with is its owner for good. The id comes from the config (--config, else the installed "
        "one); --station must agree with it, or names the station of a bare --journal.",
    )
    add_journal_argument(p)
    p.add_argument(
        "--station",
        default=None,
        help="station id, e.g. T07 (default: the config's station_id; must agree with it)",
    )
    p.add_argument(
        "--group-read",
        action="store_true",
        help="files 0640 (the folder's group may read them) instead of 0600",
    )
    p = sub.add_parser(
        "verify", help="check the hash chain, sequence, anchor, head witness and integrity"
    )
    add_journal_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument(
        "--witness",
        metavar="FILE",
        type=Path,
        help="the journal's head witness (default: JOURNAL-head beside it)",
    )
    p.add_argument(
        "--head",
        metavar="SEQ:HASH",
        action="append",
        default=[],
        type=_known_head,
        help="a head of this journal known elsewhere (e.g. the central store's); repeatable",
    )
    p = sub.add_parser("status", help="head, mode, sessions, CALL FLOOR and open tilts")
    add_journal_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p = sub.add_parser("export", help="export finished hands")
    add_journal_argument(p)
    p.add_argument("--phh", action="store_true", required=True, help="as PHH hand histories")
    add_output_arguments(p, "the hands")
    p.add_argument("--hand", type=int, help="only this hand (a plain .phh document)")
    add_credential_arguments(p, required=False)
    users = sub.add_parser("users", help="people, roles and PINs")
    usub = users.add_subparsers(dest="users_action", metavar="ACTION", required=True)
    p = usub.add_parser(
        "add",
        help="enrol a person (the first one must be an admin)",
        description="Enrol a person who signs in at this table with a PIN. The first person of "
        "a journal is its admin; after that an admin enrols everyone (--person ADMIN). Names "
        "are unique ignoring case and look-alike characters.",
    )
    add_journal_argument(p)
    p.add_argument("name", help=NAME_HELP)
    p.add_argument("--role", required=True, choices=ROLE_CHOICES, help=ROLE_HELP)
    p.add_argument(
        "--generate-pin",
        action="store_true",
        help="make up a random 8-digit PIN the policy accepts and print it once (the first "
        "admin of a new table: systemd/install.sh)",
    )
    add_credential_arguments(p, required=False)
    p = usub.add_parser("list", help="enrolled people")
    add_journal_argument(p)
    p.add_argument("--json", action="store_true", help="a JSON array")
    p = usub.add_parser("pin", help="change a PIN (your own, or anyone's as admin)")
    add_journal_argument(p)
    p.add_argument("name", help="whose PIN")
    add_credential_arguments(p, required=True)
    p = usub.add_parser("role", help="change a person's role (admin)")
    add_journal_argument(p)
    p.add_argument("name", help="whose role")
    p.add_argument("--role", required=True, choices=ROLE_CHOICES, help=ROLE_HELP)
    add_credential_arguments(p, required=True)
    p = usub.add_parser("disable", help="disable a person (admin)")
    add_journal_argument(p)
    p.add_argument("name", help="who may no longer sign in")
    add_credential_arguments(p, required=True)


def run(args: argparse.Namespace) -> int:
    body = {
        "init": _init,
        "verify": _verify,
        "status": _status,
        "export": _export,
        "users": _users,
    }[args.action]
    return guarded("journal", args, body)


def _init(args: argparse.Namespace) -> int:
    located = locate_journal(args.journal, args.config, must_exist=False)
    path = located.path
    station = _init_station(args, located)
    if path.exists():
        raise UsageError(f"{path} already exists")
    if not path.parent.is_dir():
        raise UsageError(f"the folder {path.parent} does not exist (create it for the station)")
    if not STATION_ID.match(station):
        raise UsageError(f"--station {station!r}: letters, digits, '-' and '_' (up to 32)")
    witness = witness_path(path)
    if witness.exists():
        raise UsageError(
            f"{witness} is the head witness of a journal that is no longer at {path}: put the "
            "journal back, or move the witness away to start a new journal"
        )
    mode = GROUP_READ if args.group_read else OWNER_ONLY
    with Journal.open(
        path, clock=SystemClock(), station_id=station, create=True, file_mode=mode
    ) as j:
        print(f"journal created at {path} for station {j.station_id} (mode {mode:04o})")
    return EXIT_OK


def _init_station(args: argparse.Namespace, located: Located) -> str:
    """The station a new journal is for: the config's station_id (the --config given, or the
    installed config the journal was found through); --station must agree with it. A bare
    --journal (or $STATION_JOURNAL) needs --station."""
    config: Path | None = None
    if args.journal is None:
        if args.config is not None:
            config = Path(args.config)
        elif located.source == f"the installed config {locate.INSTALLED_CONFIG}":
            config = locate.INSTALLED_CONFIG
    if config is None:
        if args.station is None:
            raise UsageError(
                "which station is this journal for? give --config FILE (its station_id) or "
                "--station ID"
            )
        return str(args.station)
    from station.config.station_check import named_files  # noqa: PLC0415 (the parser stays light)

    named = named_files(config)
    if named.config is None:
        problems = "; ".join(str(p) for p in named.problems)
        raise UsageError(f"{problems} (fix the config first: station config check)")
    wanted = named.config.station_id
    if args.station is not None and args.station != wanted:
        raise UsageError(
            f"--station {args.station} but {config} says station_id = {wanted!r}: a journal "
            "belongs to one station for good; set station_id in the config first"
        )
    return wanted


def _known_head(text: str) -> Head:
    seq, _, digest = text.partition(":")
    if not seq.isdigit() or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise argparse.ArgumentTypeError(f"{text!r}: expected SEQ:HASH (64 hex digits)")
    return Head(int(seq), digest, source=f"the head given on the command line (seq {seq})")


def _verify(args: argparse.Namespace) -> int:
    path = journal_path(args)
    if not path.is_file():
        raise UsageError(f"no journal at {path}")
    report = verify_journal(path, witness=args.witness, heads=args.head)
    if report.cannot_read:
        raise UsageError(f"cannot read {path}: {report.cannot_read}")
    witness = report.witness
    if args.json:
        print(
            json.dumps(
                {
                    "ok": report.ok,
                    "first_bad_seq": report.first_bad_seq,
                    "rows": report.rows,
                    "head_seq": report.head_seq,
                    "witness_seq": witness.seq if witness is not None else None,
                    "problems": [{"seq": p.seq, "text": p.text} for p in report.problems],
                    "notes": list(report.notes),
                }
            )
        )
    elif report.ok:
        agrees = f", head witness (seq {witness.seq})" if witness is not None else ""
        print(
            f"journal OK: {report.rows} rows, head seq {report.head_seq} "
            f"hash {report.head_hash[:16]}, chain, anchor{agrees}, triggers, people and "
            "integrity_check all sound"
        )
        for note in report.notes:
            print(f"  note: {note}")
    else:
        first = report.first_bad_seq
        print(f"JOURNAL TAMPERED: first bad seq {first if first is not None else 'none'}")
        for p in report.problems:
            where = f"seq {p.seq}: " if p.seq is not None else ""
            print(f"  {where}{p.text}")
    return EXIT_OK if report.ok else EXIT_CHECK_FAILED


def _status(args: argparse.Namespace) -> int:
    with open_journal(args) as journal:
        state = op_state(journal.conn)
        head_seq, head_hash = journal.head()
        if args.json:
            print(
                json.dumps(
                    {
                        "station_id": journal.station_id,
                        "head_seq": head_seq,
                        "head_hash": head_hash,
                        "mode": state.mode.value,
                        "logged_in": [
                            {"person": s.person, "role": s.role, "since_seq": s.since_seq}
                            for s in state.sessions.values()
                        ],
                        "floor_call": None
                        if state.floor_call is None
                        else {
                            "seq": state.floor_call.seq,
                            "hand": state.floor_call.hand,
                            "reason": state.floor_call.reason,
                        },
                        "tilts": [
                            {
                                "key": t.key,
                                "critical": t.critical,
                                "seq": t.seq,
                                "detail": t.detail,
                            }
                            for t in state.tilts.values()
                        ],
                        "play_blocked": list(state.why_play_stops),
                    }
                )
            )
            return EXIT_OK
        print(f"station {journal.station_id}  head seq {head_seq} hash {head_hash[:16]}")
        print(f"mode {state.mode.value}")
        sessions = ", ".join(f"{s.person} ({s.role})" for s in state.sessions.values())
        print(f"logged in: {sessions or '-'}")
        call = state.floor_call
        print(f"CALL FLOOR: {f'open since seq {call.seq} ({call.reason})' if call else '-'}")
        for tilt in state.tilts.values():
            kind = "critical" if tilt.critical else "tilt"
            print(f"{kind} {tilt.key} since seq {tilt.seq}: {tilt.detail}")
        blocked = state.why_play_stops
        print(f"play: {'BLOCKED (' + ', '.join(blocked) + ')' if blocked else 'allowed'}")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    if not args.person:
        raise UsageError(f"export --phh {NEEDS_CREDENTIAL}")
    guard = output_guard(args, journal_path(args))
    if args.out:  # before a PIN is asked and the look journaled
        check_target(Path(args.out), guard, force=args.force)
    with open_journal(args) as journal:
        if args.hand is not None:
            recall = load_hand(journal, args.hand)
            if recall is None or not recall.finished:
                raise UsageError(f"hand {args.hand} is not a finished hand in this journal")
            try:
                text, skipped = hand_to_phh(recall), list[str]()
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        else:
            recalls: list[HandRecall] = []
            for hand, _ in ended_hands(journal):
                found = load_hand(journal, hand)
                if found is not None:
                    recalls.append(found)
            text, skipped = phh_document(recalls)
        shown = [args.hand] if args.hand is not None else [r.hand for r in recalls]
        who = credential(journal, args, "export hands as PHH", REVEAL_ROLES)
        journal_reveal(journal, who, shown, export="phh", to=args.out or "stdout")
    for note in skipped:
        print(f"station journal export: skipped {note}", file=sys.stderr)
    if args.out:  # hole and burn cards: owner-only
        write_out("journal export", args.out, text, guard, args, private=True)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _users(args: argparse.Namespace) -> int:
    with open_journal(args) as journal:
        action = args.users_action
        if action == "list":
            people = list_people(journal)
            if args.json:
                print(
                    json.dumps(
                        [{"name": p.name, "role": p.role.value, "active": p.active} for p in people]
                    )
                )
                return EXIT_OK
            for person in people:
                state = "" if person.active else "  (disabled)"
                print(f"{person.name:<24} {person.role.value}{state}")
            return EXIT_OK
        if action == "add":
            by = None
            if args.person:
                by = credential(journal, args, f"enrol {args.name}", {ActorRole.ADMIN})
            generated = args.generate_pin
            pin = random_pin(journal.station_id) if generated else _new_pin(args, args.name)
            add_person(journal, args.name, ActorRole(args.role), pin, by=by)
            print(f"{args.name} enrolled as {args.role}")
            if generated:
                print(
                    f"PIN of {args.name}: {pin}  (shown this once: note it, or change it with "
                    f"`station journal users pin {args.name}`)"
                )
        elif action == "pin":
            by = credential(journal, args, f"change PIN of {args.name}")
            change_pin(journal, args.name, _new_pin(args, args.name), by=by)
            print(f"PIN of {args.name} changed")
        elif action == "role":
            by = credential(journal, args, f"change role of {args.name}", {ActorRole.ADMIN})
            set_role(journal, args.name, ActorRole(args.role), by=by)
            print(f"{args.name} is now {args.role}")
        else:
            by = credential(journal, args, f"disable {args.name}", {ActorRole.ADMIN})
            disable_person(journal, args.name, by=by)
            print(f"{args.name} disabled")
    return EXIT_OK


def _new_pin(args: argparse.Namespace, name: str) -> str:
    pin = read_pin(args, f"new PIN for {name}: ")
    if not args.pin_stdin and read_pin(args, "again: ") != pin:
        raise UsageError("the two PINs differ")
    return pin
