"""One definition of a hand's rows (station/recall/hand_rows.py), used by every view: the
incident list, the hand list, `hands show` and the floor screen's recall agree on which hand
each incident belongs to, every journal row belongs to exactly one hand, and a recall starts
with its own preparation, not the previous hand's leftovers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.incidents.workflow import incidents
from station.journal.clock import ManualClock
from station.journal.codes import Code
from station.journal.queries import rows_of_hands
from station.journal.store import Journal
from station.recall.hand_rows import candidates, owners, rows_of_hand
from station.recall.hands import load_hand, recent_hands
from station.recall.steps import StepKind

from .conftest import station


def _agree(journal: Journal) -> int:
    """Every view puts every engine incident in the same hand, and the rows of the hands
    partition the journal. Returns the number of hands checked."""
    rows = list(journal.rows())
    owner = owners(rows)
    last = max((r.hand for r in rows if r.code == Code.HAND_START), default=0)
    seen: dict[int, int] = {}
    listed = {h.hand: h.incidents for h in recent_hands(journal, 10_000)}
    by_list: dict[int, list[int]] = {}
    for rec in incidents(journal).values():
        if rec.source == "engine":
            by_list.setdefault(rec.hand, []).append(rec.id)
    for hand in range(1, last + 1):
        own = rows_of_hand(rows_of_hands(journal, candidates(hand)), hand)
        assert [r.seq for r in own] == [s for s, h in owner.items() if h == hand]
        for r in own:
            assert r.seq not in seen, f"seq {r.seq} in hands {seen[r.seq]} and {hand}"
            seen[r.seq] = hand
        recall = load_hand(journal, hand)
        assert recall is not None
        in_recall = [s.seq for s in recall.steps if s.kind is StepKind.INCIDENT]
        assert sorted(in_recall) == sorted(by_list.get(hand, [])), f"hand {hand}"
        if hand in listed:
            assert listed[hand] == len(in_recall), f"hand {hand}: hands list count"
    return last


def test_the_views_agree_on_every_demo_hand(demo_table: Path) -> None:
    with Journal.open(demo_table / "journal.sqlite", clock=ManualClock()) as journal:
        assert _agree(journal) == 6


def test_the_views_agree_on_every_scenario_hand(
    scenario_journals: list[tuple[Path, Path]],
) -> None:
    checked = 0
    for _session, path in scenario_journals:
        with Journal.open(path, clock=ManualClock()) as journal:
            checked += _agree(journal)
    assert checked >= 60


def test_the_floor_call_after_a_void_hand_is_in_that_hand_everywhere(
    demo_table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's hand 5 is voided (a duplicate card) and the dealer then calls the floor:
    the CALL FLOOR incident names hand 5 and is hand 5's in every view, not hand 6's."""
    path = str(demo_table / "journal.sqlite")
    assert station("incidents", "list", "--json", "--journal", path) == 0
    listed = {r["rule"]: r["hand"] for r in json.loads(capsys.readouterr().out)}
    assert listed["STATION-FLOOR-CALL"] == listed["DECK-DUPLICATE-CARD"] == 5
    assert station("hands", "list", "--json", "--journal", path) == 0
    counts = {h["hand"]: h["incidents"] for h in json.loads(capsys.readouterr().out)}
    assert counts[5] == 2 and counts[6] == 0
    assert station("hands", "show", "5", "--journal", path) == 0
    five = capsys.readouterr().out
    assert "STATION-FLOOR-CALL" in five and "CALL FLOOR cleared by floor1" in five
    assert station("hands", "show", "6", "--journal", path) == 0
    six = capsys.readouterr().out
    assert "STATION-FLOOR-CALL" not in six and "CALL FLOOR cleared" not in six


def test_a_recall_starts_with_its_own_preparation(demo_table: Path) -> None:
    """The demo table seats 1-6; its bet-zone board reports all ten zones empty as it starts.
    Hand 1 shows no zone of seats 7-10, and hand 2 starts after hand 1's chips were pushed and
    its zone cleared (that collection is hand 1's last step)."""
    with Journal.open(demo_table / "journal.sqlite", clock=ManualClock()) as journal:
        one = load_hand(journal, 1)
        two = load_hand(journal, 2)
    assert one is not None and two is not None
    assert not [s for s in one.steps if s.seat is not None and s.seat > 6]
    assert [s.kind for s in one.steps][-1] is StepKind.COLLECT
    assert StepKind.COLLECT not in [s.kind for s in two.steps[:5]]
    first_input = next(s for s in two.steps if s.kind is not StepKind.PROMPT)
    assert first_input.kind is StepKind.SETUP
