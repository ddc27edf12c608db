"""Fixtures for the journal tests: real SQLite files in tmp dirs and a manual clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.people.staff import Authenticated, add_person, authenticate

STATION = "T01"
PINS = {
    "ada": "739514",  # admin
    "flo": "482915",  # floor
    "fay": "602837",  # floor
    "dan": "915372",  # dealer
    "tom": "270648",  # technician
}
ROLES = {
    "ada": ActorRole.ADMIN,
    "flo": ActorRole.FLOOR,
    "fay": ActorRole.FLOOR,
    "dan": ActorRole.DEALER,
    "tom": ActorRole.TECHNICIAN,
}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def journal(path: Path, clock: ManualClock) -> Iterator[Journal]:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as j:
        yield j


@pytest.fixture
def recorder(journal: Journal) -> Recorder:
    rec = Recorder(journal)
    rec.recover()
    return rec


def enrol(journal: Journal, *names: str) -> None:
    """Enrol people from PINS (ada, the admin, first)."""
    admin: Authenticated | None = None
    for name in ("ada", *names):
        if name == "ada":
            if not any(True for _ in journal.conn.execute("SELECT 1 FROM people")):
                add_person(journal, "ada", ActorRole.ADMIN, PINS["ada"], by=None)
            admin = authenticate(journal, "ada", PINS["ada"], purpose="enrol")
            continue
        add_person(journal, name, ROLES[name], PINS[name], by=admin)


@pytest.fixture
def staffed(journal: Journal) -> Journal:
    enrol(journal, "flo", "fay", "dan", "tom")
    return journal


COMMAND_MODULES = {
    "journal": "station.cli.journal",
    "incidents": "station.cli.incidents",
    "hands": "station.cli.hands",
    "crashtest": "station.cli.crashtest",
}


def station(*argv: str) -> int:
    """Run one of the journal's `station` commands the way station.cli does (its module's
    add_arguments and run), without importing the other commands' modules."""
    import argparse
    import importlib

    name, rest = argv[0], list(argv[1:])
    module = importlib.import_module(COMMAND_MODULES[name])
    parser = argparse.ArgumentParser(prog=f"station {name}")
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(rest)))


@pytest.fixture(scope="session")
def scenario_journals(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Path]]:
    """Every rule scenario with a finished hand journaled once, as the daemon journals its
    inputs: (session, journal file), for the tests that read them back (hand rows, PHH)."""
    from tests.journal.sessions import journal_every_session

    return journal_every_session(tmp_path_factory.mktemp("scenario-journals"))
