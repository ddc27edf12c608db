"""Where `station run` keeps its journal: one daemon per journal (the second exits 2 naming the
first's pid), files created 0600 (0640 with `group_read`), and a journal path that is a folder
or sits in a missing folder refused by `config check` and by `station run` alike (exit 2, no
traceback, no folder made)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from station.cli import main
from station.daemon.daemon import Overrides
from station.daemon.lock import DaemonLock, JournalInUseError
from station.journal import ActorRole
from tests.conftest import StationRun
from tests.daemon.conftest import Running, start_daemon, write_config

ROOT = Path(__file__).resolve().parents[2]


def _run(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "station.cli", "run", "--config", str(config)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def _modes(journal: Path) -> dict[str, int]:
    return {
        p.name: stat.S_IMODE(p.stat().st_mode)
        for p in sorted(journal.parent.iterdir())
        if p.name.startswith(journal.name)
    }


def test_a_second_station_run_on_one_journal_exits_2_naming_the_first(
    tmp_path: Path, daemons: list[Running]
) -> None:
    config = write_config(tmp_path)
    daemons.append(start_daemon(config, Overrides(environ={})))
    second = _run(config)
    assert second.returncode == 2
    assert f"is in use by station run pid {os.getpid()}" in second.stderr
    assert "Traceback" not in second.stderr
    with pytest.raises(JournalInUseError) as caught:
        DaemonLock(tmp_path / "journal.sqlite").acquire()
    assert caught.value.pid == os.getpid()
    daemons.pop().stop()
    with DaemonLock(tmp_path / "journal.sqlite"):  # free again once the first has stopped
        pass


@pytest.mark.parametrize(("extra", "mode"), [("", 0o600), ("group_read = true\n", 0o640)])
def test_station_run_creates_its_journal_files_with_the_mode(
    tmp_path: Path, daemons: list[Running], extra: str, mode: int
) -> None:
    config = write_config(tmp_path)
    text = config.read_text(encoding="utf-8").replace(
        'path = "journal.sqlite"\n', f'path = "journal.sqlite"\n{extra}'
    )
    config.write_text(text, encoding="utf-8")
    old = os.umask(0)  # the loosest umask: the modes must not depend on it
    try:
        running = start_daemon(config, Overrides(environ={}))
    finally:
        os.umask(old)
    daemons.append(running)
    modes = _modes(tmp_path / "journal.sqlite")
    daemons.pop().stop()
    names = {f"journal.sqlite{s}" for s in ("", "-wal", "-shm", "-head", "-lock", "-auth")}
    assert set(modes) <= names
    assert {"journal.sqlite", "journal.sqlite-wal", "journal.sqlite-head"} <= set(modes)
    assert set(modes.values()) == {mode}


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_a_journal_path_that_cannot_be_a_journal_is_a_config_problem(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str], station_cli: StationRun
) -> None:
    config = write_config(tmp_path)
    if where == "folder":
        (tmp_path / "journal.sqlite").mkdir()
        wanted = f"{tmp_path / 'journal.sqlite'} is a folder, not a journal file"
        target = 'path = "journal.sqlite"'
    else:
        wanted = f"the folder {tmp_path / 'no' / 'such'} does not exist"
        target = 'path = "no/such/journal.sqlite"'
    text = config.read_text(encoding="utf-8").replace('path = "journal.sqlite"', target)
    config.write_text(text, encoding="utf-8")
    assert main(["config", "check", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"{config}: journal.path: {wanted}" in err
    run = station_cli("run", "--config", str(config))  # in this process; as one: test_smoke
    assert run.returncode == 2  # systemd does not restart it (RestartPreventExitStatus=2)
    assert f"{config}: journal.path: {wanted}" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "no").exists()  # nothing created, by root or anyone


def test_a_rolled_back_journal_is_a_critical_tilt_at_start_and_no_new_hand(
    tmp_path: Path, daemons: list[Running]
) -> None:
    """An older copy of the journal put back while the station was off: the station comes up
    for the display, says JOURNAL ALARM, and refuses NEW_HAND (journaled) until cleared."""
    from station.engine.events import Key
    from station.journal import Code, ManualClock
    from station.journal.rows import Entry
    from station.journal.store import Journal
    from tests.daemon.test_disk_full import Table, _blocked

    path = tmp_path / "journal.sqlite"
    with Journal.open(path, clock=ManualClock(), station_id="T07", create=True) as journal:
        note = Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)
        journal.append([note])
        journal.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        backup = tmp_path / "backup.sqlite"
        backup.write_bytes(path.read_bytes())
        journal.append([note, note, note])
    os.replace(backup, path)
    table = Table(tmp_path, daemons, 0, journal=path)
    try:
        assert table.sink.status.alert == "JOURNAL ALARM"
        table.press("NEW_HAND", _blocked)
        rows = table.acts()
        assert rows[-1][1] == Code.INPUT_REFUSED
        assert Code.INPUT_KEY not in [c for _, c, _ in rows]
        with Journal.open(path, clock=ManualClock()) as journal:
            refused = journal.row(rows[-1][0])
            tilt = next(iter(journal.rows(codes={Code.TILT_RAISED})))
        assert refused is not None and refused.data()["key"] == Key.NEW_HAND.value
        assert refused.data()["blocked"] == ["tilt journal_integrity"]
        assert "3 row(s) lost" in str(tilt.data()["detail"])
    finally:
        daemons.pop().stop()
        table.close()
