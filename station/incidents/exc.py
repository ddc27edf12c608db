"""Exceptions of the incident workflow: a step that is not allowed, an incident that does not
exist. Pure.

Each leaf also inherits the builtin it refines, so callers that only know the builtins still
catch the right thing.
"""

from __future__ import annotations


class WorkflowError(Exception):
    """Root of the incident-workflow family."""


class UnknownIncidentError(WorkflowError, LookupError):
    """No incident has this id."""


class TransitionError(WorkflowError, ValueError):
    """The step is not allowed from the incident's state, or by this person."""
