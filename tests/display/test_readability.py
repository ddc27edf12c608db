"""Readability at 80 cm (standards-ux requirements 24, 25, 27), measured from the real font.

Cap heights are measured by rendering "H" with the font file the display uses, at the size the
theme picks for each panel, and converting its glyph bounds to mm with the panel's pixel pitch.
Every text on every screen is then checked against its role, its colours and its background.
"""

from __future__ import annotations

import itertools

import pygame
import pytest

from station.display import fontmetrics, scenes
from station.display.colour import contrast_ratio
from station.display.dealer_layout import dealer_screen
from station.display.dealer_view import StationStatus, dealer_view
from station.display.diag_view import DiagCursor
from station.display.floor_cursor import FloorCursor
from station.display.model import Rect, ScreenModel
from station.display.nav import NavState, Screen
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pgrender import font_path
from station.display.pinpad import PadAccess, PinPadState
from station.display.screens import DisplayInputs, screen_model
from station.display.theme import (
    DEFAULT_THEME,
    KEY_BAR_MM,
    TEXT_BAR_MM,
    TEXT_CONTRAST_BAR,
    TOUCH_GAP_MM,
    TOUCH_TARGET_MM,
    TextRole,
)
from tests.display.real_tables import at_line
from tests.display.screen_read import background_under, glyph_extent

PANELS = [PANEL_10_1, PANEL_7]
OK = StationStatus(shoe_ok=True, zones_ok=True)


@pytest.fixture(scope="module")
def font_init() -> None:
    pygame.font.init()


def measured_cap_px(size: int) -> int:
    font = pygame.font.Font(font_path(), size)
    return font.render("H", True, (255, 255, 255)).get_bounding_rect().height


@pytest.mark.usefixtures("font_init")
@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_measured_cap_heights_meet_the_bars(panel: PanelConfig) -> None:
    bars = {TextRole.KEY: KEY_BAR_MM, TextRole.HEAD: KEY_BAR_MM, TextRole.TEXT: TEXT_BAR_MM}
    for role, bar in bars.items():
        size = DEFAULT_THEME.font_px(role, panel)
        cap_mm = measured_cap_px(size) * panel.pitch_y_mm
        assert cap_mm >= panel.scaled_mm(bar), f"{role} on {panel.name}: {cap_mm:.2f} mm"
        assert panel.arcmin(cap_mm) >= (30 if bar == KEY_BAR_MM else 20) - 0.2


def test_farther_viewing_distance_scales_the_text() -> None:
    far = PanelConfig(217.0, 136.0, 1280, 800, viewing_distance_mm=1000)
    assert DEFAULT_THEME.font_px(TextRole.TEXT, far) > DEFAULT_THEME.font_px(
        TextRole.TEXT, PANEL_10_1
    )
    assert DEFAULT_THEME.cap_mm(TextRole.KEY, far) >= far.scaled_mm(KEY_BAR_MM)


@pytest.mark.usefixtures("font_init")
def test_font_tables_match_the_real_font() -> None:
    for size in (*range(fontmetrics.MIN_SIZE, fontmetrics.MAX_SIZE + 1, 7), 38, 39, 56, 59, 69):
        font = pygame.font.Font(font_path(), size)
        assert fontmetrics.cap_px(size) == measured_cap_px(size), size
        assert fontmetrics.ascent_px(size) == font.get_ascent(), size


@pytest.mark.usefixtures("font_init")
def test_width_estimate_is_never_too_small() -> None:
    corpus = [
        "3. Reshuffle the stub (press STUB_RESHUFFLE)", "RAISE 10–200", "FOLDED", "ALL-IN",  # noqa: RUF001
        "WAVE AVAVA", "HAND 42 · NLHE · PREFLOP", "#57 draw 5s: flop card 2 (STOP)", "iiiil1111",
        "MMMMWWWW", "CALL FLOOR", "0123456789", "SHOE DISCONNECTED", "RX 18233 TX 18210",
    ]  # fmt: skip
    for size in (12, 27, 38, 39, 56, 59, 69, 100):
        font = pygame.font.Font(font_path(), size)
        for text in corpus:
            assert fontmetrics.text_width(text, size) >= font.size(text)[0], (text, size)


REAL = {  # dealer screens in real table states: (scenario, line)
    "premature-flop-stop": ("PREMATURE-FLOP/rr11_burn_stays_flop_redealt_without_burn.jsonl", 13),
    "recovery": ("PREMATURE-FLOP/rr11_burn_stays_flop_redealt_without_burn.jsonl", 17),
    "side-pots": ("POT-SIDE-POTS/rr11_two_allins_make_three_pots.jsonl", 30),
    "between-hands": ("BLIND-MISSED/rr11_player_owing_blinds_who_does_not_post_waits.jsonl", 46),
    "stud": (
        "STUD-DEALER-ANNOUNCEMENTS/rr11_high_hand_and_open_pair_announced_on_fourth_street.jsonl",
        27,
    ),
}


def all_models(panel: PanelConfig) -> dict[str, ScreenModel]:
    """Every kind of screen: the dealer's in real table states (each page), and the floor's,
    the technician's and the PIN pad."""
    out: dict[str, ScreenModel] = {}
    for name, (scenario, line) in REAL.items():
        snap = at_line(scenario, line)
        inputs = DisplayInputs(snap, scenes.floor_data(), scenes.shoe_disconnected(), OK)
        for screen in (Screen.DEALER, Screen.DETAILS, Screen.SEATS):
            out[f"{name}-{screen.value}"] = screen_model(NavState(screen), inputs, panel)
    inputs = DisplayInputs(at_line(REAL["recovery"][0], 13), scenes.floor_data(),
                           scenes.shoe_disconnected(), OK)  # fmt: skip
    floor = [FloorCursor(page) for page in ("incidents", "incident", "ruling", "hands")]
    floor += [FloorCursor("recall", hand=0, step=12), FloorCursor("race", digits="100")]
    for cur in floor:
        nav = NavState(Screen.FLOOR, role=PadAccess.FLOOR, floor=cur)
        out[f"floor-{cur.page}"] = screen_model(nav, inputs, panel)
    for page in ("links", "io", "deck", "sys"):
        diag = DisplayInputs(inputs.snapshot, inputs.floor, scenes.enrolling()
                             if page == "deck" else inputs.diag, OK)  # fmt: skip
        nav = NavState(Screen.DIAG, role=PadAccess.TECHNICIAN, diag=DiagCursor(page))
        out[f"diag-{page}"] = screen_model(nav, diag, panel)
    pin = NavState(Screen.PIN, pin=PinPadState(PadAccess.FLOOR, "4821"), pending=Screen.FLOOR)
    out["pin"] = screen_model(pin, inputs, panel)
    return out


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_every_text_on_every_screen(panel: PanelConfig) -> None:
    for name, model in all_models(panel).items():
        for t in model.texts():
            assert t.size == DEFAULT_THEME.font_px(t.role, panel), (name, t.text)
            if t.key:
                assert t.role is TextRole.KEY, (name, t.text)
            pair = DEFAULT_THEME.pair(t.style)
            assert contrast_ratio(pair.fg, pair.bg) >= TEXT_CONTRAST_BAR
            bg = background_under(model, t)
            assert bg == pair.bg, f"{name}: {t.text!r} drawn on {bg}, style expects {pair.bg}"
            assert t.rect.inside(Rect(0, 0, model.width, model.height)), (name, t.text, t.rect)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_no_two_texts_overlap(panel: PanelConfig) -> None:
    for name, model in all_models(panel).items():
        extents = [(t, glyph_extent(t)) for t in model.texts() if t.text]
        for (a, ea), (b, eb) in itertools.combinations(extents, 2):
            assert not ea.overlaps(eb), f"{name}: {a.text!r} overlaps {b.text!r}"


def test_key_numbers_are_key_sized_on_the_dealer_screen() -> None:
    snap = at_line(REAL["premature-flop-stop"][0], 13)
    for panel in PANELS:
        model = dealer_screen(dealer_view(snap, OK), panel)
        keys = {t.text for t in model.texts() if t.key}
        assert snap.min_raise_to is not None and snap.max_raise_to is not None
        raise_range = f"{snap.min_raise_to}\u2013{snap.max_raise_to}"
        wanted = {str(snap.to_act), str(snap.to_call), raise_range}
        assert wanted <= keys, keys  # seat to act, to call, raise limits
        labels = {t.text for t in model.texts()}
        assert {"RAISE", "POT"} <= labels and ({"CALL", "TO CALL"} & labels)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_touch_targets_are_at_least_9mm_with_2mm_gaps(panel: PanelConfig) -> None:
    for name, model in all_models(panel).items():
        for target in model.targets:
            w_mm, h_mm = panel.x_mm(target.rect.w), panel.y_mm(target.rect.h)
            assert min(w_mm, h_mm) >= TOUCH_TARGET_MM, (
                f"{name}: {target.action} {w_mm:.1f}x{h_mm:.1f} mm"
            )
        for a, b in itertools.combinations(model.targets, 2):
            gap_x = max(b.rect.x - a.rect.right, a.rect.x - b.rect.right)
            gap_y = max(b.rect.y - a.rect.bottom, a.rect.y - b.rect.bottom)
            gap = max(panel.x_mm(gap_x), panel.y_mm(gap_y))
            assert gap >= TOUCH_GAP_MM, f"{name}: {a.action} and {b.action} {gap:.1f} mm apart"


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_no_screen_leaves_out_a_button(panel: PanelConfig) -> None:
    # Whatever gives way on a small panel, a way to act or to leave the screen never does.
    for name, model in all_models(panel).items():
        assert not [d for d in model.dropped if "button" in d], name
