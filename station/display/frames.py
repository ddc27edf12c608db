"""PNG frames for `station demo --headless --out DIR`. Edge adapter (files, pygame).

The demo calls `FrameWriter.write(snapshot)` each time the snapshot changes; it writes one PNG
per screen (dealer, floor incidents, floor recall, diagnostics, PIN pad), numbered by frame, and
skips a screen whose picture has not changed since its last frame (redraw only on change).

Beside the PNGs, `frames.jsonl` says what each dealer frame was drawn from (one line per dealer
PNG: the hand, phase and street, the board, the STOP, and at a hand's end who was paid), so a
reader or a test can check what the pictures show without reading pixels.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagnosticsData
from station.display.floor_view import FloorCursor, FloorData
from station.display.model import ScreenModel
from station.display.nav import NavState, Screen
from station.display.panel import PANEL_10_1, PanelConfig
from station.display.pinpad import PadAccess, PinPadState
from station.display.screens import DisplayInputs, screen_model
from station.display.table_shape import DEFAULT_TABLE, TableShape
from station.display.theme import DEFAULT_THEME, Theme
from station.engine.snapshot import TableSnapshot

INDEX = "frames.jsonl"
SCREENS: dict[str, NavState] = {
    "dealer": NavState(),
    "floor": NavState(Screen.FLOOR, role=PadAccess.FLOOR),
    "recall": NavState(Screen.FLOOR, role=PadAccess.FLOOR, floor=FloorCursor(page="recall")),
    "diagnostics": NavState(Screen.DIAG, role=PadAccess.TECHNICIAN),
    "pin": NavState(Screen.PIN, pin=PinPadState(PadAccess.FLOOR), pending=Screen.FLOOR),
}


class FrameWriter:
    def __init__(
        self,
        out_dir: str | Path,
        panel: PanelConfig = PANEL_10_1,
        theme: Theme = DEFAULT_THEME,
        screens: tuple[str, ...] = tuple(SCREENS),
        table: TableShape = DEFAULT_TABLE,
    ) -> None:
        unknown = set(screens) - set(SCREENS)
        if unknown:
            raise ValueError(f"unknown screens {sorted(unknown)}; known: {sorted(SCREENS)}")
        self.out_dir = Path(out_dir)
        self.panel = panel
        self.theme = theme
        self.screens = screens
        self.table = table
        self.frame = 0
        self._last: dict[str, ScreenModel] = {}
        self.index = self.out_dir / INDEX

    def models(
        self,
        snapshot: TableSnapshot,
        floor: FloorData | None = None,
        diag: DiagnosticsData | None = None,
        status: StationStatus | None = None,
    ) -> dict[str, ScreenModel]:
        inputs = DisplayInputs(
            snapshot,
            floor or FloorData(),
            diag or DiagnosticsData(),
            status or StationStatus(),
            self.table,
        )
        return {
            name: screen_model(SCREENS[name], inputs, self.panel, self.theme)
            for name in self.screens
        }

    def write(
        self,
        snapshot: TableSnapshot,
        floor: FloorData | None = None,
        diag: DiagnosticsData | None = None,
        status: StationStatus | None = None,
    ) -> list[Path]:
        """One PNG per changed screen; returns the files written."""
        from station.display.pgrender import render_png  # noqa: PLC0415 (lazy: pygame stays out of the core)

        self.frame += 1
        written: list[Path] = []
        for name, model in self.models(snapshot, floor, diag, status).items():
            if self._last.get(name) == model:
                continue
            self._last[name] = model
            path = self.out_dir / f"{self.frame:05d}-{name}.png"
            written.append(render_png(model, path, self.panel, self.theme))
            if name == "dealer":
                with self.index.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(drawn_from(path.name, snapshot), separators=(",", ":")))
                    f.write("\n")
        return written


def drawn_from(file: str, snap: TableSnapshot) -> dict[str, Any]:
    """One line of `frames.jsonl`: what a dealer frame shows, from its snapshot."""
    line: dict[str, Any] = {
        "file": file,
        "hand": snap.hand,
        "phase": snap.phase.value,
        "street": snap.street,
        "board": list(snap.board),
        "stop": snap.stop.text if snap.stop is not None else None,
    }
    if snap.result is not None:
        line["paid"] = {str(s): c for s, c in sorted(snap.result.payouts.items()) if c}
        line["void"] = snap.result.void
    return line
