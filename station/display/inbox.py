"""The newest of everything the screens show, handed from the core to a drawing thread. Pure
(locks and an event only).

`ScreenInbox` keeps one `LatestBox` per kind of data (table snapshot, floor data, diagnostics,
station status) and wakes the thread that draws; the display thread and the demo's PNG frame
writer both read from one. Publishing never waits for drawing.
"""

from __future__ import annotations

import threading

from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagnosticsData
from station.display.floor_view import FloorData
from station.display.latest import LatestBox
from station.engine.snapshot import TableSnapshot


class ScreenInbox:
    """`publish*` may be called from any thread and never blocks on drawing."""

    def __init__(self) -> None:
        self._snapshot: LatestBox[TableSnapshot] = LatestBox(TableSnapshot.empty())
        self._floor: LatestBox[FloorData] = LatestBox(FloorData())
        self._diag: LatestBox[DiagnosticsData] = LatestBox(DiagnosticsData())
        self._status: LatestBox[StationStatus] = LatestBox(StationStatus())
        self._wake = threading.Event()

    def publish(self, snapshot: TableSnapshot) -> int:
        """Hand over the newest snapshot; returns its version. Never raises, never waits."""
        version = self._snapshot.put(snapshot)
        self._wake.set()
        return version

    def publish_floor(self, data: FloorData) -> None:
        self._floor.put(data)
        self._wake.set()

    def publish_diagnostics(self, data: DiagnosticsData) -> None:
        self._diag.put(data)
        self._wake.set()

    def publish_status(self, status: StationStatus) -> None:
        self._status.put(status)
        self._wake.set()
