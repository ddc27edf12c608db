"""The journal's disk fills up while the station runs (a real, small tmpfs: tests/smallfs.py):
a clear critical message, the daemon stays up for the display (JOURNAL FULL on the dealer
screen, `systemctl status` says so), new hands are refused, nothing committed is lost, and once
there is room again the outage is put on record as a critical tilt. And before it comes to
that: below the free-space reserve new hands stop while there is still room."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap_load import default_pinmap
from station.daemon.daemon import Overrides
from station.daemon.news import News, OpsNews, Recorded
from station.daemon.sink import NullSink
from station.demo.dealer import Watcher
from station.engine.events import Key, KeyPress
from station.journal import Code, verify_file
from tests.daemon.conftest import Running, start_daemon, write_config
from tests.smallfs import fill, small_fs

START_AT = 1000.0


class Table:
    """A daemon on the emulated key panel, its journal on a small file system."""

    def __init__(
        self, folder: Path, daemons: list[Running], reserve: int, journal: Path | None = None
    ) -> None:
        config = write_config(folder)
        self.journal = journal or folder / "fs" / "journal.sqlite"
        text = config.read_text(encoding="utf-8").replace(
            'path = "journal.sqlite"', f'path = "{self.journal}"'
        )
        config.write_text(text, encoding="utf-8")
        self.pinmap = default_pinmap()
        self.factories = mock_factories(self.pinmap)
        self.panel = InputEmulator(self.pinmap, self.factories)
        self.panel.idle()
        self.watcher, self.sink = Watcher(), NullSink()
        self.clock = FakeClock(START_AT)
        self.at = START_AT
        overrides = Overrides(
            factories=self.factories, display=self.sink, observers=[self.watcher], environ={},
            clock=self.clock, storage_reserve_bytes=reserve,
        )  # fmt: skip
        self.running = start_daemon(config, overrides)
        daemons.append(self.running)

    def press(self, key: str, found: Callable[[News], bool]) -> None:
        start = len(self.watcher.news)
        self.at += 1.0
        self.panel.press(key, self.at, 0.05)
        self.at += 0.5
        self.panel.run_until(self.at, self.clock.set)
        self.watcher.wait(
            start, lambda news: next((i for i, n in enumerate(news) if found(n)), None), 5.0
        )

    def rows(self) -> list[tuple[int, str, str]]:
        conn = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
        try:
            return [
                (int(s), str(c), str(h))
                for s, c, h in conn.execute("SELECT seq, code, hash FROM log ORDER BY seq")
            ]
        finally:
            conn.close()

    def acts(self) -> list[tuple[int, str, str]]:
        """The rows less the scrub's own: it runs in the background and may write at any time."""
        return [row for row in self.rows() if row[1] != Code.SCRUB]

    def close(self) -> None:
        close_factories(self.factories)


@pytest.fixture
def table(tmp_path: Path, daemons: list[Running]) -> Iterator[Callable[[int], Table]]:
    made: list[Table] = []
    with small_fs(tmp_path / "fs"):

        def make(reserve: int) -> Table:
            made.append(Table(tmp_path, daemons, reserve))
            return made[-1]

        yield make
        for running in daemons:
            if running.thread.is_alive():
                running.stop()
        daemons.clear()
        for t in made:
            t.close()


def _recorded(key: Key) -> Callable[[News], bool]:
    return lambda n: isinstance(n, Recorded) and n.event == KeyPress(key)


def _blocked(n: News) -> bool:
    return isinstance(n, OpsNews) and bool(n.blocked)


def test_disk_full_mid_run_keeps_the_station_up_and_refuses_new_hands(
    table: Callable[[int], Table], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    t = table(0)  # no free-space reserve: the disk runs full for real
    t.press("NEW_HAND", _recorded(Key.NEW_HAND))
    before = t.rows()
    filler = fill(t.journal.parent)
    t.press("FLOOR", _blocked)  # its row cannot be written
    assert t.running.thread.is_alive()
    assert t.sink.status.alert == "JOURNAL FULL"
    assert t.sink.diagnostics.journal.problem == "DISK FULL"
    critical = [r for r in caplog.records if r.levelno == logging.CRITICAL]
    assert critical and "JOURNAL CANNOT BE WRITTEN (disk full)" in critical[0].getMessage()
    assert f"everything up to seq {before[-1][0]} is kept" in critical[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)  # no traceback
    caplog.clear()
    t.press("NEW_HAND", _blocked)
    assert any(
        "NEW_HAND refused: journal cannot be written" in r.getMessage() for r in caplog.records
    )
    assert t.rows() == before  # nothing committed is lost, nothing half-written
    filler.unlink()
    start = len(t.watcher.news)
    t.clock.set(t.at + 6.0)  # the core tries again every 5 s
    t.at += 6.0
    t.watcher.wait(
        start, lambda news: next((i for i, n in enumerate(news) if _blocked(n)), None), 5.0
    )
    after = t.rows()
    assert after[: len(before)] == before
    tilt = after[len(before)]
    assert tilt[1] == Code.TILT_RAISED
    assert t.sink.status.alert == "JOURNAL DISK LOW"  # the critical storage tilt stays open
    caplog.clear()
    t.press("NEW_HAND", _blocked)  # still refused until a technician clears the tilt
    assert t.acts()[-1][1] == Code.INPUT_REFUSED
    assert t.running.stop() == "test over"
    assert verify_file(t.journal).ok


def test_below_the_reserve_new_hands_stop_while_there_is_room(
    table: Callable[[int], Table],
) -> None:
    t = table(2 * 2**20)
    start = len(t.watcher.news)  # (the core may check the space before the clock moves)
    fill(t.journal.parent, leave=2**20)  # 1 MB left: under the 2 MB reserve
    t.clock.set(t.at + 31.0)  # the next free-space check
    t.at += 31.0
    t.watcher.wait(
        start, lambda news: next((i for i, n in enumerate(news) if _blocked(n)), None), 5.0
    )
    t.press("NEW_HAND", _blocked)
    rows = t.rows()
    assert [c for _, c, _ in rows[-2:]] == [Code.TILT_RAISED, Code.INPUT_REFUSED]
    assert t.sink.status.alert == "JOURNAL DISK LOW"
    assert Code.INPUT_KEY not in [c for _, c, _ in rows]
