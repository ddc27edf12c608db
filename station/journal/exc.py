"""Exceptions of the journal package, one root per family. Pure.

Irregularities at the table are data (incidents), never exceptions. These are for a broken or
tampered journal, refused credentials, workflow steps that are not allowed, and bad input to the
command line. Each leaf also inherits the builtin it refines, so callers that only know the
builtins still catch the right thing.
"""

from __future__ import annotations


class JournalError(Exception):
    """Root of the journal family: the journal cannot be used as asked."""


class JournalNotFoundError(JournalError, FileNotFoundError):
    """There is no journal at the given path (and creating one was not asked for)."""


class WrongStationError(JournalError, ValueError):
    """The journal file belongs to another station."""


class SchemaError(JournalError, RuntimeError):
    """The database schema is not one this code knows (a newer station, or tampering)."""


class ForeignWriterError(JournalError, RuntimeError):
    """Another process fed input events into the journal this recorder owns."""


class IntegrityError(JournalError, RuntimeError):
    """The journal failed a check: hash chain, sequence, anchor or SQLite integrity."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq


class RecoveryMismatchError(IntegrityError):
    """Replaying the journal did not re-derive the decisions it holds (a bug, or tampering)."""


class AuthError(Exception):
    """Root of the credential family: a person could not be authenticated or authorised."""


class BadCredentialError(AuthError, PermissionError):
    """Unknown person, disabled person or wrong PIN (deliberately not told apart)."""


class LockedOutError(AuthError, PermissionError):
    """Too many failed PINs: the person is locked out for a while."""

    def __init__(self, message: str, remaining_s: float) -> None:
        super().__init__(message)
        self.remaining_s = remaining_s


class RoleRefusedError(AuthError, PermissionError):
    """The person is authenticated but their role may not do this."""


class WeakPinError(AuthError, ValueError):
    """A new PIN does not meet the policy (at least 6 digits, not trivially guessable)."""


class PeopleError(AuthError, ValueError):
    """A people-management request that cannot be done (duplicate name, bad name, last admin)."""


class WorkflowError(Exception):
    """Root of the incident-workflow family."""


class UnknownIncidentError(WorkflowError, LookupError):
    """No incident has this id."""


class TransitionError(WorkflowError, ValueError):
    """The step is not allowed from the incident's state, or by this person."""


class JournalWriteError(JournalError, OSError):
    """A commit failed (disk full, I/O error, database locked too long): nothing was recorded."""


class JournalStorageError(JournalWriteError):
    """SQLite could not write: the disk is full, an I/O error, the file locked too long. Nothing
    of that transaction was recorded; what was committed before is intact. It may pass (space
    freed): the daemon stays up, refuses new hands and tries again."""
