"""A technician's first day, the commands one by one: `journal init` takes the station from the
config (and refuses a mismatch), `config check` reports a journal of another station and says
which file it checked, and people's names are unique ignoring case and look-alikes."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from station.cli import main
from station.journal import locate
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.owner import journal_owner
from station.journal.store import Journal
from station.people.exc import PeopleError
from station.people.staff import add_person, authenticate, list_people
from tests.daemon.conftest import write_config

ADMIN_PIN = "739514"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _owner(path: Path) -> str:
    found = journal_owner(path)
    assert found is not None
    return found.station_id


def test_journal_init_takes_the_station_from_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)  # station_id = "T07"
    journal = tmp_path / "journal.sqlite"
    code, _, err = _run(capsys, "journal", "init", "--config", str(config), "--station", "T99")
    assert code == 2
    assert "--station T99 but" in err and "station_id = 'T07'" in err
    assert not journal.exists()  # nothing created
    code, out, _ = _run(capsys, "journal", "init", "--config", str(config))
    assert code == 0
    assert f"journal created at {journal} for station T07" in out
    assert _owner(journal) == "T07"


def test_journal_init_agrees_with_the_config_when_both_name_the_station(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    code, _, _ = _run(capsys, "journal", "init", "--config", str(config), "--station", "T07")
    assert code == 0
    assert _owner(tmp_path / "journal.sqlite") == "T07"


def test_journal_init_without_a_station_or_a_config_asks_for_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "bare.sqlite"
    code, _, err = _run(capsys, "journal", "init", "--journal", str(bare))
    assert code == 2
    assert "which station is this journal for?" in err
    assert not bare.exists()


def test_journal_init_on_the_installed_config_takes_its_station(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    installed = write_config(tmp_path)
    monkeypatch.delenv("STATION_JOURNAL", raising=False)
    monkeypatch.setattr(locate, "INSTALLED_CONFIG", installed)
    code, out, err = _run(capsys, "journal", "init")
    assert code == 0, err
    assert "for station T07" in out
    assert _owner(tmp_path / "journal.sqlite") == "T07"


def test_config_check_reports_a_journal_of_another_station(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's sequence: the journal made for T01, then station_id set to T07: `config
    check` says so (exit 2) instead of ok, as `station run` would refuse it."""
    config = write_config(tmp_path)
    with Journal.open(
        tmp_path / "journal.sqlite", clock=ManualClock(), station_id="T01", create=True
    ):
        pass
    code, _, err = _run(capsys, "config", "check", "--config", str(config))
    assert code == 2
    assert (
        f"{config}: station_id: {tmp_path / 'journal.sqlite'} is the journal of station T01, "
        "not T07" in err
    )
    code, out, _ = _run(capsys, "config", "check", "--config", str(config), "--json")
    assert code == 2 and '"name": "journal", "ok": false' in out


def test_config_check_of_a_matching_journal_and_of_none_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    code, out, _ = _run(capsys, "config", "check", "--config", str(config))
    assert code == 0
    assert f"ok: journal {tmp_path / 'journal.sqlite'}: not created yet" in out
    with Journal.open(
        tmp_path / "journal.sqlite", clock=ManualClock(), station_id="T07", create=True
    ):
        pass
    code, out, _ = _run(capsys, "config", "check", "--config", str(config))
    assert code == 0
    assert "belongs to this station" in out


def test_config_check_without_a_config_checks_the_installed_one_or_says_there_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "etc" / "station.toml"
    monkeypatch.setattr(locate, "INSTALLED_CONFIG", missing)
    code, out, err = _run(capsys, "config", "check")
    assert code == 2 and out == ""
    assert f"no --config FILE, and no installed config at {missing}" in err
    installed = write_config(tmp_path)
    monkeypatch.setattr(locate, "INSTALLED_CONFIG", installed)
    code, out, err = _run(capsys, "config", "check")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"checking the installed config {installed}"
    assert any(line.startswith(f"ok: station config {installed}: station T07") for line in lines)


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal.open(tmp_path / "j.sqlite", clock=ManualClock(), station_id="T07", create=True)
    add_person(j, "ada", ActorRole.ADMIN, ADMIN_PIN, by=None)
    return j


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Alice", "alice"),  # the pair
        ("alice", "ALICE"),
        ("alice", "aIice"),  # capital I for l
        ("alice", "a1ice"),  # digit one for l
        ("bob0", "bobO"),  # zero and O
        ("Morgan", "rnorgan"),  # rn for m
    ],
)
def test_names_that_look_alike_are_refused(journal: Journal, first: str, second: str) -> None:
    admin = authenticate(journal, "ada", ADMIN_PIN, purpose="enrol")
    add_person(journal, first, ActorRole.FLOOR, "482915", by=admin)
    admin = authenticate(journal, "ada", ADMIN_PIN, purpose="enrol")
    with pytest.raises(PeopleError, match=f"{second} looks like {first}, who is already enrolled"):
        add_person(journal, second, ActorRole.FLOOR, "602837", by=admin)
    assert [p.name for p in list_people(journal)] == sorted(["ada", first])


def test_names_that_differ_are_accepted(journal: Journal) -> None:
    admin = authenticate(journal, "ada", ADMIN_PIN, purpose="enrol")
    for i, name in enumerate(("alice", "alina", "al", "ali", "bob", "bo.b2")):
        add_person(journal, name, ActorRole.DEALER, f"{482915 + i * 1111}", by=admin)
    assert len(list_people(journal)) == 7


def test_a_name_from_another_alphabet_is_refused(journal: Journal) -> None:
    admin = authenticate(journal, "ada", ADMIN_PIN, purpose="enrol")
    with pytest.raises(PeopleError, match="A-Z only"):
        add_person(journal, "\u0430lice", ActorRole.FLOOR, "482915", by=admin)  # Cyrillic a


def test_users_add_refuses_alice_after_alice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.sqlite"
    assert main(["journal", "init", "--station", "T07", "--journal", str(path)]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{ADMIN_PIN}\n"))
    j = ("--journal", str(path), "--pin-stdin")
    assert main(["journal", "users", "add", "admin", "--role", "admin", *j]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{ADMIN_PIN}\n482915\n"))
    floor = ("--role", "floor", "--person", "admin")
    assert main(["journal", "users", "add", "Alice", *floor, *j]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{ADMIN_PIN}\n602837\n"))
    capsys.readouterr()
    code = main(["journal", "users", "add", "alice", *floor, *j])
    assert code == 2
    assert "alice looks like Alice, who is already enrolled" in capsys.readouterr().err
