"""A small TOML schema walker: typed reads of one table, every problem collected. Pure.

Each `Section` reads the keys it knows from one TOML table and, on `done()`, reports every key
it did not read as unknown (with a close match as a suggestion). Problems are `Problem(file,
key, message)` with the dotted key, so a technician reads `station.toml: shoe.prot: unknown key
(did you mean port?)`. Nothing raises: a bad value records a problem and returns None.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, TypeVar

from station.config.checks import Problem

T = TypeVar("T")


class Problems:
    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[Problem] = []

    def add(self, key: str, message: str) -> None:
        self.items.append(Problem(self.file, key, message))

    def extend(self, problems: Collection[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)


def suggest(name: str, known: Collection[str]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Section:
    """One TOML table under the dotted `prefix` ("" for the top level)."""

    def __init__(self, doc: Mapping[str, Any], prefix: str, problems: Problems) -> None:
        self.doc = doc
        self.prefix = prefix
        self.problems = problems
        self._read: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def bad(self, name: str, message: str) -> None:
        self.problems.add(self.key(name), message)

    def has(self, name: str) -> bool:
        self._read.add(name)
        return name in self.doc

    def _get(self, name: str, required: bool) -> Any:
        self._read.add(name)
        if name not in self.doc:
            if required:
                self.bad(name, "missing (required)")
            return None
        return self.doc[name]

    def _typed(self, name: str, required: bool, ok: Callable[[Any], bool], what: str) -> Any | None:
        value = self._get(name, required)
        if value is None:
            return None
        if not ok(value):
            self.bad(name, f"must be {what}, not {value!r}")
            return None
        return value

    def text(
        self,
        name: str,
        *,
        required: bool = False,
        choices: Collection[str] | None = None,
        default: str | None = None,
    ) -> str | None:
        """Text; `default` when missing or bad (the problem is recorded)."""
        value = self._typed(
            name, required, lambda v: isinstance(v, str) and bool(v.strip()), "text"
        )
        if value is None:
            return default
        if choices is not None and value not in choices:
            self.bad(name, f"{value!r} is not one of {', '.join(choices)}{suggest(value, choices)}")
            return default
        return str(value)

    def integer(
        self, name: str, *, required: bool = False, low: int | None = None, high: int | None = None
    ) -> int | None:
        value = self._typed(name, required, _is_int, "a whole number")
        if value is None:
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{low}-{high}" if low is not None and high is not None else f">= {low}"
            self.bad(name, f"must be {span}, not {value}")
            return None
        return int(value)

    def number(self, name: str, *, low: float = 0.0) -> float | None:
        value = self._typed(name, False, lambda v: _is_int(v) or isinstance(v, float), "a number")
        if value is None:
            return None
        if value <= low:
            self.bad(name, f"must be greater than {low:g}, not {value}")
            return None
        return float(value)

    def flag(self, name: str, default: bool) -> bool:
        value = self._typed(name, False, lambda v: isinstance(v, bool), "true or false")
        return default if value is None else bool(value)

    def path(self, name: str, base: Path, *, required: bool = False) -> Path | None:
        """A file path; relative ones are relative to the config file's folder."""
        value = self.text(name, required=required)
        if value is None:
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else base / p

    def table(self, name: str, *, required: bool = False) -> Section | None:
        value = self._typed(name, required, lambda v: isinstance(v, dict), "a table")
        if value is None:
            return None
        return Section(value, self.key(name), self.problems)

    def raw(self, name: str) -> Any:
        return self._get(name, False)

    def done(self) -> None:
        """Report every key nobody read: unknown keys are errors, never ignored."""
        for name in self.doc:
            if name not in self._read:
                self.bad(name, f"unknown key{suggest(name, self._read)}")
