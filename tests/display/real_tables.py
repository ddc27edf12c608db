"""Table states from real engine sessions, for the display tests: a recorded session (a rule
scenario of tests/scenarios, a PHH hand, or lines built with tests/engine/tablekit) replayed
through the engine up to a chosen input. The texts on screen are the engine's own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from station.engine.decisions import Decision
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.session import event_from_dict, read_session

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def steps(
    session: str | list[dict[str, Any]],
) -> Iterator[tuple[int, list[Decision], TableSnapshot]]:
    """(line, decisions, snapshot) after each input of a scenario (by its path under
    tests/scenarios) or of session lines given as dictionaries."""
    table = Table()
    if isinstance(session, str):
        for line in read_session(SCENARIOS / session).lines:
            out = table.feed(line.event, seq=line.line, at=line.t)
            yield line.line, out, table.snapshot()
        return
    for number, obj in enumerate(session, start=1):
        t, event = event_from_dict(obj)
        out = table.feed(event, seq=number, at=t)
        yield number, out, table.snapshot()


def at_line(session: str | list[dict[str, Any]], line: int) -> TableSnapshot:
    """The table right after input `line`."""
    for number, _, snap in steps(session):
        if number == line:
            return snap
    raise AssertionError(f"{session}: no line {line}")


def first(
    session: str | list[dict[str, Any]], wanted: Callable[[TableSnapshot], bool]
) -> tuple[int, TableSnapshot]:
    """The first table state for which `wanted` holds, and its line."""
    for number, _, snap in steps(session):
        if wanted(snap):
            return number, snap
    raise AssertionError(f"{session}: no such state")
