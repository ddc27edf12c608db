"""The must-show screenshots, for review: `python -m station.display.shots --out DIR`. Edge
adapter (files, pygame).

Writes, for the 10.1" and the 7" panel: a premature-flop STOP, a three-way all-in with two side
pots, a guided recovery step, the floor's recall of a hand, diagnostics with the shoe
disconnected, and a few more screens (CALL FLOOR held, an incident, the floor's FORFEIT and
CHIP RACE entries, the PIN pad, the I/O page (and scrolled to its end), the system page, a
ten-handed hand's seats). The `seats-*` shots are the dealer screen's SEATS page and
`diagnostics-io-frames` the I/O page scrolled to its end, which only a small panel has: they are
not written for a panel where they would repeat another shot (`SAME_AS`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from station.display import scenes
from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagCursor
from station.display.floor_view import FloorCursor
from station.display.model import ScreenModel
from station.display.nav import NavState, Screen
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pinpad import PinPadState, Role
from station.display.screens import DisplayInputs, screen_model
from station.display.theme import DEFAULT_THEME, Theme

MUST_SHOW = (
    "premature-flop-stop",
    "three-way-allin-side-pots",
    "recovery-step",
    "floor-recall",
    "diagnostics-shoe-disconnected",
)
PANELS: dict[str, PanelConfig] = {"10in": PANEL_10_1, "7in": PANEL_7}
# Pages only a small panel has; elsewhere they draw the same as the shot named here.
SAME_AS = {
    "seats-ten-handed": "ten-handed-preflop",
    "seats-premature-flop-stop": "premature-flop-stop",
    "seats-recovery-step": "recovery-step",
    "diagnostics-io-frames": "diagnostics-io",
}


def shot_models(panel: PanelConfig, theme: Theme = DEFAULT_THEME) -> dict[str, ScreenModel]:
    ok = StationStatus(shoe_ok=True)
    floor, diag = scenes.floor_data(), scenes.shoe_disconnected()
    floor_nav = NavState(Screen.FLOOR, role=Role.FLOOR)
    diag_nav = NavState(Screen.DIAG, role=Role.TECH)

    def dealer(snap: object) -> DisplayInputs:
        return DisplayInputs(snap, floor, diag, ok)  # type: ignore[arg-type]

    cases: dict[str, tuple[NavState, DisplayInputs]] = {
        "premature-flop-stop": (NavState(), dealer(scenes.premature_flop_stop())),
        "three-way-allin-side-pots": (NavState(), dealer(scenes.three_way_allin())),
        "recovery-step": (NavState(), dealer(scenes.premature_flop_recovery())),
        "floor-recall": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("recall", hand=0, step=12)),
            dealer(scenes.premature_flop_stop()),
        ),
        "diagnostics-shoe-disconnected": (
            diag_nav,
            DisplayInputs(scenes.three_way_allin(), floor, diag, StationStatus(shoe_ok=False)),
        ),
        "call-floor": (NavState(), dealer(scenes.floor_call_betting())),
        "ten-handed-preflop": (NavState(), dealer(scenes.ten_handed_preflop())),
        "seats-ten-handed": (NavState(Screen.SEATS), dealer(scenes.ten_handed_preflop())),
        "seats-premature-flop-stop": (NavState(Screen.SEATS), dealer(scenes.premature_flop_stop())),
        "seats-recovery-step": (NavState(Screen.SEATS), dealer(scenes.premature_flop_recovery())),
        "floor-incidents": (floor_nav, dealer(scenes.floor_call_betting())),
        "floor-incident-detail": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("incident")),
            dealer(scenes.premature_flop_stop()),
        ),
        "floor-ruling": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("ruling")),
            dealer(scenes.premature_flop_stop()),
        ),
        "floor-hands": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("hands")),
            dealer(scenes.premature_flop_stop()),
        ),
        "floor-forfeit": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("forfeit")),
            dealer(scenes.void_hand_refunds()),
        ),
        "floor-forfeit-amount": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("forfeit-amount", seat=5)),
            dealer(scenes.void_hand_refunds()),
        ),
        "floor-chip-race": (
            NavState(Screen.FLOOR, role=Role.FLOOR, floor=FloorCursor("race", digits="100")),
            dealer(scenes.chip_race_due()),
        ),
        "pin-pad": (
            NavState(Screen.PIN, pin=PinPadState(Role.FLOOR, "4821"), pending=Screen.FLOOR),
            dealer(scenes.premature_flop_stop()),
        ),
        "diagnostics-io": (
            NavState(Screen.DIAG, role=Role.TECH, diag=DiagCursor("io")),
            dealer(scenes.three_way_allin()),
        ),
        "diagnostics-io-frames": (  # a small panel scrolled down to the links' last frames
            NavState(Screen.DIAG, role=Role.TECH, diag=DiagCursor("io", top=99)),
            dealer(scenes.three_way_allin()),
        ),
        "diagnostics-deck": (
            NavState(Screen.DIAG, role=Role.TECH, diag=DiagCursor("deck", confirmed=13)),
            DisplayInputs(scenes.three_way_allin(), floor, scenes.enrolling(), ok),
        ),
        "diagnostics-sys": (
            NavState(Screen.DIAG, role=Role.TECH, diag=DiagCursor("sys")),
            DisplayInputs(scenes.three_way_allin(), floor, diag, StationStatus(shoe_ok=False)),
        ),
    }
    return {name: screen_model(nav, inputs, panel, theme) for name, (nav, inputs) in cases.items()}


def write_shots(out_dir: str | Path, panels: Sequence[str] = tuple(PANELS)) -> list[Path]:
    from station.display.pgrender import render_png  # noqa: PLC0415 (lazy: pygame stays out of the core)

    out = Path(out_dir)
    written = []
    for tag in panels:
        panel = PANELS[tag]
        models = shot_models(panel)
        for name, model in models.items():
            if name in SAME_AS and model == models[SAME_AS[name]]:
                continue
            written.append(render_png(model, out / f"{name}-{tag}.png", panel))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m station.display.shots", description=__doc__)
    parser.add_argument("--out", required=True, help="directory for the PNG files")
    args = parser.parse_args(argv)
    for path in write_shots(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
