"""Debounce, "stable for N ms", long press and stuck-key detection on an injected clock. Pure.

Every back end debounces differently (RPi.GPIO locks out, lgpio and the kernel wait for
stability; hardware.md section 3), so back ends give us raw edges only and the timing is ours:

- `Debouncer`: a level becomes the stable level once the raw level has held it for `window_s`
  (the MPF `ms=` rule). A bounce burst or a flicker shorter than the window changes nothing.
- `ButtonTimer`: a panel key over a `Debouncer`. Without a hold time a press is reported as soon as
  it is stable; with one (`hold_s`) a release before the hold is a short press (reported at the
  release) and reaching the hold is a long press (reported at that moment, while still held).
  An input active for `stuck_s` is reported stuck once.

`edge(active, at)` first runs every timer due before `at`, so feeding edges late (from a queue)
gives the same result as feeding them live. `advance(now)` runs the timers due by `now`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stable:
    """The stable level changed to `active` at `at` (the moment the window was satisfied)."""

    active: bool
    at: float


class Debouncer:
    def __init__(self, window_s: float, *, initial: bool = False) -> None:
        if window_s < 0:
            raise ValueError("a debounce window cannot be negative")
        self.window_s = window_s
        self.stable = initial
        self.raw = initial
        self._due_at: float | None = None
        self.glitches = 0  # raw excursions that did not last the window (diagnostics)

    def deadline(self) -> float | None:
        return self._due_at

    def edge(self, active: bool, at: float) -> list[Stable]:
        out = self.advance(at)
        if active == self.raw:
            return out  # a repeated level (lost opposite edge or a duplicate callback)
        self.raw = active
        if active == self.stable:
            self._due_at = None
            self.glitches += 1
        else:
            self._due_at = at + self.window_s
        out.extend(self.advance(at))
        return out

    def advance(self, now: float) -> list[Stable]:
        if self._due_at is not None and now >= self._due_at:
            at, self._due_at = self._due_at, None
            self.stable = self.raw
            return [Stable(self.stable, at)]
        return []


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    button: str
    long: bool
    at: float


@dataclass(frozen=True, slots=True)
class ButtonStuck:
    button: str
    since_at: float
    at: float


ButtonEvent = ButtonPressed | ButtonStuck


class ButtonTimer:
    def __init__(
        self,
        button: str,
        debounce_s: float,
        *,
        hold_s: float | None = None,
        stuck_s: float | None = None,
        initial: bool = False,
        now: float = 0.0,
    ) -> None:
        self.button = button
        self.hold_s = hold_s
        self.stuck_s = stuck_s
        self.debouncer = Debouncer(debounce_s, initial=initial)
        # A key already held when we start is not a press; it can still be reported stuck.
        self._pressed_at: float | None = now if initial else None
        self._counts = False  # whether the current press (seen starting) may become a press
        self._long_done = False
        self._stuck_done = False

    @property
    def active(self) -> bool:
        return self.debouncer.stable

    def deadline(self) -> float | None:
        times = [self.debouncer.deadline()]
        if self._pressed_at is not None:
            if self._counts and self.hold_s is not None and not self._long_done:
                times.append(self._pressed_at + self.hold_s)
            if self.stuck_s is not None and not self._stuck_done:
                times.append(self._pressed_at + self.stuck_s)
        found = [t for t in times if t is not None]
        return min(found) if found else None

    def edge(self, active: bool, at: float) -> list[ButtonEvent]:
        out = self.advance(at)
        for change in self.debouncer.edge(active, at):
            out.extend(self._stable(change))
        out.extend(self._timers(at))
        return out

    def advance(self, now: float) -> list[ButtonEvent]:
        out: list[ButtonEvent] = []
        # The hold and stuck timers of the press in progress fire before a later release.
        due = self.debouncer.deadline()
        out.extend(self._timers(now if due is None else min(now, due)))
        for change in self.debouncer.advance(now):
            out.extend(self._stable(change))
        out.extend(self._timers(now))
        return out

    def _stable(self, change: Stable) -> list[ButtonEvent]:
        if change.active:
            self._pressed_at, self._counts = change.at, True
            self._long_done = self._stuck_done = False
            if self.hold_s is None:
                return [ButtonPressed(self.button, False, change.at)]
            return []
        counted = self._counts and self.hold_s is not None and not self._long_done
        stuck = self._stuck_done
        self._pressed_at, self._counts = None, False
        if counted and not stuck:
            return [ButtonPressed(self.button, False, change.at)]
        return []

    def _timers(self, now: float) -> list[ButtonEvent]:
        out: list[ButtonEvent] = []
        if self._pressed_at is None:
            return out
        if self._counts and self.hold_s is not None and not self._long_done:
            hold_at = self._pressed_at + self.hold_s
            if now >= hold_at:
                self._long_done = True
                out.append(ButtonPressed(self.button, True, hold_at))
        if self.stuck_s is not None and not self._stuck_done:
            stuck_at = self._pressed_at + self.stuck_s
            if now >= stuck_at:
                self._stuck_done = True
                out.append(ButtonStuck(self.button, self._pressed_at, stuck_at))
        return out
