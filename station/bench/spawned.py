"""`station run` as its own process on the emulated table, as systemd starts it: the benches that
measure the daemon from outside (start to READY, idle CPU, memory). Edge adapter (processes,
sockets, ptys).

The emulated shoe and bet-zone board run in the bench's process behind real ptys (as the real
devices run on their own microcontrollers); the daemon is a child process started with the
command line of the systemd unit, a config that names those ptys, the mock GPIO back end, the
display on SDL's dummy driver, `NOTIFY_SOCKET` pointing at a datagram socket the bench reads
(READY=1, STATUS=) and the unit's watchdog (`WatchdogSec=10`).
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from station.demo.rig import Rig, RigOptions
from station.engine.events import Setup, Stakes

WATCHDOG_USEC = "10000000"  # systemd/dealer-station.service: WatchdogSec=10
STOP_TIMEOUT_S = 20.0
TABLE = Setup(
    game="nlhe",
    stakes=Stakes(sb=1, bb=2),
    seats=dict.fromkeys(range(1, 7), 200),
    button=6,
)


class NotifySocket:
    """What systemd would receive on $NOTIFY_SOCKET: datagrams with their arrival times."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))

    def wait_for(self, text: str, timeout_s: float) -> tuple[float, str] | None:
        """The first datagram containing `text` (time of arrival, message), or None."""
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                return None
            message = data.decode("utf-8", "replace")
            if text in message:
                return time.monotonic(), message
        return None

    def drain(self) -> None:
        self.sock.settimeout(0)
        try:
            while True:
                self.sock.recv(4096)
        except (BlockingIOError, TimeoutError):
            pass

    def close(self) -> None:
        self.sock.close()


@dataclass
class Table:
    """The emulated devices and the config `station run` gets, in `folder`."""

    folder: Path
    rig: Rig
    notify: NotifySocket

    @property
    def config(self) -> Path:
        return self.rig.config_path

    @property
    def journal(self) -> Path:
        return self.rig.loaded.config.journal

    def spawn(self) -> subprocess.Popen[bytes]:
        """`station run --config ...` as the unit starts it (stderr to `daemon.log`)."""
        env = dict(
            os.environ,
            NOTIFY_SOCKET=str(self.notify.path),
            WATCHDOG_USEC=WATCHDOG_USEC,
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
        )
        env.pop("WATCHDOG_PID", None)
        with (self.folder / "daemon.log").open("ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "station.cli", "run", "--config", str(self.config)],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    def log_tail(self, lines: int = 5) -> str:
        path = self.folder / "daemon.log"
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@contextmanager
def emulated_table(folder: Path, display: str = "dummy") -> Iterator[Table]:
    """Plug in the emulated shoe and board and write the config; unplug them afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    rig = Rig(folder, TABLE, RigOptions(display=display))
    notify = NotifySocket(folder / "notify.sock")
    rig.shoe.start()
    rig.zones.start()
    try:
        yield Table(folder, rig, notify)
    finally:
        rig.shoe.stop()
        rig.zones.stop()
        notify.close()


def stop(proc: subprocess.Popen[bytes]) -> int:
    """SIGTERM (systemctl stop), then SIGKILL if it does not stop in time; the exit status."""
    if proc.poll() is None:
        proc.terminate()
        try:
            return proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait()


def copy_journal(source: Path, target: Path) -> int:
    """Copy a journal (with what its WAL holds) through SQLite's backup API, and its head
    witness (first: read before the journal it can only be behind it); its row count."""
    from station.journal.witness import witness_path  # noqa: PLC0415

    target.parent.mkdir(parents=True, exist_ok=True)
    if witness_path(source).exists():
        shutil.copyfile(witness_path(source), witness_path(target))
    with (
        closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
        closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
        row = dst.execute("SELECT count(*) FROM log").fetchone()
    return int(row[0])
