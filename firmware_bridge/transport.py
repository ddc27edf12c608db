"""The serial port as the link sees it: open exclusively, flush, read with a short timeout,
write, close; every failure becomes a `PortError`. Edge adapter (pyserial).

A vanished USB device reads as "ready but no data" or EIO, and pyserial keeps `is_open` True
(pyserial#387), so any exception here means "close and reconnect". The port is opened with
`exclusive=True` (flock), so two daemons can never share a shoe.
"""

from __future__ import annotations

import contextlib
import select
from dataclasses import dataclass
from typing import Protocol

import serial

from firmware_bridge.exc import PortError

DEFAULT_BAUDRATE = 115200
# The shortest wait of the link's loop: its timers run at least this precisely.
READ_TIMEOUT_S = 0.02
# A write that cannot drain in this time means the device stopped reading.
WRITE_TIMEOUT_S = 0.5


class Port(Protocol):
    """A byte stream to one device. Every method raises `PortError` when the device is gone."""

    def read(self, max_bytes: int, wait_s: float | None = None) -> bytes:
        """What has arrived (up to `max_bytes`), waiting at most a short timeout, or `wait_s`
        when that is longer; b"" if none."""
        ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None:
        """Idempotent, never raises."""
        ...


class PortOpener(Protocol):
    """Opens the port anew for every (re)connect; `name` is what the technician sees."""

    @property
    def name(self) -> str: ...

    def __call__(self) -> Port: ...


class SerialPort:
    """A pyserial port opened exclusively, with stale input and output discarded."""

    def __init__(
        self,
        path: str,
        *,
        baudrate: int = DEFAULT_BAUDRATE,
        read_timeout_s: float = READ_TIMEOUT_S,
        write_timeout_s: float = WRITE_TIMEOUT_S,
    ) -> None:
        self.path = path
        self.read_timeout_s = read_timeout_s
        try:
            self._serial = serial.Serial(
                port=path,
                baudrate=baudrate,
                timeout=read_timeout_s,
                write_timeout=write_timeout_s,
                exclusive=True,
            )
            # A reconnect can find bytes from before it in the kernel's buffers.
            self._serial.reset_input_buffer()
            self._serial.reset_output_buffer()
        except (serial.SerialException, OSError, ValueError) as exc:
            raise PortError(f"cannot open {path}: {exc}") from exc

    def read(self, max_bytes: int, wait_s: float | None = None) -> bytes:
        try:
            waiting = self._serial.in_waiting
            if not waiting and wait_s is not None and wait_s > self.read_timeout_s:
                # Wait longer for the first byte without reconfiguring the port (pyserial
                # rewrites the termios settings on every timeout change). A vanished device
                # reads as ready, and the read below raises.
                ready, _, _ = select.select([self._serial.fileno()], [], [], wait_s)
                if not ready:
                    return b""
                waiting = self._serial.in_waiting  # the whole frame, not its first byte
            return bytes(self._serial.read(max(1, min(waiting, max_bytes))))
        except (serial.SerialException, OSError, TypeError, ValueError) as exc:
            # TypeError: pyserial's read can trip over a descriptor closed under it; ValueError:
            # select() on a descriptor closed under it.
            raise PortError(f"{self.path}: read failed: {exc}") from exc

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError) as exc:
            raise PortError(f"{self.path}: write failed: {exc}") from exc

    def close(self) -> None:
        # The device may already be gone: there is nothing left to release then.
        with contextlib.suppress(serial.SerialException, OSError):
            self._serial.close()


@dataclass(frozen=True, slots=True)
class SerialOpener:
    """`PortOpener` for a serial device path (use a stable name such as /dev/dealer/shoe or
    /dev/serial/by-id/..., which udev re-creates when the shoe is plugged in again)."""

    path: str
    baudrate: int = DEFAULT_BAUDRATE
    read_timeout_s: float = READ_TIMEOUT_S

    @property
    def name(self) -> str:
        return self.path

    def __call__(self) -> SerialPort:
        return SerialPort(self.path, baudrate=self.baudrate, read_timeout_s=self.read_timeout_s)
