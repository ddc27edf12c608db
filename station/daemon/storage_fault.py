"""Why the journal cannot be written now: a full disk, or another write error; typed, so the
core and the screens tell the two apart without comparing text. Edge adapter (statvfs).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from station.journal.exc import JournalStorageError


class StorageFaultKind(Enum):
    DISK_FULL = "disk full"
    WRITE_ERROR = "write error"  # an I/O error, the file locked too long


@dataclass(frozen=True, slots=True)
class StorageFault:
    """Why the journal cannot be written now: the disk is full, or another write error."""

    kind: StorageFaultKind
    detail: str  # what the operator reads: "disk full", or the error

    @classmethod
    def of(cls, exc: JournalStorageError | OSError, folder: Path) -> StorageFault:
        if _disk_full(exc, folder):
            return cls(StorageFaultKind.DISK_FULL, StorageFaultKind.DISK_FULL.value)
        return cls(StorageFaultKind.WRITE_ERROR, str(exc))

    @property
    def disk_full(self) -> bool:
        return self.kind is StorageFaultKind.DISK_FULL

    def __str__(self) -> str:
        return self.detail


def _disk_full(exc: Exception, folder: Path) -> bool:
    if "full" in str(exc):
        return True
    try:
        st = os.statvfs(str(folder))
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024
