"""The files of a journal and how they are created: owner-only (0600) by default, 0640 when a
group of floor tools may read them. Edge adapter (file system).

A journal is more than one file. Beside `journal.sqlite` live SQLite's `-wal` and `-shm` (they
take the main file's mode: SQLite creates them with it), the head witness `-head`
(`witness.py`), the daemon's exclusive lock `-lock` (`station.daemon.lock`) and the lock that
makes a PIN check atomic across processes `-auth` (`people.py`). They hold salts, scrypt hashes
and every hole card, so none of them is ever created readable by other users, whatever the
umask.
"""

from __future__ import annotations

import errno
import logging
import os
import pwd
import sqlite3
import stat
from pathlib import Path
from typing import Final

log = logging.getLogger(__name__)

OWNER_ONLY: Final = 0o600
GROUP_READ: Final = 0o640
WAL, SHM, HEAD, LOCK, AUTH = "-wal", "-shm", "-head", "-lock", "-auth"


# What SQLite and the kernel say when this user may not write a place (not a damaged file).
_ACCESS_ERRNOS: Final = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
_ACCESS_SQLITE: Final = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")


def user_name() -> str:
    """The name of the user this process writes as."""
    uid = os.geteuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def cannot_write(path: Path, why: str) -> str:
    """ "cannot write PATH as USER: why" -- for every refusal of the file system."""
    return f"cannot write {path} as {user_name()}: {why}"


def is_access_error(exc: BaseException) -> bool:
    """A refusal of the file system (permissions, a read-only mount), as opposed to a full
    disk or a damaged file."""
    if isinstance(exc, sqlite3.Error):
        return str(getattr(exc, "sqlite_errorname", "")).startswith(_ACCESS_SQLITE)
    return isinstance(exc, OSError) and exc.errno in _ACCESS_ERRNOS


def companion(journal: Path, suffix: str) -> Path:
    return journal.with_name(journal.name + suffix)


def create_file(path: Path, mode: int) -> None:
    """Create an empty file with exactly `mode` (the umask cannot widen or narrow it). Raises
    FileExistsError when it is there."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def open_private(path: Path, mode: int) -> int:
    """Open a small file read-write, creating it with exactly `mode` when it is not there;
    returns the fd."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    except FileExistsError:
        return os.open(path, os.O_RDWR | os.O_CLOEXEC)
    try:
        os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def tighten(journal: Path) -> list[str]:
    """Take every permission for other users off the journal's files that this user owns (a
    journal made before files were created owner-only was world-readable). Group bits stay as
    the administrator set them. Returns the names changed."""
    changed = []
    for path in (journal, *(companion(journal, s) for s in (WAL, SHM, HEAD, LOCK, AUTH))):
        try:
            st = path.stat()
        except OSError:
            continue
        mode = stat.S_IMODE(st.st_mode)
        if mode & 0o007 and st.st_uid == os.geteuid():
            try:
                path.chmod(mode & ~0o007)
            except OSError as exc:
                log.warning("cannot take other users' access off %s: %s", path, exc.strerror)
                continue
            changed.append(path.name)
    if changed:
        log.warning("journal files were readable by other users; now not: %s", ", ".join(changed))
    return changed


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
