"""Throw-away central services for development, the tests and the fleet bench: a mosquitto
broker (TLS, client certificates, the site ACL, persistence) and a PostgreSQL cluster
(`initdb` into a temporary folder), each on a free loopback port. Edge adapter (processes).

Both run the distribution's binaries (Debian packages `mosquitto` and `postgresql`; `./dev`
installs them). PostgreSQL refuses to run as root, and so should a broker: when we are root
(CI) both run as the unprivileged user `nobody`, which owns their folder. Each process is our
direct child, so `kill(hard=True)` is a real `kill -9` of the service itself, and `start()`
brings it back on the same port with the same data (the bench's fault injection).

`MissingError` says which binary is not installed; callers under `CI=true` must treat it as a
failure (the test fixtures do).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO, Final

from station.central.broker import BrokerTls, acl_text, mosquitto_conf
from station.central.certs import BROKER, INGEST, Identity, ensure_ca, identity, issue

SERVICE_USER: Final = "nobody"
START_S: Final = 20.0


class MissingError(RuntimeError):
    """A service's binary is not installed here."""


class ServiceError(RuntimeError):
    """A service did not start (its log's tail is in the message)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user() -> tuple[int, int] | None:
    """(uid, gid) to run services as: `nobody` when we are root, else ourselves (None)."""
    if os.geteuid() != 0:
        return None
    pw = pwd.getpwnam(SERVICE_USER)
    return pw.pw_uid, pw.pw_gid


def _ids(owner: tuple[int, int] | None) -> tuple[int | None, int | None, list[int] | None]:
    """subprocess's user, group and extra_groups for `owner` (None: ourselves)."""
    return (None, None, None) if owner is None else (owner[0], owner[1], [])


def _give(path: Path, owner: tuple[int, int] | None) -> None:
    if owner is not None:
        os.chown(path, *owner)


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, what: str) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
    raise ServiceError(f"{what} did not start on port {port}: {tail}")


class _Process:
    """One service process: started, killed, restarted on the same port."""

    name = "service"

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.owner = _as_user()
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = root / f"{self.name}.log"
        self._log_file: IO[bytes] | None = None

    def _argv(self) -> list[str]:
        raise NotImplementedError

    def _spawn(self) -> None:
        self._log_file = self.log.open("ab")
        uid, gid, groups = _ids(self.owner)
        self.proc = subprocess.Popen(
            self._argv(),
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            cwd=self.root,
            start_new_session=True,
            user=uid,
            group=gid,
            extra_groups=groups,
        )

    def start(self) -> None:
        if self.running:
            return
        self._spawn()
        assert self.proc is not None
        _wait_port(self.port, self.proc, self.log, self.name)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, *, hard: bool = True) -> None:
        """`kill -9` (hard) or a clean stop (SIGTERM / PostgreSQL's fast shutdown)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if hard else self._stop_signal)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    _stop_signal = signal.SIGTERM

    def restart(self, *, hard: bool = True) -> None:
        self.kill(hard=hard)
        self.start()


class Mosquitto(_Process):
    """A site broker on 127.0.0.1 with the real TLS, ACL and persistence configuration."""

    name = "mosquitto"

    def __init__(self, root: Path, site: str, certs: Path) -> None:
        super().__init__(root)
        self.binary = mosquitto_binary()
        self.site = site
        self.certs = certs
        data = root / "mosquitto-data"
        data.mkdir(exist_ok=True)
        _give(root, self.owner)
        _give(data, self.owner)
        ensure_ca(certs, site)
        server = issue(certs, site, BROKER, hosts=("127.0.0.1", "localhost"))
        for path in (server.cert, server.key):
            _give(path, self.owner)
        acl = root / "acl"
        acl.write_text(acl_text(site), encoding="utf-8")
        self.conf = root / "mosquitto.conf"
        self.conf.write_text(
            mosquitto_conf(
                port=self.port,
                bind="127.0.0.1",
                tls=BrokerTls(server.ca, server.cert, server.key),
                acl_file=acl,
                persistence_dir=data,
            ),
            encoding="utf-8",
        )

    def _argv(self) -> list[str]:
        return [self.binary, "-c", str(self.conf)]

    def identity(self, name: str) -> Identity:
        """A client identity of this site (issued on first use)."""
        found = identity(self.certs, name)
        if found.cert.exists() and found.key.exists():
            return found
        return issue(self.certs, self.site, name)

    @property
    def ingest(self) -> Identity:
        return self.identity(INGEST)


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or _first(["/usr/sbin/mosquitto"])
    if found is None:
        raise MissingError("mosquitto is not installed (Debian package mosquitto)")
    return found


def pg_bindir() -> Path:
    """The PostgreSQL server binaries: $STATION_PG_BIN, else the newest Debian cluster's."""
    env = os.environ.get("STATION_PG_BIN")
    candidates = [env] if env else sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_pg_ver)
    for c in reversed(candidates):
        if c and (Path(c) / "initdb").exists() and (Path(c) / "postgres").exists():
            return Path(c)
    raise MissingError("PostgreSQL's server is not installed (Debian package postgresql)")


def _pg_ver(path: str) -> float:
    try:
        return float(Path(path).parent.name)
    except ValueError:
        return 0.0


class Postgres(_Process):
    """A PostgreSQL cluster in a temporary folder, database `fleet`, password authentication
    over 127.0.0.1 only."""

    name = "postgres"
    _stop_signal = signal.SIGINT  # "fast" shutdown

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.bindir = pg_bindir()
        self.user = "central"
        self.password = secrets.token_hex(16)
        self.data = root / "pgdata"
        self.sockets = root / "pgsock"
        self.sockets.mkdir(exist_ok=True)
        _give(root, self.owner)
        _give(self.sockets, self.owner)
        pwfile = root / "pgpass"
        pwfile.write_text(self.password + "\n", encoding="ascii")
        pwfile.chmod(0o600)
        _give(pwfile, self.owner)
        uid, gid, groups = _ids(self.owner)
        done = subprocess.run(
            [
                str(self.bindir / "initdb"), "-D", str(self.data), "-U", self.user,
                "--auth=scram-sha-256", f"--pwfile={pwfile}", "-E", "UTF8", "--no-sync",
                "--locale=C",
            ],
            capture_output=True, text=True, check=False, cwd=root, timeout=120,
            user=uid, group=gid, extra_groups=groups,
        )  # fmt: skip
        pwfile.unlink()
        if done.returncode != 0:
            raise ServiceError(f"initdb failed: {done.stderr.strip()[-800:]}")
        self.database = "fleet"

    def _argv(self) -> list[str]:
        return [
            str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port),
            "-k", str(self.sockets), "-c", "listen_addresses=127.0.0.1",
            "-c", "max_connections=50", "-c", "shared_buffers=64MB",
        ]  # fmt: skip

    def start(self) -> None:
        if self.running:
            return
        super().start()
        self._wait_ready()

    def _wait_ready(self) -> None:
        import psycopg  # noqa: PLC0415 (the central extra)

        deadline = time.monotonic() + START_S
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
                    exists = conn.execute(
                        "SELECT 1 FROM pg_database WHERE datname = %s", (self.database,)
                    ).fetchone()
                    if exists is None:
                        conn.execute(f'CREATE DATABASE "{self.database}"')
                return
            except psycopg.OperationalError as exc:  # starting up, recovering
                last = exc
                time.sleep(0.1)
        raise ServiceError(f"postgres did not accept connections: {last}")

    def dsn(self, database: str | None = None) -> str:
        return (
            f"host=127.0.0.1 port={self.port} dbname={database or self.database} "
            f"user={self.user} password={self.password} connect_timeout=5"
        )


class Services:
    """A broker and a database for one test or bench run, in one temporary folder."""

    def __init__(self, site: str = "dev", root: Path | None = None) -> None:
        self._tmp = None if root is not None else tempfile.mkdtemp(prefix="station-central-")
        self.root = root or Path(self._tmp or "")
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o711)  # the services' user (nobody, when we are root) must get in
        self.site = site
        self.certs = self.root / "certs"
        self.broker: Mosquitto | None = None
        self.db: Postgres | None = None

    def start(self, *, broker: bool = True, database: bool = True) -> Services:
        try:
            if broker:
                self.broker = Mosquitto(self.root / "broker", self.site, self.certs)
                self.broker.start()
            if database:
                self.db = Postgres(self.root / "db")
                self.db.start()
        except BaseException:
            self.close()
            raise
        return self

    def write_central_toml(self, path: Path | None = None) -> Path:
        """A central.toml for an ingest on these services (the ingest's identity issued)."""
        from station.central.config import central_toml  # noqa: PLC0415

        assert self.broker is not None
        assert self.db is not None
        ident = self.broker.ingest
        pw = self.root / "db-password"
        pw.write_text(self.db.password + "\n", encoding="ascii")
        pw.chmod(0o600)
        target = path or self.root / "central.toml"
        target.write_text(
            central_toml(
                site=self.site,
                host="127.0.0.1",
                port=self.broker.port,
                ca=ident.ca,
                cert=ident.cert,
                key=ident.key,
                dsn=self.db.dsn().replace(f" password={self.db.password}", ""),
                password_file=pw,
            ),
            encoding="utf-8",
        )
        return target

    def close(self) -> None:
        for service in (self.broker, self.db):
            if service is not None:
                with contextlib.suppress(Exception):
                    service.kill(hard=service is self.broker)
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> Services:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _first(paths: list[str]) -> str | None:
    return next((p for p in paths if Path(p).exists()), None)
