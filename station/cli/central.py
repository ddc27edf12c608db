"""`station central ...`: the site's central services. Edge adapter.

- `setup --site S --host H [--tables T01 ...] [--admin NAME]`: this server as the site's
  centre in one command (certificates, the broker's drop-in, the database, central.toml, the
  units, services started; idempotent): `station.central.setup`.
- `ingest --config central.toml`: the ingest service (its own systemd unit,
  `station/central/units/dealer-central-ingest.service`); READY=1 once the database and
  broker are up.
- `migrate --config central.toml`: apply the database migrations and exit.
- `certs --dir DIR --site S NAME... [--force]`: the site CA (made once) and a certificate per
  station id (or `svc.ingest`, or `broker --host H...`); a name already issued is refused
  without `--force`.
- `broker-config --site S --certs DIR --out DIR [--port 8883] [--bind ADDR] [--force]`:
  mosquitto.conf and the ACL for the site's broker (files there are kept without `--force`).
- `demo [--tables N] [--port P] [--speed S] [--dir DIR]`: a local room (the central services
  and N emulated tables dealing, each its own process) until Ctrl-C: `demo_room`.
- `services [--site S] [--dir DIR]`: a throw-away broker and database on loopback with a
  central.toml for them, until Ctrl-C (development).
- `console --config central.toml`: the floor console (a web server; its own systemd unit,
  `station/central/units/dealer-central-console.service`).
- `console-user add|password|unlock|disable|enable|list [NAME] --config central.toml`: the
  console's accounts from the server's shell (the first admin).
- `alarms list [--table T] [--open] --config central.toml`: the chain alarms, open first.
- `alarms clear ID --by NAME --reason TEXT --config central.toml`: clear one, as the console
  account NAME (its role must be one that may: floor or tech), recorded and audited as the
  console's clearing is (`station.central.alarms`).

The psycopg and paho imports happen inside `run`: without the `central` extra the command
says what to install (exit 2) instead of failing at start.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from station.cli import central_console as console_cli
from station.output import (
    Guard,
    OutputRefusedError,
    check_target,
    fresh_folder,
    output_folder,
    write_output,
)

if TYPE_CHECKING:
    from station.central.alarms import Alarm


CENTRAL_TOML = "the central config, e.g. /etc/dealer-station/central.toml"
DB_ADMIN = "host=/run/postgresql dbname=postgres user=postgres"


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser(
        "setup",
        help="set up this server as the site's centre: certificates, broker, database, services",
    )
    p.add_argument("--site", required=True, help="the casino site (topics casino/SITE/...)")
    p.add_argument(
        "--host", action="append", default=[], required=True,
        help="a name or address the tables dial for the broker (repeat for each)",
    )  # fmt: skip
    p.add_argument("--tables", nargs="*", default=[], metavar="ID", help="tables to certify")
    p.add_argument("--admin", default="", metavar="NAME", help="the first console admin")
    # The defaults fit a Debian server; the environment variables let a test point the
    # command at a throw-away layout (a folder as root, its own users, ports and database).
    p.add_argument(
        "--port",
        type=int,
        default=int(_env("STATION_SETUP_PORT", "8883")),
        help="the broker's TLS port (default 8883)",
    )
    p.add_argument(
        "--console-port",
        type=int,
        default=int(_env("STATION_SETUP_CONSOLE_PORT", "8443")),
        help="the floor console's HTTPS port (default 8443)",
    )
    p.add_argument(
        "--root",
        type=Path,
        default=Path(_env("STATION_SETUP_ROOT", "/")),
        help="install under this folder instead of / (tests)",
    )
    p.add_argument(
        "--service-user",
        default=_env("STATION_SETUP_SERVICE_USER", "dealer-central"),
        help="the user the central services run as (default dealer-central)",
    )
    p.add_argument(
        "--broker-user",
        default=_env("STATION_SETUP_BROKER_USER", "mosquitto"),
        help="the user the broker runs as (default mosquitto)",
    )
    p.add_argument(
        "--db-admin", metavar="DSN",
        default=_env("STATION_SETUP_DB_ADMIN", DB_ADMIN),
        help="how to reach PostgreSQL as its administrator",
    )  # fmt: skip
    p.add_argument(
        "--db-admin-user", metavar="USER", default=_env("STATION_SETUP_DB_ADMIN_USER", "postgres"),
        help="the OS user to become for --db-admin ('' for none)",
    )  # fmt: skip
    p.add_argument("--no-start", action="store_true", help="write everything, start nothing")
    p = sub.add_parser("ingest", help="run the central ingest (MQTT -> PostgreSQL)")
    p.add_argument("--config", required=True, type=Path, help=CENTRAL_TOML)
    p.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="how much to log (default info)",
    )
    p = sub.add_parser("migrate", help="apply the central database's migrations")
    p.add_argument("--config", required=True, type=Path, help=CENTRAL_TOML)
    p = sub.add_parser("certs", help="make the site CA and client/server certificates")
    p.add_argument(
        "--dir", required=True, type=Path, help="folder of the site's CA and certificates"
    )
    p.add_argument("--site", required=True, help="the casino site's name, e.g. main")
    p.add_argument("--host", action="append", default=[], help="broker host name or address")
    p.add_argument(
        "--force", action="store_true", help="issue again a name that already has a certificate"
    )
    p.add_argument("names", nargs="+", help="station ids, svc.ingest, or broker")
    p = sub.add_parser("broker-config", help="write mosquitto.conf and the ACL for a site")
    p.add_argument("--site", required=True, help="the casino site's name, e.g. main")
    p.add_argument("--certs", required=True, type=Path, help="folder made by `central certs`")
    p.add_argument("--out", required=True, type=Path, help="folder to write the two files in")
    p.add_argument("--port", type=int, default=8883, help="the broker's TLS port (default 8883)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument(
        "--data",
        type=Path,
        default=Path("/var/lib/mosquitto"),
        help="the broker's persistence folder (default /var/lib/mosquitto)",
    )
    p.add_argument("--force", action="store_true", help="replace the files when they are there")
    p = sub.add_parser(
        "demo", help="a local room: the central services and N emulated tables, until Ctrl-C"
    )
    p.add_argument("--tables", type=int, default=8, help="emulated tables (default 8)")
    p.add_argument("--port", type=int, default=8080, help="the console's port (default 8080)")
    p.add_argument(
        "--speed", type=float, default=2.0,
        help="the tables' pace: 1 a live dealer, 2 twice as fast (default)",
    )  # fmt: skip
    p.add_argument("--dir", type=Path, default=None, help="keep everything in this folder")
    p.add_argument("--seed", type=int, default=1, help="hand choice and deck seed (default 1)")
    p.add_argument(
        "--event", action="store_true",
        help="tournament tables and an event DEMO on them, for the floor to draw and start",
    )  # fmt: skip
    p = sub.add_parser("services", help="a throw-away broker and database (development)")
    p.add_argument("--site", default="dev", help="site name (default dev)")
    p.add_argument(
        "--dir", type=Path, default=None, help="folder for their data (default: a temporary one)"
    )
    p = sub.add_parser("console", help="serve the floor console (web pages for the floor)")
    console_cli.add_serve_arguments(p)
    p = sub.add_parser("console-user", help="add or change floor console accounts")
    console_cli.add_user_arguments(p)
    p = sub.add_parser("alarms", help="list the chain alarms, or clear one with a reason")
    p.add_argument("what", choices=("list", "clear"), help="list the alarms, or clear one")
    p.add_argument("alarm", nargs="?", type=int, help="the alarm's number (clear)")
    p.add_argument("--config", required=True, type=Path, help=CENTRAL_TOML)
    p.add_argument("--table", default="", metavar="T", help="only this table's alarms (list)")
    p.add_argument("--open", action="store_true", help="only the alarms not cleared (list)")
    p.add_argument(
        "--by", default="", metavar="NAME", help="clear as this console account (floor or tech)"
    )
    p.add_argument(
        "--reason", default="", metavar="TEXT", help="why it is cleared (clear; required)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        match args.action:
            case "setup":
                return _setup(args)
            case "certs":
                return _certs(args)
            case "broker-config":
                return _broker_config(args)
            case "migrate":
                return _migrate(args)
            case "ingest":
                return _ingest(args)
            case "services":
                return _services(args)
            case "demo":
                return _room(args)
            case "console" | "console-user":
                return _console(args)
            case "alarms":
                return _alarms(args)
    except ModuleNotFoundError as exc:
        print(
            f"station central: needs {exc.name} (install the extra: pip install '.[central]')",
            file=sys.stderr,
        )
        return 2
    return 2


def _setup(args: argparse.Namespace) -> int:
    from station.central.certs import CertError  # noqa: PLC0415
    from station.central.console.passwords import WeakPasswordError, check_policy  # noqa: PLC0415
    from station.central.setup import SetupError, SetupOptions, setup  # noqa: PLC0415

    try:  # the root the site is laid out under: a folder, never a station's file
        output_folder(args.root, Guard())
    except OutputRefusedError as exc:
        print(f"station central setup: --root: {exc}", file=sys.stderr)
        return 2
    password = ""
    if args.admin:
        password = _new_password(args.admin)
        try:
            check_policy(password, args.admin)
        except WeakPasswordError as exc:
            print(f"station central setup: --admin: {exc}", file=sys.stderr)
            return 2
    opts = SetupOptions(
        site=args.site, hosts=tuple(args.host), tables=tuple(args.tables), admin=args.admin,
        admin_password=password, port=args.port, console_port=args.console_port,
        root=args.root, service_user=args.service_user, broker_user=args.broker_user,
        db_admin=args.db_admin, db_admin_user=args.db_admin_user, start=not args.no_start,
    )  # fmt: skip
    try:
        setup(opts, sys.stdout)
    except (SetupError, CertError) as exc:
        print(f"station central setup: {exc}", file=sys.stderr)
        return 2
    return 0


def _new_password(name: str) -> str:
    """The first admin's password: asked twice on a terminal, else the first line of stdin."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    import getpass  # noqa: PLC0415

    first = getpass.getpass(f"console password for {name}: ")
    if getpass.getpass("again: ") != first:
        print("station central setup: the two passwords differ", file=sys.stderr)
        raise SystemExit(2)
    return first


def _certs(args: argparse.Namespace) -> int:
    from station.central.certs import BROKER, CertError, issue  # noqa: PLC0415

    try:
        output_folder(args.dir, Guard())
        for name in args.names:
            hosts = tuple(args.host) if name == BROKER else ()
            made = issue(args.dir, args.site, name, hosts=hosts, force=args.force)
            print(f"{made.name}: {made.cert} {made.key}")
    except (CertError, OutputRefusedError) as exc:
        print(f"station central certs: {exc}", file=sys.stderr)
        return 2
    return 0


def _broker_config(args: argparse.Namespace) -> int:
    from station.central.broker import BrokerTls, acl_text, mosquitto_conf  # noqa: PLC0415

    certs: Path = args.certs.resolve()
    guard = Guard(extra=tuple(certs / f for f in ("ca.crt", "broker.crt", "broker.key")))
    acl, conf = args.out / "dealer-station.acl", args.out / "dealer-station.conf"
    try:
        out = output_folder(args.out, guard)
        for path in (acl, conf):
            check_target(path, guard, force=args.force)
    except OutputRefusedError as exc:
        print(f"station central broker-config: {exc}", file=sys.stderr)
        return 2
    missing = [f for f in ("ca.crt", "broker.crt", "broker.key") if not (certs / f).is_file()]
    if missing:
        print(f"{certs}: missing {', '.join(missing)} (station central certs)", file=sys.stderr)
        return 2
    write_output(acl, acl_text(args.site), guard, force=args.force)
    text = mosquitto_conf(
        port=args.port,
        bind=args.bind,
        tls=BrokerTls(certs / "ca.crt", certs / "broker.crt", certs / "broker.key"),
        acl_file=acl.resolve(),
        persistence_dir=args.data,
        log_dest="stderr",  # systemd keeps it in the journal; syslog may not exist
    )
    write_output(conf, text, guard, force=args.force)
    print(f"{out / conf.name}\n{out / acl.name}")
    return 0


def _load(path: Path) -> object:
    from station.central.config import load_central  # noqa: PLC0415
    from station.config.station_toml import ConfigError  # noqa: PLC0415

    try:
        return load_central(path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return None


def _migrate(args: argparse.Namespace) -> int:
    import psycopg  # noqa: PLC0415

    from station.central.config import CentralConfig  # noqa: PLC0415
    from station.central.schema import SchemaError, migrate  # noqa: PLC0415

    cfg = _load(args.config)
    if not isinstance(cfg, CentralConfig):
        return 2
    try:
        with psycopg.connect(cfg.conninfo(), autocommit=True) as conn:
            applied = migrate(conn)
    except (psycopg.Error, SchemaError) as exc:
        print(f"station central migrate: {exc}", file=sys.stderr)
        return 1
    print(f"applied: {', '.join(applied) or 'nothing (up to date)'}")
    return 0


def _ingest(args: argparse.Namespace) -> int:
    from station.central.config import CentralConfig  # noqa: PLC0415
    from station.central.ingest import Ingest  # noqa: PLC0415
    from station.daemon.notify import Notifier  # noqa: PLC0415

    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    cfg = _load(args.config)
    if not isinstance(cfg, CentralConfig):
        return 2
    stop = threading.Event()

    def on_signal(_sig: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    notifier = Notifier()
    Ingest(cfg).run(stop, on_ready=lambda: notifier.ready("ingest ready"))
    notifier.stopping()
    return 0


def _console(args: argparse.Namespace) -> int:
    from station.central.config import CentralConfig  # noqa: PLC0415

    cfg = _load(args.config)
    if not isinstance(cfg, CentralConfig):
        return 2
    if args.action == "console":
        from station.central.console.serve import serve  # noqa: PLC0415

        return serve(cfg, args.log_level)
    return console_cli.users(cfg, args)


def _alarms(args: argparse.Namespace) -> int:
    import psycopg  # noqa: PLC0415

    from station.central import alarms  # noqa: PLC0415
    from station.central.config import CentralConfig  # noqa: PLC0415
    from station.central.console import accounts  # noqa: PLC0415
    from station.central.schema import SchemaError, migrate  # noqa: PLC0415

    me = f"station central alarms {args.what}"

    def refuse(why: str) -> int:
        print(f"{me}: {why}", file=sys.stderr)
        return 2

    if args.what == "clear":
        if args.alarm is None:
            return refuse("give the alarm's number (station central alarms list shows them)")
        if not args.by:
            return refuse("give --by NAME: your console account (floor or tech)")
        try:
            reason = alarms.clean_reason(args.reason)
        except alarms.AlarmError as exc:
            return refuse(f"--reason: {exc}")
    cfg = _load(args.config)
    if not isinstance(cfg, CentralConfig):
        return 2
    try:
        with psycopg.connect(cfg.conninfo(), autocommit=True) as conn:
            migrate(conn)
            if args.what == "list":
                if args.table and not alarms.station_known(conn, args.table):
                    return refuse(f"--table: no table {args.table} in the central store")
                for a in alarms.listed(conn, args.table, open_only=args.open):
                    print("\t".join(_alarm_fields(a)))
                return 0
            account = accounts.get_account(conn, args.by)
            if account is None or not account.active:
                return refuse(f"--by: no active console account {args.by}")
            done = alarms.clear(
                conn, args.alarm, person=account.name, role=account.role, reason=reason,
                via=alarms.Via.CLI,
            )  # fmt: skip
    except (alarms.AlarmError, alarms.AlarmRefusedError) as exc:
        return refuse(str(exc))
    except (psycopg.Error, SchemaError) as exc:
        print(f"{me}: database: {exc}", file=sys.stderr)
        return 1
    row = "" if done.seq is None else f", row {done.seq}"
    print(f"alarm {done.id} ({done.kind} at {done.station}{row}) cleared by {done.cleared_by}"
          f" ({done.cleared_role})")  # fmt: skip
    return 0


def _alarm_fields(a: Alarm) -> list[str]:
    from station.central.alarms import when_text as when  # noqa: PLC0415

    if a.open:
        state = "OPEN"
    else:
        state = f"cleared {when(a.cleared_at)} by {a.cleared_by} ({a.cleared_role}): {a.reason}"
    row = "-" if a.seq is None else f"row {a.seq}"
    return [str(a.id), a.station, a.kind, row, when(a.raised_at), state, a.detail_text]


def _room(args: argparse.Namespace) -> int:
    from station.central.demo_room import RoomOptions, run_room  # noqa: PLC0415
    from station.central.services import MissingError, ServiceError  # noqa: PLC0415

    if not 1 <= args.tables <= 99 or args.speed <= 0:
        print("station central demo: 1 <= --tables <= 99, --speed > 0", file=sys.stderr)
        return 2
    if args.dir is not None:  # a room of its own: never a station's folder
        try:
            fresh_folder(args.dir, Guard())
        except OutputRefusedError as exc:
            print(f"station central demo: --dir: {exc}", file=sys.stderr)
            return 2
    opts = RoomOptions(args.tables, args.dir, args.port, args.speed, args.seed, args.event)
    try:
        return run_room(opts, sys.stdout)
    except (MissingError, ServiceError) as exc:
        print(f"station central demo: {exc}", file=sys.stderr)
        return 2


def _services(args: argparse.Namespace) -> int:
    from station.central.services import MissingError, Services  # noqa: PLC0415

    if args.dir is not None:
        try:
            output_folder(args.dir, Guard())
        except OutputRefusedError as exc:
            print(f"station central services: --dir: {exc}", file=sys.stderr)
            return 2
    try:
        services = Services(args.site, args.dir).start()
    except MissingError as exc:
        print(f"station central services: {exc}", file=sys.stderr)
        return 2
    with services:
        toml = services.write_central_toml()
        assert services.broker is not None
        assert services.db is not None
        print(f"broker 127.0.0.1:{services.broker.port}, postgres 127.0.0.1:{services.db.port}")
        print(f"central config: {toml}; certificates: {services.certs}")
        print("Ctrl-C stops both and deletes the folder", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0
