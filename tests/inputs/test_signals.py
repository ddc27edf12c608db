"""LED and buzzer patterns on gpiozero output devices (MockFactory), stepped by a fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.inputs.clock import FakeClock
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.gpio import GpioOutputs, PinFactory
from hardware.inputs.pinmap_load import default_pinmap
from hardware.inputs.signals import PATTERNS, Signal, SignalDriver, Track, track_level


@pytest.fixture
def outputs() -> Iterator[tuple[GpioOutputs, dict[str, PinFactory]]]:
    pm = default_pinmap()
    factories = mock_factories(pm)
    outs = GpioOutputs(pm.outputs, factories)
    yield outs, factories
    outs.close()
    close_factories(factories)


def pin_state(factories: dict[str, PinFactory], bcm: int) -> bool:
    pin: Any = factories["header"].pin(bcm)
    return bool(pin.state)


LED_ATTENTION, LED_STOP, LED_FLOOR, BUZZER = 16, 20, 21, 26  # revision A


def sample(
    driver: SignalDriver,
    clock: FakeClock,
    factories: dict[str, PinFactory],
    bcm: int,
    until_s: float,
) -> list[tuple[float, bool]]:
    """(time since start, level) at every change of one pin, running the driver the way the
    daemon does: tick, then sleep (here: move the fake clock) until `next_deadline`."""
    start = clock.now
    changes: list[tuple[float, bool]] = []
    last = None
    while True:
        driver.tick(clock.now)
        level = pin_state(factories, bcm)
        if level != last:
            changes.append((round(clock.now - start, 3), level))
            last = level
        due = driver.next_deadline(clock.now)
        if due is None or due >= start + until_s:
            return changes
        clock.set(due)


def test_stop_lights_red_steadily_and_sounds_three_long_tones(
    outputs: tuple[GpioOutputs, dict[str, PinFactory]],
) -> None:
    outs, factories = outputs
    clock = FakeClock(50.0)
    driver = SignalDriver(outs)
    driver.play(Signal.STOP, clock.now)
    assert pin_state(factories, LED_STOP)
    buzzer = sample(driver, clock, factories, BUZZER, 3.0)
    assert buzzer == [
        (0.0, True),
        (0.6, False),
        (0.8, True),
        (1.4, False),
        (1.6, True),
        (2.2, False),
    ]
    assert pin_state(factories, LED_STOP)  # still on: STOP holds until the daemon stops it
    driver.stop(Signal.STOP, clock.now)
    assert not pin_state(factories, LED_STOP)


def test_call_floor_blinks_fast_and_attention_slowly(
    outputs: tuple[GpioOutputs, dict[str, PinFactory]],
) -> None:
    outs, factories = outputs
    clock = FakeClock(50.0)
    driver = SignalDriver(outs)
    driver.play(Signal.CALL_FLOOR, clock.now)
    driver.play(Signal.ATTENTION, clock.now)
    floor = sample(driver, clock, factories, LED_FLOOR, 1.0)
    assert [t for t, _ in floor] == [0.0, 0.25, 0.5, 0.75]
    driver.stop_all(clock.now)
    driver.play(Signal.ATTENTION, clock.now)
    attention = sample(driver, clock, factories, LED_ATTENTION, 2.0)
    assert [t for t, _ in attention] == [0.0, 0.5, 1.0, 1.5]


def test_the_buzzer_plays_the_highest_priority_pattern(
    outputs: tuple[GpioOutputs, dict[str, PinFactory]],
) -> None:
    outs, factories = outputs
    clock = FakeClock(50.0)
    driver = SignalDriver(outs)
    driver.play(Signal.KEY_ACK, clock.now)
    driver.play(Signal.STOP, clock.now)
    clock.advance(0.1)
    driver.tick(clock.now)
    assert pin_state(factories, BUZZER)  # STOP's 0.6 s tone, not the ack's 30 ms click


def test_one_shot_patterns_end_by_themselves(
    outputs: tuple[GpioOutputs, dict[str, PinFactory]],
) -> None:
    outs, _ = outputs
    clock = FakeClock(50.0)
    driver = SignalDriver(outs)
    driver.play(Signal.KEY_REJECT, clock.now)
    assert driver.next_deadline(clock.now) == pytest.approx(50.12)
    clock.advance(1.0)
    driver.tick(clock.now)
    assert driver.playing() == ()
    assert driver.next_deadline(clock.now) is None


def test_track_level_is_pure_and_repeats() -> None:
    blink = PATTERNS[Signal.ATTENTION].tracks[0]
    assert isinstance(blink, Track)
    assert [track_level(blink, t) for t in (0.0, 0.49, 0.5, 0.99, 1.0, 10.25)] == [
        True,
        True,
        False,
        False,
        True,
        True,
    ]
    click = PATTERNS[Signal.KEY_ACK].tracks[0]
    assert [track_level(click, t) for t in (0.0, 0.029, 0.03)] == [True, True, None]


class _Sink:
    def __init__(self) -> None:
        self.writes: list[tuple[str, bool]] = []

    def set(self, name: str, on: bool) -> None:
        self.writes.append((name, on))


@given(
    start=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    signals=st.lists(st.sampled_from(list(Signal)), min_size=1, max_size=5),
)
def test_the_driver_always_moves_forward_and_never_spins(
    start: float, signals: list[Signal]
) -> None:
    driver = SignalDriver(_Sink())
    for signal in signals:
        driver.play(signal, start)
    now, ticks = start, 0
    while (due := driver.next_deadline(now)) is not None and due < start + 5.0:
        assert due > now
        now = due
        driver.tick(now)
        ticks += 1
    assert ticks < 60  # the fastest pattern changes 4 times a second
