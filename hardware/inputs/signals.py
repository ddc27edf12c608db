"""LED and buzzer patterns as data, and a driver playing them on an injected clock. Pure.

The driver writes through an `OutputSink` (`GpioOutputs` on gpiozero devices in the daemon).

A pattern is timed on/off steps per output, advanced by our clock, never by gpiozero's blink
threads, so tests step through it. Several patterns may play at once; on each output the
highest-priority pattern still playing there wins. The three states differ by rhythm and sound,
not by colour alone: ATTENTION a slow amber blink and two chirps; CALL_FLOOR a fast blue blink and
three beeps; STOP a steady red light and three long tones. KEY_ACK and KEY_REJECT are the panel's
feedback for a dealer working blind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from hardware.inputs.names import Output


class Signal(StrEnum):
    ATTENTION = "attention"
    STOP = "stop"
    CALL_FLOOR = "call_floor"
    KEY_ACK = "key_ack"
    KEY_REJECT = "key_reject"


@dataclass(frozen=True, slots=True)
class Step:
    on: bool
    duration_s: float


@dataclass(frozen=True, slots=True)
class Track:
    """What one output does: the steps, once or over and over."""

    output: Output
    steps: tuple[Step, ...]
    repeat: bool = False

    @property
    def period_s(self) -> float:
        return sum(step.duration_s for step in self.steps)


@dataclass(frozen=True, slots=True)
class Pattern:
    signal: Signal
    priority: int
    tracks: tuple[Track, ...]


def _beeps(n: int, on_s: float, off_s: float) -> tuple[Step, ...]:
    steps: list[Step] = []
    for i in range(n):
        steps.append(Step(True, on_s))
        if i < n - 1:
            steps.append(Step(False, off_s))
    return tuple(steps)


PATTERNS: Mapping[Signal, Pattern] = {
    Signal.STOP: Pattern(
        Signal.STOP,
        40,
        (
            Track(Output.LED_STOP, (Step(True, 1.0),), repeat=True),
            Track(Output.BUZZER, _beeps(3, 0.6, 0.2)),
        ),
    ),
    Signal.CALL_FLOOR: Pattern(
        Signal.CALL_FLOOR,
        30,
        (
            Track(Output.LED_FLOOR, (Step(True, 0.25), Step(False, 0.25)), repeat=True),
            Track(Output.BUZZER, _beeps(3, 0.15, 0.1)),
        ),
    ),
    Signal.ATTENTION: Pattern(
        Signal.ATTENTION,
        20,
        (
            Track(Output.LED_ATTENTION, (Step(True, 0.5), Step(False, 0.5)), repeat=True),
            Track(Output.BUZZER, _beeps(2, 0.08, 0.08)),
        ),
    ),
    Signal.KEY_REJECT: Pattern(
        Signal.KEY_REJECT, 10, (Track(Output.BUZZER, _beeps(2, 0.12, 0.08)),)
    ),
    Signal.KEY_ACK: Pattern(Signal.KEY_ACK, 5, (Track(Output.BUZZER, (Step(True, 0.03),)),)),
}


# Times are sums of floats: a clock set to a computed step boundary may read a hair before it.
# Both functions treat "within EPS_S before a boundary" as "at it", so a driver woken at
# `next_deadline` always finds the new step and never spins on a boundary it cannot reach.
EPS_S = 1e-6


def track_level(track: Track, elapsed_s: float) -> bool | None:
    """The output's level `elapsed_s` into the track; None once a one-shot track has ended."""
    if elapsed_s < -EPS_S:
        return None
    period = track.period_s
    if period <= 0:
        return None
    t = elapsed_s + EPS_S
    if track.repeat:
        t %= period
    elif t >= period:
        return None
    for step in track.steps:
        if t < step.duration_s:
            return step.on
        t -= step.duration_s
    return track.steps[-1].on if track.repeat else None


def track_next_change(track: Track, elapsed_s: float) -> float | None:
    """Seconds from `elapsed_s` to the track's next step boundary (None: it has ended)."""
    period = track.period_s
    t = elapsed_s + EPS_S
    if period <= 0 or (not track.repeat and t >= period):
        return None
    base = (t // period) * period if track.repeat else 0.0
    edge = base
    for step in track.steps:
        edge += step.duration_s
        if edge > t:
            return edge - elapsed_s
    return base + period - elapsed_s


class OutputSink(Protocol):
    def set(self, name: str, on: bool) -> None: ...


class SignalDriver:
    """Plays patterns on an `OutputSink`. Call `tick(now)` at `next_deadline()` (or more often)."""

    def __init__(self, sink: OutputSink, patterns: Mapping[Signal, Pattern] = PATTERNS) -> None:
        self._sink = sink
        self._patterns = patterns
        self._playing: dict[Signal, float] = {}  # signal -> started_at
        self._outputs = sorted({t.output for p in patterns.values() for t in p.tracks})
        self._levels: dict[Output, bool] = {}

    def play(self, signal: Signal, now: float) -> None:
        """Start (or restart) a pattern; a repeating one plays until `stop`."""
        self._playing[signal] = now
        self.tick(now)

    def stop(self, signal: Signal, now: float) -> None:
        self._playing.pop(signal, None)
        self.tick(now)

    def stop_all(self, now: float) -> None:
        self._playing.clear()
        self.tick(now)

    def playing(self) -> tuple[Signal, ...]:
        return tuple(self._playing)

    def levels(self, now: float) -> dict[Output, bool]:
        """What every output should show at `now` (pure: nothing is written)."""
        best: dict[Output, tuple[int, bool]] = {}
        for signal, started_at in self._playing.items():
            pattern = self._patterns[signal]
            for track in pattern.tracks:
                level = track_level(track, now - started_at)
                if level is None:
                    continue
                if track.output not in best or pattern.priority > best[track.output][0]:
                    best[track.output] = (pattern.priority, level)
        return {out: best[out][1] if out in best else False for out in self._outputs}

    def tick(self, now: float) -> None:
        for signal, started_at in list(self._playing.items()):
            pattern = self._patterns[signal]
            if all(track_level(t, now - started_at) is None for t in pattern.tracks):
                del self._playing[signal]  # a one-shot pattern that has finished
        for output, level in self.levels(now).items():
            if self._levels.get(output) != level:
                self._levels[output] = level
                self._sink.set(output.value, level)

    def next_deadline(self, now: float) -> float | None:
        times = []
        for signal, started_at in self._playing.items():
            for track in self._patterns[signal].tracks:
                step = track_next_change(track, now - started_at)
                if step is not None:
                    times.append(now + step)
        return min(times) if times else None
