"""`station central demo --tables N`: a room on this machine in about a minute. The central
services (a throw-away mosquitto and PostgreSQL under a folder, `station.central.services`),
the ingest and the floor console as processes of their own (as systemd runs them), and N
emulated tables, each `station demo` in its own process: the real emulators over
pseudo-terminals, the station's own daemon and journal under its own station id, forwarding
through the broker, dealing real hands of the PHH sample with an irregularity every few hands.
Edge adapter (processes, files, signals).

`--event`: the tables are tournament tables instead (`station.bench.tourney_station`, the light
station of the tournament bench: the real journal, engine and tournament desk, forwarding; no
screens), nine entrants a table, and an event `DEMO` is created on them, ready for the floor
to draw the seats and start the clock on the console; the tables deal once seated, players go
out, tables are balanced and broken down to the final table.

Ctrl-C (or SIGTERM) stops the tables first (each finishes its summary: journal verified), then
the console and the ingest, then the broker and the database. Every process's output is in
`DIR/logs/`. The tables deal at `speed` (1 is a live dealer's pace): on a small machine a table
deals slower rather than swamp it; the room says how much of the machine it uses.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final, TextIO

SITE: Final = "demo"
FLOOR: Final = "floor1"  # the tables enrol the same names (station.demo.rig)
ADMIN: Final = "admin"
HANDS: Final = 400  # each table's programme (hours at a live pace)
AGAIN_EVERY: Final = 3  # an irregularity every third hand after the first six
READY_S: Final = 90.0
REPORT_EVERY_S: Final = 30.0


class RoomError(RuntimeError):
    """The room could not start (the message says why)."""


@dataclass(frozen=True, slots=True)
class RoomOptions:
    tables: int = 8
    folder: Path | None = None
    port: int = 8080
    speed: float = 2.0
    seed: int = 1
    event: bool = False


EVENT: Final = "DEMO"
EVENT_PER_TABLE: Final = 9  # entrants a table of ten: the first draw uses every table
EVENT_SEATS: Final = 10  # the light tournament station's table
EVENT_HAND_S: Final = 8.0  # a hand at speed 1
EVENT_BUST: Final = 0.3  # the share of hands a player goes out in
EVENT_STRUCTURE: Final = {
    "levels": [
        {"sb": 25, "bb": 50, "minutes": 6},
        {"sb": 50, "bb": 100, "ante": 100, "ante_type": "bb", "minutes": 6},
        {"break": True, "minutes": 3, "colour_up": 25, "colour_up_to": 100},
        {"sb": 100, "bb": 200, "ante": 200, "ante_type": "bb", "minutes": 6},
        {"sb": 200, "bb": 400, "ante": 400, "ante_type": "bb", "minutes": 6},
    ]
}


def table_ids(n: int) -> list[str]:
    return [f"T{k:02d}" for k in range(1, n + 1)]


class Room:
    def __init__(self, opts: RoomOptions, out: TextIO) -> None:
        self.opts = opts
        self.out = out
        self._tmp = opts.folder is None
        self.folder = opts.folder or Path(tempfile.mkdtemp(prefix="station-room-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o711)  # the services' user (nobody, when we are root) gets through
        if os.geteuid() == 0:
            closed = [p for p in self.folder.resolve().parents if not os.stat(p).st_mode & 0o001]
            if closed:
                raise RoomError(
                    f"{closed[0]} is closed to other users, and the broker and the database "
                    "run as the user nobody here: give --dir a folder under /tmp or /srv"
                )
        self.logs = self.folder / "logs"
        self.logs.mkdir(exist_ok=True)
        self.services: object | None = None
        self.central: list[subprocess.Popen[bytes]] = []
        self.tables: dict[str, subprocess.Popen[bytes]] = {}
        self._files: list[IO[bytes]] = []
        self.password = ""
        self.url = ""
        self.conninfo = ""
        self.stop = threading.Event()

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _spawn(
        self, name: str, argv: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        log = (self.logs / f"{name}.log").open("ab")
        self._files.append(log)
        return subprocess.Popen(
            [sys.executable, "-m", "station", *argv],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env={**os.environ, **(env or {})},
        )  # fmt: skip

    def start(self) -> None:
        import psycopg  # noqa: PLC0415

        from station.central.console import accounts  # noqa: PLC0415
        from station.central.schema import migrate  # noqa: PLC0415
        from station.central.services import Services  # noqa: PLC0415

        started = time.monotonic()
        services = Services(SITE, self.folder / "services").start()
        self.services = services
        assert services.broker is not None
        assert services.db is not None
        toml = services.write_central_toml(self.folder / "central.toml")
        with toml.open("a", encoding="utf-8") as f:
            f.write(
                f'\n[console]\nlisten = "127.0.0.1"\nport = {self.opts.port}\n'
                "secure_cookies = false\n"
            )
        self.password = secrets.token_urlsafe(12)
        from station.central.config import load_central  # noqa: PLC0415

        with psycopg.connect(load_central(toml).conninfo(), autocommit=True) as conn:
            migrate(conn)
            for name, role in ((FLOOR, accounts.Role.FLOOR), (ADMIN, accounts.Role.ADMIN)):
                accounts.add_account(conn, name, role, self.password, by="demo")
        self.say(f"room: broker 127.0.0.1:{services.broker.port}, PostgreSQL "
                 f"127.0.0.1:{services.db.port}, in {self.folder}")  # fmt: skip
        self.central.append(self._spawn("ingest", ["central", "ingest", "--config", str(toml),
                                                   "--log-level", "warning"]))  # fmt: skip
        self.central.append(self._spawn("console", ["central", "console", "--config", str(toml),
                                                    "--log-level", "warning"]))  # fmt: skip
        self.conninfo = load_central(toml).conninfo()
        if self.opts.event:
            self._event_tables(services, self.conninfo)
        else:
            self._cash_tables(services)
        self.url = f"http://127.0.0.1:{self.opts.port}"
        self._wait_ready()
        what = "waiting for the seat draw" if self.opts.event else "dealing"
        self.say(f"room: {self.opts.tables} tables {what}, console ready in "
                 f"{time.monotonic() - started:.0f} s")  # fmt: skip

    def _cash_tables(self, services: Any) -> None:
        broker = f"{SITE}@127.0.0.1:{services.broker.port}"
        for k, station in enumerate(table_ids(self.opts.tables)):
            ident = services.broker.identity(station)
            self.tables[station] = self._spawn(
                station,
                ["demo", "--headless", "--hands", str(HANDS), "--again-every", str(AGAIN_EVERY),
                 "--seed", str(self.opts.seed + k), "--speed", str(self.opts.speed),
                 "--station-id", station, "--fleet", broker, "--certs", str(ident.cert.parent),
                 "--dir", str(self.folder / station)],
            )  # fmt: skip

    def _event_tables(self, services: Any, conninfo: str) -> None:
        """The event DEMO on the room's tables (created, not drawn), and its tables: one
        process of light tournament stations forwarding to the room's broker."""
        import psycopg  # noqa: PLC0415

        from station.central.tournament import store  # noqa: PLC0415

        tables = table_ids(self.opts.tables)
        for station in tables:
            services.broker.identity(station)
        players = EVENT_PER_TABLE * len(tables)
        spec_event = store.EventSpec(
            id=EVENT, title="Demo event", profile="RR11", game="nlhe",
            structure=EVENT_STRUCTURE, start_chips=10_000,
            tables=[(t, EVENT_SEATS) for t in reversed(tables)],  # T01 broken last
            entrants=[(f"P{i:03d}", f"Player {i}") for i in range(1, players + 1)],
            prizes=_prizes(players),
        )  # fmt: skip
        with psycopg.connect(conninfo, autocommit=True) as conn:
            store.create(conn, spec_event, "demo")
        folder = self.folder / "tables"
        folder.mkdir(exist_ok=True)
        spec = {
            "site": SITE,
            "port": services.broker.port,
            "certs": str(services.certs),
            "folder": str(folder),
            "pace_s": EVENT_HAND_S / self.opts.speed,
            "bust": EVENT_BUST,
            "seed": self.opts.seed,
            "workers": [tables],
        }
        path = self.folder / "event-tables.json"
        path.write_text(json.dumps(spec), encoding="utf-8")
        log = (self.logs / "tables.log").open("ab")
        self._files.append(log)
        self.tables["tables"] = subprocess.Popen(
            [sys.executable, "-m", "station.bench.tourney_station", str(path), "0"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip

    def _wait_ready(self) -> None:
        import httpx  # noqa: PLC0415

        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            for proc in self.central:
                if proc.poll() is not None:
                    raise RoomError(f"a central service stopped; see {self.logs}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.3)
        raise RoomError(f"the console did not start within {READY_S:.0f} s; see {self.logs}")

    def banner(self) -> None:
        self.say("")
        self.say(f"  floor console: {self.url}/")
        self.say(f"  sign in as {FLOOR} (floor) or {ADMIN} (admin), password {self.password}")
        if self.opts.event:
            self.say(f"  the event {EVENT}: {self.url}/tournaments/{EVENT} (draw the seats, "
                     "then start the clock; the tables deal once seated)")  # fmt: skip
        else:
            self.say(f"  each table's PINs (admin, floor1, dealer1) are at the top of its log: "
                     f"{self.logs}/T01.log, ...")  # fmt: skip
        self.say("  Ctrl-C stops the room")
        self.say("")

    def watch(self) -> None:
        """Until Ctrl-C: a line every 30 s with the tables' state and the machine's share."""
        last = _cpu_s(self._pids())
        at = time.monotonic()
        while not self.stop.wait(REPORT_EVERY_S):
            pids = self._pids()
            now_cpu, now = _cpu_s(pids), time.monotonic()
            share = (now_cpu - last) / (now - at) / max(1, os.cpu_count() or 1) * 100
            last, at = now_cpu, now
            dealing = sum(p.poll() is None for p in self.tables.values())
            what = (
                self._event_state()
                if self.opts.event
                else f"{dealing} of {len(self.tables)} tables dealing"
            )
            self.say(f"room: {what}; the room uses {share:.0f} % of this machine's "
                     f"{os.cpu_count()} cores")  # fmt: skip
            if dealing == 0:
                return

    def _event_state(self) -> str:
        """The event in a few words: players left and tables in play, or its winner."""
        import psycopg  # noqa: PLC0415

        try:
            with psycopg.connect(self.conninfo, connect_timeout=5) as conn:
                row = conn.execute(
                    "SELECT state, winner, (SELECT count(*) FROM tourney_seats s WHERE"
                    " s.event_id = e.id), (SELECT count(*) FROM tourney_tables t WHERE"
                    " t.event_id = e.id AND t.broken_at IS NULL) FROM tourney_events e"
                    " WHERE id = %s",
                    (EVENT,),
                ).fetchone()
        except psycopg.Error as exc:
            return f"event {EVENT}: the database did not answer ({exc.__class__.__name__})"
        if row is None:
            return f"event {EVENT}: not found"
        state, winner, left, tables = row
        if state == "planned":
            return f"event {EVENT}: waiting for the seat draw on the console"
        if state == "finished":
            return f"event {EVENT}: finished, won by {winner}"
        return f"event {EVENT}: {left} players at {tables} tables"

    def _pids(self) -> list[int]:
        procs = [*self.central, *self.tables.values()]
        pids = [p.pid for p in procs if p.poll() is None]
        services = self.services
        for name in ("broker", "db"):
            svc = getattr(services, name, None)
            proc = getattr(svc, "proc", None)
            if proc is not None and proc.poll() is None:
                pids.append(proc.pid)
        return pids

    def close(self) -> None:
        self.stop.set()
        for proc in self.tables.values():
            if proc.poll() is None:  # (the event's tables stop on SIGTERM, a table on Ctrl-C)
                proc.send_signal(signal.SIGTERM if self.opts.event else signal.SIGINT)
        _wait_all(list(self.tables.values()), 30.0)
        for proc in self.central:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        _wait_all(self.central, 20.0)
        services = self.services
        if services is not None:
            services.close()  # type: ignore[attr-defined]
        for f in self._files:
            f.close()
        if self._tmp:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.say("room: stopped; its folder deleted")
        else:
            self.say(f"room: stopped; journals and logs kept in {self.folder}")


def _prizes(players: int) -> list[int]:
    """The demo event's prizes: one place in nine paid, the first the most."""
    paid = max(1, players // 9)
    return [1000 * (paid - k) for k in range(paid)]


def _wait_all(procs: list[subprocess.Popen[bytes]], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    for proc in procs:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds used so far by `pids` (user + system, from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def run_room(opts: RoomOptions, out: TextIO) -> int:
    try:
        room = Room(opts, out)
    except RoomError as exc:
        print(f"station central demo: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def on_signal(_sig: int, _frame: object) -> None:
        stop.set()
        room.stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        room.start()
        room.banner()
        room.watch()
    except RoomError as exc:
        print(f"station central demo: {exc}", file=sys.stderr)
        return 1
    finally:
        room.close()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0
