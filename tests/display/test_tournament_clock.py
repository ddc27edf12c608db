"""The tournament level clock on the dealer screen and the floor's lists, from real tournament
tables (the TOURN-LEVELS and TOURN-CHIP-RACE scenarios) at both panel sizes."""

from __future__ import annotations

import pytest

from station.demo.shots import _models
from station.demo.tournament_shots import tournament_cases
from station.display.clock_view import clock_line
from station.display.dealer_view import StationStatus, dealer_view
from station.display.floor_cursor import FloorCursor
from station.display.floor_view import FloorData, floor_screen
from station.display.model import ScreenModel
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.screens import DisplayInputs
from station.display.table_shape import table_for
from station.display.theme import Style
from station.engine.snapshot import TableSnapshot
from tests.display.real_tables import at_line
from tests.display.screen_check import problems
from tests.display.test_dealer_screen import next_says, pages

PANELS = [PANEL_10_1, PANEL_7]
# Two 20-minute levels, 25-50 then 50-100, the clock started at t=0: level 1 ends at t=1200,
# during hand 1 (dealt at t=1105, over at t=1218).
IN_HAND = "TOURN-LEVELS/rr11_level_ends_during_a_hand_the_next_hand_posts_the_new_blinds.jsonl"
# Level 1 (20 minutes), then a 10-minute break that colours up the 25s for 100s: the centre's
# clock says the break began at t=1200; the race is run at t=1260-1283; the break ends at 1800.
BREAK = "TOURN-CHIP-RACE/rr11_the_colour_up_at_the_break_prompts_the_chip_race.jsonl"


def status(t: float, source: str = "EVENT CLOCK") -> StationStatus:
    return StationStatus(shoe_ok=True, zones_ok=True, clock_source=source, session_t=t)


def strip(models: list[ScreenModel]) -> str:
    """The clock pill in the status strip: the text of the top band that names a level, a
    break or the next hand's blinds."""
    for m in models:
        for t in m.texts():
            if t.rect.y < m.height // 8 and (t.text.startswith(("L", "BREAK", "NEXT "))):
                return t.text
    raise AssertionError("no clock in the status strip")


def shown(snap: TableSnapshot, panel: PanelConfig, st: StationStatus) -> list[ScreenModel]:
    models = pages(snap, panel, st)
    for m in models:
        assert problems(m, panel) == [], m.screen
    return models


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_the_level_and_its_time_left_count_down_on_the_status_strip(panel: PanelConfig) -> None:
    """001-RR11 §15 r9: "Limits and blinds are raised at regularly scheduled intervals": the
    dealer sees the level and the time left of it, counted down from the session time."""
    dealt = at_line(IN_HAND, 12)  # t=1109: 91 s of level 1 left
    pill = strip(shown(dealt, panel, status(1109)))
    assert pill.endswith(" 1:31") and pill.startswith(("LEVEL 1", "L1")), pill
    later = strip(shown(dealt, panel, status(1139)))  # 30 s on, no new input
    assert later.endswith(" 1:01"), later


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_level_that_ends_during_a_hand_is_said_for_the_next_hand(panel: PanelConfig) -> None:
    """001-RR11 §15 r10: "If there is a signal designating the end of a betting level, the new
    limits apply on the next deal": after t=1200 the hand under way stays at 25-50 and the strip
    says the new level comes with the next hand (highlighted), never a running clock that would
    read as this hand's level."""
    during = at_line(IN_HAND, 13)  # t=1201, hand 1 still on
    view = dealer_view(during, status(1201))
    assert view.clock is not None and view.clock.style is Style.INFO
    pill = strip(shown(during, panel, status(1201)))
    # the new blinds (50-100) are said at every size: what the dealer will call for
    assert pill in ("LEVEL 2 50-100 FROM NEXT HAND", "L2 50-100 NEXT HAND", "NEXT 50-100"), pill
    # Before the next input the screens' own clock runs out the level: the same words.
    dealt = at_line(IN_HAND, 12)
    assert strip(shown(dealt, panel, status(1205))) == pill
    over = at_line(IN_HAND, 25)  # t=1218, hand 1 over: level 2 is in force, 1182 s left
    pill = strip(shown(over, panel, status(1218)))
    assert pill.startswith(("LEVEL 2", "L2")) and pill.endswith(" 19:42"), pill


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_break_says_no_deal_and_the_colour_up_until_the_race(panel: PanelConfig) -> None:
    """001-RR11 §15 r11: "The lowest denomination of chip in play will be removed from the
    table when it is no longer needed": during the break the NEXT band says there is no deal
    and that the 25s are to be raced off (the posting prompt for after the break must not hide
    it), until the race begins; the strip counts the break down."""
    began = at_line(BREAK, 18)  # t=1200: the break (600 s) begins
    models = shown(began, panel, status(1200))
    assert strip(models) == "BREAK 10:00"
    said = next_says(models)
    assert "BREAK: NO DEAL" in said and ("25 CHIPS FOR 100" in said or "25 FOR 100" in said)
    raced = at_line(BREAK, 25)  # t=1283: the race is run
    models = shown(raced, panel, status(1290))
    assert strip(models) == "BREAK 8:30"
    # The race's own step stands (the engine's words); the colour-up is no longer said.
    assert next_says(models) == "CHIP RACE: ONE 100 CHIP EACH TO SEAT 3 (Ks)"
    after = at_line(BREAK, 28)  # t=1800: the break is over, level 2
    models = shown(after, panel, status(1800))
    assert "BREAK" not in next_says(models) and strip(models).startswith(("LEVEL 2", "L2"))


def test_the_table_on_its_own_clock_says_so_first() -> None:
    """A station that lost the event's clock keeps counting and says so (the interface: "OWN
    CLOCK SINCE hh:mm") in every form; on the event's clock the source is not said."""
    snap = at_line(IN_HAND, 3)
    assert snap.tournament is not None
    own = clock_line(snap.tournament, 1102, "OWN CLOCK SINCE 14:05")
    event = clock_line(snap.tournament, 1102, "EVENT CLOCK")
    assert own is not None and event is not None
    assert event.forms == ("LEVEL 1 25-50 1:38", "L1 25-50 1:38", "L1 1:38")
    assert own.forms == (
        "LEVEL 1 25-50 1:38 · OWN CLOCK SINCE 14:05",
        "L1 25-50 1:38 · OWN CLOCK SINCE 14:05",
        "L1 1:38 · OWN CLOCK SINCE 14:05",
        "L1 1:38 · OWN CLOCK",
        "L1 1:38 OWN",
    )
    alone = clock_line(snap.tournament, 1102, "OWN CLOCK")  # no centre: said once, longest
    assert alone is not None and alone.forms[1:] == event.forms


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_the_floors_lists_carry_the_clock(panel: PanelConfig) -> None:
    snap = at_line(IN_HAND, 25)
    line = clock_line(snap.tournament, 1218, "EVENT CLOCK")
    model = floor_screen(FloorData(), FloorCursor("incidents"), panel, snap, clock=line)
    assert problems(model, panel) == []
    assert any(
        t.text.startswith("INCIDENTS (0) · ") and t.text.endswith(" 19:42") for t in model.texts()
    ), model.all_text()


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_the_tournament_shots_through_the_daemon_read_whole(panel: PanelConfig) -> None:
    """The screenshots' table run through the daemon's core (real journal, the centre's
    commands): the status it publishes carries the session time, so the strip's clock is the
    centre's 725 s counted down; every page reads whole at both sizes."""
    cases = tournament_cases()
    texts = {}
    for name, (nav, seen) in cases.items():
        inputs = DisplayInputs(
            seen.snapshot, seen.floor, seen.diag, seen.status, table_for(range(1, 7))
        )
        models = list(_models(nav, inputs, panel).values())
        for m in models:
            assert problems(m, panel) == [], (name, m.screen)
        texts[name] = " | ".join(m.all_text() for m in models)
    # Told 725 s left of level 1, then 4 s of posting and a second of the core's loop.
    assert "12:00" in texts["tournament-clock"]
    said = texts["tournament-level-ends-in-hand"]
    assert "50-100 NEXT HAND" in said or "NEXT 50-100" in said, said
    assert "T07" in texts["tournament-move"] and "T03" in texts["tournament-move"]
    assert "HAND FOR HAND: WAIT" in texts["tournament-hand-for-hand"]
    assert "EVENT CLOCK STOPPED: WAIT" in texts["tournament-clock-stopped"]
    assert "BREAK 8:04" in texts["tournament-break"] and "NO DEAL" in texts["tournament-break"]
    assert "BREAK 8:04" in texts["tournament-floor-list"]
    assert "BREAK 8:04" in texts["tournament-diagnostics"]


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_table_that_lost_the_event_clock_says_so_on_the_strip(panel: PanelConfig) -> None:
    """The interface: a station that loses the link keeps counting its own clock "and says so
    (the dealer screen and diag show the clock's source)": whatever form the strip has room
    for, it names the table's own clock."""
    for line, t in ((12, 1109), (13, 1201), (25, 1218)):  # running, next hand, a new level
        snap = at_line(IN_HAND, line)
        pill = strip(shown(snap, panel, status(t, "OWN CLOCK SINCE 14:05")))
        assert "OWN" in pill, pill
        assert "OWN" not in strip(shown(snap, panel, status(t)))
