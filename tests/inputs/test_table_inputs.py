"""Table inputs end to end on gpiozero's MockFactory with a fake clock: pins driven, events out.

Nothing here sleeps: edges carry the fake clock's time, and `poll()` runs the timers due by it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.events import (
    InputStuck,
    KeyPressed,
    LevelMismatch,
    PanelStatus,
    PuckConflict,
    PuckMoved,
    SeatChanged,
)
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.gpio import probe
from hardware.inputs.pinmap_load import default_pinmap
from hardware.inputs.table import TableInputs
from tests.inputs.conftest import Rig, variant


def keys(events: list[Any]) -> list[KeyPressed]:
    return [e for e in events if isinstance(e, KeyPressed)]


def test_bounce_burst_gives_one_press(rig: Rig) -> None:
    fold: Any = rig.pin("keys.FOLD")  # pulled up, active low
    t0 = rig.clock.now
    # The contact closes and chatters for 4 ms: 7 edges, 1 ms apart, settling low (pressed).
    for i, level in enumerate([0, 1, 0, 1, 0, 1, 0]):
        rig.clock.set(t0 + i * 0.001)
        fold.drive_low() if level == 0 else fold.drive_high()
    assert keys(rig.table.poll()) == []  # still inside the 20 ms debounce window
    rig.clock.set(t0 + 0.100)
    # Released, with its own chatter.
    for i, level in enumerate([1, 0, 1, 0, 1]):
        rig.clock.set(t0 + 0.100 + i * 0.001)
        fold.drive_low() if level == 0 else fold.drive_high()
    rig.clock.set(t0 + 0.500)
    events = keys(rig.table.poll())
    assert events == [KeyPressed("FOLD", at=t0 + 0.006 + 0.020, seat=None)]


def test_hold_gives_long_press(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig(variant(("FLOOR = 13", "FLOOR = { pin = 13, hold_ms = 1000 }")))
    t0 = rig.clock.now
    rig.emu.press("FLOOR", t0, hold_s=1.5)
    assert keys(rig.run_until(t0 + 0.9)) == []  # held, but not yet for the hold time
    held = keys(rig.run_until(t0 + 1.2))  # still held: the long press is reported now
    assert [(k.key, k.long) for k in held] == [("FLOOR", True)]
    assert held[0].at - t0 < 1.03  # hold time counted from the debounced press
    assert keys(rig.run_until(t0 + 3.0)) == []  # the release adds nothing


def test_short_press_of_a_key_with_a_hold_time_is_reported_at_release(
    make_rig: Callable[..., Rig],
) -> None:
    rig = make_rig(variant(("FLOOR = 13", "FLOOR = { pin = 13, hold_ms = 1000 }")))
    t0 = rig.clock.now
    rig.emu.press("FLOOR", t0, hold_s=0.3)
    events = keys(rig.run_until(t0 + 2.0))
    assert [(k.key, k.long) for k in events] == [("FLOOR", False)]
    assert 0.3 < events[0].at - t0 < 0.33


def test_long_cancel_clears_the_selection_without_sending_cancel(rig: Rig) -> None:
    t0 = rig.clock.now
    rig.emu.press("SEAT_4", t0)
    rig.emu.press("CANCEL", t0 + 0.5, hold_s=1.0)  # CANCEL has hold_ms = 800 on revision A
    events = rig.run_until(t0 + 2.0)
    statuses = [e.selected for e in events if isinstance(e, PanelStatus)]
    assert statuses == [4, None]
    assert keys(events) == []


def test_seat_flicker_shorter_than_window_is_no_change(rig: Rig) -> None:
    # Seat 5 occupied (IR module output high), then the player leans back for 2.5 s: the sensor
    # drops out and flickers; revision A asks for 3 s of stability before a seat changes.
    t0 = rig.clock.now
    rig.emu.level("occupancy.5", True, t0)
    events = rig.run_until(t0 + 5.0)
    assert [(e.seat, e.occupied) for e in events if isinstance(e, SeatChanged)] == [(5, True)]
    t1 = rig.clock.now
    rig.emu.level("occupancy.5", False, t1)
    rig.emu.level("occupancy.5", True, t1 + 0.8)
    rig.emu.level("occupancy.5", False, t1 + 1.0)
    rig.emu.level("occupancy.5", True, t1 + 2.5)
    events = rig.run_until(t1 + 10.0)
    assert [e for e in events if isinstance(e, SeatChanged)] == []
    assert rig.table.seats.occupied[5] is True


def test_seat_left_for_longer_than_window_is_a_change(rig: Rig) -> None:
    t0 = rig.clock.now
    rig.emu.level("occupancy.2", True, t0)
    rig.emu.level("occupancy.2", False, t0 + 10.0)
    events = rig.run_until(t0 + 20.0)
    changes = [(e.seat, e.occupied) for e in events if isinstance(e, SeatChanged)]
    assert changes == [(2, True), (2, False)]
    left = [e for e in events if isinstance(e, SeatChanged)][1]
    assert 13.0 <= left.at - t0 < 13.01  # 3 s after the level settled


def test_start_reports_every_seat_and_no_puck_when_none_is_down(rig: Rig) -> None:
    assert [(e.seat, e.occupied) for e in rig.start_events if isinstance(e, SeatChanged)] == [
        (seat, False) for seat in range(1, 11)
    ]
    assert not [e for e in rig.start_events if isinstance(e, PuckMoved)]


def test_puck_moving_from_seat_3_to_4_is_one_move(rig: Rig) -> None:
    t0 = rig.clock.now
    rig.emu.level("puck.3", True, t0)
    first = rig.run_until(t0 + 1.0)
    assert [e.seat for e in first if isinstance(e, PuckMoved)] == [3]
    rig.emu.level("puck.3", False, t0 + 2.0)  # lifted ...
    rig.emu.level("puck.4", True, t0 + 2.6)  # ... and put down at seat 4
    events = rig.run_until(t0 + 4.0)
    assert [e.seat for e in events if isinstance(e, PuckMoved)] == [4]
    assert not [e for e in events if isinstance(e, PuckConflict)]


def test_two_puck_sensors_active_is_a_conflict_not_a_crash(rig: Rig) -> None:
    t0 = rig.clock.now
    rig.emu.level("puck.1", True, t0)
    rig.emu.level("puck.7", True, t0 + 1.0)
    events = rig.run_until(t0 + 2.0)
    assert [e.seats for e in events if isinstance(e, PuckConflict)] == [(1, 7)]
    rig.emu.level("puck.1", False, t0 + 3.0)
    events = rig.run_until(t0 + 4.0)
    assert [e.seat for e in events if isinstance(e, PuckMoved)] == [7]


def test_a_key_held_down_for_ten_seconds_is_reported_stuck_once(rig: Rig) -> None:
    t0 = rig.clock.now
    rig.emu.press("CHECK", t0, hold_s=30.0)
    events = rig.run_until(t0 + 25.0)
    assert [k.key for k in keys(events)] == ["CHECK"]  # the press itself counted once
    stuck = [e for e in events if isinstance(e, InputStuck)]
    assert [(e.input, round(e.at - e.since_at, 3)) for e in stuck] == [("keys.CHECK", 10.0)]


def test_read_back_finds_a_lost_edge_and_corrects_it(rig: Rig) -> None:
    seat6: Any = rig.pin("occupancy.6")
    t0 = rig.clock.now
    seat6.edges = "none"  # the interrupt is lost: the pin changes but no edge reaches us
    seat6.drive_high()
    seat6.edges = "both"
    assert rig.run_until(t0 + 0.5) == []
    events = rig.run_until(t0 + 1.0)  # the read-back is due every second
    assert events == [LevelMismatch("occupancy.6", believed=False, actual=True, at=t0 + 1.0)]
    later = rig.run_until(t0 + 5.0)  # corrected, and debounced like any other change
    assert [(e.seat, e.occupied) for e in later if isinstance(e, SeatChanged)] == [(6, True)]
    assert rig.table.mismatches == 1


def test_a_late_poll_gives_the_same_events_as_prompt_polls(make_rig: Callable[..., Rig]) -> None:
    script = [("SEAT_3", 0.0), ("FOLD", 0.4), ("CHECK", 0.9), ("VERBAL", 1.5), ("RAISE", 1.8)]

    def run(step_s: float) -> list[tuple[str, int | None, str | None, float]]:
        rig = make_rig()
        t0 = rig.clock.now
        for button, at in script:
            rig.emu.press(button, t0 + at)
        out: list[KeyPressed] = []
        t = t0
        while t < t0 + 3.0:
            t += step_s
            out += keys(rig.run_until(t))
        return [(k.key, k.seat, k.action, round(k.at - t0, 6)) for k in out]

    assert run(0.005) == run(3.0)
    assert [k[:3] for k in run(0.05)] == [
        ("FOLD", 3, None),
        ("CHECK", None, None),
        ("VERBAL", None, "raise"),
    ]


def test_start_reports_the_puck_and_seats_already_there(clock: FakeClock) -> None:
    # MockFactory drives a pulled-up pin high when the pull is set, whatever drives it; a puck
    # sensor with its own (external) pull-up keeps the level the emulator gives it.
    pm = variant(('9 = { chip = "x2", pin = 9 }', '9 = { chip = "x2", pin = 9, pull = "none" }'))
    factories = mock_factories(pm)
    emu = InputEmulator(pm, factories)
    emu.idle()
    emu.drive("puck.9", True)
    emu.drive("occupancy.1", True)
    emu.drive("occupancy.9", True)
    woken: list[int] = []
    table = TableInputs(pm, factories, clock, notify=lambda: woken.append(1))
    try:
        start = table.start()
        assert [e.seat for e in start if isinstance(e, PuckMoved)] == [9]
        occupied = [e.seat for e in start if isinstance(e, SeatChanged) and e.occupied]
        assert occupied == [1, 9]
        assert woken == []
        emu.drive("keys.FOLD", True)  # an edge from the back end wakes the loop
        assert woken == [1]
        assert table.read_levels()["keys.FOLD"] is True
        assert table.believed()["keys.FOLD"] is False  # not yet debounced
    finally:
        table.close()
        close_factories(factories)


def test_the_next_deadline_is_the_earliest_timer(rig: Rig) -> None:
    t0 = rig.clock.now
    assert rig.table.next_deadline() == t0 + 1.0  # only the read-back
    rig.emu.press("FOLD", t0 + 0.1)
    rig.run_until(t0 + 0.1)
    deadline = rig.table.next_deadline()
    assert deadline is not None
    assert t0 + 0.1 < deadline <= t0 + 0.1 + 0.021  # FOLD's debounce window


def test_probe_reports_devices_gpiozero_cannot_open_by_key() -> None:
    pm = default_pinmap()
    factories = mock_factories(pm)
    x3 = factories.pop("x3")
    try:
        found = probe(pm, factories)
    finally:
        close_factories(factories)
        x3.close()
    assert [p.key for p in found][:2] == ["keys.SEAT_CHANGE", "keys.CLOCK"]
    assert found[0].message == "no pin factory for chip 'x3'"
    assert len(found) == 4 + 10  # four keys and the ten seat sensors live on x3
