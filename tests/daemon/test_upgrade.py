"""Upgrading a table (docs/table.md): the version before runs a table (the demo's
people and hands, a restart that leaves a recovery checkpoint), then the new version starts on
the same journal, config and people; `station diag` names both versions. Then the downgrade:
the version before started again on the journal the new one wrote.

The version before is a real one: the release commit `OLD_COMMIT` unpacked from git (`git
archive`), run with this environment's interpreter (its pure engine: it has no compiled build).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from station.version import VERSION
from tests.daemon.conftest import NotifyListener

ROOT = Path(__file__).resolve().parents[2]
OLD_COMMIT = "599bbe5311926fc7b5fde44cd6719e3017cff273"  # version 0.1.0
OLD_VERSION = "0.1.0"
pytestmark = [pytest.mark.timeout(400), pytest.mark.slow]


@dataclass
class Version:
    name: str
    src: Path  # the checkout whose `station` package runs

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ, PYTHONPATH=str(self.src), SDL_VIDEODRIVER="dummy")
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "STATION_JOURNAL"):
            env.pop(name, None)
        env.update(SDL_AUDIODRIVER="dummy", PYTHONDONTWRITEBYTECODE="1", **extra)
        return env

    def station(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "station.cli", *args],
            capture_output=True, text=True, cwd=self.src, env=self.env(), timeout=timeout,
            check=False,
        )  # fmt: skip


@pytest.fixture(scope="module")
def work() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="upg-"))  # short: the status socket's path
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def old(work: Path) -> Version:
    known = subprocess.run(
        ["git", "cat-file", "-e", f"{OLD_COMMIT}^{{commit}}"], cwd=ROOT, check=False
    )
    if known.returncode != 0:
        pytest.fail(f"the release commit {OLD_COMMIT[:10]} is not in this clone (fetch it)")
    archive = subprocess.run(
        ["git", "archive", OLD_COMMIT, "station", "hardware", "firmware_bridge"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout  # fmt: skip
    src = work / "old"
    src.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(src, filter="data")
    return Version(OLD_VERSION, src)


NEW = Version(VERSION, ROOT)


def run_until_ready(version: Version, config: Path, work: Path) -> tuple[int, str]:
    """`station run` of this version as systemd starts it: READY=1, then SIGTERM. Returns the
    exit status and the log; a daemon that refuses to start returns before READY."""
    sock = work / f"notify-{version.name}.sock"
    sock.unlink(missing_ok=True)
    notify = NotifyListener(sock)
    proc = subprocess.Popen(
        [sys.executable, "-m", "station.cli", "run", "--config", str(config)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=version.src,
        env=version.env(NOTIFY_SOCKET=str(sock)),
    )  # fmt: skip
    try:
        notify.until("READY=1", 90)
    except AssertionError:
        if proc.poll() is None:
            proc.kill()
        log, _ = proc.communicate(timeout=60)
        notify.close()
        return proc.returncode, log
    try:
        diag = NEW.station("diag", "--config", str(config), "--json")
        (work / f"diag-{version.name}.json").write_text(diag.stdout)
    finally:
        proc.send_signal(signal.SIGTERM)
        log, _ = proc.communicate(timeout=60)
        notify.close()
    return proc.returncode, log


@pytest.fixture(scope="module")
def pristine(old: Version, work: Path) -> Path:
    """A table run by the version before: the demo's two hands and people, then a restart (its
    recovery replays the hands and leaves a checkpoint)."""
    folder = work / "pristine"
    demo = old.station("demo", "--headless", "--hands", "2", "--dir", str(folder), timeout=300)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    code, log = run_until_ready(old, folder / "station.toml", work)
    assert code == 0, log
    return folder


@pytest.fixture
def table(pristine: Path, work: Path) -> Path:
    """A copy of the table for one test (journal, witness, checkpoint, people, config)."""
    folder = work / f"t{len(list(work.glob('t*')))}"
    shutil.copytree(pristine, folder, ignore=shutil.ignore_patterns("*.sock", "*-lock"))
    return folder


def test_the_version_before_is_what_it_says(old: Version) -> None:
    version = old.station("--version")
    assert version.stdout.strip() == f"station {OLD_VERSION}"
    assert VERSION != OLD_VERSION


def upgrade(table: Path, work: Path) -> dict[str, object]:
    """Stop (the version before is stopped), install the new version, start: its diag."""
    code, log = run_until_ready(NEW, table / "station.toml", work)
    assert code == 0, log
    # The version before left no resume row (its pickled checkpoint is deleted): the first
    # start replays the journal, and what that version's engine derived otherwise is engine
    # drift, said in the log, not a replay mismatch.
    assert "engine drift:" in log and "REPLAY MISMATCH" not in log, log
    diag: dict[str, object] = json.loads((work / f"diag-{VERSION}.json").read_text())
    return diag


def test_an_upgrade_keeps_the_journal_checkpoint_people_and_config(
    old: Version, table: Path, work: Path
) -> None:
    config = table / "station.toml"
    before = {
        "people": old.station("journal", "users", "list", "--config", str(config)).stdout,
        "hands": old.station("hands", "list", "--config", str(config), "--json").stdout,
        "config": config.read_bytes(),
    }
    diag = upgrade(table, work)
    daemon, journal = diag["daemon"], diag["journal"]
    assert isinstance(daemon, dict) and isinstance(journal, dict)
    assert daemon["running"] is True and daemon["version"] == VERSION
    assert daemon["engine"].split(" ")[0] in ("native", "pure")
    software = journal["software"]
    assert [s["version"] for s in software] == [OLD_VERSION, VERSION]
    assert software[0]["starts"] == 2  # the demo and the restart
    assert software[1]["engine"] in ("native", "pure")
    assert journal["last_hand"] == 2
    text = NEW.station("diag", "--config", str(config)).stdout
    assert f"    {OLD_VERSION}: " in text and f"    {VERSION}, " in text
    # The people, the hands and the config carried over.
    people = NEW.station("journal", "users", "list", "--config", str(config)).stdout
    assert people == before["people"]
    assert NEW.station("hands", "list", "--config", str(config), "--json").stdout == before["hands"]
    assert config.read_bytes() == before["config"]
    assert NEW.station("config", "check", "--config", str(config)).returncode == 0


def test_the_upgraded_journal_verifies_as_sound(table: Path, work: Path) -> None:
    config = table / "station.toml"
    upgrade(table, work)
    after = json.loads(NEW.station("journal", "verify", "--config", str(config), "--json").stdout)
    assert after["ok"] is True, after["problems"]
    status = json.loads(NEW.station("journal", "status", "--config", str(config), "--json").stdout)
    # No critical tilt (a replay mismatch, an integrity problem); the daemon run without its
    # hardware leaves its links' non-critical ones.
    assert [t for t in status["tilts"] if t["critical"]] == [], status["tilts"]
    assert status["play_blocked"] == []
    code, log = run_until_ready(NEW, config, work)  # the next start: from its own resume row
    assert code == 0 and "engine drift" not in log and "replaying the whole" not in log, log


def test_a_downgrade_runs_on_the_newer_journal(old: Version, table: Path, work: Path) -> None:
    """The version before started again on a journal the new version wrote: it starts on it
    (the new start rows' extra field is read as it is) and shows its hands; diag shows the
    stretch."""
    config = table / "station.toml"
    upgrade(table, work)
    code, log = run_until_ready(old, config, work)
    assert code == 0, log
    assert "Traceback" not in log, log
    hands = old.station("hands", "list", "--config", str(config), "--json")
    assert hands.returncode == 0 and len(json.loads(hands.stdout)) == 2
    diag = json.loads(NEW.station("diag", "--config", str(config), "--json").stdout)
    assert [s["version"] for s in diag["journal"]["software"]] == [
        OLD_VERSION,
        VERSION,
        OLD_VERSION,
    ]
