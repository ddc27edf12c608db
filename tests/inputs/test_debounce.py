"""Debounce, stable-for-N and long press, pure, on explicit times (no pins, no clock)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.inputs.debounce import ButtonPressed, ButtonStuck, ButtonTimer, Debouncer, Stable


def test_a_level_becomes_stable_only_after_the_window() -> None:
    d = Debouncer(0.020)
    assert d.edge(True, 1.000) == []
    assert d.advance(1.019) == []
    assert d.advance(1.020) == [Stable(True, 1.020)]
    assert d.stable is True


def test_a_pulse_shorter_than_the_window_is_a_glitch_not_a_change() -> None:
    d = Debouncer(0.5)
    d.edge(True, 1.0)
    d.edge(False, 1.3)
    assert d.advance(10.0) == []
    assert (d.stable, d.glitches) == (False, 1)


def test_a_late_edge_runs_the_timer_that_was_due_before_it() -> None:
    d = Debouncer(0.020)
    d.edge(True, 1.0)
    # No advance in between: the release edge at 2.0 must first settle the press at 1.02.
    assert d.edge(False, 2.0) == [Stable(True, 1.020)]
    assert d.advance(3.0) == [Stable(False, 2.020)]


def test_a_zero_window_accepts_each_change_at_once() -> None:
    d = Debouncer(0.0)
    assert d.edge(True, 5.0) == [Stable(True, 5.0)]


@given(
    gaps=st.lists(st.floats(min_value=0.0001, max_value=0.004), min_size=0, max_size=12),
    final=st.booleans(),
)
def test_any_bounce_burst_shorter_than_the_window_settles_once(
    gaps: list[float], final: bool
) -> None:
    d = Debouncer(0.020, initial=not final)
    t, level, out = 10.0, final, []
    out += d.edge(level, t)
    for gap in gaps:
        t += gap
        level = not level
        out += d.edge(level, t)
    if level != final:
        t += 0.001
        out += d.edge(final, t)
    out += d.advance(t + 1.0)
    # No level between the chatters lasts the window: one change, timed from the last edge.
    assert out == [Stable(final, t + 0.020)]


def test_button_without_hold_time_reports_the_press_when_stable() -> None:
    b = ButtonTimer("FOLD", 0.020)
    assert b.edge(True, 1.0) == []
    assert b.advance(1.05) == [ButtonPressed("FOLD", False, 1.020)]
    assert b.edge(False, 1.1) == []
    assert b.advance(2.0) == []


def test_button_with_hold_time_gives_long_press_while_held() -> None:
    b = ButtonTimer("CANCEL", 0.020, hold_s=0.8)
    b.edge(True, 1.0)
    assert b.advance(1.5) == []
    assert b.advance(1.9) == [ButtonPressed("CANCEL", True, 1.820)]
    b.edge(False, 2.5)
    assert b.advance(3.0) == []


def test_button_with_hold_time_gives_short_press_at_release() -> None:
    b = ButtonTimer("CANCEL", 0.020, hold_s=0.8)
    b.edge(True, 1.0)
    b.edge(False, 1.3)
    assert b.advance(5.0) == [ButtonPressed("CANCEL", False, 1.320)]


def test_a_key_held_at_start_is_not_a_press_but_can_be_stuck() -> None:
    b = ButtonTimer("FOLD", 0.020, stuck_s=10.0, initial=True, now=0.0)
    assert b.advance(9.0) == []
    assert b.advance(11.0) == [ButtonStuck("FOLD", 0.0, 10.0)]
    b.edge(False, 12.0)
    assert b.advance(13.0) == []


def test_deadline_names_the_next_timer() -> None:
    b = ButtonTimer("CANCEL", 0.020, hold_s=0.8, stuck_s=10.0)
    assert b.deadline() is None
    b.edge(True, 1.0)
    assert b.deadline() == 1.020
    b.advance(1.020)
    assert b.deadline() == 1.820
