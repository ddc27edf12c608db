"""`station central setup`: a site's central server from one command, on a Debian server with
the `mosquitto` and `postgresql` packages installed. Every file is written with its owner and
mode, everything is idempotent (a second run keeps the certificates, the passwords and the
data, and rewrites only what changed), and each step is printed. Edge adapter (files, users,
`openssl`, PostgreSQL, `systemctl`).

What it does, under `root` (`/` on a server; a throw-away folder in the tests):

1. the service user (`dealer-central`, a system user) unless it exists;
2. the site CA and certificates (`etc/dealer-station/fleet/`, 0700 root; `ca.key` stays
   there, 0600: move it off the server once the tables have theirs): the broker's, the
   ingest's, the console's HTTPS certificate and one per table; each table's three files in
   `etc/dealer-station/stations/T01/` to copy to that table;
3. the broker: its certificate and key in `etc/mosquitto/certs/dealer-station/` readable by
   the `mosquitto` user (which mosquitto drops to before it reads them), the site's drop-in
   `etc/mosquitto/conf.d/dealer-station.conf` and the ACL, the persistence folder owned by
   `mosquitto`; Debian's own `mosquitto.conf` (log file, pid file, persistence) is kept;
4. the database: the service's role and the `fleet` database (`setup_db`, as PostgreSQL's
   administrator), its password in `etc/dealer-station/db-password` (0640 root:service);
5. `etc/dealer-station/central.toml`, the ingest's and console's files readable by the service
   user only; the systemd units of the ingest and the console (`etc/systemd/system/`);
6. the schema migrated and the first console admin (when `--admin` is given);
7. `systemctl daemon-reload`, mosquitto restarted, the ingest and the console enabled and
   restarted; it waits until the broker's and the console's ports answer.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Final, TextIO

from station.central.broker import BrokerTls, acl_text, mosquitto_dropin
from station.central.certs import BROKER, CONSOLE, INGEST, Identity, ensure_ca, identity, issue
from station.output import Guard, check_target

SERVICE_USER: Final = "dealer-central"
BROKER_USER: Final = "mosquitto"
DB_ADMIN: Final = "host=/run/postgresql dbname=postgres user=postgres"
DB_ADMIN_USER: Final = "postgres"
UNITS: Final = ("dealer-central-ingest", "dealer-central-console")
INSTALLED: Final = "/opt/dealer-station/venv/bin/station"  # what the unit files name
WAIT_S: Final = 60.0


class SetupError(RuntimeError):
    """Set-up cannot go on (the message says what to do)."""


@dataclass(frozen=True, slots=True)
class SetupOptions:
    site: str
    hosts: tuple[str, ...]
    tables: tuple[str, ...] = ()
    admin: str = ""
    admin_password: str = ""
    port: int = 8883
    bind: str = "0.0.0.0"
    console_port: int = 8443
    root: Path = Path("/")
    service_user: str = SERVICE_USER
    broker_user: str = BROKER_USER
    db_admin: str = DB_ADMIN
    db_admin_user: str = DB_ADMIN_USER  # the OS user to become for db_admin ('' ourselves)
    database: str = "fleet"
    start: bool = True
    station: Path = field(default_factory=lambda: Path(sys.executable).with_name("station"))


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes, under `root`."""

    root: Path

    def at(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    @property
    def etc(self) -> Path:
        return self.at("/etc/dealer-station")

    @property
    def fleet(self) -> Path:
        return self.etc / "fleet"

    @property
    def stations(self) -> Path:
        return self.etc / "stations"

    @property
    def ingest(self) -> Path:
        return self.etc / "ingest"

    @property
    def console(self) -> Path:
        return self.etc / "console"

    @property
    def central_toml(self) -> Path:
        return self.etc / "central.toml"

    @property
    def db_password(self) -> Path:
        return self.etc / "db-password"

    @property
    def mosquitto(self) -> Path:
        return self.at("/etc/mosquitto")

    @property
    def broker_certs(self) -> Path:
        return self.mosquitto / "certs" / "dealer-station"

    @property
    def dropin(self) -> Path:
        return self.mosquitto / "conf.d" / "dealer-station.conf"

    @property
    def acl(self) -> Path:
        return self.mosquitto / "dealer-station.acl"

    @property
    def units(self) -> Path:
        return self.at("/etc/systemd/system")


@dataclass(frozen=True, slots=True)
class Owner:
    name: str
    uid: int
    gid: int


ROOT_OWNER: Final = Owner("root", 0, 0)


class Setup:
    def __init__(self, opts: SetupOptions, out: TextIO) -> None:
        self.o = opts
        self.out = out
        self.lay = Layout(opts.root)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    # --- files with an owner and a mode ----------------------------------------------------

    def folder(self, path: Path, mode: int, owner: Owner = ROOT_OWNER) -> None:
        made = not path.is_dir()
        path.mkdir(parents=True, exist_ok=True)
        os.chown(path, owner.uid, owner.gid)
        path.chmod(mode)
        if made:
            self.say(f"made   {path}/ ({mode:o} {owner.name})")

    def write(self, path: Path, text: str, mode: int, owner: Owner = ROOT_OWNER) -> None:
        check_target(path, Guard(), force=True)  # its own files again, never a station's
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old != text:
            tmp = path.with_name(f".{path.name}.new")
            tmp.write_text(text, encoding="utf-8")
            os.chown(tmp, owner.uid, owner.gid)
            tmp.chmod(mode)
            tmp.replace(path)
        os.chown(path, owner.uid, owner.gid)
        path.chmod(mode)
        what = "kept  " if old == text else ("wrote " if old is None else "updated")
        self.say(f"{what} {path} ({mode:o} {owner.name})")

    def copy(self, src: Path, dst: Path, mode: int, owner: Owner = ROOT_OWNER) -> None:
        self.write(dst, src.read_text(encoding="utf-8"), mode, owner)

    # --- the steps -------------------------------------------------------------------------

    def run(self) -> None:
        self.check()
        svc = self.service_user()
        broker = self.user(self.o.broker_user)
        self.folder(self.lay.etc, 0o755)
        ca_dir = self.certificates()
        self.broker(broker, ca_dir)
        password = self.database(svc)
        toml = self.central(svc, ca_dir, password)
        self.units(svc, toml)
        self.schema(toml)
        if self.o.start:
            self.start()
        self.say("")
        self.say(f"site {self.o.site} is set up: broker {self.o.hosts[0]}:{self.o.port}, "
                 f"console https://{self.o.hosts[0]}:{self.o.console_port}/")  # fmt: skip
        for table in self.o.tables:
            self.say(f"  copy {self.lay.stations / table}/* to table {table} "
                     "(its [fleet] ca, cert and key)")  # fmt: skip
        self.say(f"  browsers trust the console once they trust {self.lay.fleet / 'ca.crt'}; "
                 f"keep {self.lay.fleet / 'ca.key'} off this server once every table has "
                 "its certificate")  # fmt: skip

    def check(self) -> None:
        if os.geteuid() != 0:
            raise SetupError("run it as root (sudo): it writes files owned by other users")
        if not self.o.hosts:
            raise SetupError("give the broker's host name or address: --host NAME")
        if shutil.which("openssl") is None:
            raise SetupError("openssl is not installed: apt install openssl")
        main = self.lay.mosquitto / "mosquitto.conf"
        if not main.is_file():
            raise SetupError(f"{main} is missing: apt install mosquitto")
        includes = _conf_values(main, "include_dir")
        wanted = {str(self.lay.mosquitto / "conf.d").rstrip("/")}
        if not {i.rstrip("/") for i in includes} & wanted:
            raise SetupError(
                f"{main} does not include {self.lay.mosquitto / 'conf.d'}: add the line "
                f"'include_dir {self.lay.mosquitto / 'conf.d'}' (Debian's file has it)"
            )

    def user(self, name: str) -> Owner:
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            raise SetupError(f"no user {name} (its package creates it)") from None
        return Owner(name, pw.pw_uid, pw.pw_gid)

    def service_user(self) -> Owner:
        name = self.o.service_user
        try:
            pwd.getpwnam(name)
            self.say(f"kept   user {name}")
        except KeyError:
            _run(
                ["useradd", "--system", "--user-group", "--no-create-home", "--home-dir",
                 "/nonexistent", "--shell", "/usr/sbin/nologin", name],
                f"adding the user {name}",
            )  # fmt: skip
            self.say(f"made   user {name} (system user, its own group, no shell)")
        return self.user(name)

    def certificates(self) -> Path:
        fleet = self.lay.fleet
        self.folder(fleet, 0o700)
        made = not (fleet / "ca.crt").exists()
        ensure_ca(fleet, self.o.site)
        self.say(f"{'made' if made else 'kept'}   the site CA {fleet / 'ca.crt'} (ca.key 600 root)")
        servers = (*self.o.hosts, "127.0.0.1", "localhost")
        for name, hosts in ((BROKER, servers), (CONSOLE, servers), (INGEST, ())):
            self.identity(name, hosts)
        self.folder(self.lay.stations, 0o700)
        for table in self.o.tables:
            ident = self.identity(table, ())
            folder = self.lay.stations / table
            self.folder(folder, 0o700)
            for src in (ident.ca, ident.cert, ident.key):
                self.copy(src, folder / src.name, 0o600)
        return fleet

    def identity(self, name: str, hosts: tuple[str, ...]) -> Identity:
        fleet = self.lay.fleet
        found = identity(fleet, name)
        stamp = fleet / f"{name}.hosts"
        want = "\n".join(hosts)
        same = not hosts or (stamp.is_file() and stamp.read_text(encoding="utf-8") == want)
        if found.cert.exists() and found.key.exists() and same:
            self.say(f"kept   certificate {name}")
            return found
        made = issue(fleet, self.o.site, name, hosts=hosts)
        if hosts:
            stamp.write_text(want, encoding="utf-8")
        self.say(f"made   certificate {name}" + (f" for {', '.join(hosts)}" if hosts else ""))
        return made

    def broker(self, broker: Owner, ca_dir: Path) -> None:
        certs = self.lay.broker_certs
        group = Owner(f"root:{broker.name}", 0, broker.gid)
        self.folder(certs.parent, 0o755)
        self.folder(certs, 0o750, group)
        ident = identity(ca_dir, BROKER)
        self.copy(ident.ca, certs / "ca.crt", 0o644, group)
        self.copy(ident.cert, certs / "broker.crt", 0o644, group)
        self.copy(ident.key, certs / "broker.key", 0o640, group)
        main = self.lay.mosquitto / "mosquitto.conf"
        persistence = _conf_values(main, "persistence") == ["true"]
        locations = _conf_values(main, "persistence_location")
        own_data = None
        if persistence and locations:
            data = Path(locations[-1])
        else:
            data = own_data = self.lay.at("/var/lib/mosquitto")
        self.folder(data, 0o750, broker)
        self.write(self.lay.acl, acl_text(self.o.site), 0o644)
        tls = BrokerTls(certs / "ca.crt", certs / "broker.crt", certs / "broker.key")
        text = mosquitto_dropin(
            port=self.o.port, bind=self.o.bind, tls=tls, acl_file=self.lay.acl,
            persistence_dir=own_data,
        )  # fmt: skip
        self.write(self.lay.dropin, text, 0o644)

    def database(self, svc: Owner) -> str:
        path = self.lay.db_password
        if path.is_file() and path.read_text(encoding="utf-8").strip():
            password = path.read_text(encoding="utf-8").strip()
        else:
            password = secrets.token_urlsafe(24)
        self.write(path, password + "\n", 0o640, Owner(f"root:{svc.name}", 0, svc.gid))
        spec = json.dumps({"admin": self.o.db_admin, "role": svc.name, "password": password,
                           "database": self.o.database})  # fmt: skip
        as_user = self.o.db_admin_user or None
        done = subprocess.run(
            [sys.executable, "-m", "station.central.setup_db"], input=spec, text=True,
            capture_output=True, check=False, timeout=120, user=as_user, cwd="/",
        )  # fmt: skip
        if done.returncode != 0:
            raise SetupError(f"the database: {done.stderr.strip() or done.stdout.strip()}")
        for line in done.stdout.splitlines():
            self.say(f"done   {line}")
        return password

    def central(self, svc: Owner, ca_dir: Path, password: str) -> Path:
        from station.central.config import central_toml  # noqa: PLC0415

        del password  # in its own file, read at start
        group = Owner(f"root:{svc.name}", 0, svc.gid)
        for folder, name in ((self.lay.ingest, INGEST), (self.lay.console, CONSOLE)):
            self.folder(folder, 0o750, group)
            ident = identity(ca_dir, name)
            self.copy(ident.ca, folder / "ca.crt", 0o644, group)
            self.copy(ident.cert, folder / f"{name}.crt", 0o644, group)
            self.copy(ident.key, folder / f"{name}.key", 0o640, group)
        host, port = _service_address(self.o.db_admin)
        text = central_toml(
            site=self.o.site,
            host="127.0.0.1",
            port=self.o.port,
            ca=self.lay.ingest / "ca.crt",
            cert=self.lay.ingest / f"{INGEST}.crt",
            key=self.lay.ingest / f"{INGEST}.key",
            dsn=f"host={host} port={port} dbname={self.o.database} user={svc.name}",
            password_file=self.lay.db_password,
            console=(
                f'listen = "0.0.0.0"\nport = {self.o.console_port}\n'
                f'tls_cert = "{self.lay.console / (CONSOLE + ".crt")}"\n'
                f'tls_key = "{self.lay.console / (CONSOLE + ".key")}"'
            ),
        )
        self.write(self.lay.central_toml, text, 0o640, group)
        return self.lay.central_toml

    def units(self, svc: Owner, toml: Path) -> None:
        self.folder(self.lay.units, 0o755)
        for unit in UNITS:
            template = resources.files("station.central") / "units" / f"{unit}.service"
            text = template.read_text(encoding="utf-8")
            text = text.replace(INSTALLED, str(self.o.station))
            text = text.replace("/etc/dealer-station/central.toml", str(toml))
            text = re.sub(r"(?m)^(User|Group)=dealer-central$", rf"\1={svc.name}", text)
            self.write(self.lay.units / f"{unit}.service", text, 0o644)

    def schema(self, toml: Path) -> None:
        """The schema, as the service's role (who owns the database), and the first admin."""
        import psycopg  # noqa: PLC0415

        from station.central.config import load_central  # noqa: PLC0415
        from station.central.console import accounts  # noqa: PLC0415
        from station.central.schema import migrate  # noqa: PLC0415

        cfg = load_central(toml)
        with psycopg.connect(cfg.conninfo(), autocommit=True) as conn:
            applied = migrate(conn)
            self.say(f"done   schema: {', '.join(applied) if applied else 'up to date'}")
            if not self.o.admin:
                return
            if accounts.get_account(conn, self.o.admin) is not None:
                self.say(f"kept   console account {self.o.admin}")
                return
            accounts.add_account(
                conn, self.o.admin, accounts.Role.ADMIN, self.o.admin_password, by="setup"
            )
            self.say(f"made   console account {self.o.admin} (admin)")

    def start(self) -> None:
        systemctl = shutil.which("systemctl")
        if systemctl is None:
            raise SetupError("no systemctl here: start mosquitto and the two units yourself")

        def ctl(*args: str) -> None:
            _run([systemctl, *args], "systemctl " + " ".join(args))
            self.say(f"ran    systemctl {' '.join(args)}")

        ctl("daemon-reload")
        ctl("enable", "mosquitto")
        ctl("restart", "mosquitto")
        self.wait(lambda: _answers(self.o.port), f"the broker on port {self.o.port}")
        for unit in UNITS:
            ctl("enable", unit)
            ctl("restart", unit)
        self.wait(lambda: _answers(self.o.console_port), f"the console on {self.o.console_port}")

    def wait(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if ready():
                self.say(f"up     {what}")
                return
            time.sleep(0.2)
        raise SetupError(f"{what} did not answer within {WAIT_S:.0f} s (journalctl -u ...)")


def setup(opts: SetupOptions, out: TextIO) -> None:
    Setup(opts, out).run()


def _conf_values(path: Path, key: str) -> list[str]:
    values = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.strip().split(None, 1)
        if len(parts) == 2 and parts[0] == key:
            values.append(parts[1].strip())
    return values


def _service_address(admin: str) -> tuple[str, int]:
    """Where the services reach PostgreSQL with their password: the administrator's TCP
    address, or 127.0.0.1:5432 when the administrator comes in through the socket."""
    from psycopg.conninfo import conninfo_to_dict  # noqa: PLC0415

    d = conninfo_to_dict(admin)
    host = str(d.get("host") or "")
    port = int(str(d.get("port") or 5432))
    return (host if host and not host.startswith("/") else "127.0.0.1"), port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), 0.5):
            return True
    except OSError:
        return False


def _run(argv: list[str], what: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=120)
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip()[-600:]
        raise SetupError(f"{what} failed: {why}")
