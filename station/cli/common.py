"""Shared pieces of the journal's commands: the `--journal`/`--config` options (how the journal
is found: `station.journal.locate`), credentials from stdin or the terminal, and turning errors
into exit codes. Edge adapter (environment, stdin, tty).

PINs never come from the command line (argv is visible to every user of the machine): they are
read from stdin with `--pin-stdin` (one per line, in the order the command asks for them) or
from the terminal without echo.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from station.incidents.exc import WorkflowError
from station.journal.clock import SystemClock
from station.journal.codes import PERSON_ROLES, ActorRole
from station.journal.exc import JournalError
from station.journal.locate import (
    ENV_JOURNAL,
    INSTALLED_CONFIG,
    JournalNotLocatedError,
    locate_journal,
)
from station.journal.store import Journal
from station.people.exc import AuthError
from station.people.staff import Authenticated, authenticate

EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad input on the command line: exit 2."""


def add_journal_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="PATH",
        default=None,
        help="journal file (default: the [journal] path of --config, else "
        f"${ENV_JOURNAL}, else that of {INSTALLED_CONFIG})",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help="station config whose journal to use",
    )


def add_credential_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--person", required=required, help="who acts (their PIN is asked)")
    parser.add_argument(
        "--pin-stdin", action="store_true", help="read PINs from stdin, one per line"
    )


def journal_path(args: argparse.Namespace, *, must_exist: bool = True) -> Path:
    """The journal named by --journal, --config, $STATION_JOURNAL or the installed config."""
    found = locate_journal(
        getattr(args, "journal", None), getattr(args, "config", None), must_exist=must_exist
    )
    return found.path


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
    except (UsageError, AuthError, WorkflowError, JournalError, JournalNotLocatedError) as exc:
        return fail(command, str(exc))
    except BrokenPipeError:
        raise  # the reader went away: `station.cli.main` exits quietly
    except OSError as exc:
        return fail(command, str(exc.strerror or exc))
