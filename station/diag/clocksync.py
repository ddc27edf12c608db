"""Is this machine's wall clock synchronised? Edge adapter (a system call, /run).

The kernel knows: `adjtimex(2)` with no modes set only reads the clock's state, and returns
TIME_ERROR (5) while the clock is not synchronised (STA_UNSYNC), which is what chrony, ntpd and
systemd-timesyncd clear once they have disciplined it (`timedatectl`'s "System clock
synchronized" is the same bit). Where the call is refused (a seccomp filter such as the
service's `ProtectClock=yes`), systemd-timesyncd's flag file `/run/systemd/timesync/synchronized`
is the fallback; with neither, the answer is None (unknown), never a guess.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from pathlib import Path
from typing import Final

TIME_ERROR: Final = 5
TIMESYNCD_FLAG: Final = Path("/run/systemd/timesync/synchronized")
_TIMEX_BYTES: Final = 512  # struct timex is 208 bytes on 64-bit Linux; room to spare


def kernel_synced() -> bool | None:
    """The kernel's view (adjtimex), or None when the call is not available."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        adjtimex = libc.adjtimex
    except (OSError, AttributeError):
        return None
    buf = ctypes.create_string_buffer(_TIMEX_BYTES)  # modes = 0: read only
    state = int(adjtimex(buf))
    if state < 0:
        return None
    return state != TIME_ERROR


def clock_synced() -> tuple[bool | None, str]:
    """(synchronised, how we know)."""
    synced = kernel_synced()
    if synced is not None:
        return synced, "kernel adjtimex"
    if TIMESYNCD_FLAG.parent.is_dir():
        return TIMESYNCD_FLAG.exists(), "systemd-timesyncd"
    return None, ""
