"""The table-side display: pure view models and layout, a thin pygame-ce renderer. Package.

Importing this package does not import pygame: the renderer (`pgrender`, `pgevents`) is loaded
by the display thread, `render_png` and `FrameWriter.write` when they run.

API for the daemon and the demo:
- `DisplayThread(panel, driver, verify_pin=..., on_command=...)`, `.start()`, `.publish(snapshot)`,
  `.publish_floor(FloorData)`, `.publish_diagnostics(DiagnosticsData)`,
  `.publish_status(StationStatus)`, `.post_input(KeyIn(...))`, `.stop()`;
- `render_png(screen_model, path, panel)`; `screen_model(nav, DisplayInputs, panel)`;
- `FrameWriter(out_dir, panel).write(snapshot, floor, diag)` for the headless demo.
"""

from __future__ import annotations

from pathlib import Path

from station.display.dealer_view import StationStatus
from station.display.diag_view import (
    DiagLinkState,
    DiagnosticsData,
    EnrolmentView,
    GpioLevelsView,
    JournalHealthView,
    LinkStatusView,
    PlatformView,
)
from station.display.floor_keys import ScreenKey
from station.display.floor_view import FloorData, HandRecallView, IncidentRow, RecallStep
from station.display.frames import FrameWriter
from station.display.model import ScreenModel
from station.display.nav import (
    AcknowledgeIncident,
    ClearFloorCall,
    Command,
    KeyIn,
    NavKey,
    NavState,
    PinRejected,
    PinVerifier,
    RuleIncident,
    SaveDeckRegistry,
    Screen,
    SignedIn,
    SignedOut,
    StartDeckScan,
    Tap,
)
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pinpad import PadAccess
from station.display.screens import DisplayInputs, screen_model
from station.display.theme import DEFAULT_THEME, Theme
from station.display.thread import DisplayThread


def render_png(
    model: ScreenModel,
    path: str | Path,
    panel: PanelConfig | None = None,
    theme: Theme = DEFAULT_THEME,
) -> Path:
    """Paint a screen model off-screen and save it as a PNG (imports pygame on first use)."""
    from station.display.pgrender import render_png as _render_png  # noqa: PLC0415 (lazy: pygame stays out of the core)

    return _render_png(model, path, panel, theme)


__all__ = [
    "DEFAULT_THEME",
    "PANEL_7",
    "PANEL_10_1",
    "AcknowledgeIncident",
    "ClearFloorCall",
    "Command",
    "DiagnosticsData",
    "DisplayInputs",
    "DisplayThread",
    "EnrolmentView",
    "FloorData",
    "FrameWriter",
    "GpioLevelsView",
    "HandRecallView",
    "IncidentRow",
    "JournalHealthView",
    "KeyIn",
    "DiagLinkState",
    "LinkStatusView",
    "NavKey",
    "NavState",
    "PanelConfig",
    "PinRejected",
    "PinVerifier",
    "PlatformView",
    "RecallStep",
    "PadAccess",
    "RuleIncident",
    "SaveDeckRegistry",
    "Screen",
    "ScreenKey",
    "ScreenModel",
    "SignedIn",
    "SignedOut",
    "StartDeckScan",
    "StationStatus",
    "Tap",
    "Theme",
    "render_png",
    "screen_model",
]
