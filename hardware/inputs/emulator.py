"""Emulated key panel and sensors: scripted presses with contact bounce. Edge adapter (mock pins).

`InputEmulator` drives the very pins `TableInputs` listens to, so the demo and the tests run the
code a real table runs: gpiozero edges -> our debouncer -> panel -> events. A script is a list of
`ScriptedPress(at, button, hold_s)` (or `ScriptedLevel` for a sensor); `schedule()` turns it
into timed pin drives, each press and release a short bounce burst before the contact settles.
`run_until(t, set_clock)` drives every edge due by `t`, moving a fake clock to each edge's time
first so the edges carry exact timestamps; with a real clock, pass no `set_clock`.

MockFactory sets a pulled-up (or pulled-down) pin to its pull level when a device opens it, so an
input the emulator made active *before* `TableInputs` opened reads idle again; make such inputs
active after opening (they then arrive, debounced, as ordinary changes).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.inputs.exc import EmulatorError
from hardware.inputs.gpio import PinFactory
from hardware.inputs.pinmap import Active, InputLine, PinMap

BOUNCE_GAPS_S = (0.0008, 0.0012, 0.0006, 0.0015)  # contact chatter, about 4 ms in all


@dataclass(frozen=True, slots=True)
class ScriptedPress:
    """Press panel button `button` (`FOLD`, `SEAT_3`) at `at` and hold it for `hold_s`."""

    at: float
    button: str
    hold_s: float = 0.08


@dataclass(frozen=True, slots=True)
class ScriptedLevel:
    """Set a sensor (`puck.3`, `occupancy.5`) active or not at `at` (with a short bounce)."""

    at: float
    input: str
    active: bool
    bounce: bool = True


@dataclass(frozen=True, slots=True, order=True)
class PinDrive:
    at: float
    seq: int
    input: str
    active: bool


def bounce_burst(
    at: float, active: bool, gaps: Sequence[float] = BOUNCE_GAPS_S
) -> list[tuple[float, bool]]:
    """The level changes of one contact closing (`active`) or opening: it chatters, then settles."""
    out, t, level = [(at, active)], at, active
    for gap in gaps:
        t += gap
        level = not level
        out.append((t, level))
    if out[-1][1] != active:
        out.append((t + gaps[-1] if gaps else t, active))
    return out


class InputEmulator:
    def __init__(
        self, pinmap: PinMap, factories: Mapping[str, PinFactory], *, seed: int | None = None
    ) -> None:
        self.pinmap = pinmap
        self._lines: dict[str, InputLine] = {line.path: line for line in pinmap.inputs}
        self._pins: dict[str, Any] = {}
        for line in pinmap.inputs:
            factory = factories.get(line.chip)
            if factory is None:
                raise EmulatorError(f"{line.path}: no pin factory for chip {line.chip!r}")
            self._pins[line.path] = factory.pin(line.pin)
        self._rng = random.Random(seed) if seed is not None else None
        self._queue: list[PinDrive] = []
        self._seq = 0
        self.last_at: float | None = None

    def idle(self) -> None:
        """Drive every input to its idle (inactive) level, as real switches and sensors rest."""
        for path in self._lines:
            self.drive(path, False)

    def drive(self, path: str, active: bool) -> None:
        line = self._lines.get(path)
        if line is None:
            raise EmulatorError(f"the pin map has no input {path!r}")
        high = active == (line.active is Active.HIGH)
        pin = self._pins[path]
        if high:
            pin.drive_high()
        else:
            pin.drive_low()

    def _gaps(self) -> Sequence[float]:
        if self._rng is None:
            return BOUNCE_GAPS_S
        return [self._rng.uniform(0.0003, 0.002) for _ in range(self._rng.randint(2, 6))]

    def _push(self, at: float, path: str, active: bool) -> None:
        self._seq += 1
        heapq.heappush(self._queue, PinDrive(at, self._seq, path, active))

    def press(self, button: str, at: float, hold_s: float = 0.08) -> None:
        path = f"keys.{button}"
        if path not in self._lines:
            raise EmulatorError(f"the pin map has no key {button!r}")
        if hold_s <= 0:
            raise EmulatorError(f"{button}: hold_s must be positive")
        for t, level in bounce_burst(at, True, self._gaps()):
            self._push(t, path, level)
        for t, level in bounce_burst(at + hold_s, False, self._gaps()):
            self._push(t, path, level)

    def level(self, path: str, active: bool, at: float, *, bounce: bool = True) -> None:
        if path not in self._lines:
            raise EmulatorError(f"the pin map has no input {path!r}")
        changes = bounce_burst(at, active, self._gaps()) if bounce else [(at, active)]
        for t, level in changes:
            self._push(t, path, level)

    def schedule(self, script: Iterable[ScriptedPress | ScriptedLevel]) -> None:
        for item in script:
            if isinstance(item, ScriptedPress):
                self.press(item.button, item.at, item.hold_s)
            else:
                self.level(item.input, item.active, item.at, bounce=item.bounce)

    def next_due(self) -> float | None:
        return self._queue[0].at if self._queue else None

    def run_until(self, until: float, set_clock: Callable[[float], object] | None = None) -> int:
        """Drive every scheduled edge due by `until`; returns how many were driven."""
        n = 0
        while self._queue and self._queue[0].at <= until:
            drive = heapq.heappop(self._queue)
            if set_clock is not None:
                set_clock(drive.at)
            self.drive(drive.input, drive.active)
            self.last_at = drive.at
            n += 1
        if set_clock is not None:
            set_clock(until)
        return n


def parse_script(lines: Iterable[str]) -> list[ScriptedPress]:
    """`0.50 FOLD`, `1.20 SEAT_3`, `2.00 CANCEL 0.9` (hold seconds); `#` starts a comment."""
    out: list[ScriptedPress] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        parts = text.split()
        try:
            at = float(parts[0])
            hold = float(parts[2]) if len(parts) > 2 else 0.08
        except (ValueError, IndexError):
            raise EmulatorError(f"script line {number}: expected 'SECONDS KEY [HOLD]'") from None
        if len(parts) < 2 or len(parts) > 3:
            raise EmulatorError(f"script line {number}: expected 'SECONDS KEY [HOLD]'")
        out.append(ScriptedPress(at, parts[1], hold))
    return out
