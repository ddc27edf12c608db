"""Burn cards are hidden cards (issue 27, item 4): every view of a hand shows them as hidden
until a floor, technician or admin credential reveals them with an audit row, as hole cards.
The demo's journal has burns on the turn and river (hand 1) and a burn in front of a flop."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from station.central.console.views import event_lines
from station.engine.decisions import DealSlot
from station.journal.clock import ManualClock
from station.journal.codes import Code
from station.journal.store import Journal
from station.recall.hands import load_hand
from tests.conftest import demo_pins

from .conftest import station


def _burns(journal: Path) -> list[str]:
    """The burn cards of hand 1 as the journal holds them."""
    with Journal.open(journal, clock=ManualClock()) as j:
        recall = load_hand(j, 1)
        assert recall is not None
        return [d.card for d in recall.draws if d.role is DealSlot.BURN]


def _looks(journal: Path) -> list[str]:
    with Journal.open(journal, clock=ManualClock()) as j:
        return [r.actor for r in j.rows(codes={Code.RECALL_REVEALED})]


@pytest.fixture
def journal(demo_table: Path, tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite"
    for suffix in ("", "-head"):
        shutil.copy(demo_table / f"journal.sqlite{suffix}", tmp_path / f"journal.sqlite{suffix}")
    return path


def test_hands_show_hides_burns_until_revealed_with_an_audit_row(
    journal: Path,
    demo_table: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    burns = _burns(journal)
    assert len(burns) >= 2
    looks = _looks(journal)
    assert station("hands", "show", "1", "--journal", str(journal)) == 0
    text = capsys.readouterr().out
    burn_lines = [line for line in text.splitlines() if "  burn  " in line]
    assert len(burn_lines) == len(burns)
    assert all(line.rstrip().endswith("burn [hidden]") for line in burn_lines), burn_lines
    assert station("hands", "show", "1", "--json", "--journal", str(journal)) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    shown = [s for s in steps if s["kind"] == "burn"]
    assert shown and all(s["private"] and s["card"] == "[hidden]" for s in shown)
    assert not any(card in json.dumps(shown) for card in burns)
    # Revealed with a floor credential: the burns are shown, and the look is on record.
    name, pin = list(demo_pins(demo_table).items())[1]  # the floor supervisor
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{pin}\n"))
    args = ["hands", "show", "1", "--reveal", "--person", name, "--pin-stdin"]
    assert station(*args, "--journal", str(journal)) == 0
    revealed = capsys.readouterr().out
    assert all(f"burn {card}" in revealed for card in burns)
    assert _looks(journal) == [*looks, name]


def test_the_consoles_incident_lines_hide_burns(journal: Path) -> None:
    with Journal.open(journal, clock=ManualClock()) as j:
        recall = load_hand(j, 1)
        assert recall is not None
        rows = [j.row(s.seq) for s in recall.steps if s.kind.value == "burn"]
    lines = event_lines([r for r in rows if r is not None], recall)
    assert lines and all(text.endswith("[hidden]") for _, text in lines)
