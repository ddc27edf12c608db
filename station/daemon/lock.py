"""One `station run` per journal: exclusive locks on the journal file itself and on
`<journal>-lock` (named after the journal's resolved path), held for the daemon's life, with the
holder's pid written in the lock file. Edge adapter (flock).

The lock follows the file, not the name: a journal named through a symbolic link is refused
(name the file itself in `[journal] path`), one with more than one hard link is refused, and
the journal file itself is locked (`flock` on its inode), so another name for it (a bind mount,
a link made after the start) finds it taken.

Two daemons on one journal would both record the table's inputs into one chain (each refusing
the other's rows as foreign input) and both drive the same display and LEDs. The second one
exits 2 (bad start, no restart by systemd) naming the holder's pid. `flock` is released by the
kernel when the holder dies, even by `kill -9`, so a stale lock file never blocks a restart.
The CLI's floor commands do not take this lock: they may write workflow rows while the daemon
runs (the journal serialises writes).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
from pathlib import Path

from station.journal.exc import JournalError, JournalLinkedError
from station.journal.files import LOCK, companion, open_private
from station.journal.store import refuse_hard_links

log = logging.getLogger(__name__)


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
        self._file_fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise JournalInUseError naming the holder; JournalLinkedError for a
        journal named through a symbolic link or with more than one hard link. Raises OSError
        when the lock file cannot be made (no such folder, no permission, a full disk)."""
        if self.journal.is_symlink():
            raise JournalLinkedError(
                f"the journal {self.journal} is a symbolic link to {os.path.realpath(self.journal)}"
                ": name the journal file itself in [journal] path (a second name for one journal "
                "would let two stations run on it)"
            )
        refuse_hard_links(self.journal)
        self.path = companion(Path(os.path.realpath(self.journal)), LOCK)
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
        self._fd = fd
        try:
            self.hold_journal()
        except BaseException:
            self.release()
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except OSError as exc:  # a full disk: the lock holds; only the pid is not written
            log.warning("cannot write the pid into %s: %s", self.path, exc.strerror)

    def hold_journal(self) -> None:
        """Lock the journal file itself (its inode), once it exists: another name for it finds
        it taken. Called again after a new journal is created."""
        if self._file_fd is not None:
            return
        try:
            fd = os.open(self.journal, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return  # a new journal: locked once it is made
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            raise JournalInUseError(
                f"the journal {self.journal} is in use by another station run under another "
                "name for the same file (a hard link or a mount)",
                None,
            ) from None
        self._file_fd = fd

    def release(self) -> None:
        # The journal's own lock goes last of all, after SQLite closed the file (closing a
        # descriptor of a file drops the process's POSIX locks on it, SQLite's included).
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)  # the flock goes with the last descriptor
        file_fd, self._file_fd = self._file_fd, None
        if file_fd is not None:
            os.close(file_fd)

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
