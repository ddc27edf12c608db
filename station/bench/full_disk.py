"""A disk that fills in the middle of a hand, on a real small file system: the daemon in this
process with its key panel emulated, a hand dealt, the disk filled, keys pressed that cannot be
recorded, the disk freed. Edge adapter (a daemon thread, files), used by `station bench
tamper`'s hardening section.

Held when the daemon stayed up, showed JOURNAL FULL, and once there was room journaled a
critical storage tilt listing the lost keys; lost when a row committed before was changed.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap_load import default_pinmap
from station.config.station_toml import load_station
from station.daemon.daemon import Daemon, Overrides
from station.daemon.sink import NullSink
from station.journal.codes import Code


def _rows(journal: Path) -> list[tuple[int, str, str, str]]:
    if not journal.exists():
        return []
    conn = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        found = conn.execute("SELECT seq, code, hash, payload FROM log ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [(int(s), str(c), str(h), str(p)) for s, c, h, p in found]


def _until(what: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not what():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def mid_hand(config: Path, journal: Path, fill: Callable[[], Path]) -> tuple[bool, bool, str]:
    """(held, lost, what happened). `config` names `journal` on the small file system."""
    pinmap = default_pinmap()
    factories = mock_factories(pinmap)
    panel = InputEmulator(pinmap, factories)
    panel.idle()
    sink, clock = NullSink(), FakeClock(1000.0)
    at = [1000.0]
    overrides = Overrides(
        factories=factories, display=sink, clock=clock, environ={}, storage_reserve_bytes=0
    )
    daemon = Daemon(load_station(config), overrides)
    errors: list[BaseException] = []

    def serve() -> None:
        try:
            daemon.run()
        except BaseException as exc:  # reported in the result
            errors.append(exc)
        finally:
            daemon.close()

    def press(key: str) -> None:
        at[0] += 1.0
        panel.press(key, at[0], 0.05)
        at[0] += 0.5
        panel.run_until(at[0], clock.set)
        time.sleep(0.3)

    thread = threading.Thread(target=serve, name="core", daemon=True)
    thread.start()
    try:
        if not _until(lambda: bool(_rows(journal)) and sink.status.alert == "", 15):
            return False, False, f"the station did not start ({sink.status.alert})"

        def started() -> bool:
            return any(c == Code.HAND_START for _, c, _, _ in _rows(journal))

        for _ in range(4):  # the config's table is set up first, then a hand can start
            press("NEW_HAND")
            if _until(started, 3):
                break
        else:
            return False, False, f"no hand started ({sink.status.alert or sink.snapshot.phase})"
        kept = [(s, h) for s, _, h, _ in _rows(journal)]
        filler = fill()
        press("SEAT_1")
        press("FOLD")
        full = _until(lambda: sink.status.alert == "JOURNAL FULL", 10)
        press("NEW_HAND")
        alive = thread.is_alive()
        filler.unlink()
        at[0] += 6.0
        clock.set(at[0])

        def tilt() -> str:
            for _, code, _, payload in reversed(_rows(journal)):
                if code == Code.TILT_RAISED and "storage_full" in payload:
                    return payload
            return ""

        recorded = _until(lambda: bool(tilt()), 15)
        rows = [(s, h) for s, _, h, _ in _rows(journal)]
        lost = rows[: len(kept)] != kept
        held = full and alive and recorded and "key FOLD" in tilt() and not errors
        said = "up, JOURNAL FULL, the lost keys on record" if held else f"{errors or tilt()}"
        return held, lost, said
    finally:
        daemon.stop("bench over")
        thread.join(15)
        close_factories(factories)
