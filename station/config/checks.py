"""The check framework behind `station config check`: named checks returning problems. Pure.

A check takes the `CheckInputs` (which files to check) and returns a `CheckResult`: the problems
it found (each `FILE: KEY: problem`) and a one-line summary for the "ok" report. `CHECKS` lists
them in order; `run_checks` runs every one, so one run reports every problem in every file.
To check another file, add a field to `CheckInputs`, write a function returning a `CheckResult`
and add it to `CHECKS`. A check with nothing to check returns an empty summary (no "ok" line).
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
    """What to check. `None` means the embedded default (or: not configured). With `station`
    (a station.toml), the pin map and deck registry it names are checked unless `pinmap` says
    otherwise."""

    pinmap: Path | None = None
    extra: dict[str, Path] = field(default_factory=dict)  # room for the daemon's files
    station: Path | None = None


Check = Callable[[CheckInputs], CheckResult]


def lazy(target: str) -> Check:
    """A check named `module:function`, imported only when it runs (so `station --help`, which
    imports every command module, does not pay for gpiozero)."""
    module_name, _, attr = target.partition(":")

    def check(inputs: CheckInputs) -> CheckResult:
        return cast(Check, getattr(importlib.import_module(module_name), attr))(inputs)

    return check


CHECKS: tuple[tuple[str, Check], ...] = (
    ("pinmap", lazy("station.config.pinmap_check:check")),
    ("station", lazy("station.config.station_check:check_station")),
    ("registry", lazy("station.config.station_check:check_registry")),
)


def run_checks(
    inputs: CheckInputs, checks: Sequence[tuple[str, Check]] = CHECKS
) -> list[CheckResult]:
    return [check(inputs) for _, check in checks]
