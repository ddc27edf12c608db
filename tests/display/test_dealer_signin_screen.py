"""The dealer's sign-in on the screen, at both panel sizes: the signed-in dealer's name (or SIGN
IN) on the dealer screen's status strip, the page of names (between hands only), the PIN pad
for the name picked, and the navigation between them. Table states from a real engine session
(a raked GN table, tests/scenarios/MISC-TIME-COLLECTION)."""

from __future__ import annotations

from station.display.dealer_layout import dealer_screen
from station.display.dealer_signin import (
    ACTION_OPEN,
    AFTER_THIS_HAND,
    SIGN_IN,
    pick_action,
    signin_screen,
)
from station.display.dealer_view import StationStatus, dealer_view
from station.display.nav import NavContext, NavState, PinRejected, Screen, SignedIn, act
from station.display.panel import PANEL_7, PANEL_10_1
from station.display.pinpad import PadAccess, PinPadState, pinpad_screen
from station.display.table_shape import table_for
from station.engine.snapshot import Phase
from tests.display.real_tables import first, steps
from tests.display.screen_check import problems, reads

RAKED = "MISC-TIME-COLLECTION/gn_wrong_drop_is_a_floor_matter.jsonl"
PANELS = (PANEL_10_1, PANEL_7)
CREW = tuple(f"DEALER{n:02d}" for n in range(1, 15))  # a card room's worth of dealers


def test_the_strip_names_the_dealer_signed_in_or_offers_sign_in_in_every_state() -> None:
    """Requirement 6 (the current role): in every state of a real session, the name of the
    dealer signed in, else SIGN IN, is a button on the strip at both panel sizes, readable,
    except while the CALL FLOOR banner needs the room (then it is not drawn at all)."""
    shown = 0
    for _, _, snap in steps(RAKED):
        shape = table_for(s.seat for s in snap.seats)
        for panel in PANELS:
            for dealer, label in (("DANA", "DANA"), ("", SIGN_IN)):
                status = StationStatus(shoe_ok=True, zones_ok=True, dealer=dealer)
                model = dealer_screen(dealer_view(snap, status), panel, shape=shape)
                assert problems(model, panel) == []
                if ACTION_OPEN in model.actions():
                    shown += 1
                    target = model.target(ACTION_OPEN).rect
                    labels = [t.text for t in model.texts() if t.rect.inside(target)]
                    assert labels == [label]
                else:
                    assert snap.floor_call  # the CALL FLOOR banner and its note take the strip
    assert shown > 100


def test_a_long_name_is_cut_with_a_dot_and_never_overflows_its_button() -> None:
    _, snap = first(RAKED, lambda s: s.phase is Phase.ENDED and not s.floor_call)
    for panel in PANELS:
        status = StationStatus(shoe_ok=True, dealer="MARIA-FERNANDA.DELACRUZ")
        model = dealer_screen(dealer_view(snap, status), panel)
        target = model.target(ACTION_OPEN).rect
        (label,) = [t.text for t in model.texts() if t.rect.inside(target)]
        assert label.endswith(".") and "MARIA-FERNANDA.DELACRUZ".startswith(label[:-1])
        assert problems(model, panel) == []


def test_the_page_offers_every_dealer_between_hands_and_no_name_during_a_hand() -> None:
    _, between = first(RAKED, lambda s: s.phase is Phase.ENDED)
    _, in_hand = first(RAKED, lambda s: s.to_act is not None)
    status = StationStatus(dealer="DEALER03", dealers=CREW)
    for panel in PANELS:
        top, seen = 0, set()
        while True:  # the names, a row at a time with DOWN where they do not all fit
            model = signin_screen(status, between.phase, top, panel)
            assert problems(model, panel) == [] and reads(model, "DEALER NOW: DEALER03")
            seen |= {a for a in model.actions() if a.startswith("signin:pick:")}
            if "signin:down" not in model.actions():
                break
            top += 1
        assert seen == {pick_action(i) for i in range(len(CREW))}, panel.name
        during = signin_screen(status, in_hand.phase, 0, panel)
        assert reads(during, AFTER_THIS_HAND) and problems(during, panel) == []
        assert not [a for a in during.actions() if a.startswith("signin:pick:")]
        pad = pinpad_screen(
            PinPadState(PadAccess.DEALER, "", "LOCKED OUT · TRY IN 30 S", "ED"), panel
        )
        assert reads(pad, "DEALER PIN · ED") and reads(pad, "LOCKED OUT · TRY IN 30 S")
        assert problems(pad, panel) == []


def test_name_then_pin_signs_in_and_a_refusal_stays_on_the_pad_in_words() -> None:
    said: list[tuple[str, str]] = []

    def sign_in(name: str, pin: str) -> str:
        said.append((name, pin))
        return "" if pin == "27182818" else "WRONG PIN"

    ctx = NavContext(sign_in=sign_in, dealers=("DANA", "ED"))
    state, out = act(NavState(), ACTION_OPEN, ctx)
    assert state.screen is Screen.SIGNIN and out == ()
    state, _ = act(state, pick_action(1), ctx)
    assert state.screen is Screen.PIN and state.pin == PinPadState(PadAccess.DEALER, person="ED")
    for digit in "1234":
        state, _ = act(state, f"pin:{digit}", ctx)
    state, out = act(state, "pin:ok", ctx)
    assert out == (PinRejected(PadAccess.DEALER),) and state.pin is not None
    assert (state.pin.message, state.pin.digits, state.pin.person) == ("WRONG PIN", "", "ED")
    for digit in "27182818":
        state, _ = act(state, f"pin:{digit}", ctx)
    state, out = act(state, "pin:ok", ctx)
    assert out == (SignedIn(PadAccess.DEALER),) and state.screen is Screen.DEALER
    assert state.role is None  # the dealer screen itself needs no credential
    assert said == [("ED", "1234"), ("ED", "27182818")]
    # During a hand a name cannot be picked (the core refuses it too).
    busy = NavContext(sign_in=sign_in, dealers=("DANA", "ED"), can_sign_in=False)
    state, _ = act(NavState(screen=Screen.SIGNIN), pick_action(0), busy)
    assert state.screen is Screen.SIGNIN
