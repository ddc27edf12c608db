"""The table's GPIO inputs as one object: raw edges in, table-input events out. Edge adapter.

`TableInputs` wires `GpioInputs` (gpiozero edges with our timestamps) to the pure parts: a
`ButtonTimer` per key, a `Debouncer` per sensor, the `Panel`, the `PuckTracker` and the
`SeatTracker`; every `readback_s` it reads all levels back and corrects any it disbelieves
(MPF's `verify_switches`). Threads: gpiozero calls back on its own thread and only enqueues;
everything else runs in the caller's thread when it calls `poll()`. Call `poll()` when `notify`
fires or when `next_deadline()` is reached (whichever is first).

All timers run in time order across inputs: before an edge at `t` is applied, every timer due
before `t` fires, so a late `poll()` gives the same events as a prompt one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import TracebackType

from hardware.inputs.clock import Clock
from hardware.inputs.debounce import ButtonPressed, ButtonStuck, ButtonTimer, Debouncer, Stable
from hardware.inputs.events import InputStuck, LevelMismatch, TableInputEvent
from hardware.inputs.gpio import GpioInputs, PinFactory
from hardware.inputs.names import Group
from hardware.inputs.panel import Panel
from hardware.inputs.pinmap import InputLine, PinMap
from hardware.inputs.sensors import PuckTracker, SeatTracker

_Due = tuple[float, int, str, ButtonPressed | ButtonStuck | Stable]


def compare_levels(
    believed: Mapping[str, bool], actual: Mapping[str, bool], at: float
) -> list[LevelMismatch]:
    """Inputs whose read-back level differs from the level the edges told us. Pure."""
    return [
        LevelMismatch(path, believed[path], level, at)
        for path, level in actual.items()
        if path in believed and believed[path] != level
    ]


class TableInputs:
    def __init__(
        self,
        pinmap: PinMap,
        factories: Mapping[str, PinFactory],
        clock: Clock,
        *,
        notify: Callable[[], None] | None = None,
    ) -> None:
        self.pinmap = pinmap
        self._clock = clock
        self._lines: dict[str, InputLine] = {line.path: line for line in pinmap.inputs}
        self._gpio = GpioInputs(pinmap.inputs, factories, clock, notify=notify)
        now = clock()
        levels = self._gpio.levels()
        self._gpio.drain()  # edges from setting the pulls: the levels just read cover them
        t = pinmap.timing
        self._keys = {
            line.path: ButtonTimer(
                line.name,
                line.debounce_s,
                hold_s=line.hold_s,
                stuck_s=t.stuck_s,
                initial=levels[line.path],
                now=now,
            )
            for line in pinmap.keys
        }
        self._sensors = {
            line.path: Debouncer(line.debounce_s, initial=levels[line.path])
            for line in pinmap.puck + pinmap.occupancy
        }
        self.panel = Panel(
            pinmap.seats,
            selection_timeout_s=t.selection_timeout_s,
            entry_timeout_s=t.entry_timeout_s,
        )
        self.puck = PuckTracker(pinmap.seats)
        self.seats = SeatTracker(pinmap.seats)
        self._started_at = now
        self._next_readback_at = now + t.readback_s
        self.mismatches = 0

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> TableInputs:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._gpio.close()

    def start(self) -> list[TableInputEvent]:
        """The state at start: every seat's occupancy and where the puck is (or a conflict)."""
        at = self._started_at
        seats = {line.seat: self._sensors[line.path].stable for line in self.pinmap.occupancy}
        puck = {line.seat: self._sensors[line.path].stable for line in self.pinmap.puck}
        out: list[TableInputEvent] = []
        out.extend(self.seats.start({s: v for s, v in seats.items() if s is not None}, at))
        out.extend(self.puck.start({s: v for s, v in puck.items() if s is not None}, at))
        return out

    # -- the loop ----------------------------------------------------------------------------

    def poll(self) -> list[TableInputEvent]:
        now = self._clock()
        out: list[TableInputEvent] = []
        for edge in sorted(self._gpio.drain(), key=lambda e: e.at):
            out.extend(self._edge(edge.input, edge.active, min(edge.at, now)))
        if now >= self._next_readback_at:
            out.extend(self._readback(now))
            self._next_readback_at = now + self.pinmap.timing.readback_s
        out.extend(self._run_until(now))
        out.extend(self.panel.advance(now))
        return out

    def next_deadline(self) -> float | None:
        times = [self._next_readback_at, self.panel.deadline()]
        times.extend(timer.deadline() for timer in self._keys.values())
        times.extend(deb.deadline() for deb in self._sensors.values())
        return min(t for t in times if t is not None)

    def believed(self) -> dict[str, bool]:
        """The debounced level of every input (for the diagnostics screen)."""
        out = {path: timer.active for path, timer in self._keys.items()}
        out.update({path: deb.stable for path, deb in self._sensors.items()})
        return out

    def read_levels(self) -> dict[str, bool]:
        """Every input's level read now from the back end."""
        return self._gpio.levels()

    # -- internals ---------------------------------------------------------------------------

    def _raw(self, path: str) -> bool:
        timer = self._keys.get(path)
        return timer.debouncer.raw if timer is not None else self._sensors[path].raw

    def _readback(self, now: float) -> list[TableInputEvent]:
        out = self._run_until(now)
        # Edges that arrived since the drain at the top of poll() would look like mismatches.
        for edge in sorted(self._gpio.drain(), key=lambda e: e.at):
            out.extend(self._edge(edge.input, edge.active, min(edge.at, now)))
        believed = {path: self._raw(path) for path in self._lines}
        for mismatch in compare_levels(believed, self._gpio.levels(), now):
            self.mismatches += 1
            out.append(mismatch)
            out.extend(self._edge(mismatch.input, mismatch.actual, now))
        return out

    def _edge(self, path: str, active: bool, at: float) -> list[TableInputEvent]:
        out = self._run_until(at)
        due: list[_Due] = []
        timer = self._keys.get(path)
        if timer is not None:
            due.extend((e.at, 0, path, e) for e in timer.edge(active, at))
        else:
            due.extend((s.at, 0, path, s) for s in self._sensors[path].edge(active, at))
        out.extend(self._dispatch(due))
        return out

    def _run_until(self, now: float) -> list[TableInputEvent]:
        due: list[_Due] = []
        for n, (path, timer) in enumerate(self._keys.items()):
            due.extend((e.at, n, path, e) for e in timer.advance(now))
        for n, (path, deb) in enumerate(self._sensors.items(), start=len(self._keys)):
            due.extend((s.at, n, path, s) for s in deb.advance(now))
        return self._dispatch(due)

    def _dispatch(self, due: list[_Due]) -> list[TableInputEvent]:
        out: list[TableInputEvent] = []
        for _, _, path, event in sorted(due, key=lambda d: (d[0], d[1])):
            match event:
                case ButtonPressed(button=button, long=long, at=at):
                    out.extend(self.panel.press(button, long, at))
                case ButtonStuck(since_at=since, at=at):
                    out.append(InputStuck(path, since, at))
                case Stable(active=active, at=at):
                    line = self._lines[path]
                    seat = int(line.name)
                    if line.group is Group.PUCK:
                        out.extend(self.puck.update(seat, active, at))
                    else:
                        out.extend(self.seats.update(seat, active, at))
        return out
