"""PIN pad and screen navigation (pure): taps, keys, credentials, floor and technician work."""

from __future__ import annotations

import pytest

from station.display import scenes
from station.display.diag_view import DiagCursor
from station.display.model import ScreenModel
from station.display.nav import (
    IDLE_TIMEOUT_S,
    AcknowledgeIncident,
    ClearFloorCall,
    KeyIn,
    NavContext,
    NavKey,
    NavState,
    PinRejected,
    RuleIncident,
    SaveDeckRegistry,
    Screen,
    SignedIn,
    SignedOut,
    Tap,
    Tick,
    handle,
)
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pinpad import PadAccess, PinPadState, pinpad_screen, press
from station.display.screens import DisplayInputs, screen_model
from station.engine.decisions import Ruling

PINS = {(PadAccess.FLOOR, "482193"), (PadAccess.TECHNICIAN, "771100")}


def verify(role: PadAccess, pin: str) -> bool:
    return (role, pin) in PINS


CTX = NavContext(verify, scenes.floor_data(), scenes.enrolling(), floor_call=True)
INPUTS = DisplayInputs(scenes.floor_call_betting(), CTX.floor, CTX.diag)


def model_of(state: NavState) -> ScreenModel:
    return screen_model(state, INPUTS, PANEL_10_1)


def tap_action(state: NavState, action: str) -> tuple[NavState, tuple[object, ...]]:
    x, y = model_of(state).target(action).rect.center
    return handle(state, Tap(x, y), model_of(state), CTX)


def test_tap_on_the_centre_of_7_registers_7() -> None:
    for panel in (PANEL_10_1, PANEL_7):
        model = pinpad_screen(PinPadState(PadAccess.FLOOR), panel)
        x, y = model.target("pin:7").rect.center
        assert model.hit(x, y) == "pin:7"
        state = NavState(Screen.PIN, pin=PinPadState(PadAccess.FLOOR), pending=Screen.FLOOR)
        state, out = handle(state, Tap(x, y), model, CTX)
        assert state.pin is not None and state.pin.digits == "7"
        assert out == ()


def test_keys_edit_the_pin() -> None:
    s = PinPadState(PadAccess.TECHNICIAN)
    for k in "123":
        s = press(s, k)
    assert press(s, "DEL").digits == "12"
    assert press(s, "CLR").digits == ""
    for _ in range(20):
        s = press(s, "9")
    assert len(s.digits) == 12 and s.message == "PIN TOO LONG"


def _sign_in(role_key: str, pin: str) -> tuple[NavState, tuple[object, ...]]:
    state, _ = handle(NavState(), KeyIn(role_key), None, CTX)
    assert state.screen is Screen.PIN
    for d in pin:
        state, _ = handle(state, KeyIn(d), None, CTX)
    return handle(state, KeyIn(NavKey.SELECT), None, CTX)


def test_the_floor_pin_opens_floor_review() -> None:
    state, out = _sign_in(NavKey.FLOOR, "482193")
    assert state.screen is Screen.FLOOR and state.role is PadAccess.FLOOR
    assert out == (SignedIn(PadAccess.FLOOR),)


def test_a_wrong_pin_or_the_technician_pin_does_not_open_floor_review() -> None:
    for pin in ("000000", "771100"):
        state, out = _sign_in(NavKey.FLOOR, pin)
        assert state.screen is Screen.PIN and state.pin is not None
        assert state.pin.message == "WRONG PIN" and state.pin.digits == ""
        assert out == (PinRejected(PadAccess.FLOOR),)


def test_the_review_button_on_the_dealer_screen_asks_for_the_floor_pin() -> None:
    state, _ = tap_action(NavState(), "nav:floor")
    assert state.screen is Screen.PIN and state.pending is Screen.FLOOR
    state, _ = tap_action(state, "pin:cancel")
    assert state.screen is Screen.DEALER


def test_floor_acknowledges_rules_and_clears_the_call() -> None:
    state, _ = _sign_in(NavKey.FLOOR, "482193")
    state, out = tap_action(state, "floor:clear_call")
    assert out == (ClearFloorCall(PadAccess.FLOOR),)
    state, _ = tap_action(state, "floor:incident:0")
    assert state.floor.page == "incident"
    _, out = tap_action(state, "incident:ack")
    assert out == (AcknowledgeIncident(42, 57, "PREMATURE-FLOP", PadAccess.FLOOR),)
    _, out = tap_action(state, "incident:uphold")
    assert out == (RuleIncident(42, 57, "PREMATURE-FLOP", Ruling.REDEAL, PadAccess.FLOOR),)
    state, _ = tap_action(state, "incident:change")
    state, out = tap_action(state, "ruling:misdeal")
    assert out == (RuleIncident(42, 57, "PREMATURE-FLOP", Ruling.MISDEAL, PadAccess.FLOOR),)
    assert state.floor.page == "incident"


@pytest.mark.parametrize("panel", [PANEL_10_1, PANEL_7], ids=["10in", "7in"])
def test_every_ruling_can_be_chosen_on_either_panel(panel: PanelConfig) -> None:
    # The 7" panel fits fewer touch rows than there are rulings: they scroll, none is left out.
    def model(state: NavState) -> ScreenModel:
        return screen_model(state, INPUTS, panel)

    def tap(state: NavState, action: str) -> tuple[NavState, tuple[object, ...]]:
        x, y = model(state).target(action).rect.center
        return handle(state, Tap(x, y), model(state), CTX)

    start, _ = _sign_in(NavKey.FLOOR, "482193")
    start, _ = tap(start, "floor:incident:0")
    start, _ = tap(start, "incident:change")
    chosen = set()
    for ruling in Ruling:
        state = start
        for _ in range(len(Ruling)):
            m = model(state)
            assert m.dropped == () and m.clipped == ()
            if any(t.action == f"ruling:{ruling.value}" for t in m.targets):
                break
            state, _ = tap(state, "floor:down")
        state, out = tap(state, f"ruling:{ruling.value}")
        assert out == (RuleIncident(42, 57, "PREMATURE-FLOP", ruling, PadAccess.FLOOR),)
        chosen.add(ruling)
    assert chosen == set(Ruling)


@pytest.mark.parametrize("panel", [PANEL_10_1, PANEL_7], ids=["10in", "7in"])
def test_the_sys_page_shows_journal_clock_and_cpu_on_either_panel(panel: PanelConfig) -> None:
    state, _ = _sign_in(NavKey.TECH, "771100")
    for _ in range(3):  # LINKS -> I/O -> DECK -> SYS
        state, _ = handle(state, KeyIn(NavKey.RIGHT), None, CTX)
    assert state.diag.page == "sys"
    model = screen_model(state, INPUTS, panel)
    text = model.all_text()
    assert {"JOURNAL", "CLOCK", "CPU"} <= {t.text for t in model.texts()}
    assert "SEQ 108422" in text and "SYNCED" in text and "POWER OK" in text
    assert model.dropped == () and model.clipped == ()
    state, _ = handle(state, KeyIn(NavKey.RIGHT), None, CTX)
    assert state.diag.page == "links"


def test_recall_steps_through_a_hand() -> None:
    state, _ = _sign_in(NavKey.FLOOR, "482193")
    state, _ = tap_action(state, "floor:hands")
    state, _ = tap_action(state, "floor:hand:0")
    assert state.floor.page == "recall" and state.floor.step == 0
    for _ in range(3):
        state, _ = handle(state, KeyIn(NavKey.RIGHT), None, CTX)
    assert state.floor.step == 3
    assert "STEP 4 OF 22" in model_of(state).all_text()
    state, _ = tap_action(state, "recall:last")
    assert state.floor.step == 21
    assert "RESULT: seat 4 wins 43" in model_of(state).all_text()
    state, _ = tap_action(state, "recall:next")
    assert state.floor.step == 21


def test_a_dealer_cannot_reach_floor_actions_without_signing_in() -> None:
    state = NavState(Screen.FLOOR)  # e.g. a stale state: no role
    _, out = handle(state, KeyIn(NavKey.SELECT), None, CTX)
    assert out == ()


def test_idle_signed_in_screens_fall_back_to_the_dealer_screen() -> None:
    state, _ = _sign_in(NavKey.TECH, "771100")
    assert state.screen is Screen.DIAG
    state, out = handle(state, Tick(IDLE_TIMEOUT_S - 1), None, CTX)
    assert state.screen is Screen.DIAG and out == ()
    state, out = handle(state, Tick(IDLE_TIMEOUT_S + 1), None, CTX)
    assert state.screen is Screen.DEALER and out == (SignedOut(PadAccess.TECHNICIAN),)


def test_deck_enrolment_confirms_each_card_then_saves() -> None:
    state, _ = _sign_in(NavKey.TECH, "771100")
    state, _ = tap_action(state, "diag:deck")
    enrol = CTX.diag.enrolment
    assert enrol is not None
    assert "TAG 04A10000 IS" in model_of(state).all_text()
    for _ in enrol.scanned:
        state, _ = handle(state, KeyIn(NavKey.SELECT), None, CTX)
    assert state.diag == DiagCursor("deck", confirmed=20)
    # still scanning: no save yet
    _, out = handle(state, KeyIn(NavKey.SELECT), None, CTX)
    assert out == ()
    done = NavContext(verify, CTX.floor, scenes.enrolling().__class__(
        CTX.diag.links, CTX.diag.gpio, CTX.diag.journal, CTX.diag.platform,
        enrol.__class__(enrol.deck, enrol.scanned, scanning=False)))  # fmt: skip
    from station.display.nav import act

    _, out = act(state, "enrol:save", done)
    assert out == (SaveDeckRegistry("RED", enrol.scanned, PadAccess.TECHNICIAN),)
