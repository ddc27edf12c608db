"""The check framework behind `station config check`: named checks returning problems. Pure.

A check takes the `CheckInputs` (which files to check) and returns a `CheckResult`: the problems
it found (each `FILE: KEY: problem`) and a one-line summary for the "ok" report. `CHECKS` lists
them in order; `run_checks` runs every one, so one run reports every problem in every file.
To check another file (station.toml, the deck registry, a profile), add a field to `CheckInputs`,
write a function returning a `CheckResult` and add it to `CHECKS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}"


@dataclass(frozen=True, slots=True)
class CheckResult:
    name: str
    problems: tuple[Problem, ...] = ()
    summary: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class CheckInputs:
    """What to check. `None` means the embedded default (or: not configured)."""

    pinmap: Path | None = None
    extra: dict[str, Path] = field(default_factory=dict)  # room for the daemon's files


Check = Callable[[CheckInputs], CheckResult]


def lazy(target: str) -> Check:
    """A check named `module:function`, imported only when it runs (so `station --help`, which
    imports every command module, does not pay for gpiozero)."""
    module_name, _, attr = target.partition(":")

    def check(inputs: CheckInputs) -> CheckResult:
        return cast(Check, getattr(importlib.import_module(module_name), attr))(inputs)

    return check


CHECKS: tuple[tuple[str, Check], ...] = (("pinmap", lazy("station.config.pinmap_check:check")),)


def run_checks(
    inputs: CheckInputs, checks: Sequence[tuple[str, Check]] = CHECKS
) -> list[CheckResult]:
    return [check(inputs) for _, check in checks]
