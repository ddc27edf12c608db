"""Shared pieces of the journal's commands: the `--journal` option, credentials from stdin or
the terminal, and turning errors into exit codes. Edge adapter (environment, stdin, tty).

PINs never come from the command line (argv is visible to every user of the machine): they are
read from stdin with `--pin-stdin` (one per line, in the order the command asks for them) or
from the terminal without echo.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

from station.journal.clock import SystemClock
from station.journal.codes import PERSON_ROLES, ActorRole
from station.journal.exc import AuthError, JournalError, WorkflowError
from station.journal.people import Authenticated, authenticate
from station.journal.store import Journal

ENV_JOURNAL: Final = "STATION_JOURNAL"
DEFAULT_JOURNAL: Final = "station-journal.sqlite3"
EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad input on the command line: exit 2."""


def add_journal_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="PATH",
        default=None,
        help=f"journal file (default: ${ENV_JOURNAL} or ./{DEFAULT_JOURNAL})",
    )


def add_credential_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--person", required=required, help="who acts (their PIN is asked)")
    parser.add_argument(
        "--pin-stdin", action="store_true", help="read PINs from stdin, one per line"
    )


def journal_path(args: argparse.Namespace) -> Path:
    given = getattr(args, "journal", None)
    return Path(given or os.environ.get(ENV_JOURNAL) or DEFAULT_JOURNAL)


def open_journal(args: argparse.Namespace) -> Journal:
    return Journal.open(journal_path(args), clock=SystemClock())


def read_pin(args: argparse.Namespace, prompt: str) -> str:
    if getattr(args, "pin_stdin", False):
        line = sys.stdin.readline()
        if not line:
            raise UsageError("expected a PIN on stdin")
        return line.strip()
    if not sys.stdin.isatty():
        raise UsageError("no terminal to ask for a PIN: use --pin-stdin")
    return getpass.getpass(prompt).strip()


def credential(
    journal: Journal,
    args: argparse.Namespace,
    purpose: str,
    allowed: Iterable[ActorRole] = PERSON_ROLES,
) -> Authenticated:
    name = str(args.person)
    pin = read_pin(args, f"PIN for {name}: ")
    return authenticate(journal, name, pin, purpose=purpose, allowed=allowed)


def fail(command: str, message: str, code: int = EXIT_USAGE) -> int:
    print(f"station {command}: {message}", file=sys.stderr)
    return code


def guarded(
    command: str, args: argparse.Namespace, body: Callable[[argparse.Namespace], int]
) -> int:
    """Run `body(args)`, mapping the expected error families to a message and exit 2. (A
    failed check is not an error: the body returns 1 itself.)"""
    try:
        return body(args)
    except (UsageError, AuthError, WorkflowError, JournalError) as exc:
        return fail(command, str(exc))
    except OSError as exc:
        return fail(command, str(exc.strerror or exc))
