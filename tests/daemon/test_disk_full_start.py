"""A full disk at the station's start and in the middle of a hand (issue 27, item 3), on a real
small file system (tests/smallfs.py): the daemon comes up (or stays up) with no traceback, says
JOURNAL FULL on the dealer screen, in its diagnostics and to systemd, refuses the table's
inputs, tries again, and once there is room journals a critical storage tilt that lists what
was refused. On main the daemon died in its lock file (OSError 28), exit 1: a restart loop."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap_load import default_pinmap
from station.config.station_toml import load_station
from station.daemon.daemon import Daemon, Overrides
from station.daemon.sink import NullSink
from station.journal import Code, verify_file
from station.journal.clock import SystemClock
from station.journal.store import Journal
from tests.daemon.conftest import NotifyListener, write_config
from tests.smallfs import fill, small_fs

START_AT = 1000.0


class Station:
    """A daemon on a thread, its journal on a small file system, the key panel emulated; the
    thread does not wait for the journal to open (on a full disk it cannot)."""

    def __init__(self, folder: Path, notify: NotifyListener) -> None:
        self.journal = folder / "fs" / "journal.sqlite"
        config = write_config(folder)
        text = config.read_text(encoding="utf-8")
        config.write_text(
            text.replace('path = "journal.sqlite"', f'path = "{self.journal}"'), encoding="utf-8"
        )
        self.pinmap = default_pinmap()
        self.factories = mock_factories(self.pinmap)
        self.panel = InputEmulator(self.pinmap, self.factories)
        self.panel.idle()
        self.sink, self.clock, self.at = NullSink(), FakeClock(START_AT), START_AT
        overrides = Overrides(
            factories=self.factories, display=self.sink, clock=self.clock,
            environ={"NOTIFY_SOCKET": str(notify.path)}, storage_reserve_bytes=0,
        )  # fmt: skip
        self.daemon = Daemon(load_station(config), overrides)
        self.errors: list[BaseException] = []
        self.result: list[str] = []
        self.thread = threading.Thread(target=self._serve, name="core", daemon=True)

    def _serve(self) -> None:
        try:
            self.result.append(self.daemon.run())
        except BaseException as exc:
            self.errors.append(exc)
        finally:
            self.daemon.close()

    def press(self, key: str) -> None:
        self.at += 1.0
        self.panel.press(key, self.at, 0.05)
        self.at += 0.5
        self.panel.run_until(self.at, self.clock.set)
        time.sleep(0.3)  # the daemon's thread takes the edges

    def later(self, seconds: float) -> None:
        self.at += seconds
        self.clock.set(self.at)

    def rows(self) -> list[tuple[str, dict[str, object]]]:
        if not self.journal.exists():
            return []
        conn = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
        try:
            found = conn.execute("SELECT code, payload FROM log ORDER BY seq").fetchall()
        finally:
            conn.close()
        return [(str(c), json.loads(p)) for c, p in found]

    def stop(self) -> None:
        self.daemon.stop("test over")
        self.thread.join(15)
        close_factories(self.factories)


def _until(what: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def station(tmp_path: Path) -> Iterator[tuple[Station, Path]]:
    with small_fs(tmp_path / "fs") as fs:
        listener = NotifyListener(tmp_path / "notify.sock")
        made = Station(tmp_path, listener)
        yield made, fs
        if made.thread.is_alive():
            made.stop()
        listener.close()


def _storage_tilts(rows: list[tuple[str, dict[str, object]]]) -> list[dict[str, object]]:
    return [d for c, d in rows if c == Code.TILT_RAISED and d.get("tilt") == "storage_full"]


def test_a_station_started_on_a_full_disk_comes_up_waits_and_puts_it_on_record(
    station: tuple[Station, Path], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.INFO)
    s, fs = station
    with Journal.open(s.journal, clock=SystemClock(), station_id="T07", create=True):
        pass  # the station's journal, made on an earlier day
    filler = fill(fs)
    s.thread.start()
    _until(lambda: s.sink.status.alert == "JOURNAL FULL")
    assert s.sink.diagnostics.journal.problem == "DISK FULL"
    assert s.thread.is_alive() and not s.errors
    s.press("NEW_HAND")
    s.press("FOLD")
    assert s.thread.is_alive()
    filler.unlink()
    s.later(6.0)  # the next try
    _until(lambda: bool(_storage_tilts(s.rows())))
    (tilt,) = _storage_tilts(s.rows())
    refused = tilt["refused"]
    assert isinstance(refused, list)
    assert any("key NEW_HAND refused" in str(r) for r in refused), refused
    assert "disk full" in str(tilt["detail"])
    s.stop()
    assert s.result and not s.errors
    assert not any(r.exc_info for r in caplog.records)  # no traceback anywhere
    assert any("JOURNAL FULL" in r.getMessage() for r in caplog.records if r.levelno >= 50)
    assert verify_file(s.journal).ok


def test_a_disk_filling_in_the_middle_of_a_hand_lists_the_inputs_it_lost(
    station: tuple[Station, Path], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    s, fs = station
    s.thread.start()
    _until(lambda: any(c == Code.INPUT_SETUP for c, _ in s.rows()))  # the config's table
    s.press("NEW_HAND")  # a hand starts
    _until(lambda: any(c == Code.HAND_START for c, _ in s.rows()))
    before = len(s.rows())
    filler = fill(fs)
    s.press("SEAT_1")
    s.press("FOLD")  # mid-hand: cannot be recorded
    _until(lambda: s.sink.status.alert == "JOURNAL FULL")
    s.press("NEW_HAND")  # refused
    assert s.thread.is_alive()
    assert len(s.rows()) == before
    filler.unlink()
    s.later(6.0)
    _until(lambda: bool(_storage_tilts(s.rows())))
    (tilt,) = _storage_tilts(s.rows())
    refused = [str(r) for r in tilt["refused"]]  # type: ignore[attr-defined]
    assert any("key FOLD" in r for r in refused), refused
    assert any("key NEW_HAND refused" in r for r in refused), refused
    s.stop()
    assert not any(r.exc_info for r in caplog.records)
    assert verify_file(s.journal).ok
