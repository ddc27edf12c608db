"""A pseudo-terminal standing in for a USB serial device, under a stable name. Edge adapter.

`plug()` opens a new pty pair and points the stable name (a symlink, as udev's
/dev/dealer/shoe would be) at its slave; `unplug()` removes the name and closes both ends, so a
host that had the port open reads EIO, exactly as when a USB device disappears. The emulator
keeps its own descriptor of the slave open while plugged: then the host may close and reopen
the port without the master seeing a hang-up, and the slave stays in raw mode.
"""

from __future__ import annotations

import contextlib
import os
import select
import time
import tty
from pathlib import Path

READ_CHUNK = 4096
WRITE_WAIT_S = 0.05


class PtyPort:
    def __init__(self, link_path: Path) -> None:
        self.link_path = link_path
        self.master = -1
        self._slave = -1
        self.slave_name = ""

    @property
    def plugged(self) -> bool:
        return self.master >= 0

    def plug(self) -> None:
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass as they are
        os.set_blocking(master, False)
        self.master, self._slave = master, slave
        self.slave_name = os.ttyname(slave)
        tmp = self.link_path.with_name(f".{self.link_path.name}.{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(self.slave_name)
        os.replace(tmp, self.link_path)  # atomic: the name never points nowhere while plugged

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link_path.unlink()
        for fd in (self.master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.master = self._slave = -1
        self.slave_name = ""

    def read(self) -> bytes:
        """What the host wrote; b"" when nothing is waiting or the port is unplugged."""
        if not self.plugged:
            return b""
        try:
            return os.read(self.master, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            return b""  # EIO: nobody at the other end right now

    def write(self, data: bytes) -> int:
        """Write all of `data`, waiting while the pty's buffer is full as a UART paces its
        output; what still does not fit after WRITE_WAIT_S is lost (a host that stopped reading),
        and dropped."""
        if not self.plugged:
            return 0
        view = memoryview(data)
        deadline = time.monotonic() + WRITE_WAIT_S
        while view:
            try:
                n = os.write(self.master, view)
                view = view[n:]
                continue
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                break  # EIO: the other end is gone
            left = deadline - time.monotonic()
            if left <= 0:
                break
            select.select([], [self.master], [], left)
        return len(data) - len(view)
