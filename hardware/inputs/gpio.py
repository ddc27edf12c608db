"""gpiozero as the raw edge source and the output driver. Edge adapter (GPIO).

`GpioInputs` opens one `DigitalInputDevice` per pin-map input (pull and polarity from the map, no
`bounce_time`: debounce is ours) and takes over its pin's `when_changed`, so *every* edge reaches
us, timestamped with the injected clock, in a thread-safe queue (lgpio calls back on its own
thread; the mock calls back inline). `drain()` hands the edges to the single-threaded core;
`levels()` reads every input now for the periodic read-back. `GpioOutputs` drives the LEDs and the
buzzer through `DigitalOutputDevice`s. The pin factories are passed in, one per chip of the pin
map (`hardware.inputs.factories`); gpiozero's global `Device.pin_factory` is never used.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from gpiozero import DigitalInputDevice, DigitalOutputDevice, GPIOZeroError

from hardware.inputs.clock import Clock
from hardware.inputs.exc import PinBackendError, PinMapProblem
from hardware.inputs.pinmap import Active, InputLine, OutputLine, PinMap, Pull


class PinFactory(Protocol):
    """What we need of a gpiozero pin factory (gpiozero ships no type hints)."""

    def close(self) -> None: ...
    def pin(self, name: Any) -> Any: ...


@dataclass(frozen=True, slots=True)
class RawEdge:
    """A raw level change of one input, as the back end saw it (not debounced)."""

    input: str  # pin-map path
    active: bool
    at: float


def _pull_args(line: InputLine) -> dict[str, bool | None]:
    # gpiozero: pull_up=True means active low, False means active high, None needs active_state.
    if line.pull is Pull.UP:
        return {"pull_up": True, "active_state": None}
    if line.pull is Pull.DOWN:
        return {"pull_up": False, "active_state": None}
    return {"pull_up": None, "active_state": line.active is Active.HIGH}


class _Line:
    """Receives one pin's edges; a bound method so gpiozero's weak reference stays alive."""

    def __init__(
        self, line: InputLine, device: Any, sink: Callable[[RawEdge], None], clock: Clock
    ) -> None:
        self.line, self.device, self._sink, self._clock = line, device, sink, clock
        self._active_high = line.active is Active.HIGH

    def changed(self, ticks: float, state: int) -> None:
        del ticks  # the back end's own clock; every time we keep comes from our clock
        self._sink(RawEdge(self.line.path, bool(state) == self._active_high, self._clock()))


class GpioInputs:
    def __init__(
        self,
        lines: tuple[InputLine, ...],
        factories: Mapping[str, PinFactory],
        clock: Clock,
        *,
        notify: Callable[[], None] | None = None,
    ) -> None:
        self._queue: queue.SimpleQueue[RawEdge] = queue.SimpleQueue()
        self._notify = notify
        self._lines: dict[str, _Line] = {}
        try:
            for line in lines:
                device = open_input(line, factories)
                handler = _Line(line, device, self._put, clock)
                device.pin.when_changed = handler.changed
                self._lines[line.path] = handler
        except BaseException:
            self.close()
            raise

    def _put(self, edge: RawEdge) -> None:
        self._queue.put(edge)
        if self._notify is not None:
            self._notify()

    def drain(self) -> list[RawEdge]:
        out: list[RawEdge] = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    def levels(self) -> dict[str, bool]:
        return {path: bool(h.device.is_active) for path, h in self._lines.items()}

    def close(self) -> None:
        for handler in self._lines.values():
            handler.device.close()
        self._lines.clear()


def open_input(line: InputLine, factories: Mapping[str, PinFactory]) -> Any:
    factory = factories.get(line.chip)
    if factory is None:
        raise PinBackendError(f"{line.path}: no pin factory for chip {line.chip!r}")
    try:
        return DigitalInputDevice(
            line.pin, bounce_time=None, pin_factory=factory, **_pull_args(line)
        )
    except GPIOZeroError as exc:
        raise PinBackendError(f"{line.path}: pin {line.where}: {exc}") from exc


def open_output(line: OutputLine, factories: Mapping[str, PinFactory]) -> Any:
    factory = factories.get(line.chip)
    if factory is None:
        raise PinBackendError(f"{line.path}: no pin factory for chip {line.chip!r}")
    try:
        return DigitalOutputDevice(
            line.pin,
            active_high=line.active is Active.HIGH,
            initial_value=False,
            pin_factory=factory,
        )
    except GPIOZeroError as exc:
        raise PinBackendError(f"{line.path}: pin {line.chip}:{line.pin}: {exc}") from exc


class GpioOutputs:
    """The signalling outputs by name; `set` writes only on change."""

    def __init__(self, lines: tuple[OutputLine, ...], factories: Mapping[str, PinFactory]) -> None:
        self._devices: dict[str, Any] = {}
        self._levels: dict[str, bool] = {}
        try:
            for line in lines:
                self._devices[line.name.value] = open_output(line, factories)
                self._levels[line.name.value] = False
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._devices)

    def set(self, name: str, on: bool) -> None:
        device = self._devices.get(name)
        if device is None or self._levels[name] == on:
            return
        self._levels[name] = on
        if on:
            device.on()
        else:
            device.off()

    def levels(self) -> dict[str, bool]:
        return dict(self._levels)

    def close(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices.clear()


def probe(pinmap: PinMap, factories: Mapping[str, PinFactory]) -> list[PinMapProblem]:
    """Open and close every device of a (validated) pin map on the given factories, one at a time,
    and report what gpiozero refuses, by pin-map key. `station config check` runs it on mocks."""
    problems: list[PinMapProblem] = []
    opened: list[Any] = []
    try:
        for line in pinmap.inputs:
            try:
                opened.append(open_input(line, factories))
            except PinBackendError as exc:
                problems.append(PinMapProblem(line.path, str(exc).split(": ", 1)[1]))
        for out in pinmap.outputs:
            try:
                opened.append(open_output(out, factories))
            except PinBackendError as exc:
                problems.append(PinMapProblem(out.path, str(exc).split(": ", 1)[1]))
    finally:
        for device in opened:
            device.close()
    return problems
