"""Where the core publishes what the screens show: the display thread, PNG frames, nothing, or
several at once. Edge adapter (threads, files); the core only ever calls `publish*`, which never
block on drawing.

`DisplayThread` (station.display) is the table's real screen. `FrameSink` writes PNG frames
with `FrameWriter` on a thread of its own, from the newest state (a frame still being written
when three snapshots arrive is followed by one frame of the newest, never by a backlog), so the
demo's `--out` can never slow the core down. The one exception: a snapshot that starts a street
(new board cards), ends a hand or starts one is a milestone, kept for its own frame even when a
newer one has come, so the frames show the board on every street and the winners of every hand
(a handful per hand: the queue stays short).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from pathlib import Path
from typing import Protocol

from station.display import FrameWriter
from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagnosticsData
from station.display.floor_view import FloorData
from station.display.inbox import ScreenInbox
from station.display.panel import PanelConfig
from station.display.table_shape import DEFAULT_TABLE, TableShape
from station.display.theme import DEFAULT_THEME, Theme
from station.engine.snapshot import TableSnapshot

log = logging.getLogger(__name__)
MILESTONES = 256  # at most this many milestone frames wait (a few per hand)


def _milestone(snap: TableSnapshot) -> tuple[object, ...]:
    """What changes at a milestone: the hand, the board's length, the result being out."""
    return (snap.hand, len(snap.board), snap.result is not None)


class DisplaySink(Protocol):
    def publish(self, snapshot: TableSnapshot) -> int: ...
    def publish_floor(self, data: FloorData) -> None: ...
    def publish_diagnostics(self, data: DiagnosticsData) -> None: ...
    def publish_status(self, status: StationStatus) -> None: ...


class NullSink:
    """No screen (`[display] driver = "none"`): the latest state is kept for tests to read."""

    def __init__(self) -> None:
        self.snapshot = TableSnapshot.empty()
        self.floor = FloorData()
        self.diagnostics = DiagnosticsData()
        self.status = StationStatus()
        self.published = 0

    def publish(self, snapshot: TableSnapshot) -> int:
        self.snapshot = snapshot
        self.published += 1
        return self.published

    def publish_floor(self, data: FloorData) -> None:
        self.floor = data

    def publish_diagnostics(self, data: DiagnosticsData) -> None:
        self.diagnostics = data

    def publish_status(self, status: StationStatus) -> None:
        self.status = status


class FanOut:
    def __init__(self, *sinks: DisplaySink) -> None:
        self.sinks = sinks

    def publish(self, snapshot: TableSnapshot) -> int:
        return max(sink.publish(snapshot) for sink in self.sinks)

    def publish_floor(self, data: FloorData) -> None:
        for sink in self.sinks:
            sink.publish_floor(data)

    def publish_diagnostics(self, data: DiagnosticsData) -> None:
        for sink in self.sinks:
            sink.publish_diagnostics(data)

    def publish_status(self, status: StationStatus) -> None:
        for sink in self.sinks:
            sink.publish_status(status)

    @property
    def alive(self) -> bool:
        return all(getattr(sink, "alive", True) for sink in self.sinks)


class FrameSink(ScreenInbox):
    """PNG frames of every screen as the table plays (`station demo --out DIR`)."""

    def __init__(
        self,
        out_dir: Path,
        panel: PanelConfig,
        table: TableShape = DEFAULT_TABLE,
        panels: tuple[PanelConfig, ...] = (),
        theme: Theme = DEFAULT_THEME,
    ) -> None:
        """`panels`: every panel size to write the frames at (default: `panel` alone)."""
        super().__init__()
        out_dir.mkdir(parents=True, exist_ok=True)
        self.writer = FrameWriter(out_dir, panel, theme, table=table, panels=panels)
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._written_key: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self._milestones: deque[TableSnapshot] = deque(maxlen=MILESTONES)
        self._lock = threading.Lock()
        self._last_mark: tuple[object, ...] | None = None
        self.files = 0
        self.faults = 0
        self._thread = threading.Thread(target=self._run, name="frames", daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def publish(self, snapshot: TableSnapshot) -> int:
        mark = _milestone(snapshot)
        with self._lock:
            if mark != self._last_mark:
                self._last_mark = mark
                self._milestones.append(snapshot)
        return super().publish(snapshot)

    def _key(self) -> tuple[int, int, int, int]:
        return (
            self._snapshot.get()[0],
            self._floor.get()[0],
            self._diag.get()[0],
            self._status.get()[0],
        )

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while True:  # the milestones first, each in a frame of its own
                with self._lock:
                    if not self._milestones:
                        break
                    milestone = self._milestones.popleft()
                self._write(milestone)
            key = self._key()
            if key != self._written_key:
                self._write()
            with self._idle:
                self._written_key = key
                self._idle.notify_all()
            if self._stop.is_set() and self._key() == self._written_key and not self._milestones:
                return

    def _write(self, snapshot: TableSnapshot | None = None) -> None:
        try:
            written = self.writer.write(
                snapshot if snapshot is not None else self._snapshot.get()[1],
                self._floor.get()[1],
                self._diag.get()[1],
                self._status.get()[1],
            )
            self.files += len(written)
        except Exception:  # a frame fault must never reach the core
            self.faults += 1
            log.exception("frame writer failed")

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Wait until the newest state is on disk."""
        self._wake.set()
        with self._idle:
            return self._idle.wait_for(
                lambda: self._written_key == self._key() and not self._milestones, timeout_s
            )

    def stop(self, timeout_s: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout_s)
