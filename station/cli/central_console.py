"""`station central console ...` and `station central console-user ...` (subcommands of
`station.cli.central`): serve the floor console (`station.central.console.serve`), and manage
its accounts from the server's shell (the first admin). Edge adapter (CLI).

    station central console --config central.toml [--log-level info]
    station central console-user add NAME --role admin --config central.toml [--password-stdin]
    station central console-user password|unlock|disable|enable NAME --config central.toml
    station central console-user list --config central.toml

The console migrates the database at start (like the ingest), serves with uvicorn on
`[console] listen:port` (HTTPS with `tls_cert`/`tls_key`), and tells systemd READY=1 once it
accepts connections and its first catch-up of the stored rows is done.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from station.central.config import CentralConfig

USER_ACTIONS = ("add", "password", "unlock", "disable", "enable", "list")


CENTRAL_TOML = "the central config, e.g. /etc/dealer-station/central.toml"


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Serve the floor console: the web pages where the floor sees every table, rules on "
        "incidents and recalls hands ([console] of the central config: address, port, TLS)."
    )
    p.add_argument("--config", required=True, type=Path, help=CENTRAL_TOML)
    p.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="how much to log (default info)",
    )


def add_user_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", choices=USER_ACTIONS, help="what to do with the account")
    p.add_argument(
        "name", nargs="?", default="", help="the account: the person's name at the tables"
    )
    p.add_argument("--config", required=True, type=Path, help=CENTRAL_TOML)
    p.add_argument(
        "--role",
        choices=["floor", "tech", "admin", "auditor", "dealer"],
        help="what the account may do (add)",
    )
    p.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("again: ") != first:
        raise ValueError("the two passwords differ")
    return first


def users(cfg: CentralConfig, args: argparse.Namespace) -> int:
    import psycopg  # noqa: PLC0415

    from station.central.console import accounts  # noqa: PLC0415
    from station.central.console.passwords import WeakPasswordError  # noqa: PLC0415
    from station.central.schema import migrate  # noqa: PLC0415

    if args.what != "list" and not args.name:
        print("station central console-user: give the account's NAME", file=sys.stderr)
        return 2
    by, role = "cli", "admin"
    try:
        with psycopg.connect(cfg.conninfo(), autocommit=True) as conn:
            migrate(conn)
            match args.what:
                case "list":
                    for a in accounts.list_accounts(conn):
                        state = "active" if a.active else "disabled"
                        if a.locked_until is not None:
                            state += f", locked until {a.locked_until:%Y-%m-%d %H:%M}"
                        print(f"{a.name}\t{a.role.value}\t{state}")
                case "add":
                    if args.role is None:
                        print("station central console-user add: give --role", file=sys.stderr)
                        return 2
                    accounts.add_account(
                        conn, args.name, accounts.Role(args.role), _password(args), by=by
                    )
                case "password":
                    accounts.set_password(conn, args.name, _password(args), by=by, by_role=role)
                case "unlock":
                    accounts.unlock(conn, args.name, by=by, by_role=role)
                case "disable" | "enable":
                    accounts.set_active(conn, args.name, args.what == "enable", by=by, by_role=role)
    except (accounts.AccountError, WeakPasswordError, ValueError) as exc:
        print(f"station central console-user: {exc}", file=sys.stderr)
        return 2
    except psycopg.Error as exc:
        print(f"station central console-user: database: {exc}", file=sys.stderr)
        return 1
    if args.what != "list":
        print(f"{args.name}: {args.what} done")
    return 0
