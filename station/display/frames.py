"""PNG frames for `station demo --headless --out DIR`. Edge adapter (files, pygame).

The demo calls `FrameWriter.write(snapshot)` each time the snapshot changes; it writes one PNG
per screen (dealer, floor incidents, floor recall, diagnostics, PIN pad), numbered by frame, and
skips a screen whose picture has not changed since its last frame (redraw only on change).

With several panels (`panels`, the demo's `--panel both`) every screen is written at each size,
the panel's tag in the name (`00001-dealer-10in.png`, `00001-dealer-7in.png`); with one, the
name has no tag (`00001-dealer.png`).

Beside the PNGs, `frames.jsonl` says what each dealer frame was drawn from (one line per dealer
PNG: the hand, phase and street, the board, the STOP, and at a hand's end who was paid) and what
it shows: the seat the button puck is drawn on, the chips shown in the pots and in front of the
seats (`pot`), each seat's stack, the bet in front of it (or what it won), its state in words
and its blind, the panel, and every text drawn. A reader or a test can check what the pictures
show without reading pixels.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from station.display.dealer_view import DealerView, StationStatus, dealer_view
from station.display.diag_view import DiagnosticsData
from station.display.floor_view import FloorCursor, FloorData
from station.display.model import ScreenModel
from station.display.nav import NavState, Screen
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
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


def panel_tag(panel: PanelConfig) -> str:
    """'10in', '7in', or the resolution of another panel ('1024x600')."""
    if panel == PANEL_10_1:
        return "10in"
    if panel == PANEL_7:
        return "7in"
    return f"{panel.width_px}x{panel.height_px}"


class FrameWriter:
    def __init__(
        self,
        out_dir: str | Path,
        panel: PanelConfig = PANEL_10_1,
        theme: Theme = DEFAULT_THEME,
        screens: tuple[str, ...] = tuple(SCREENS),
        table: TableShape = DEFAULT_TABLE,
        panels: tuple[PanelConfig, ...] = (),
    ) -> None:
        """`panels`: every panel size to write (default: `panel` alone)."""
        unknown = set(screens) - set(SCREENS)
        if unknown:
            raise ValueError(f"unknown screens {sorted(unknown)}; known: {sorted(SCREENS)}")
        self.out_dir = Path(out_dir)
        self.panel = panel
        self.panels = panels or (panel,)
        self.theme = theme
        self.screens = screens
        self.table = table
        self.frame = 0
        self._last: dict[tuple[str, str], ScreenModel] = {}
        self.index = self.out_dir / INDEX
        self._painter: Any = None  # pgrender.Painter, made at the first frame (pygame is lazy)

    def models(
        self,
        snapshot: TableSnapshot,
        floor: FloorData | None = None,
        diag: DiagnosticsData | None = None,
        status: StationStatus | None = None,
        panel: PanelConfig | None = None,
    ) -> dict[str, ScreenModel]:
        inputs = DisplayInputs(
            snapshot,
            floor or FloorData(),
            diag or DiagnosticsData(),
            status or StationStatus(),
            self.table,
        )
        return {
            name: screen_model(SCREENS[name], inputs, panel or self.panel, self.theme)
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
        from station.display.pgrender import Painter, render_png  # noqa: PLC0415 (lazy: pygame stays out of the core)

        if self._painter is None:
            self._painter = Painter(self.theme)  # its fonts and text images kept across frames
        self.frame += 1
        written: list[Path] = []
        view = dealer_view(snapshot, status)
        for panel in self.panels:
            tag = panel_tag(panel)
            suffix = f"-{tag}" if len(self.panels) > 1 else ""
            for name, model in self.models(snapshot, floor, diag, status, panel).items():
                if self._last.get((name, tag)) == model:
                    continue
                self._last[name, tag] = model
                path = self.out_dir / f"{self.frame:05d}-{name}{suffix}.png"
                written.append(render_png(model, path, panel, self.theme, painter=self._painter))
                if name == "dealer":
                    line = drawn_from(path.name, snapshot, view, model, tag)
                    with self.index.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False))
                        f.write("\n")
        return written


def _chips(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def drawn_from(
    file: str,
    snap: TableSnapshot,
    view: DealerView | None = None,
    model: ScreenModel | None = None,
    panel: str = "10in",
) -> dict[str, Any]:
    """One line of `frames.jsonl`: what a dealer frame was drawn from (its snapshot) and what
    it shows (its view and screen model)."""
    view = view or dealer_view(snap)
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
    line["button"] = next((s.seat for s in view.seats if s.button), None)
    line["pot"] = int(view.pot_total)
    line["stacks"] = {s.number: _chips(s.stack) for s in view.seats if s.stack}
    line["bets"] = {s.number: s.bet_amount for s in view.seats if s.bet_amount}
    line["states"] = {s.number: s.word for s in view.seats}
    line["blinds"] = {s.number: s.blind for s in view.seats if s.blind}
    line["panel"] = panel
    line["texts"] = [t.text for t in model.texts()] if model is not None else []
    return line
