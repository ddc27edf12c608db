"""Shared pieces of the journal's commands: the `--journal`/`--config` options (how the journal
is found: `station.journal.locate`), credentials from stdin or the terminal, and turning errors
into exit codes. Edge adapter (environment, stdin, tty).

PINs never come from the command line (argv is visible to every user of the machine): they are
read from stdin with `--pin-stdin` (one per line, in the order the command asks for them) or
from the terminal without echo.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from station.incidents.exc import WorkflowError
from station.journal.clock import SystemClock
from station.journal.codes import PERSON_ROLES, ActorRole
from station.journal.exc import JournalAccessError, JournalError
from station.journal.files import is_access_error, user_name
from station.journal.locate import (
    ENV_JOURNAL,
    INSTALLED_CONFIG,
    JournalNotLocatedError,
    config_journal,
    locate_journal,
)
from station.journal.store import Journal
from station.output import Guard, OutputRefusedError, Written, write_output
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


def add_output_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """`--out FILE` (and `--force`) of a command that writes a file (`write_out`)."""
    parser.add_argument("--out", metavar="FILE", help=f"write {what} here instead of stdout")
    parser.add_argument(
        "--force", action="store_true", help="replace the --out file when it is already there"
    )


def output_guard(args: argparse.Namespace, *more_journals: Path) -> Guard:
    """Every journal and config the command could mean, so that no --out is written over one:
    --journal, --config and its journal, $STATION_JOURNAL, the installed config and its
    journal."""
    journals: list[Path] = list(more_journals)
    configs: list[Path] = []
    named = getattr(args, "journal", None)
    for j in named if isinstance(named, list) else [named]:
        if j:
            journals.append(Path(j))
    config = getattr(args, "config", None)
    for c in (config, INSTALLED_CONFIG):
        if not c:
            continue
        configs.append(Path(c))
        with contextlib.suppress(JournalNotLocatedError):
            journals.append(config_journal(Path(c)))
    if os.environ.get(ENV_JOURNAL):
        journals.append(Path(os.environ[ENV_JOURNAL]))
    return Guard(tuple(journals), tuple(configs))


def write_out(
    command: str,
    path: str | Path,
    data: str | bytes,
    guard: Guard,
    args: argparse.Namespace,
    *,
    private: bool = False,
) -> Written:
    """Write a command's output file (`station.output`) and say where (stderr)."""
    written = write_output(
        path, data, guard, force=bool(getattr(args, "force", False)), private=private
    )
    print(f"station {command}: {written}", file=sys.stderr)
    return written


def journal_path(args: argparse.Namespace, *, must_exist: bool = True) -> Path:
    """The journal named by --journal, --config, $STATION_JOURNAL or the installed config."""
    found = locate_journal(
        getattr(args, "journal", None), getattr(args, "config", None), must_exist=must_exist
    )
    return found.path


def open_journal(args: argparse.Namespace, *, reads_only: bool = False) -> Journal:
    """The journal the command names. A command that only reads it (`reads_only`) opens it
    read-only when this user may not write in its folder (a floor member, a stopped station);
    one that writes says who may."""
    path = journal_path(args)
    try:
        return Journal.open(path, clock=SystemClock())
    except JournalAccessError:
        if not reads_only:
            raise
        return Journal.open_reader(path, clock=SystemClock())


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
    except (
        UsageError, AuthError, WorkflowError, JournalError, JournalNotLocatedError,
        OutputRefusedError,
    ) as exc:  # fmt: skip
        return fail(command, str(exc))
    except BrokenPipeError:
        raise  # the reader went away: `station.cli.main` exits quietly
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        user = f" (as {user_name()})" if is_access_error(exc) else ""
        return fail(command, f"{where}{exc.strerror or exc}{user}")
