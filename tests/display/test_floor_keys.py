"""The floor's screen keys (pure): CHIP RACE and FORFEIT, from the floor's lists to the command
the core journals, on either panel."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from station.display import scenes
from station.display.floor_keys import PAGES, ScreenKey
from station.display.floor_view import FloorCursor, FloorData, IncidentRow
from station.display.model import ScreenModel
from station.display.nav import KeyIn, NavContext, NavKey, NavState, Screen, Tap, handle
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pinpad import PadAccess
from station.display.screens import DisplayInputs, screen_model
from station.display.theme import TOUCH_GAP_MM
from station.engine.events import Key
from station.engine.snapshot import TableSnapshot

PANELS = [PANEL_10_1, PANEL_7]
IDS = ["10in", "7in"]
CTX = NavContext(lambda role, pin: pin == "482193", scenes.floor_data())
FLOOR = NavState(Screen.FLOOR, role=PadAccess.FLOOR)


class Floor:
    """A signed-in floor supervisor tapping what the screen on show draws."""

    def __init__(self, snapshot: TableSnapshot, panel: PanelConfig = PANEL_10_1) -> None:
        self.inputs = DisplayInputs(snapshot, CTX.floor)
        self.panel = panel
        self.state = FLOOR
        self.sent: list[object] = []

    def model(self) -> ScreenModel:
        model = screen_model(self.state, self.inputs, self.panel)
        assert model.dropped == ()
        if self.state.floor.page in PAGES:  # (the 7" lists shorten long rows, on purpose)
            assert model.clipped == ()
        return model

    def words(self) -> str:
        """The screen's text as one line (a banner wraps on the small panel)."""
        return " ".join(t.text for t in self.model().texts())

    def actions(self) -> set[str]:
        return {t.action for t in self.model().targets}

    def tap(self, action: str) -> None:
        model = self.model()
        x, y = model.target(action).rect.center
        self.state, out = handle(self.state, Tap(x, y), model, CTX)
        self.sent.extend(out)

    def key(self, key: str) -> None:
        self.state, out = handle(self.state, KeyIn(key), None, CTX)
        self.sent.extend(out)


@pytest.mark.parametrize("panel", PANELS, ids=IDS)
def test_both_floor_lists_end_with_chip_race_and_forfeit(panel: PanelConfig) -> None:
    # A long incident list scrolls: UP and DOWN join the row and nothing is crowded off it.
    many = tuple(
        IncidentRow(i, i, "DECK-BOXED-SINGLE", "001-RR11 §4 r2", "replace", "Boxed card.")
        for i in range(30)
    )
    floors = (scenes.floor_data(), FloorData(many, scenes.floor_data().hands))
    for data, page in itertools.product(floors, ("incidents", "hands")):
        state = NavState(Screen.FLOOR, role=PadAccess.FLOOR, floor=FloorCursor(page))
        inputs = DisplayInputs(scenes.floor_call_betting(), data)
        model = screen_model(state, inputs, panel)
        assert model.dropped == ()
        actions = {t.action for t in model.targets}
        assert {"floor:race", "floor:forfeit"} <= actions, page
        assert {"CHIP RACE", "FORFEIT"} <= {t.text for t in model.texts()}
        if data is floors[1] and page == "incidents":
            assert {"floor:up", "floor:down"} <= actions
        for a, b in itertools.combinations(model.targets, 2):
            gap_x = max(b.rect.x - a.rect.right, a.rect.x - b.rect.right)
            gap_y = max(b.rect.y - a.rect.bottom, a.rect.y - b.rect.bottom)
            assert max(panel.x_mm(gap_x), panel.y_mm(gap_y)) >= TOUCH_GAP_MM, (a, b)


@pytest.mark.parametrize("panel", PANELS, ids=IDS)
def test_DECK_DEFECT_FREEROLL_the_floor_forfeits_a_whole_refund(panel: PanelConfig) -> None:
    floor = Floor(scenes.void_hand_refunds(), panel)
    floor.tap("floor:forfeit")
    assert floor.state.floor.page == "forfeit"
    # Only the seats with a refund of the void hand can be picked, each with its refund.
    seats = {a for a in floor.actions() if a.startswith("forfeit:seat:")}
    assert seats == {f"forfeit:seat:{s}" for s in (1, 3, 4, 5, 7)}
    assert "SEAT 3 · 1" in floor.model().all_text()
    floor.tap("forfeit:seat:5")
    text = floor.model().all_text()
    assert "FORFEIT · SEAT 5" in text and "12" in text and "FORFEIT ALL" in text
    floor.tap("forfeit:confirm")  # no amount: the whole refund (the engine's reading)
    assert floor.sent == [ScreenKey(Key.FORFEIT, PadAccess.FLOOR, seat=5, amount=None)]
    assert floor.state.floor == dataclasses.replace(FloorCursor("forfeit"))


def test_DECK_DEFECT_FREEROLL_part_of_a_refund_by_touch_or_by_keys() -> None:
    floor = Floor(scenes.void_hand_refunds(), PANEL_7)
    floor.tap("floor:forfeit")
    floor.tap("forfeit:seat:4")
    for digit in "0150":  # a leading zero is not kept
        floor.tap(f"entry:{digit}")
    floor.tap("entry:del")
    assert floor.state.floor.digits == "15"
    floor.key(NavKey.BACK)  # BACK takes a digit back first, as on the PIN pad
    assert "FORFEIT 1" in floor.model().all_text()
    floor.key("8")
    floor.key(NavKey.SELECT)
    assert floor.sent == [ScreenKey(Key.FORFEIT, PadAccess.FLOOR, seat=4, amount=18)]
    floor.key(NavKey.BACK)  # the seat picker, then the list
    assert floor.state.floor.page == "incidents"


def test_DECK_DEFECT_FREEROLL_no_seat_is_offered_when_the_last_hand_was_not_void() -> None:
    for panel in PANELS:
        floor = Floor(scenes.floor_call_betting(), panel)
        floor.tap("floor:forfeit")
        assert not [a for a in floor.actions() if a.startswith("forfeit:")]
        assert "NO REFUND TO FORFEIT" in floor.model().all_text()
        assert "floor:back" in floor.actions()


@pytest.mark.parametrize("panel", PANELS, ids=IDS)
def test_DECK_FORFEITED_MONEY_ENTITLEMENT_ten_refunds_and_the_money_already_kept_fit(
    panel: PanelConfig,
) -> None:
    snap = dataclasses.replace(
        scenes.void_hand_refunds(), refunds=tuple((s, 1000 * s) for s in range(1, 11)), carry=12
    )
    floor = Floor(snap, panel)
    floor.tap("floor:forfeit")
    assert "NEXT DEAL: 12 FORFEITED" in floor.words()
    # The 7" panel scrolls the seats; every one of them can be reached.
    offered: set[str] = set()
    for _ in range(10):
        offered |= {a for a in floor.actions() if a.startswith("forfeit:seat:")}
        if "forfeit:down" not in floor.actions():
            break
        floor.tap("forfeit:down")
    assert offered == {f"forfeit:seat:{s}" for s in range(1, 11)}
    assert ("forfeit:up" in floor.actions()) is (panel is PANEL_7)
    floor.tap("forfeit:seat:10")
    for digit in "9999999":
        floor.tap(f"entry:{digit}")
    floor.tap("entry:9")  # one too many: ignored
    assert "FORFEIT 9999999" in floor.model().all_text()


@pytest.mark.parametrize("panel", PANELS, ids=IDS)
def test_TOURN_CHIP_RACE_the_floor_keys_the_new_chip_and_starts_the_race(
    panel: PanelConfig,
) -> None:
    floor = Floor(scenes.chip_race_due(), panel)
    floor.tap("floor:race")
    for digit in "100":
        floor.tap(f"entry:{digit}")
    assert "100" in {t.text for t in floor.model().texts()}
    floor.tap("race:start")
    assert floor.sent == [ScreenKey(Key.CHIP_RACE, PadAccess.FLOOR, amount=100)]
    assert floor.state.floor.page == "race" and floor.state.floor.digits == ""
    # The engine's race under way comes back in the snapshot and is shown.
    floor.inputs = dataclasses.replace(
        floor.inputs, snapshot=dataclasses.replace(scenes.chip_race_due(), chip_race=100)
    )
    assert "RACE FOR 100 CHIPS UNDER WAY" in floor.words()


def test_TOURN_CHIP_RACE_is_not_offered_while_a_hand_is_in_play() -> None:
    for panel in PANELS:
        floor = Floor(scenes.floor_call_betting(), panel)
        floor.tap("floor:race")
        assert "A HAND IS IN PLAY" in floor.model().all_text()
        assert "race:start" not in floor.actions()
        assert not [a for a in floor.actions() if a.startswith("entry:")]


def test_screen_keys_need_the_floor_signed_in() -> None:
    stale = NavState(Screen.FLOOR, floor=FloorCursor("race", digits="100"))  # no role
    _, out = handle(stale, KeyIn(NavKey.SELECT), None, CTX)
    assert out == ()
    with pytest.raises(ValueError, match="panel key"):
        ScreenKey(Key.FOLD, PadAccess.FLOOR, seat=3)
    with pytest.raises(ValueError, match="floor"):
        ScreenKey(Key.FORFEIT, PadAccess.TECHNICIAN, seat=3)
    with pytest.raises(ValueError, match="seat"):
        ScreenKey(Key.FORFEIT, PadAccess.FLOOR)  # the session format needs it too
