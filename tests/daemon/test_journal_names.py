"""One journal, one daemon, whatever the journal is called (issue 27, item 2): a journal with a
second name (a hard link, made before or while a station runs), a journal named through a
symbolic link, or through a symbolic link to its folder, cannot get a second `station run`; the
refusal is a clear message and exit 2, and the first station's journal is intact."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from station.daemon.daemon import Overrides
from station.journal.verify import verify_file
from tests.daemon.conftest import Running, start_daemon, write_config

ROOT = Path(__file__).resolve().parents[2]


def _run(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "station.cli", "run", "--config", str(config)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def _second_table(tmp_path: Path, journal: Path, how: str) -> Path:
    """A second station folder whose config names `journal` by another name."""
    other = tmp_path / "other"
    other.mkdir()
    config = write_config(other)
    name = other / "journal.sqlite"
    if how == "hard link":
        os.link(journal, name)
    elif how == "symlink":
        name.symlink_to(journal)
    return config


def test_a_hard_link_to_a_running_stations_journal_gets_no_second_daemon(
    tmp_path: Path, daemons: list[Running]
) -> None:
    first = tmp_path / "first"
    first.mkdir()
    daemons.append(start_daemon(write_config(first), Overrides(environ={})))
    journal = first / "journal.sqlite"
    second = _run(_second_table(tmp_path, journal, "hard link"))
    assert second.returncode == 2, second.stderr
    assert "2 names (hard links)" in second.stderr and "Traceback" not in second.stderr
    daemons.pop().stop()
    (tmp_path / "other" / "journal.sqlite").unlink()
    assert verify_file(journal).ok


def test_a_journal_with_two_names_is_refused_before_any_daemon_starts(tmp_path: Path) -> None:
    first = tmp_path / "first"
    first.mkdir()
    config = write_config(first)
    Path(first / "journal.sqlite").touch()
    _second_table(tmp_path, first / "journal.sqlite", "hard link")
    for cfg in (config, tmp_path / "other" / "station.toml"):
        done = _run(cfg)
        assert done.returncode == 2
        assert "hard links" in done.stderr and "Traceback" not in done.stderr


def test_a_symlinked_journal_is_refused(tmp_path: Path, daemons: list[Running]) -> None:
    first = tmp_path / "first"
    first.mkdir()
    daemons.append(start_daemon(write_config(first), Overrides(environ={})))
    second = _run(_second_table(tmp_path, first / "journal.sqlite", "symlink"))
    assert second.returncode == 2
    assert "is a symbolic link to" in second.stderr and "Traceback" not in second.stderr


def test_a_journal_reached_through_a_linked_folder_is_the_same_journal(
    tmp_path: Path, daemons: list[Running]
) -> None:
    first = tmp_path / "first"
    first.mkdir()
    config = write_config(first)
    daemons.append(start_daemon(config, Overrides(environ={})))
    alias = tmp_path / "alias"
    alias.symlink_to(first, target_is_directory=True)
    second = _run(alias / "station.toml")
    assert second.returncode == 2
    assert f"in use by station run pid {os.getpid()}" in second.stderr
