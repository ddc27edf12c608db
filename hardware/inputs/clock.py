"""Clocks for the input layer: the monotonic clock and a fake one for tests and demos. Pure.

Every timer in `hardware.inputs` and `hardware.betzone` takes `now` (monotonic seconds) from an
injected clock, so a test can jump ahead the way MPF's `TimeTravelLoop` does, and no test sleeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]
"""A zero-argument callable returning monotonic seconds (`*_at` values)."""

monotonic: Clock = time.monotonic


class FakeClock:
    """A clock that moves only when told to. Thread-safe enough for reads from callback threads
    (a float assignment is atomic in CPython)."""

    def __init__(self, start_at: float = 1000.0) -> None:
        self._now = start_at

    def __call__(self) -> float:
        return self._now

    @property
    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self._now += seconds
        return self._now

    def set(self, at: float) -> float:
        if at < self._now:
            raise ValueError(f"a clock cannot go back (from {self._now} to {at})")
        self._now = at
        return self._now
