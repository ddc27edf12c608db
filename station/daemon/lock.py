"""One `station run` per journal: an exclusive lock on `<journal>-lock`, held for the daemon's
life, with the holder's pid written in it. Edge adapter (flock).

Two daemons on one journal would both record the table's inputs into one chain (each refusing
the other's rows as foreign input) and both drive the same display and LEDs. The second one
exits 2 (bad start, no restart by systemd) naming the holder's pid. `flock` is released by the
kernel when the holder dies, even by `kill -9`, so a stale lock file never blocks a restart.
The CLI's floor commands do not take this lock: they may write workflow rows while the daemon
runs (the journal serialises writes).
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from station.journal.exc import JournalError
from station.journal.files import LOCK, companion, open_private


class JournalInUseError(JournalError):
    """Another `station run` holds the journal."""

    def __init__(self, message: str, pid: int | None) -> None:
        super().__init__(message)
        self.pid = pid


class DaemonLock:
    def __init__(self, journal: Path, mode: int = 0o600) -> None:
        self.journal = journal
        self.path = companion(journal, LOCK)
        self.mode = mode
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise JournalInUseError naming the holder. Raises OSError when
        the lock file cannot be made (no such folder, no permission)."""
        fd = open_private(self.path, self.mode)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_pid(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            who = f"pid {holder}" if holder is not None else "another process"
            raise JournalInUseError(
                f"the journal {self.journal} is in use by station run {who} (lock {self.path})",
                holder,
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.ftruncate(fd, 0)
            os.close(fd)  # the flock goes with the last descriptor

    def __enter__(self) -> DaemonLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
