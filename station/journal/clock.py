"""Clocks for the journal: the system clock (edge adapter) and a manual clock for tests and
emulators (pure). The journal never reads time any other way.

Two kinds of time are stamped on every row: wall-clock UTC (`*_utc`, for people and regulators)
and monotonic nanoseconds (`*_at_ns`, for ordering and durations inside one boot). Monotonic time
is only comparable within one boot id; the system clock's boot id is the kernel's, so every
process on the machine (daemon and CLI) shares one monotonic time line.
"""

from __future__ import annotations

import ctypes
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol, cast

KERNEL_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


class Clock(Protocol):
    def utc(self) -> datetime:
        """Wall-clock time, timezone-aware UTC."""
        ...

    def monotonic_ns(self) -> int:
        """Monotonic nanoseconds (comparable within one boot id only)."""
        ...

    def synced(self) -> bool:
        """Whether the wall clock is known to be synchronised (the `clock_ok` column)."""
        ...

    def boot_id(self) -> str:
        """Identifies the monotonic time line: it changes when the machine reboots."""
        ...


def kernel_clock_synced() -> bool | None:
    """Whether the kernel says the wall clock is synchronised: `adjtimex(2)` with no change
    asked (any user may call it) returns TIME_ERROR (5) while STA_UNSYNC is set, which is what
    chrony and systemd-timesyncd clear once they have disciplined the clock (`timedatectl`'s
    "System clock synchronized" reads the same). None where it cannot be asked (not Linux)."""
    if _ADJTIMEX is None:
        return None
    timex = ctypes.create_string_buffer(512)  # struct timex, modes = 0: read only
    state = int(_ADJTIMEX(timex))
    if state < 0:
        return None
    return state != _TIME_ERROR


def _find_adjtimex() -> Callable[[ctypes.Array[ctypes.c_char]], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).adjtimex
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_int
    return cast(Callable[[ctypes.Array[ctypes.c_char]], int], fn)


_TIME_ERROR = 5
_ADJTIMEX = _find_adjtimex()


class SystemClock:
    """The real clocks. Whether the wall clock is synchronised (each row's `clock_ok`) comes
    from `synced_probe`, by default the kernel's own flag (`kernel_clock_synced`); a clock whose
    state cannot be learnt is not called synchronised."""

    def __init__(self, synced_probe: Callable[[], bool | None] | None = None) -> None:
        self._probe = synced_probe or kernel_clock_synced
        try:
            self._boot = KERNEL_BOOT_ID.read_text(encoding="ascii").strip()
        except OSError:  # not Linux: one boot per process is the honest fallback
            self._boot = f"process-{uuid.uuid4()}"

    def utc(self) -> datetime:
        return datetime.now(UTC)

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()

    def synced(self) -> bool:
        return self._probe() is True

    def boot_id(self) -> str:
        return self._boot


class ManualClock:
    """A clock that moves only when told to. Pure; for tests and the emulated table."""

    def __init__(
        self,
        start_utc: datetime = datetime(2025, 1, 1, 12, 0, tzinfo=UTC),
        start_ns: int = 1_000_000_000,
        boot: str = "manual-boot-1",
    ) -> None:
        self._utc = start_utc
        self._ns = start_ns
        self._boot = boot
        self.is_synced = True

    def utc(self) -> datetime:
        return self._utc

    def monotonic_ns(self) -> int:
        return self._ns

    def synced(self) -> bool:
        return self.is_synced

    def boot_id(self) -> str:
        return self._boot

    def advance(self, seconds: float) -> None:
        """Both clocks move forward together."""
        self._ns += round(seconds * 1e9)
        self._utc += timedelta(seconds=seconds)

    def step_utc(self, seconds: float) -> None:
        """Only the wall clock jumps (an NTP step)."""
        self._utc += timedelta(seconds=seconds)

    def reboot(self, boot: str, down_s: float = 0.0) -> None:
        """A new boot: the monotonic clock restarts, wall time moves on by `down_s`."""
        self._boot = boot
        self._ns = 1_000_000_000
        self._utc += timedelta(seconds=down_s)


def format_utc(dt: datetime) -> str:
    """ISO 8601 UTC with milliseconds and a Z: 2025-01-01T12:00:00.000Z."""
    return dt.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
