"""Engine bugs found by the differential run, one minimal recorded session each (cases/*.jsonl).

Every case file starts with '# expected: {...}' (the snapshot values the rulebook gives after the
last line) and '#' lines with the rule and the reason; `station replay FILE --json --trace` replays
it. Each case is a strict xfail while the bug is open: the day the engine is fixed the test
XPASSes, which fails the run, and the entry is then removed from known_bugs.py (so the
differential run compares that point again) and the xfail mark from here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from station.engine.table import Table
from station.formats.session import parse_session
from tests.differential.known_bugs import KNOWN_BUGS

CASES = Path(__file__).parent / "cases"
OPEN = {bug.case: bug for bug in KNOWN_BUGS}


def _expected(path: Path) -> dict[str, Any]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expected: "), path.name
    return dict(json.loads(first.removeprefix("# expected: ")))


def _replay(path: Path) -> Table:
    session = parse_session(path.read_text(encoding="utf-8"), path.name)
    table = Table()
    for line in session.lines:
        table.feed(line.event, seq=line.line, at=line.t)
    return table


def _params() -> list[Any]:
    out = []
    for path in sorted(CASES.glob("*.jsonl")):
        bug = OPEN.get(path.stem)
        marks = (
            [pytest.mark.xfail(strict=True, reason=f"open engine bug ({bug.rule}): {path.name}")]
            if bug is not None
            else []
        )
        out.append(pytest.param(path, marks=marks, id=path.stem))
    return out


@pytest.mark.parametrize("path", _params())
def test_case_replays_to_the_rulebook_value(path: Path) -> None:
    expected = _expected(path)
    snap = _replay(path).snapshot()
    assert {k: getattr(snap, k) for k in expected} == expected


def test_every_known_bug_has_its_case() -> None:
    for bug in KNOWN_BUGS:
        path = CASES / f"{bug.case}.jsonl"
        assert path.exists(), bug.case
        text = path.read_text(encoding="utf-8")
        assert bug.rule in text, bug.case
        assert bug.diagnosis


def test_case_files_are_valid_sessions() -> None:
    # The '#' lines are comments to the reader (docs/session-format.md: they are ignored).
    paths = sorted(CASES.glob("*.jsonl"))
    assert paths
    for path in paths:
        session = parse_session(path.read_text(encoding="utf-8"), path.name)
        assert session.lines
