"""Device ticks -> host monotonic seconds, from the heartbeat's clock polls. Pure.

Each CLOCK reply gives the device's tick count at some instant between the poll's send and the
reply's receipt; the midpoint of the round trip is the best host estimate of that instant, and
the sample with the smallest round trip among the last few is the most trustworthy (Klipper's
clocksync keeps the same minimum). The device clock is taken at its nominal rate: the offset is
refreshed with every poll, so drift of a crystal (< 100 ppm) adds well under a millisecond.
Ticks are 32-bit on the wire and widened here, so a wrap (49.7 days at 1 kHz) is harmless.
"""

from __future__ import annotations

from collections import deque

WINDOW = 16
_WRAP = 1 << 32
_HALF = 1 << 31


class ClockSync:
    def __init__(self) -> None:
        self._boot_id: int | None = None
        self._hz = 1000
        self._samples: deque[tuple[float, float]] = deque(maxlen=WINDOW)  # (rtt_s, offset_s)
        self._last32 = 0
        self._last_ext = 0
        self._anchored = False

    def reset(self, boot_id: int, tick_hz: int) -> None:
        """A new device boot: its ticks restarted, forget the old offset."""
        self._boot_id = boot_id
        self._hz = tick_hz if tick_hz > 0 else 1000
        self._samples.clear()
        self._anchored = False

    def _widen(self, ticks: int) -> int:
        delta = ((ticks - self._last32 + _HALF) % _WRAP) - _HALF
        return self._last_ext + delta

    def sample(self, sent_at: float, received_at: float, ticks: int) -> None:
        if received_at < sent_at:
            return
        if not self._anchored:
            self._last32 = self._last_ext = ticks % _WRAP
            self._anchored = True
        ext = self._widen(ticks)
        if ext > self._last_ext:
            self._last32, self._last_ext = ticks % _WRAP, ext
        midpoint = (sent_at + received_at) / 2
        self._samples.append((received_at - sent_at, midpoint - ext / self._hz))

    @property
    def synced(self) -> bool:
        return bool(self._samples)

    def host_at(self, boot_id: int, ticks: int) -> float | None:
        """When the device's `ticks` happened, in host monotonic seconds; None if unknown (no
        sample yet, or the ticks belong to another boot)."""
        if not self._samples or boot_id != self._boot_id:
            return None
        _, offset = min(self._samples)
        return self._widen(ticks) / self._hz + offset
