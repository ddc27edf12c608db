"""A running fleet for the console's tests: a real broker and PostgreSQL
(`station.central.services`), the central ingest on a thread, three station daemons (`station
run`'s own `Daemon`, mock GPIO, no serial devices) whose journals already hold real sessions
(scenario files and scripted hands recorded through the station's `Recorder`, with a dealer
signed in) and forward them with real forwarders, and the floor console served by uvicorn on a
free loopback port.

The emulated tables' people and the console's accounts share names: `dan` deals, `flo` and
`fay` are floor supervisors, `ada` is the admin, `aud` an auditor.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap_load import default_pinmap
from station.bench.scripted import nlhe_session
from station.daemon.daemon import Overrides
from station.daemon.operations import StationOps
from station.formats.session import read_session
from station.journal import ActorRole, Journal, ManualClock, Recorder, SystemClock
from station.people.staff import add_person, authenticate
from tests.daemon.conftest import Running, start_daemon
from tests.fleet.conftest import SITE, RunningIngest, start_ingest, wait_until

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
PINS = {"ada": "739514", "flo": "482915", "fay": "602837", "dan": "915372"}
ROLES = {
    "ada": ActorRole.ADMIN,
    "flo": ActorRole.FLOOR,
    "fay": ActorRole.FLOOR,
    "dan": ActorRole.DEALER,
}
PASSWORDS = {
    "ada": "admin-horse-battery",
    "flo": "floor-staple-correct",
    "fay": "floor-orange-river",
    "dan": "dealer-purple-stone",
    "aud": "auditor-quiet-lamp",
}
BACK_S = 600.0  # the recorded sessions end this long before the test starts
CONSOLE_ROLES = {"ada": "admin", "flo": "floor", "fay": "floor", "dan": "dealer", "aud": "auditor"}
# What each emulated table has dealt before the test starts: real scenario sessions (with the
# incidents their rules give) and scripted hands.
TABLES = {
    "T01": ["scripted:4"],
    "T02": ["MISDEAL-TWO-CARDS-EXPOSED/rr11_two_holecards_flashed_misdeal.jsonl"],
    "T03": ["DECK-DUPLICATE-CARD/rr11_duplicate_turn_card_voids_the_hand.jsonl"],
}

CONFIG = """\
station_id = "{station}"
log_level = "warning"

[table]
game = "nlhe"
seats = [1, 2, 3, 4]
button = 4
[table.stakes]
sb = 1
bb = 2

[shoe]
enabled = false
[betzones]
enabled = false

[inputs]
backend = "mock"

[display]
driver = "none"

[journal]
path = "journal.sqlite"

[fleet]
site = "{site}"
broker = "127.0.0.1:{port}"
ca = "{ca}"
cert = "{cert}"
key = "{key}"
resend_s = 1.0
"""


def fill_journal(path: Path, station: str, sources: list[str]) -> None:
    """Enrol the people, sign the dealer in and record `sources` through the Recorder, as
    dealt over the last `BACK_S` seconds (each row at its session time `t`)."""
    timed: list[tuple[float, Any]] = []
    t0 = 0.0
    for source in sources:
        if source.startswith("scripted:"):
            session = nlhe_session(int(source.split(":")[1]), seed=7)
            part = [(e.t, e.event) for e in session.events]
        else:
            lines = read_session(SCENARIOS / source).lines
            part, t = [], 0.0
            for line in lines:
                t = line.t if line.t is not None else t + 1.0
                part.append((t, line.event))
        timed += [(t0 + t, event) for t, event in part]
        t0 += (part[-1][0] if part else 0.0) + 5.0
    start = datetime.now(UTC) - timedelta(seconds=t0 + BACK_S)
    clock = ManualClock(start_utc=start)
    journal = Journal.open(path, clock=clock, station_id=station, create=True)
    try:
        add_person(journal, "ada", ActorRole.ADMIN, PINS["ada"], by=None)
        admin = authenticate(journal, "ada", PINS["ada"], purpose="enrol")
        for name in ("flo", "fay", "dan"):
            add_person(journal, name, ROLES[name], PINS[name], by=admin)
        recorder = Recorder(journal)
        recorder.recover()
        StationOps(recorder).login("dan", PINS["dan"])
        now = 0.0
        for t, event in timed:
            clock.advance(max(0.0, t - now))
            now = max(now, t)
            recorder.record(event, actor="table", role=ActorRole.DEVICE, at=t)
    finally:
        journal.close()


@dataclass
class Fleet:
    services: Any
    ingest: RunningIngest
    root: Path
    stations: dict[str, Running] = field(default_factory=dict)
    panels: dict[str, InputEmulator] = field(default_factory=dict)
    factories: list[Any] = field(default_factory=list)
    console_url: str = ""
    cfg: Any = None
    server: Any = None
    server_thread: threading.Thread | None = None
    app: Any = None

    def journal_path(self, station: str) -> Path:
        return self.root / station / "journal.sqlite"

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        return self.ingest.query(sql, params)

    def start_station(self, station: str) -> Running:
        folder = self.root / station
        folder.mkdir(parents=True, exist_ok=True)
        ident = self.services.broker.identity(station)
        config = folder / "station.toml"
        config.write_text(
            CONFIG.format(
                station=station, site=SITE, port=self.services.broker.port, ca=ident.ca,
                cert=ident.cert, key=ident.key,
            ),
            encoding="utf-8",
        )  # fmt: skip

        pinmap = default_pinmap()
        factories = mock_factories(pinmap)
        panel = InputEmulator(pinmap, factories)
        panel.idle()
        self.factories.append(factories)
        self.panels[station] = panel
        running = start_daemon(config, Overrides(factories=factories, environ={}))
        self.stations[station] = running
        return running

    def stop_station(self, station: str) -> None:
        running = self.stations.pop(station)
        running.stop()

    def press(self, station: str, key: str) -> None:
        """A key on the table's dealer panel (mock GPIO), held 0.15 s."""
        panel = self.panels[station]
        panel.drive(f"keys.{key}", True)
        time.sleep(0.15)
        panel.drive(f"keys.{key}", False)

    def delivered(self, station: str) -> bool:
        journal = Journal.open(self.journal_path(station), clock=SystemClock())
        try:
            head = journal.head()[0]
        finally:
            journal.close()
        found = self.query("SELECT head_seq FROM stations WHERE station_id = %s", (station,))
        return bool(found) and int(found[0][0]) >= head

    def journal_rows(self, station: str, code: str) -> list[Any]:
        journal = Journal.open(self.journal_path(station), clock=SystemClock())
        try:
            return list(journal.rows(codes=[code]))
        finally:
            journal.close()

    def start_console(self) -> None:
        from station.central.config import load_central
        from station.central.console import accounts
        from station.central.console.app import create_app
        from station.central.services import free_port

        port = free_port()
        self.cfg = load_central(console_toml(self.services, self.root / "central.toml", port))
        import psycopg

        with psycopg.connect(self.cfg.conninfo(), autocommit=True) as conn:
            for name, role in CONSOLE_ROLES.items():
                accounts.add_account(conn, name, accounts.Role(role), PASSWORDS[name], by="cli")
        self.app = create_app(self.cfg)
        self.server, self.server_thread = serve(self.app, port)
        self.console_url = f"http://127.0.0.1:{port}"

    def close(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
            if self.server_thread is not None:
                self.server_thread.join(15)
        for station in list(self.stations):
            with contextlib.suppress(Exception):
                self.stop_station(station)
        for factories in self.factories:
            close_factories(factories)
        self.ingest.halt()


def serve(app: Any, port: int) -> tuple[Any, threading.Thread]:
    """The console app on uvicorn on 127.0.0.1:`port`, on a thread, once it serves."""
    import uvicorn

    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="console", daemon=True)
    thread.start()
    wait_until(lambda: bool(server.started), what="the console serving")
    return server, thread


def console_toml(services: Any, path: Path, port: int, extra: str = "") -> Path:
    """A central.toml for a console on `port` over plain HTTP (loopback), `extra` lines added
    to its [console] section."""
    toml = services.write_central_toml(path)
    text = toml.read_text(encoding="utf-8")
    toml.write_text(
        text
        + f'\n[console]\nlisten = "127.0.0.1"\nport = {port}\nsecure_cookies = false\n'
        + extra,
        encoding="utf-8",
    )
    return toml


@contextlib.contextmanager
def running_fleet(root: Path) -> Iterator[Fleet]:
    """Services, the ingest, three stations with their journals delivered, the console."""
    from station.central.services import Services

    with Services(SITE).start() as services:
        ingest = start_ingest(services)
        fleet = Fleet(services, ingest, root)
        try:
            for station, sources in TABLES.items():
                (root / station).mkdir(parents=True, exist_ok=True)
                fill_journal(fleet.journal_path(station), station, sources)
                fleet.start_station(station)
            for station in TABLES:
                wait_until(lambda s=station: fleet.delivered(s), 60, f"{station} delivered")
            fleet.start_console()
            yield fleet
        finally:
            fleet.close()
