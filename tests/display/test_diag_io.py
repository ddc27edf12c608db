"""The diagnostics I/O page: every input level and every link's last frames, scrolled on a small
panel rather than left out or cut (pure: screen models and navigation)."""

from __future__ import annotations

import pytest

from station.display import scenes
from station.display.diag_view import DiagCursor, diagnostics_screen
from station.display.nav import KeyIn, NavContext, NavKey, NavState, Screen, Tap, handle
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pinpad import PadAccess

DATA = scenes.shoe_disconnected()
CTX = NavContext(diag=DATA)


def io_state(top: int = 0) -> NavState:
    return NavState(Screen.DIAG, role=PadAccess.TECHNICIAN, diag=DiagCursor("io", top=top))


def expected_lines() -> list[str]:
    frames = [f for link in DATA.links for f in link.last_frames]
    gpio = [f"{name} {1 if high else 0}" for name, high in DATA.gpio.levels]
    return gpio + [f"LAST FRAMES · {link.name}" for link in DATA.links] + frames


@pytest.mark.parametrize("panel", [PANEL_10_1, PANEL_7], ids=["10in", "7in"])
def test_every_frame_and_input_can_be_read_whole(panel: PanelConfig) -> None:
    state, seen, pages = io_state(), [], 0
    while True:
        model = diagnostics_screen(DATA, state.diag, panel)
        assert model.dropped == () and model.clipped == ()
        seen.append(" ".join(t.text for t in model.texts()))
        pages += 1
        before = state
        state, _ = handle(state, KeyIn(NavKey.DOWN), model, CTX)
        if state.diag.top == before.diag.top:
            break
        assert pages < 10
    joined = " ".join(seen)
    for line in expected_lines():  # a wrapped frame reads on as one line across its rows
        assert line in joined, line
    assert pages == (1 if panel is PANEL_10_1 else 3)


def test_the_7_inch_page_scrolls_with_the_buttons_and_keeps_the_section_heading() -> None:
    first = diagnostics_screen(DATA, io_state().diag, PANEL_7)
    assert "ROWS 1–7 OF 13" in first.all_text()  # noqa: RUF001
    x, y = first.target("diag:down:5").rect.center
    state, _ = handle(io_state(), Tap(x, y), first, CTX)
    assert state.diag.top == 5
    end = diagnostics_screen(DATA, io_state(top=99).diag, PANEL_7)
    texts = [t.text for t in end.texts()]
    # the shoe's frames shown at the top still say whose they are
    assert texts.index("LAST FRAMES · SHOE") < texts.index("A5 04 40 01 heartbeat")
    assert "A5 08 10 07 zone seat=5 amount=20" in texts
    state, _ = handle(io_state(top=99), KeyIn(NavKey.UP), end, CTX)
    assert state.diag.top == 1


def test_the_10_inch_page_has_no_pager() -> None:
    model = diagnostics_screen(DATA, io_state().diag, PANEL_10_1)
    assert not [a for a in model.actions() if a.startswith(("diag:up", "diag:down"))]
    state, _ = handle(io_state(), KeyIn(NavKey.DOWN), model, CTX)
    assert state.diag.top == 0
