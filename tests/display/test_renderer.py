"""The pygame-ce edge: PNGs, event translation and the display thread (dummy SDL driver)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
from pathlib import Path

import pygame
import pytest

from station.display import scenes
from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagnosticsData
from station.display.floor_view import FloorData
from station.display.frames import SCREENS, FrameWriter
from station.display.model import ScreenModel
from station.display.nav import KeyIn, NavKey, NavState, Screen, Tap
from station.display.panel import PANEL_10_1, PanelConfig
from station.display.pgevents import translate
from station.display.pgrender import render_png
from station.display.pinpad import PadAccess, PinPadState, pinpad_screen
from station.display.screens import DisplayInputs, inputs_used, screen_model
from station.display.theme import Theme
from station.display.thread import (
    IDLE_AFTER_S,
    IDLE_POLL_S,
    POLL_S,
    DisplayThread,
    poll_interval,
)
from tests.display.real_tables import at_line

LEVELS = "TOURN-LEVELS/rr11_level_ends_during_a_hand_the_next_hand_posts_the_new_blinds.jsonl"


def test_importing_the_package_does_not_import_pygame() -> None:
    code = "import sys, station.display; assert 'pygame' not in sys.modules, 'pygame imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_stop_band_is_painted_where_the_model_says(tmp_path: Path) -> None:
    from station.display.dealer_layout import dealer_screen
    from station.display.dealer_view import dealer_view
    from tests.display.real_tables import at_line

    stop = at_line("PREMATURE-FLOP/rr11_burn_stays_flop_redealt_without_burn.jsonl", 13)
    model = dealer_screen(dealer_view(stop), PANEL_10_1)
    path = render_png(model, tmp_path / "stop.png", PANEL_10_1)
    img = pygame.image.load(str(path))
    # bottom-right corner inside the STOP band, off its outline: orange (#E69F00)
    assert tuple(img.get_at((PANEL_10_1.width_px - 40, PANEL_10_1.height_px - 20)))[:3] == (
        230,
        159,
        0,
    )


def _pin_model(panel: PanelConfig) -> ScreenModel:
    return pinpad_screen(PinPadState(PadAccess.FLOOR), panel)


def test_a_finger_on_the_centre_of_7_becomes_a_tap_on_7() -> None:
    panel = PANEL_10_1
    model = _pin_model(panel)
    cx, cy = model.target("pin:7").rect.center
    finger = pygame.event.Event(
        pygame.FINGERDOWN, x=cx / panel.width_px, y=cy / panel.height_px, touch_id=1, finger_id=0,
        dx=0.0, dy=0.0, pressure=1.0,
    )  # fmt: skip
    tap = translate(finger, panel.width_px, panel.height_px, 0.0)
    assert isinstance(tap, Tap)
    assert model.hit(tap.x, tap.y) == "pin:7"
    mouse = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(cx, cy), button=1, touch=False)
    assert translate(mouse, panel.width_px, panel.height_px, 0.0) == Tap(cx, cy, 0.0)
    synthetic = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(cx, cy), button=1, touch=True)
    assert translate(synthetic, panel.width_px, panel.height_px, 0.0) is None
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0)
    assert translate(key, panel.width_px, panel.height_px, 0.0) == KeyIn(NavKey.FLOOR, 0.0)


def test_the_display_looks_for_touch_often_while_used_and_less_when_left_alone() -> None:
    assert POLL_S < IDLE_POLL_S <= 0.1  # even a first tap after a quiet spell within 100 ms
    assert poll_interval(100.0, None) == IDLE_POLL_S  # never touched since start
    assert poll_interval(100.0, 99.0) == POLL_S
    assert poll_interval(100.0, 100.0 - IDLE_AFTER_S + 0.01) == POLL_S
    assert poll_interval(100.0, 100.0 - IDLE_AFTER_S) == IDLE_POLL_S


@pytest.fixture
def display() -> object:
    commands: list[object] = []
    thread = DisplayThread(
        PANEL_10_1,
        "dummy",
        verify_pin=lambda role, pin: pin == "482193",
        on_command=commands.append,
    )
    thread.commands = commands  # type: ignore[attr-defined]
    thread.start()
    yield thread
    thread.stop()
    assert not thread.alive


def test_published_snapshots_are_drawn_and_idle_does_not_redraw(display: DisplayThread) -> None:
    version = display.publish(scenes.three_way_allin())
    assert display.wait_drawn(version, timeout=10)
    assert display.last_model is not None and "BURN & TURN" in display.last_model.all_text()
    frames = display.frames
    threading.Event().wait(0.3)  # an idle spell: nothing published, nothing touched
    assert display.frames == frames
    display.publish_diagnostics(scenes.shoe_disconnected())  # the core's refresh every second
    threading.Event().wait(0.3)
    assert display.frames == frames  # the dealer screen does not show them: no redraw
    version = display.publish(scenes.premature_flop_stop())
    assert display.wait_drawn(version, timeout=10)
    assert display.frames == frames + 1


def test_a_finger_event_through_the_thread_registers_the_digit(display: DisplayThread) -> None:
    assert display.wait_frames(1, timeout=10)
    display.post_input(KeyIn(NavKey.FLOOR))
    assert display.wait_frames(2, timeout=10)
    assert display.nav.screen is Screen.PIN and display.last_model is not None
    cx, cy = display.last_model.target("pin:7").rect.center
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN, x=cx / 1280, y=cy / 800, touch_id=1, finger_id=0, dx=0.0, dy=0.0,
            pressure=1.0,
        )
    )  # fmt: skip
    display.post_input(KeyIn("UNUSED"))  # wake the thread now rather than at its next poll
    assert display.wait_frames(3, timeout=10)
    assert display.nav.pin is not None and display.nav.pin.digits == "7"


def test_a_renderer_fault_never_reaches_the_publisher() -> None:
    calls = {"n": 0}

    def flaky(
        nav: NavState, inputs: DisplayInputs, panel: PanelConfig, theme: Theme
    ) -> ScreenModel:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("boom in the renderer")
        return screen_model(nav, inputs, panel, theme)

    thread = DisplayThread(PANEL_10_1, "dummy", build=flaky).start()
    try:
        assert thread.wait_frames(1, timeout=10)
        version = thread.publish(scenes.premature_flop_stop())  # the draw of this one fails
        version = thread.publish(scenes.three_way_allin())
        assert thread.wait_drawn(version, timeout=10)
        assert thread.faults == 1 and "boom" in thread.last_fault
        assert thread.alive
    finally:
        thread.stop()


def test_frame_writer_writes_each_screen_once_per_change(tmp_path: Path) -> None:
    writer = FrameWriter(tmp_path, PANEL_10_1)
    first = writer.write(scenes.three_way_allin(), scenes.floor_data(), scenes.shoe_disconnected())
    assert sorted(p.name for p in first) == [
        "00001-dealer.png", "00001-diagnostics.png", "00001-floor.png", "00001-pin.png",
        "00001-recall.png",
    ]  # fmt: skip
    assert (
        writer.write(scenes.three_way_allin(), scenes.floor_data(), scenes.shoe_disconnected())
        == []
    )
    changed = writer.write(
        scenes.premature_flop_stop(), scenes.floor_data(), scenes.shoe_disconnected()
    )
    assert [p.name for p in changed] == ["00003-dealer.png"]
    with pytest.raises(ValueError, match="unknown screens"):
        FrameWriter(tmp_path, screens=("nope",))


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_a_screen_draws_only_the_inputs_it_says_it_uses(name: str) -> None:
    # The display thread redraws when an input of `inputs_used` changes and only then, so an
    # input a screen draws but does not declare would leave stale pixels on the glass.
    nav = SCREENS[name]
    base = DisplayInputs(
        scenes.premature_flop_stop(),
        scenes.floor_data(),
        scenes.shoe_disconnected(),
        StationStatus(shoe_ok=True, zones_ok=True),
    )
    others = {
        "snapshot": dataclasses.replace(base, snapshot=scenes.floor_call_betting()),
        "floor": dataclasses.replace(base, floor=FloorData()),
        "diag": dataclasses.replace(base, diag=DiagnosticsData()),
        "status": dataclasses.replace(base, status=StationStatus(shoe_ok=False, zones_ok=True)),
    }
    before = screen_model(nav, base, PANEL_10_1)
    used = inputs_used(nav)
    for input_name, changed in others.items():
        after = screen_model(nav, changed, PANEL_10_1)
        if input_name not in used:
            assert after == before, f"{name} draws {input_name} but does not declare it"
    # and each declared input does show (the change above alters the picture), except on the
    # recall page, which has no CALL FLOOR tab: declaring the snapshot for every floor page
    # costs that page a redraw at most
    if name == "floor":
        # The floor's lists draw the status only at a tournament table: its level clock's time
        # runs on with the session time the status carries.
        used = tuple(n for n in used if n != "status")
        table = dataclasses.replace(base, snapshot=at_line(LEVELS, 12))
        now = dataclasses.replace(table, status=StationStatus(session_t=1109))
        later = dataclasses.replace(table, status=StationStatus(session_t=1139))
        assert screen_model(nav, now, PANEL_10_1) != screen_model(nav, later, PANEL_10_1)
    if name != "recall":
        assert all(screen_model(nav, others[n], PANEL_10_1) != before for n in used), used
