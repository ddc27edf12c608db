"""What every bench shares: the one-JSON-line report with its bar, percentiles, and the figures
of a process read from /proc. Edge adapter (stdout, /proc).

The line is one JSON object: `"bench"` (its name) first, then the figures (units in the key
names: `_s`, `_ms`, `_mb`, `_pct`, `per_s`), then `"bar"` (figure -> bar of docs/performance.md it
is held to, as `"<= 20"`, `">= 2000"` or `"== 0"`) and `"ok"` (true when every bar is met; a figure
that could not be measured fails its bar). Human text goes to stderr.
"""

from __future__ import annotations

import json
import math
import operator
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "==": operator.eq,
}


@dataclass(frozen=True, slots=True)
class Bar:
    """One quality bar: `figure op limit`, e.g. Bar("p99_ms", "<=", 20)."""

    figure: str
    op: str
    limit: float

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ValueError(f"unknown bar operator {self.op!r}")

    @property
    def text(self) -> str:
        return f"{self.op} {self.limit:g}"

    def met(self, figures: Mapping[str, object]) -> bool:
        value = figures.get(self.figure)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return _OPS[self.op](float(value), self.limit)


def report(bench: str, figures: Mapping[str, object], bars: Sequence[Bar]) -> dict[str, object]:
    """The bench's JSON object: name, figures, the bars and whether all are met."""
    out: dict[str, object] = {"bench": bench, **figures}
    out["bar"] = {bar.figure: bar.text for bar in bars}
    out["ok"] = all(bar.met(figures) for bar in bars)
    return out


def emit(
    bench: str,
    figures: Mapping[str, object],
    bars: Sequence[Bar],
    out: TextIO | None = None,
) -> dict[str, object]:
    """Print the bench's one JSON line (stdout by default) and return the object."""
    line = report(bench, figures, bars)
    print(json.dumps(line), file=out if out is not None else sys.stdout, flush=True)
    return line


def say(text: str) -> None:
    """Progress for a human, on stderr (stdout carries only the JSON line)."""
    print(text, file=sys.stderr, flush=True)


def percentile(values: Sequence[float], pct: float) -> float:
    """The nearest-rank percentile of `values` (which need not be sorted); nan when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


# --- a process, from /proc --------------------------------------------------------------------

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_s(pid: int | str = "self") -> float:
    """User + system CPU seconds the process has used (all its threads)."""
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    fields = stat[stat.rindex(")") + 2 :].split()
    # After the command name: state is field 3; utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / _CLK_TCK


def proc_status(pid: int | str = "self") -> dict[str, str]:
    """/proc/PID/status as field -> value text (e.g. "VmHWM" -> "41236 kB")."""
    out: dict[str, str] = {}
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        key, _, value = line.partition(":")
        out[key] = value.strip()
    return out


def status_mb(field: str, pid: int | str = "self") -> float:
    """A memory figure of /proc/PID/status (VmRSS, VmHWM, ...) in MB (2**20 bytes)."""
    value = proc_status(pid).get(field)
    if value is None:
        raise ValueError(f"no {field} in /proc/{pid}/status")
    return round(int(value.split()[0]) / 1024, 1)
