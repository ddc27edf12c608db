"""`station bench console`: the floor console on a full central store, measured from outside.
Edge adapter (processes, network, a browser).

It starts its own broker and PostgreSQL on loopback (`station.central.services`), the ingest
and the console as processes of their own (`station central ingest`, `station central
console`, as systemd runs them), and fills the store:

- `--tables` tables in all, `--live` of them real stations: a journal, the station's own
  `Recorder`/`StationOps` and a real forwarder (paho-mqtt, TLS, the site ACL) writing a row
  every 0.2 s; the rest stored tables, each a copy of one table's real session
  (`console_data.build_template`: hands through the station's engine with dealer mistakes, the
  incidents they give and the floor's rulings), loaded with one COPY of the template and one
  `INSERT ... SELECT ... generate_series` (each copy under its own station id, its times
  shifted), until `--rows` rows are stored. The console indexes them at its start
  (`index_build_s`: start to READY).

Then, signed in over HTTP (httpx, one request at a time, the whole body read):

- `map_p95_ms`: `GET /map`, every table's tile;
- `queue_p95_ms`: `GET /incidents` with filters (a table, a rule id prefix, a ruling, a state
  and person, a time range; in turn);
- `incident_p95_ms`: `GET /incidents/T/N` of incidents drawn at random (the rule, the events,
  the hand's recall, the workflow);

and `call_floor_p99_ms`, end to end: a real Chromium (Debian's, through Playwright) shows the
floor map; a live station journals a CALL FLOOR (`StationOps.raise_floor_call`, as the daemon
does); the time runs from just before that commit (`time.time()` in the bench) to the moment
the browser's DOM holds the table's CALL FLOOR tile (a MutationObserver in the page takes
`performance.timeOrigin + performance.now()`; the same machine's clock). Between them: the
forwarder, mosquitto, the ingest's transaction and notify, the console's listener and fold,
the server-sent event, the browser's fetch and render. A floor PIN then clears it and the tile
must go back before the next call.

Bars: each page p95 <= 200 ms, CALL FLOOR p99 <= 2000 ms (2 s, the issue's bar).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import IO, Any, Final
from urllib.parse import urlencode

from station.bench.console_data import PINS, ROLES, build_template
from station.bench.report import Bar, emit, ms, percentile, say
from station.bench.room_data import copy_template, fill_room
from station.config.model import FleetConfig
from station.daemon.operations import StationOps
from station.fleet.factory import paho_factory
from station.fleet.forwarder import Forwarder
from station.journal import Journal, Recorder, SystemClock
from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry
from station.output import Guard, OutputRefusedError, fresh_folder
from station.people.check import PEOPLE_CHECKS
from station.people.staff import add_person, authenticate

BARS: Final = (
    Bar("map_p95_ms", "<=", 200),
    Bar("health_p95_ms", "<=", 200),
    Bar("map60_render_p95_ms", "<=", 1000),
    Bar("map60_fits_1920x1080", "==", 1),
    Bar("queue_p95_ms", "<=", 200),
    Bar("incident_p95_ms", "<=", 200),
    Bar("call_floor_p99_ms", "<=", 2000),
)
CHROMIUM: Final = os.environ.get("STATION_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS: Final = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
USER, PASSWORD = "bench", "floor-pass-for-timing"
BACKGROUND_S: Final = 0.2
SEEN_JS: Final = """
() => {
  window.__calls = {};
  const check = () => {
    for (const tile of document.querySelectorAll('li.tile[data-call-seq]')) {
      const key = tile.dataset.station + ':' + tile.dataset.callSeq;
      if (!(key in window.__calls)) {
        window.__calls[key] = performance.timeOrigin + performance.now();
      }
    }
  };
  new MutationObserver(check).observe(
    document.body, {subtree: true, childList: true, attributes: true});
  check();
}
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=100, help="tables on the map")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows in the store")
    parser.add_argument("--live", type=int, default=3, help="real stations among the tables")
    parser.add_argument("--requests", type=int, default=200, help="requests per page kind")
    parser.add_argument("--calls", type=int, default=60, help="CALL FLOOR samples")
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder, keep it")


@dataclass
class Live:
    """A real station: its journal, the station's recorder and operations, a forwarder."""

    station: str
    journal: Any
    ops: Any
    forwarder: Any
    i: int = 0


@dataclass
class Run:
    root: Path
    services: Any
    toml: Path = field(default=Path())
    port: int = 0
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[IO[bytes]] = field(default_factory=list)
    live: list[Live] = field(default_factory=list)

    def spawn(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.root / f"{name}.log").open("ab")
        self.logs.append(log)
        proc = subprocess.Popen(
            [sys.executable, "-m", "station", "central", *args, "--config", str(self.toml)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for s in self.live:
            with contextlib.suppress(Exception):
                s.forwarder.stop()
            with contextlib.suppress(Exception):
                s.journal.close()
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
        for log in self.logs:
            log.close()


def run(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.live < 0 or args.live > args.tables or args.rows < 1000:
        print("station bench console: 1 <= --live <= --tables, --rows >= 1000", file=sys.stderr)
        return 2
    try:  # a new or empty folder: never a station's own
        root = (
            fresh_folder(args.keep, Guard())
            if args.keep
            else Path(tempfile.mkdtemp(prefix="bench-console-"))
        )
    except OutputRefusedError as exc:
        print(f"station bench console: --keep: {exc}", file=sys.stderr)
        return 2
    try:
        import playwright  # noqa: F401, PLC0415
        import psycopg  # noqa: F401, PLC0415

        from station.central.services import (  # noqa: PLC0415
            MissingError,
            ServiceError,
            Services,
        )
    except ModuleNotFoundError as exc:
        print(
            f"station bench console: needs {exc.name} (the central and dev extras)", file=sys.stderr
        )
        return 2
    if not Path(CHROMIUM).exists():
        print(
            f"station bench console: no Chromium at {CHROMIUM} (apt install chromium)",
            file=sys.stderr,
        )
        return 1
    logging.getLogger("station").setLevel(logging.ERROR)  # the tables' own log: not progress
    root.chmod(0o711)  # the services' user (nobody, when we are root) must get through
    try:
        services = Services("bench", root / "services").start()
    except (MissingError, ServiceError) as exc:
        print(f"station bench console: {exc}", file=sys.stderr)
        return 1
    r = Run(root, services)
    try:
        figures = _measure(r, args)
    except Exception as exc:  # the bench could not finish: say why on the JSON line
        say(f"bench console failed: {exc!r}")
        emit("console", {"error": str(exc)}, BARS)
        return 1
    finally:
        r.close()
        services.close()
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    emit("console", figures, BARS)
    return 0


def _measure(r: Run, args: argparse.Namespace) -> dict[str, object]:
    import psycopg  # noqa: PLC0415

    from station.central.console import accounts  # noqa: PLC0415
    from station.central.schema import migrate  # noqa: PLC0415
    from station.central.services import free_port  # noqa: PLC0415

    r.port = free_port()
    r.toml = r.services.write_central_toml(r.root / "central.toml")
    with r.toml.open("a", encoding="utf-8") as f:
        f.write(f'\n[console]\nlisten = "127.0.0.1"\nport = {r.port}\nsecure_cookies = false\n')
    conninfo = _conninfo(r)
    stored_tables = args.tables - args.live
    with psycopg.connect(conninfo, autocommit=True) as conn:
        migrate(conn)
        accounts.add_account(conn, USER, accounts.Role.FLOOR, PASSWORD, by="bench")
        load_s, template = _fill(conn, r.root, stored_tables, args.rows)
        rows = int(conn.execute("SELECT count(*) FROM rows").fetchone()[0])  # type: ignore[index]
    say(f"stored {rows} rows of {stored_tables} tables in {load_s:.1f} s")
    r.spawn("ingest", "ingest")
    _start_live(r, args.live)
    started = time.monotonic()
    console = r.spawn("console", "console", "--log-level", "warning")
    url = f"http://127.0.0.1:{r.port}"
    _wait_ready(url, console)
    index_s = time.monotonic() - started
    with psycopg.connect(conninfo, autocommit=True) as conn:
        incidents = [
            (str(s), int(i))
            for s, i in conn.execute("SELECT station_id, id FROM console_incidents").fetchall()
        ]
        span = conn.execute("SELECT min(detected), max(detected) FROM console_incidents").fetchone()
    say(f"console ready in {index_s:.1f} s: {len(incidents)} incidents indexed")
    pages = _pages(url, r, args.requests, incidents, span)
    calls = _call_floor(url, r, args.calls)
    room = _room60(r, min(args.requests, 40))
    figures: dict[str, object] = {
        "tables": args.tables,
        "live_tables": args.live,
        "rows_stored": rows,
        "template_rows": template.rows,
        "template_hands": template.hands,
        "incidents_indexed": len(incidents),
        "load_s": round(load_s, 1),
        "index_build_s": round(index_s, 1),
        **pages,
        **calls,
        **room,
    }
    return figures


def _conninfo(r: Run) -> str:
    from station.central.config import load_central  # noqa: PLC0415

    return load_central(r.toml).conninfo()


# --- the store --------------------------------------------------------------------------------


def _fill(conn: Any, root: Path, tables: int, rows: int) -> tuple[float, Any]:
    """One real table's journal, copied `tables` times into `rows` (COPY, then one INSERT ...
    SELECT over generate_series)."""

    per_table = max(1000, rows // max(1, tables))
    say(f"recording a {per_table}-row table through the station's engine")
    template = build_template(root / "template.sqlite", "TPL", per_table, every=8)
    started = time.monotonic()
    copy_template(conn, template, "'T' || lpad(g::text, 3, '0')", tables)
    conn.execute("ANALYZE rows")
    return time.monotonic() - started, template


# --- the live stations ------------------------------------------------------------------------


def _start_live(r: Run, n: int) -> None:

    assert r.services.broker is not None
    for k in range(n):
        station = f"L{k + 1:02d}"
        ident = r.services.broker.identity(station)
        path = r.root / f"{station}.sqlite"
        journal = Journal.open(path, clock=SystemClock(), station_id=station, create=True)
        add_person(journal, "ada", ROLES["ada"], PINS["ada"], by=None)
        admin = authenticate(journal, "ada", PINS["ada"], purpose="enrol")
        add_person(journal, "flo", ROLES["flo"], PINS["flo"], by=admin)
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        cfg = FleetConfig("bench", "127.0.0.1", r.services.broker.port, ident.ca, ident.cert,
                          ident.key, resend_s=1.0)  # fmt: skip
        forwarder = Forwarder(path, station, cfg, paho_factory, boot_id=journal.boot_id)
        journal.subscribe(_waker(forwarder))
        forwarder.start()
        r.live.append(Live(station, journal, StationOps(recorder), forwarder))


def _waker(forwarder: Forwarder) -> Any:
    return lambda _row, _own: forwarder.wake()


def _background(r: Run) -> None:
    """Each live table writes on (a row every BACKGROUND_S), as a dealing table does."""

    for s in r.live:
        s.i += 1
        payload = {"path": "bench", "sha256": f"{s.i:064x}", "version": None}
        s.journal.append([Entry(Code.CONFIG_LOADED, payload, "bench", ActorRole.STATION)])


def _wait_ready(url: str, console: subprocess.Popen[bytes], timeout_s: float = 900.0) -> None:
    import httpx  # noqa: PLC0415

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if console.poll() is not None:
            raise RuntimeError(f"the console exited with {console.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise RuntimeError("the console did not become ready")


# --- pages ------------------------------------------------------------------------------------


def _sign_in(url: str) -> Any:
    import httpx  # noqa: PLC0415

    client = httpx.Client(base_url=url, timeout=30, follow_redirects=False)
    page = client.get("/login")
    token = re.search(r'name="login_token" value="([^"]+)"', page.text)
    assert token is not None
    done = client.post(
        "/login",
        data={"login_token": token.group(1), "name": USER, "password": PASSWORD},
        headers={"origin": url},
    )
    if done.status_code != 303:
        raise RuntimeError(f"cannot sign in: {done.status_code}")
    return client


def _timed(client: Any, paths: Iterator[str], n: int, what: str) -> list[float]:
    for _ in range(5):  # warm up (templates compiled, connections open)
        client.get(next(paths))
    out = []
    for _ in range(n):
        path = next(paths)
        t0 = time.perf_counter()
        answer = client.get(path)
        _ = answer.content
        out.append(time.perf_counter() - t0)
        if answer.status_code != 200:
            raise RuntimeError(f"{what}: GET {path} answered {answer.status_code}")
    return out


def _pages(
    url: str, r: Run, n: int, incidents: list[tuple[str, int]], span: Any
) -> dict[str, object]:
    rng = random.Random(21)
    tables = [f"T{g:03d}" for g in range(1, 1000)]
    stored = sorted({s for s, _ in incidents}) or tables[:1]
    first, last = span if span and span[0] else (None, None)

    def maps() -> Iterator[str]:
        while True:
            _background(r)
            yield "/map"

    def queues() -> Iterator[str]:
        k = 0
        while True:
            k += 1
            station = rng.choice(stored)
            match k % 5:
                case 0:
                    q = {"table": station, "state": "active"}
                case 1:
                    q = {"rule": "MISDEAL", "state": "", "sort": "newest"}
                case 2:
                    q = {"ruling": "void", "state": ""}
                case 3:
                    q = {"state": "open", "person": "dan", "sort": "oldest"}
                case _:
                    if first is None:
                        q = {"state": ""}
                    else:
                        at = first + (last - first) * rng.random()
                        q = {
                            "state": "",
                            "since": at.isoformat(timespec="minutes")[:16],
                            "until": (at + timedelta(hours=1)).isoformat(timespec="minutes")[:16],
                        }
            yield "/incidents?" + urlencode(q)

    def pages() -> Iterator[str]:
        while True:
            station, ident = rng.choice(incidents)
            yield f"/incidents/{station}/{ident}"

    client = _sign_in(url)
    try:
        say(f"timing {n} requests of each page")
        got = {
            "map": _timed(client, maps(), n, "map"),
            "health": _timed(client, iter(lambda: "/health", None), n, "health"),
            "queue": _timed(client, queues(), n, "queue"),
            "incident": _timed(client, pages(), n, "incident"),
        }
    finally:
        client.close()
    out: dict[str, object] = {"requests_per_page": n}
    for name, values in got.items():
        out[f"{name}_p50_ms"] = ms(percentile(values, 50))
        out[f"{name}_p95_ms"] = ms(percentile(values, 95))
        out[f"{name}_max_ms"] = ms(max(values))
    return out


# --- CALL FLOOR to the browser ----------------------------------------------------------------


def _call_floor(url: str, r: Run, n: int) -> dict[str, object]:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    if not r.live or n <= 0:
        return {"call_floor_samples": 0}
    latencies: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"{url}/login")
            page.fill("input[name=name]", USER)
            page.fill("input[name=password]", PASSWORD)
            page.click("form button[type=submit]")
            page.wait_for_url("**/map")
            page.wait_for_selector("#live:text('live')", timeout=30_000)
            page.evaluate(SEEN_JS)
            say(f"raising CALL FLOOR {n} times at {len(r.live)} live tables")
            for k in range(n):
                s = r.live[k % len(r.live)]
                t0 = time.time()
                row = s.ops.raise_floor_call("dan", ActorRole.DEALER, f"bench call {k}")
                if row is None:
                    raise RuntimeError(f"{s.station}: a CALL FLOOR was already open")
                key = f"{s.station}:{row.seq}"
                seen = _wait_for(page, r, key, 10.0)
                if seen is None:
                    raise RuntimeError(f"CALL FLOOR {key} never reached the browser")
                latencies.append(seen / 1000 - t0)
                s.ops.clear_floor_call("flo", PINS["flo"], "bench")
                _wait_cleared(page, r, s.station, 10.0)
        finally:
            browser.close()
    return {
        "call_floor_samples": len(latencies),
        "call_floor_p50_ms": ms(percentile(latencies, 50)),
        "call_floor_p95_ms": ms(percentile(latencies, 95)),
        "call_floor_p99_ms": ms(percentile(latencies, 99)),
        "call_floor_max_ms": ms(max(latencies)),
    }


def _wait_for(page: Any, r: Run, key: str, timeout_s: float) -> float | None:
    deadline = time.monotonic() + timeout_s
    next_row = time.monotonic() + BACKGROUND_S
    while time.monotonic() < deadline:
        seen = page.evaluate("(key) => window.__calls[key] || null", key)
        if seen is not None:
            return float(seen)
        if time.monotonic() >= next_row:
            next_row += BACKGROUND_S
            _background(r)
        page.wait_for_timeout(20)
    return None


def _wait_cleared(page: Any, r: Run, station: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.locator(f"#table-{station}.call").count() == 0:
            return
        _background(r)
        page.wait_for_timeout(50)
    raise RuntimeError(f"{station}: the cleared CALL FLOOR stayed on the map")


# --- a room of 60 tables on one screen ------------------------------------------------------------


def _room60(r: Run, n: int) -> dict[str, object]:
    """The floor map of 60 tables (`room_data`: a busy floor's states) in a database of its
    own, served by a console process of its own, shown `n` times in Chromium at 1920x1080: the
    time from the request to the load event (server, HTML, styles, script, layout), and
    whether the 60 tiles fit the screen."""
    import psycopg  # noqa: PLC0415
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    from station.central.config import load_central  # noqa: PLC0415
    from station.central.console import accounts  # noqa: PLC0415
    from station.central.schema import migrate  # noqa: PLC0415
    from station.central.services import free_port  # noqa: PLC0415

    port = free_port()
    toml = r.root / "room60.toml"
    text = r.toml.read_text(encoding="utf-8").replace("dbname=fleet", "dbname=room60")
    toml.write_text(text.replace(f"port = {r.port}\n", f"port = {port}\n"), encoding="utf-8")
    with psycopg.connect(_conninfo(r), autocommit=True) as conn:
        conn.execute("CREATE DATABASE room60")
    with psycopg.connect(load_central(toml).conninfo(), autocommit=True) as conn:
        migrate(conn)
        fill_room(conn, r.root, 60)
        accounts.add_account(conn, USER, accounts.Role.FLOOR, PASSWORD, by="bench")
        # its tables are stored, not live: the heartbeat a running ingest would write
        conn.execute(
            "INSERT INTO central_health (service, host, pid, started_at, beat_at,"
            " broker_connected, broker_since) VALUES ('ingest', 'bench', 1, now(),"
            " now() + interval '1 day', true, now())"
        )
    log = (r.root / "console-room60.log").open("ab")
    r.logs.append(log)
    proc = subprocess.Popen(
        [sys.executable, "-m", "station", "central", "console", "--config", str(toml),
         "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    r.procs.append(proc)
    url = f"http://127.0.0.1:{port}"
    _wait_ready(url, proc)
    times: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"{url}/login")
            page.fill("input[name=name]", USER)
            page.fill("input[name=password]", PASSWORD)
            page.click("form button[type=submit]")
            page.wait_for_url("**/map")
            say(f"showing the 60-table map {n} times at 1920x1080")
            for _ in range(n + 3):
                page.goto(f"{url}/map", wait_until="load")
                times.append(
                    page.evaluate(
                        "() => { const e = performance.getEntriesByType('navigation')[0];"
                        " return e.loadEventEnd - e.startTime; }"
                    )
                    / 1000
                )
            tiles = page.locator("li.tile").count()
            width, height = page.evaluate(
                "() => [document.documentElement.scrollWidth,"
                " document.documentElement.scrollHeight]"
            )
        finally:
            browser.close()
    times = times[3:]  # warm-up
    return {
        "map60_tiles": tiles,
        "map60_render_p50_ms": ms(percentile(times, 50)),
        "map60_render_p95_ms": ms(percentile(times, 95)),
        "map60_fits_1920x1080": int(tiles == 60 and width <= 1920 and height <= 1080),
    }


__all__ = ["add_arguments", "run"]
