"""Hidden cards (hole and burn cards) are read only with a floor, technician or admin
credential, and every read leaves an audit row (who, what, when) committed before the cards are
shown; public exports stay open."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from station.journal.clock import ManualClock
from station.journal.codes import Code
from station.journal.store import Journal

from .conftest import PINS, enrol, station
from .synth import Writer, write_hand


@pytest.fixture
def played(journal: Journal, clock: ManualClock) -> Path:
    enrol(journal, "flo", "dan", "tom")
    writer = Writer(journal, clock)
    write_hand(writer, 1, setup=True)
    write_hand(writer, 2, setup=True, incident=False)
    return journal.path


def _reveals(path: Path) -> list[tuple[str, str, dict[str, object], str]]:
    with Journal.open(path, clock=ManualClock()) as journal:
        return [
            (r.actor, r.role, r.data(), r.recorded_utc)
            for r in journal.rows(codes={Code.RECALL_REVEALED})
        ]


def _pin(monkeypatch: pytest.MonkeyPatch, pin: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{pin}\n"))


def test_phh_export_without_a_credential_exits_2_and_shows_nothing(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert station("journal", "export", "--phh", "--journal", str(played)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (
        "station journal: export --phh holds hole and burn cards: name a floor supervisor, "
        "technician or admin with --person (their PIN is asked, and the read is journaled)"
    )
    assert _reveals(played) == []


def test_phh_export_with_a_floor_credential_leaves_an_audit_row(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "hands.phhs"
    _pin(monkeypatch, PINS["flo"])
    args = ("--journal", str(played), "--person", "flo", "--pin-stdin", "--out", str(out))
    assert station("journal", "export", "--phh", *args) == 0
    assert out.read_text(encoding="utf-8").startswith("[1]")
    [(actor, role, what, when)] = _reveals(played)
    assert (actor, role) == ("flo", "floor")
    assert what == {"hands": [1, 2], "export": "phh", "to": str(out)}
    assert when.endswith("Z")


@pytest.mark.parametrize(("person", "allowed"), [("tom", True), ("dan", False)])
def test_a_technician_may_read_them_and_a_dealer_may_not(
    played: Path, monkeypatch: pytest.MonkeyPatch, person: str, allowed: bool
) -> None:
    _pin(monkeypatch, PINS[person])
    args = ("--hand", "2", "--journal", str(played), "--person", person, "--pin-stdin")
    assert station("journal", "export", "--phh", *args) == (0 if allowed else 2)
    reveals = _reveals(played)
    assert reveals == (
        [] if not allowed else [(person, "technician", reveals[0][2], reveals[0][3])]
    )
    if allowed:
        assert reveals[0][2] == {"hands": [2], "export": "phh", "to": "stdout"}


def test_a_wrong_pin_shows_nothing_and_counts_toward_the_lockout(
    played: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _pin(monkeypatch, "583920")
    args = ("--journal", str(played), "--person", "flo", "--pin-stdin")
    assert station("journal", "export", "--phh", *args) == 2
    assert capsys.readouterr().out == ""
    with Journal.open(played, clock=ManualClock()) as journal:
        assert [r.actor for r in journal.rows(codes={Code.AUTH_FAILED})] == ["flo"]
    assert _reveals(played) == []


def test_public_views_need_no_credential(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert station("hands", "list", "--journal", str(played)) == 0
    assert station("hands", "show", "1", "--journal", str(played)) == 0
    assert "[hidden]" in capsys.readouterr().out
    assert station("incidents", "export", "--format", "json", "--journal", str(played)) == 0
    assert _reveals(played) == []
