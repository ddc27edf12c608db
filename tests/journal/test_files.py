"""The journal's files are owner-only (0600), or 0640 when asked for a group of floor tools:
the main file, SQLite's WAL and SHM, the head witness; whatever the umask. A failed or killed
creation leaves nothing behind. (The demo and `station run`: tests/daemon/test_files_mode.py.)
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry
from station.journal.store import Journal

from .conftest import STATION, station


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The loosest umask there is: modes must not depend on it."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _files(path: Path) -> list[Path]:
    return [path.with_name(path.name + s) for s in ("", "-wal", "-shm", "-head")]


@pytest.mark.usefixtures("open_umask")
@pytest.mark.parametrize(("flag", "mode"), [((), 0o600), (("--group-read",), 0o640)])
def test_journal_init_creates_every_file_with_the_mode(
    tmp_path: Path, flag: tuple[str, ...], mode: int
) -> None:
    path = tmp_path / "journal.sqlite"
    assert station("journal", "init", "--journal", str(path), "--station", STATION, *flag) == 0
    with Journal.open(path, clock=ManualClock()) as journal:  # the WAL and SHM exist while open
        journal.append([Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)])
        assert {p.name: _mode(p) for p in _files(path)} == {p.name: mode for p in _files(path)}


def test_a_world_readable_journal_is_made_private_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    Journal.open(path, clock=ManualClock(), station_id=STATION, create=True).close()
    path.chmod(0o644)
    Journal.open(path, clock=ManualClock()).close()
    assert _mode(path) == 0o640  # other users' access gone; the group's is the admin's choice


class _FailingClock(ManualClock):
    def utc(self) -> datetime:
        raise RuntimeError("clock fault while creating")


def test_a_failed_creation_leaves_no_half_built_files(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with pytest.raises(RuntimeError):
        Journal.open(path, clock=_FailingClock(), station_id=STATION, create=True)
    assert list(tmp_path.iterdir()) == []


def test_leftovers_of_a_creator_that_died_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    dead = 2**22 + 12345  # above pid_max's default: no such process
    leftovers = [tmp_path / f".journal.sqlite.{dead}.creating{s}" for s in ("", "-wal", "-shm")]
    for p in leftovers:
        p.write_bytes(b"half")
    Journal.open(path, clock=ManualClock(), station_id=STATION, create=True).close()
    assert not any(p.exists() for p in leftovers)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite", "journal.sqlite-head"]


def test_journal_init_in_a_missing_folder_says_so_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no" / "journal.sqlite"
    assert station("journal", "init", "--journal", str(path), "--station", STATION) == 2
    assert f"the folder {path.parent} does not exist" in capsys.readouterr().err
    assert not path.parent.exists()
