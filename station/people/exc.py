"""Exceptions of the people room: a person could not be authenticated or authorised, or a
people-management request cannot be done. Pure.

Each leaf also inherits the builtin it refines, so callers that only know the builtins still
catch the right thing.
"""

from __future__ import annotations


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


class PinInUseError(WeakPinError):
    """Another active person has this PIN (whose is never said)."""


class PeopleError(AuthError, ValueError):
    """A people-management request that cannot be done (duplicate name, bad name, last admin)."""
