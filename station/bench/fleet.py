"""`station bench fleet`: many stations forwarding their journals through a real mosquitto and
the central ingest into a real PostgreSQL, under faults. Edge adapter (processes, network).

It starts its own broker and database on loopback (`station.central.services`), the ingest as a
process of its own (`station central ingest`), and the stations in worker processes
(`station.bench.fleet_station`): each station a SQLite journal, a writer appending `--rate` rows
a second for `--seconds`, and a real forwarder (paho-mqtt, TLS client certificate, the site
ACL). Faults (`--faults all`, or a comma list), spread over the run:

- `broker-kill`: mosquitto `kill -9`, restarted at once (its persistence file as last saved);
- `ingest-kill`: the ingest `kill -9`, restarted after 1 s;
- `forwarder-kill`: one worker process `kill -9` (its stations' forwarders and writers, as a
  station's daemon dies), restarted after 1 s;
- `postgres-restart`: PostgreSQL stopped (fast shutdown) and started again;
- `broker-down`: mosquitto stopped for 30 s (less on a short run: at most half of it).

After the load it waits until every station's outbox is empty, then reads the central store:
`events` (rows in the journals), `stored` (rows in PostgreSQL), `lost` (journal rows missing
centrally, or stored with another hash), `duplicates_absorbed` and `forks_detected` (the
ingest's counters and alarms), `chains_verified` (stations whose whole central chain recomputes,
links and ends at the journal's head), `ack_p50_s`/`ack_p99_s` (row commit to the station's
receipt of the ack that covers it, for the rows no fault touched: none was waiting for its ack
during a fault window, which runs from the fault until every row committed before its end is
acknowledged), `ack_p99_all_s`
(every row), `max_outbox` (the most rows any station had waiting), `catch_up_s` (the longest
time from a fault's end until every row committed before it was acknowledged).

Bars (docs/performance.md): lost == 0, stored == events (as `unstored` == 0), every chain
verified, ack p99 <= 2 s outside the fault windows.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from station.bench.report import Bar, cpu_s, emit, percentile, say
from station.output import Guard, OutputRefusedError, fresh_folder

FAULTS = ("broker-kill", "ingest-kill", "forwarder-kill", "postgres-restart", "broker-down")
BARS = (
    Bar("lost", "==", 0),
    Bar("unstored", "==", 0),
    Bar("chains_unverified", "==", 0),
    Bar("ack_p99_s", "<=", 2.0),
)
PER_WORKER = 10
DRAIN_S = 300.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stations", type=int, default=100, help="how many stations (default 100)")
    parser.add_argument("--rate", type=float, default=10.0, help="rows per second per station")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long rows are written")
    parser.add_argument(
        "--faults", default="all", help=f"all, none, or a comma list of: {', '.join(FAULTS)}"
    )
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder, keep it")


@dataclass
class Fault:
    name: str
    at: float  # wall time it started
    end: float = 0.0  # wall time the system was whole again


@dataclass
class Run:
    root: Path
    services: Any
    spec_path: Path
    spec: dict[str, Any]
    toml: Path
    ingest: subprocess.Popen[bytes] | None = None
    workers: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    logs: list[IO[bytes]] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of processes now gone

    def note_cpu(self, name: str, pid: int | None) -> None:
        """Add a process's CPU seconds to `name` (just before it is stopped or killed)."""
        if pid is None:
            return
        with contextlib.suppress(OSError, ValueError, IndexError):
            self.cpu[name] = self.cpu.get(name, 0.0) + cpu_s(pid)

    def start_ingest(self) -> None:
        log = (self.root / "ingest.log").open("ab")
        self.logs.append(log)
        self.ingest = subprocess.Popen(
            [sys.executable, "-m", "station", "central", "ingest", "--config", str(self.toml),
             "--log-level", os.environ.get("BENCH_INGEST_LOG", "warning")],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def start_workers(self, ks: list[int]) -> None:
        """Start the workers together, then wait until each has its stations up."""
        procs = {}
        for k in ks:
            log = (self.root / f"worker-{k}.log").open("ab")
            self.logs.append(log)
            procs[k] = subprocess.Popen(
                [sys.executable, "-m", "station.bench.fleet_station", str(self.spec_path),
                 str(k)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
            )  # fmt: skip
        for k, proc in procs.items():
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != b"ready":
                raise RuntimeError(f"worker {k} did not start (see {self.root}/worker-{k}.log)")
            proc.stdout.close()
            self.workers[k] = proc

    def kill(self, proc: subprocess.Popen[bytes] | None) -> None:
        if proc is not None and proc.poll() is None:
            if proc is self.ingest:
                self.note_cpu("ingest", proc.pid)
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)

    def close(self) -> None:
        for proc in self.workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.workers.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self.ingest is not None and self.ingest.poll() is None:
            self.note_cpu("ingest", self.ingest.pid)
            self.ingest.send_signal(signal.SIGTERM)
            try:
                self.ingest.wait(30)
            except subprocess.TimeoutExpired:
                self.ingest.kill()
        for log in self.logs:
            log.close()


def parse_faults(text: str) -> list[str] | None:
    if text == "all":
        return list(FAULTS)
    if text == "none":
        return []
    names = [n.strip() for n in text.split(",") if n.strip()]
    return names if all(n in FAULTS for n in names) else None


def run(args: argparse.Namespace) -> int:
    faults = parse_faults(args.faults)
    if faults is None or args.stations < 1 or args.rate <= 0 or args.seconds <= 0:
        print(f"station bench fleet: bad arguments (faults: all, none, {FAULTS})", file=sys.stderr)
        return 2
    try:  # a new or empty folder: never a station's own
        root = (
            fresh_folder(args.keep, Guard())
            if args.keep
            else Path(tempfile.mkdtemp(prefix="bench-fleet-"))
        )
    except OutputRefusedError as exc:
        print(f"station bench fleet: --keep: {exc}", file=sys.stderr)
        return 2
    try:
        from station.central.services import MissingError, Services  # noqa: PLC0415
    except ModuleNotFoundError as exc:
        print(f"station bench fleet: needs the central extra ({exc.name})", file=sys.stderr)
        return 2

    def stopped(signum: int, _frame: object) -> None:
        raise SystemExit(f"station bench fleet: stopped by signal {signum}")

    # SIGTERM unwinds like Ctrl-C: every worker, the ingest and both services are stopped.
    signal.signal(signal.SIGTERM, stopped)
    try:
        services = Services("bench").start()
    except MissingError as exc:
        print(f"station bench fleet: {exc}", file=sys.stderr)
        return 1
    with services:
        try:
            figures = measure(services, root, args.stations, args.rate, args.seconds, faults)
        except RuntimeError as exc:
            print(f"station bench fleet: {exc}", file=sys.stderr)
            return 1
    if args.keep is None:
        import shutil  # noqa: PLC0415

        shutil.rmtree(root, ignore_errors=True)
    emit("fleet", figures, BARS)
    return 0


def measure(
    services: Any, root: Path, stations: int, rate: float, seconds: float, faults: list[str]
) -> dict[str, object]:
    from station.central.certs import issue  # noqa: PLC0415

    ids = [f"B{n:03d}" for n in range(1, stations + 1)]
    say(f"fleet: certificates for {stations} stations")
    for station in ids:
        issue(services.certs, services.site, station)
    toml = services.write_central_toml()
    folder = root / "stations"
    folder.mkdir(exist_ok=True)
    workers = [ids[i : i + PER_WORKER] for i in range(0, len(ids), PER_WORKER)]
    spec: dict[str, Any] = {
        "site": services.site,
        "port": services.broker.port,
        "certs": str(services.certs),
        "folder": str(folder),
        "rate": rate,
        "workers": workers,
        "end_wall": 0.0,
    }
    spec_path = root / "spec.json"
    r = Run(root, services, spec_path, spec, toml)
    done: list[Fault] = []
    try:
        r.start_ingest()
        _wait_ingest(services)
        start = time.time() + 5.0 + len(workers)  # every worker up before the first row
        spec["start_wall"] = start
        spec["end_wall"] = start + seconds
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        say(f"fleet: {stations} stations in {len(workers)} processes, {rate:g} rows/s each")
        r.start_workers(list(range(len(workers))))
        if time.time() > start:
            raise RuntimeError("the stations took too long to start (a busy machine?)")
        schedule = _schedule(faults, seconds, start)
        for name, at, hold in schedule:
            _sleep_until(at)
            say(f"fleet: fault {name} at {at - start:.1f} s")
            done.append(Fault(name, time.time()))
            _inject(r, name, hold)
            done[-1].end = time.time()
        _sleep_until(spec["end_wall"])
        say("fleet: load over; waiting for every outbox to empty")
        drained_at = _drain(r, ids, folder)
        broker = services.broker
        r.note_cpu("broker", broker.proc.pid if broker.proc else None)
    finally:
        r.close()
    return _figures(r, ids, folder, done, start, drained_at, stations, rate, seconds)


def _schedule(faults: list[str], seconds: float, start: float) -> list[tuple[str, float, float]]:
    """(fault, wall time, how long it lasts) spread over the run; broker-down last."""
    out = []
    quick = [f for f in FAULTS if f in faults and f != "broker-down"]
    down = min(30.0, seconds / 2)
    span = seconds - (down + 3 if "broker-down" in faults else 0)
    for i, name in enumerate(quick):
        out.append((name, start + span * (i + 1) / (len(quick) + 1), 1.0))
    if "broker-down" in faults:
        out.append(("broker-down", start + span, down))
    return out


def _sleep_until(wall: float) -> None:
    while (left := wall - time.time()) > 0:
        time.sleep(min(left, 0.5))


def _inject(r: Run, name: str, hold: float) -> None:
    broker, db = r.services.broker, r.services.db
    match name:
        case "broker-kill":
            r.note_cpu("broker", broker.proc.pid if broker.proc else None)
            broker.kill(hard=True)
            broker.start()
        case "ingest-kill":
            r.kill(r.ingest)
            time.sleep(hold)
            r.start_ingest()
        case "forwarder-kill":
            r.kill(r.workers.get(0))
            time.sleep(hold)
            r.start_workers([0])
        case "postgres-restart":
            db.kill(hard=False)
            db.start()
        case "broker-down":
            r.note_cpu("broker", broker.proc.pid if broker.proc else None)
            broker.kill(hard=False)
            time.sleep(hold)
            broker.start()


def _wait_ingest(services: Any) -> None:
    import psycopg  # noqa: PLC0415

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(psycopg.Error), psycopg.connect(services.db.dsn()) as conn:
            if conn.execute("SELECT 1 FROM schema_migrations").fetchone():
                return
        time.sleep(0.2)
    raise RuntimeError("the ingest did not start")


def _heads(folder: Path, ids: list[str]) -> dict[str, tuple[int, str]]:
    import sqlite3  # noqa: PLC0415

    out = {}
    for station in ids:
        conn = sqlite3.connect(f"file:{folder / f'{station}.sqlite'}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT seq, hash FROM log ORDER BY seq DESC LIMIT 1").fetchone()
        finally:
            conn.close()
        out[station] = (int(row[0]), str(row[1]))
    return out


def _central_heads(services: Any) -> dict[str, tuple[int, str]]:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(services.db.dsn()) as conn:
        found = conn.execute("SELECT station_id, head_seq, head_hash FROM stations").fetchall()
    return {str(s): (int(q), str(h)) for s, q, h in found}


def _drain(r: Run, ids: list[str], folder: Path) -> float:
    import psycopg  # noqa: PLC0415

    deadline = time.monotonic() + DRAIN_S
    while time.monotonic() < deadline:
        heads = _heads(folder, ids)  # again each time: a late writer may commit one more row
        try:
            central = _central_heads(r.services)
        except psycopg.OperationalError as exc:  # a busy machine: the next look will do
            say(f"fleet: cannot read the central heads yet ({exc})")
            time.sleep(1.0)
            continue
        behind = [s for s in ids if central.get(s) != heads[s]]
        if not behind:
            return time.time()
        time.sleep(0.5)
    say(f"fleet: stations still behind after {DRAIN_S:.0f} s")
    return time.time()


def _acks(folder: Path) -> tuple[dict[str, list[tuple[int, float]]], int]:
    """Per station: (last seq acknowledged, when) in order; and the largest outbox seen."""
    acks: dict[str, list[tuple[int, float]]] = {}
    outbox = 0
    for log in sorted(folder.glob("acks-*.log")):
        for line in log.read_text(encoding="ascii").splitlines():
            parts = line.split()
            if parts[:1] == ["A"] and len(parts) == 5:
                acks.setdefault(parts[1], []).append((int(parts[3]), float(parts[4])))
            elif parts[:1] == ["O"] and len(parts) == 3:
                outbox = max(outbox, int(parts[1]))
    for values in acks.values():
        values.sort(key=lambda v: v[1])
    return acks, outbox


def _figures(
    r: Run,
    ids: list[str],
    folder: Path,
    faults: list[Fault],
    start: float,
    drained_at: float,
    stations: int,
    rate: float,
    seconds: float,
) -> dict[str, object]:
    import sqlite3  # noqa: PLC0415

    import psycopg  # noqa: PLC0415

    from station.journal.rows import GENESIS_HASH, LogRow  # noqa: PLC0415

    acks, max_outbox = _acks(folder)
    heads = _heads(folder, ids)
    events = sum(seq for seq, _ in heads.values())
    lost = verified = stored = 0
    commits: list[tuple[float, float | None]] = []  # (commit wall, ack wall)
    with psycopg.connect(r.services.db.dsn()) as conn:
        counters: dict[str, int] = dict(
            conn.execute("SELECT name, value FROM ingest_counters").fetchall()
        )
        forks = conn.execute("SELECT count(*) FROM alarms").fetchone()
        size = conn.execute("SELECT pg_total_relation_size('rows')").fetchone()
        for alarm in conn.execute("SELECT station_id, kind, seq, detail FROM alarms"):
            say(f"fleet: ALARM {alarm}")
        for station in ids:
            rows = [
                LogRow.from_tuple(t)
                for t in conn.execute(
                    "SELECT seq, station_id, boot_id, recorded_utc, recorded_at_ns,"
                    " clock_ok::int, hand, code, actor, role, ref, payload, prev_hash, hash"
                    " FROM rows WHERE station_id = %s ORDER BY seq",
                    (station,),
                )
            ]
            stored += len(rows)
            prev, ok = GENESIS_HASH, True
            for i, row in enumerate(rows, 1):
                if row.seq != i or row.prev_hash != prev or row.computed_hash() != row.hash:
                    ok = False
                    break
                prev = row.hash
            journal = sqlite3.connect(f"file:{folder / f'{station}.sqlite'}?mode=ro", uri=True)
            try:
                local = dict(journal.execute("SELECT seq, hash FROM log").fetchall())
                utc = dict(journal.execute("SELECT seq, recorded_utc FROM log").fetchall())
            finally:
                journal.close()
            central = {row.seq: row.hash for row in rows}
            lost += sum(1 for seq, h in local.items() if central.get(seq) != h)
            if ok and rows and (rows[-1].seq, rows[-1].hash) == heads[station]:
                verified += 1
            commits.extend(_latencies(utc, acks.get(station, [])))
    windows = _windows(faults, commits)
    outside = [ack - t for t, ack in commits if ack is not None and not _hit(t, ack, windows)]
    every = [ack - t for t, ack in commits if ack is not None]
    catch_up = max((end - f.end for f, (_, end) in zip(faults, windows, strict=True)), default=0.0)
    # The backlog a fault left, and how fast it went once the fault was over.
    backlog_rates = []
    for f, (_, end) in zip(faults, windows, strict=True):
        late = sum(1 for t, ack in commits if t <= f.end and ack is not None and ack > f.end)
        if late and end > f.end:
            backlog_rates.append(late / (end - f.end))
    return {
        "stations": stations,
        "rate_per_s": rate,
        "seconds": seconds,
        "faults": [f.name for f in faults],
        "events": events,
        "rows_per_s_written": round(events / seconds, 1),
        "stored": stored,
        "unstored": events - stored,
        "lost": lost,
        "duplicates_absorbed": int(counters.get("duplicates", 0)),
        "forks_detected": int(forks[0]) if forks else 0,
        "chains_verified": verified,
        "chains_unverified": stations - verified,
        "ack_p50_s": _round(percentile(outside, 50)),
        "ack_p99_s": _round(percentile(outside, 99)),
        "ack_p99_all_s": _round(percentile(every, 99)),
        "ack_max_s": _round(max(every, default=float("nan"))),
        "rows_outside_faults": len(outside),
        "max_outbox": max_outbox,
        "catch_up_rows_per_s": round(max(backlog_rates, default=0.0), 1),
        "central_bytes_per_row": round(size[0] / stored) if size and stored else None,
        "catch_up_s": round(catch_up, 2),
        "drain_s": round(drained_at - (start + seconds), 2),
        "fault_windows_s": [[round(a - start, 1), round(b - start, 1)] for a, b in windows],
        "gaps": int(counters.get("gaps", 0)),
        "ingest_cpu_s": round(r.cpu.get("ingest", 0.0), 1),
        "broker_cpu_s": round(r.cpu.get("broker", 0.0), 1),
        "cpus": os.cpu_count(),
    }


def _latencies(
    utc: dict[int, str], acked: list[tuple[int, float]]
) -> list[tuple[float, float | None]]:
    """(commit wall time, the first ack covering it) per row: the commit time from the row's
    recorded_utc, acks in time order (a restarted forwarder may acknowledge a range again)."""
    first: dict[int, float] = {}
    covered = 0
    for last, when in acked:
        for seq in range(covered + 1, last + 1):
            first[seq] = when
        covered = max(covered, last)
    return [
        (datetime.fromisoformat(text).timestamp(), first.get(seq))
        for seq, text in sorted(utc.items())
    ]


def _windows(
    faults: list[Fault], commits: list[tuple[float, float | None]]
) -> list[tuple[float, float]]:
    """Each fault from its start until every row committed before its end was acknowledged."""
    out = []
    for f in faults:
        before = [ack for t, ack in commits if t <= f.end]
        caught = max((a for a in before if a is not None), default=f.end)
        out.append((f.at, max(f.end, caught)))
    return out


def _hit(t: float, ack: float, windows: list[tuple[float, float]]) -> bool:
    """Did a fault touch this row: was it waiting (committed, not yet acknowledged) at any
    moment of a fault's window?"""
    return any(t <= b and ack >= a for a, b in windows)


def _round(value: float) -> float | None:
    return None if value != value else round(value, 3)  # noqa: PLR0124 (nan)
