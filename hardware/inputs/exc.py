"""Errors of the table-input layer, gpiozero style (leaves also refine a builtin). Pure.

Irregular *input* (a bouncing key, a sensor reporting nonsense, two puck sensors at once) is never
an exception: it becomes an event. These errors are for bad configuration and dead back ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class InputsError(Exception):
    """Root of every error raised by `hardware.inputs`."""


@dataclass(frozen=True, slots=True)
class PinMapProblem:
    """One thing wrong in a pin map: `key` is the dotted path in the file (`keys.FOLD`)."""

    key: str
    message: str


class PinMapError(InputsError, ValueError):
    """A pin map is not valid. `problems` holds every problem found, not just the first."""

    def __init__(self, source: str, problems: Sequence[PinMapProblem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{source}: {p.key}: {p.message}" for p in self.problems))


class PinBackendError(InputsError, RuntimeError):
    """A pin back end could not be opened (no gpiochip, a pin refused by gpiozero/lgpio)."""


class EmulatorError(InputsError, ValueError):
    """An emulator script names an input the pin map does not have, or goes back in time."""
