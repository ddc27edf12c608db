"""Exceptions of the journal (the log): one family, rooted at `JournalError`. Pure.

Irregularities at the table are data (incidents), never exceptions. These are for a journal that
cannot be used as asked: missing, another station's, of an unknown schema, broken or tampered,
or a commit that failed. Refused credentials are `station.people.exc`, workflow steps that are
not allowed `station.incidents.exc`. Each leaf also inherits the builtin it refines, so callers
that only know the builtins still catch the right thing.
"""

from __future__ import annotations


class JournalError(Exception):
    """Root of the journal family: the journal cannot be used as asked."""


class JournalNotFoundError(JournalError, FileNotFoundError):
    """There is no journal at the given path (and creating one was not asked for)."""


class WrongStationError(JournalError, ValueError):
    """The journal file belongs to another station."""


class JournalLinkedError(JournalError, ValueError):
    """The journal file has more than one name (a hard link), or is named through a symbolic
    link where its own path is needed: SQLite keeps the WAL by name, and the daemon's lock by
    path, so two names could fork the chain. The message says what to do."""


class SchemaError(JournalError, RuntimeError):
    """The database schema is not one this code knows (a newer station, or tampering)."""


class IntegrityError(JournalError, RuntimeError):
    """The journal failed a check: hash chain, sequence, anchor or SQLite integrity."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq


class RecoveryMismatchError(IntegrityError):
    """Replaying the journal did not re-derive the decisions it holds (a bug, or tampering)."""


class JournalWriteError(JournalError, OSError):
    """A commit failed (disk full, I/O error, database locked too long): nothing was recorded."""


class JournalAccessError(JournalWriteError, PermissionError):
    """This user may not write the journal or its folder (a read-only place, another owner):
    the message says which path and which user."""


class JournalStorageError(JournalWriteError):
    """SQLite could not write: the disk is full, an I/O error, the file locked too long. Nothing
    of that transaction was recorded; what was committed before is intact. It may pass (space
    freed): the daemon stays up, refuses new hands and tries again."""
