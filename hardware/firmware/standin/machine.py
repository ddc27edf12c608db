"""A CPython stand-in for MicroPython's `machine` module: the subset the firmware uses, with
hooks for tests to drive inputs and read outputs. Test double (no hardware).

Inputs are driven through class-level tables (`Pin.levels`, `ADC.levels`) because the firmware
creates its own peripheral objects; `UART.instances` gives tests the ports it opened, and a
UART's `peer` (a function of the bytes written that returns the bytes to answer) plays the chip
on the other side.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5

_reset_cause = PWRON_RESET
_unique_id = bytes.fromhex("E66141040329582C")


def reset_cause() -> int:
    return _reset_cause


def unique_id() -> bytes:
    return _unique_id


def reset_all() -> None:
    """Forget every driven level, port and watchdog (call between tests)."""
    Pin.levels.clear()
    ADC.levels.clear()
    UART.instances.clear()
    WDT.fed = 0


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    levels: ClassVar[dict[int, int]] = {}

    def __init__(
        self, pin_id: int, mode: int = -1, pull: int = -1, value: int | None = None
    ) -> None:
        self.id = pin_id
        self._pull = pull
        if value is not None:
            Pin.levels[pin_id] = value

    def value(self, v: int | None = None) -> int:
        if v is not None:
            Pin.levels[self.id] = v
            return v
        return Pin.levels.get(self.id, 1 if self._pull == Pin.PULL_UP else 0)


class ADC:
    levels: ClassVar[dict[int, int]] = {}

    def __init__(self, pin: int | Pin) -> None:
        self.id = pin.id if isinstance(pin, Pin) else pin

    def read_u16(self) -> int:
        return ADC.levels.get(self.id, 0)


class UART:
    instances: ClassVar[dict[int, UART]] = {}

    def __init__(self, uart_id: int, baudrate: int = 115200, **_kwargs: object) -> None:
        self.id = uart_id
        self.baudrate = baudrate
        self.rx = bytearray()
        self.written = bytearray()
        self.peer: Callable[[bytes], bytes] | None = None
        UART.instances[uart_id] = self

    def inject(self, data: bytes) -> None:
        self.rx += data

    def any(self) -> int:
        return len(self.rx)

    def read(self, n: int | None = None) -> bytes | None:
        if not self.rx:
            return None
        n = len(self.rx) if n is None else n
        data = bytes(self.rx[:n])
        del self.rx[:n]
        return data

    def write(self, data: bytes) -> int:
        self.written += data
        if self.peer is not None:
            self.rx += self.peer(bytes(data))
        return len(data)


class WDT:
    fed: ClassVar[int] = 0

    def __init__(self, timeout: int = 5000) -> None:
        self.timeout = timeout

    def feed(self) -> None:
        WDT.fed += 1
