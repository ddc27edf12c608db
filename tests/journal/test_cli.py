"""The journal's commands end to end on a real file: `station journal init|users|status`,
`station incidents list|show|rule|review|close|export`, `station hands list|show`. PINs come
from stdin (`--pin-stdin`), never from argv; exit 0 ok, 2 bad input or refused credential."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

from station.cli import COMMANDS
from station.journal.clock import ManualClock
from station.journal.codes import Code
from station.journal.locate import INSTALLED_CONFIG
from station.journal.store import Journal

from .conftest import COMMAND_MODULES, PINS, station
from .synth import HOLE, Writer, write_hand


def _stdin(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


@pytest.fixture
def cli_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    """A journal made with the CLI, its people enrolled with the CLI, and one journaled hand."""
    path = tmp_path / "table.sqlite3"
    monkeypatch.setenv("STATION_JOURNAL", str(path))
    assert station("journal", "init", "--station", "T07") == 0
    _stdin(monkeypatch, PINS["ada"])
    assert station("journal", "users", "add", "ada", "--role", "admin", "--pin-stdin") == 0
    for name, role in (("flo", "floor"), ("fay", "floor"), ("dan", "dealer")):
        _stdin(monkeypatch, PINS["ada"], PINS[name])
        args = ("users", "add", name, "--role", role, "--person", "ada", "--pin-stdin")
        assert station("journal", *args) == 0
    with Journal.open(path, clock=ManualClock(boot="synth")) as journal:
        write_hand(Writer(journal, ManualClock(boot="synth")), 1, setup=True)
    capsys.readouterr()
    return path


def test_every_journal_command_is_registered() -> None:
    for name, module in COMMAND_MODULES.items():
        assert COMMANDS[name][0] == module


def test_init_and_users(
    cli_journal: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert station("journal", "init", "--station", "T07") == 2  # exists already
    assert "already exists" in capsys.readouterr().err
    assert station("journal", "users", "list") == 0
    assert capsys.readouterr().out.split() == [
        "ada",
        "admin",
        "dan",
        "dealer",
        "fay",
        "floor",
        "flo",
        "floor",
    ]
    _stdin(monkeypatch, PINS["ada"], "123456")
    args = ("users", "add", "sam", "--role", "dealer", "--person", "ada", "--pin-stdin")
    assert station("journal", *args) == 2
    assert "a run of digits with one step" in capsys.readouterr().err
    _stdin(monkeypatch, "000001", "564783")
    assert station("journal", *args) == 2
    assert capsys.readouterr().err.strip() == "station journal: unknown person or wrong PIN"
    _stdin(monkeypatch, PINS["flo"], "564783")
    assert (
        station(
            "journal", "users", "add", "sam", "--role", "dealer", "--person", "flo", "--pin-stdin"
        )
        == 2
    )
    assert "needs admin" in capsys.readouterr().err
    _stdin(monkeypatch, PINS["ada"])
    assert station("journal", "users", "disable", "dan", "--person", "ada", "--pin-stdin") == 0
    assert station("journal", "status") == 0
    out = capsys.readouterr().out
    assert "play: allowed" in out and "station T07" in out


def test_pins_are_never_taken_from_argv(cli_journal: Path) -> None:
    with pytest.raises(SystemExit):
        station("journal", "users", "pin", "flo", "--person", "flo", "--pin", PINS["flo"])


def test_the_incident_workflow_from_the_command_line(
    cli_journal: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert station("incidents", "list", "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(i["rule"], i["state"]) for i in listed] == [("DECK-BOXED-SINGLE", "open")]
    iid = str(listed[0]["incident"])
    _stdin(monkeypatch, PINS["dan"])
    assert station("incidents", "rule", iid, "--text", "x", "--person", "dan", "--pin-stdin") == 2
    assert "floor" in capsys.readouterr().err
    _stdin(monkeypatch, PINS["flo"])
    args = ("rule", iid, "--text", "card replaced", "--camera", "CAM-3", "--person", "flo")
    assert station("incidents", *args, "--pin-stdin") == 0
    _stdin(monkeypatch, PINS["flo"])
    assert station("incidents", "review", iid, "--person", "flo", "--pin-stdin") == 2
    assert "ruled on this incident" in capsys.readouterr().err
    _stdin(monkeypatch, PINS["fay"])
    assert (
        station("incidents", "review", iid, "--person", "fay", "--note", "ok", "--pin-stdin") == 0
    )
    _stdin(monkeypatch, PINS["ada"])
    assert station("incidents", "close", iid, "--person", "ada", "--pin-stdin") == 0
    capsys.readouterr()
    assert station("incidents", "show", iid) == 0
    shown = capsys.readouterr().out
    assert f"incident {iid}  (closed)" in shown
    assert "ruling: card replaced" in shown and "by flo (floor)" in shown
    assert "reviewed by fay (floor)" in shown and "closed by ada (admin)" in shown
    assert "camera CAM-3 from" in shown
    out = cli_journal.parent / "incidents.csv"
    assert station("incidents", "export", "--format", "csv", "--out", str(out)) == 0
    row = next(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert (row["state"], row["ruled_by"], row["reviewed_by"], row["closed_by"]) == (
        "closed",
        "flo",
        "fay",
        "ada",
    )
    assert station("incidents", "export", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)[0]["station_id"] == "T07"
    assert station("incidents", "show", "99999") == 2


def test_hands_list_show_and_a_journaled_reveal(
    cli_journal: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert station("hands", "list") == 0
    assert capsys.readouterr().out.splitlines()[1].split()[0] == "1"
    assert station("hands", "show", "1") == 0
    hidden = capsys.readouterr().out
    assert "s7 hole [hidden]" in hidden and "Qs" not in hidden.split()
    _stdin(monkeypatch, PINS["dan"])
    assert station("hands", "show", "1", "--reveal", "--person", "dan", "--pin-stdin") == 2
    _stdin(monkeypatch, PINS["flo"])
    assert station("hands", "show", "1", "--reveal", "--person", "flo", "--pin-stdin") == 0
    revealed = capsys.readouterr().out
    assert all(f"hole {card}" in revealed for card in HOLE[7])
    with Journal.open(cli_journal, clock=ManualClock()) as journal:
        reveal = [r for r in journal.rows() if r.code == Code.RECALL_REVEALED]
    assert [(r.actor, r.data()) for r in reveal] == [("flo", {"hand": 1})]
    assert station("hands", "show", "1", "--json") == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert {s["card"] for s in steps if s["kind"] == "deal"} == {"[hidden]"}
    assert station("hands", "show", "5") == 2


def test_a_missing_journal_is_bad_input_and_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STATION_JOURNAL", str(tmp_path / "none.sqlite3"))
    assert station("incidents", "list") == 2
    assert station("hands", "list") == 2
    err = capsys.readouterr().err
    assert f"$STATION_JOURNAL names {tmp_path / 'none.sqlite3'}, which does not exist" in err
    monkeypatch.delenv("STATION_JOURNAL")
    monkeypatch.chdir(tmp_path)
    if not INSTALLED_CONFIG.exists():  # a development machine, not an installed table
        assert station("journal", "status") == 2
        err = capsys.readouterr().err
        assert "no --journal or --config option; $STATION_JOURNAL not set; " in err
        assert f"no installed config at {INSTALLED_CONFIG}" in err
        assert station("journal", "init", "--station", "T01") == 2  # no silent ./default
    assert station("journal", "init", "--station", "T01", "--journal", "new.sqlite") == 0
    assert (tmp_path / "new.sqlite").is_file()


def test_the_first_admin_can_get_a_generated_pin_shown_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """install.sh on a table with nobody to type a PIN: the first admin gets a random PIN the
    policy accepts, printed once, and it signs in."""
    from station.people.staff import authenticate

    path = tmp_path / "new.sqlite"
    assert station("journal", "init", "--station", "T07", "--journal", str(path)) == 0
    args = ("users", "add", "boss", "--role", "admin", "--generate-pin", "--journal", str(path))
    assert station("journal", *args) == 0
    out = capsys.readouterr().out
    pin = out.split("PIN of boss: ")[1].split()[0]
    assert len(pin) == 8 and pin.isdigit()
    with Journal.open(path, clock=ManualClock()) as journal:
        assert authenticate(journal, "boss", pin, purpose="test").person == "boss"
