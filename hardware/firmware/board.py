"""Board entry points: wire the real peripherals (`machine.UART`, `Pin`, `ADC`, `WDT`) to the shoe
or bet-zone firmware and run the loop. Edge adapter; MicroPython firmware (on the host the tests
put a stand-in `machine` module on the path: hardware/firmware/standin/machine.py).

Shoe board: RP2040 with a CP2102N USB-UART bridge whose USB serial number is programmed at
assembly, so udev gives the shoe a stable /dev/serial/by-id/... name (hardware.md section 4);
the RP2040's own USB port stays the service REPL and is not wired to the table. Pins: UART0
GP0/GP1 to the bridge (host link, 115200 8N1, a 1 KiB receive buffer so that a slow reader poll
cannot overflow it); UART1 GP4/GP5 to the PN532 (HSU, 115200); ADC0
GP26 the face sensor; GP2 deck switch and GP3 lid switch to ground with pull-ups.
"""

import binascii
import time

import machine  # type: ignore[import-not-found]  # MicroPython built-in

from hardware.firmware.eventlog import FileStore, store_size
from hardware.firmware.pn532 import PN532
from hardware.firmware.shoe import LOG_CAPACITY, ShoeFirmware
from hardware.firmware.zones import BetZoneFirmware

HOST_BAUD = 115200
WATCHDOG_MS = 2000
EVENT_FILE = "/events.bin"


def serial_number() -> str:
    return "DS-" + binascii.hexlify(machine.unique_id()).decode().upper()


def ms_counter() -> "Callable[[], int]":
    """Milliseconds since boot as a plain integer: `time.ticks_ms` wraps (at 2**30 on most
    ports), so the firmware adds up `ticks_diff` steps instead."""
    state = [0, 0]
    state[0] = time.ticks_ms()  # type: ignore[attr-defined]  # MicroPython's time

    def now_ms() -> int:
        t = time.ticks_ms()  # type: ignore[attr-defined]
        state[1] += time.ticks_diff(t, state[0])  # type: ignore[attr-defined]
        state[0] = t
        return state[1]

    return now_ms


def run(
    firmware: "Firmware",
    uart: "HostUART",
    now_ms: "Callable[[], int]",
    wdt: "WDT | None" = None,
    loops: int = -1,
) -> None:
    """The firmware loop: host bytes in, sensors and timers, frames out, watchdog fed."""
    while loops != 0:
        if loops > 0:
            loops -= 1
        now = now_ms()
        data = uart.read()
        if data:
            firmware.feed(data, now)
        firmware.poll(now)
        for frame in firmware.take_frames():
            uart.write(frame)
        if wdt is not None:
            wdt.feed()


def main_shoe(loops: int = -1) -> None:
    uart = machine.UART(
        0, baudrate=HOST_BAUD, tx=machine.Pin(0), rx=machine.Pin(1), timeout=0, rxbuf=1024
    )
    reader = PN532(
        machine.UART(1, baudrate=115200, tx=machine.Pin(4), rx=machine.Pin(5), timeout=30)
    )
    try:  # noqa: SIM105 - MicroPython has no contextlib
        reader.begin()
    except OSError:
        pass  # the first polls fail in turn and raise the reader fault the host sees
    now_ms = ms_counter()
    firmware = ShoeFirmware(
        serial_number(),
        FileStore(EVENT_FILE, store_size(LOG_CAPACITY)),
        reader,
        machine.ADC(26),
        machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP),
        machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_UP),
        now_ms(),
        machine.reset_cause(),
    )
    run(firmware, uart, now_ms, machine.WDT(timeout=WATCHDOG_MS), loops)


def main_bet_zones(sensors: "list[ZoneSensor]", loops: int = -1) -> None:
    """The bet-zone board; `sensors` are its per-seat zone readers (seat 1 first)."""
    uart = machine.UART(
        0, baudrate=HOST_BAUD, tx=machine.Pin(0), rx=machine.Pin(1), timeout=0, rxbuf=1024
    )
    now_ms = ms_counter()
    firmware = BetZoneFirmware(
        serial_number(),
        FileStore(EVENT_FILE, store_size(LOG_CAPACITY)),
        sensors,
        now_ms(),
        machine.reset_cause(),
    )
    run(firmware, uart, now_ms, machine.WDT(timeout=WATCHDOG_MS), loops)


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from hardware.firmware.zones import ZoneSensor

    class Firmware(Protocol):
        def feed(self, data: bytes, now_ms: int) -> None: ...
        def poll(self, now_ms: int) -> None: ...
        def take_frames(self) -> list[bytes]: ...

    class HostUART(Protocol):
        def read(self) -> bytes | None: ...
        def write(self, data: bytes) -> int | None: ...

    class WDT(Protocol):
        def feed(self) -> None: ...
