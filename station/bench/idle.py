"""`station bench idle --seconds S`: CPU and memory of `station run` with the display up and
nothing happening. Edge adapter (a child process, /proc).

The daemon is its own process (see `station.bench.spawned`): the display thread on SDL's dummy
driver, the emulated shoe and bet-zone board linked over ptys (heartbeats flowing), the mock
GPIO panel idle, the unit's watchdog armed. Once both links are up and `--settle-s` has passed,
the bench reads the daemon's CPU time (/proc/PID/stat: user + system, every thread) over
`--seconds` of wall time, and its memory from /proc/PID/status: `rss_mb` (VmRSS now) and
`peak_rss_mb` (VmHWM, the high-water mark since the process started).

Bars (docs/performance.md): `cpu_pct` <= 2 (% of one core), `peak_rss_mb` <= 80; and
`exit_status` == 0 (SIGTERM stopped it).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from station.bench.report import Bar, cpu_s, emit, proc_status, say, status_mb

if TYPE_CHECKING:
    from station.bench.spawned import Table

# exit_status: SIGTERM (systemctl stop) must stop it cleanly; not a bar of docs/performance.md, but
# a daemon that needs SIGKILL fails the run.
BARS = (Bar("cpu_pct", "<=", 2), Bar("peak_rss_mb", "<=", 80), Bar("exit_status", "==", 0))
READY_TIMEOUT_S = 30.0
LINKS_TIMEOUT_S = 15.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="how long to measure (default 10)"
    )
    parser.add_argument(
        "--settle-s",
        type=float,
        default=3.0,
        help="wait this long after the links are up before measuring (default 3)",
    )


def listen(table: Table, seconds: float) -> None:
    """Wait, reading the daemon's notifications as systemd does (its watchdog pets every few
    hundred ms would otherwise fill the socket and be dropped)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        threading.Event().wait(min(left, 0.5))
        table.notify.drain()


def measure(seconds: float, settle_s: float, folder: Path) -> dict[str, object]:
    from station.bench.spawned import emulated_table, stop  # noqa: PLC0415 (the CLI stays light)

    with emulated_table(folder) as table:
        proc = table.spawn()
        try:
            if table.notify.wait_for("READY=1", READY_TIMEOUT_S) is None:
                raise RuntimeError(f"no READY=1 from station run: {table.log_tail()}")
            if table.notify.wait_for("shoe up; betzones up", LINKS_TIMEOUT_S) is None:
                raise RuntimeError(f"the links did not come up: {table.log_tail()}")
            listen(table, settle_s)
            cpu0, wall0 = cpu_s(proc.pid), time.monotonic()
            listen(table, seconds)
            cpu1, wall1 = cpu_s(proc.pid), time.monotonic()
            rss, peak = status_mb("VmRSS", proc.pid), status_mb("VmHWM", proc.pid)
            threads = int(proc_status(proc.pid)["Threads"])
        finally:
            code = stop(proc)
    if code != 0:
        say(f"station bench idle: station run exited {code}: {table.log_tail()}")
    wall = wall1 - wall0
    return {
        "seconds": round(wall, 2),
        "cpu_s": round(cpu1 - cpu0, 3),
        "cpu_pct": round(100 * (cpu1 - cpu0) / wall, 2),
        "rss_mb": rss,
        "peak_rss_mb": peak,
        "threads": threads,
        "exit_status": code,
    }


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0 or args.settle_s < 0:
        print("station bench idle: --seconds must be > 0 and --settle-s >= 0", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as tmp:
        try:
            figures = measure(args.seconds, args.settle_s, Path(tmp))
        except RuntimeError as exc:
            print(f"station bench idle: {exc}", file=sys.stderr)
            return 1
    emit("idle", figures, BARS)
    return 0
