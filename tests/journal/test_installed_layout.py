"""The floor and technician commands on an installed table: the journal is found from the station
config alone (`--config`, as install.sh lays it out: /etc/dealer-station/station.toml naming
/var/lib/dealer-station/journal.sqlite), with no $STATION_JOURNAL and from any folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from tests.conftest import StationRun, demo_pins

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "station" / "config" / "example.toml"


@pytest.fixture
def installed(tmp_path: Path, demo_table: Path) -> Path:
    """A copy of the demo's journal in an installed-style tree; returns the config's path."""
    etc = tmp_path / "etc" / "dealer-station"
    state = tmp_path / "var" / "lib" / "dealer-station"
    etc.mkdir(parents=True)
    state.mkdir(parents=True)
    for name in ("journal.sqlite", "journal.sqlite-head"):  # the journal and its head witness
        shutil.copy(demo_table / name, state / name)
    config = EXAMPLE.read_text(encoding="utf-8").replace(
        '"/var/lib/dealer-station/journal.sqlite"', f'"{state / "journal.sqlite"}"'
    )
    assert str(state) in config
    (etc / "station.toml").write_text(config, encoding="utf-8")
    return etc / "station.toml"


@pytest.fixture
def station(station_cli: StationRun, monkeypatch: pytest.MonkeyPatch) -> StationRun:
    """`station ARGS --config CONFIG` from the folder `cwd`, with no $STATION_JOURNAL (in this
    process: `test_the_first_floor_command_as_a_process` starts one)."""
    monkeypatch.delenv("STATION_JOURNAL", raising=False)

    def run(config: Path, cwd: Path, *args: str, stdin: str = "") -> CompletedProcess[str]:
        return station_cli(*args, "--config", str(config), stdin=stdin, cwd=cwd)

    return run


def test_the_first_floor_command_as_a_process(installed: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "STATION_JOURNAL"}
    proc = subprocess.run(
        [sys.executable, "-m", "station.cli", "hands", "list", "--json", "--config",
         str(installed)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)) == 6


def test_every_floor_command_finds_the_journal_from_the_config_alone(
    installed: Path, tmp_path: Path, demo_table: Path, station: StationRun
) -> None:
    pins = demo_pins(demo_table)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    listed = station(installed, elsewhere, "incidents", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    call = next(
        r["incident"] for r in json.loads(listed.stdout) if r["rule"] == "STATION-FLOOR-CALL"
    )
    ok: dict[tuple[str, ...], str] = {}
    for args in (
        ("incidents", "list"),
        ("incidents", "show", str(call)),
        ("incidents", "export", "--format", "csv"),
        ("incidents", "export", "--format", "json"),
        ("hands", "list"),
        ("hands", "list", "--json"),
        ("hands", "show", "1"),
        ("journal", "status"),
        ("journal", "status", "--json"),
        ("journal", "verify"),
        ("journal", "export", "--phh", "--person", "floor1", "--pin-stdin"),
        ("journal", "users", "list", "--json"),
    ):
        proc = station(installed, elsewhere, *args, stdin=pins["floor1"] + "\n")
        assert proc.returncode == 0, (args, proc.stderr)
        ok[args] = proc.stdout
    assert len(json.loads(ok[("hands", "list", "--json")])) == 6
    assert "STATION-FLOOR-CALL" in ok[("incidents", "show", str(call))]
    assert json.loads(ok[("journal", "status", "--json")])["station_id"] == "DEMO"
    assert {p["name"] for p in json.loads(ok[("journal", "users", "list", "--json")])} == {
        "admin",
        "dealer1",
        "floor1",
    }
    assert (
        ok[("journal", "export", "--phh", "--person", "floor1", "--pin-stdin")].count("variant = ")
        == 5
    )
    diag = station(installed, elsewhere, "diag", "--json")
    assert diag.returncode in (0, 1), diag.stderr
    assert json.loads(diag.stdout)["journal"]["station_id"] == "DEMO"
    assert list(elsewhere.iterdir()) == []  # nothing created in the working folder


def test_a_config_naming_a_missing_journal_says_so(
    installed: Path, tmp_path: Path, station: StationRun
) -> None:
    text = installed.read_text(encoding="utf-8")
    moved = tmp_path / "moved.toml"
    moved.write_text(text.replace("journal.sqlite", "gone.sqlite"), encoding="utf-8")
    proc = station(moved, tmp_path, "hands", "list")
    assert proc.returncode == 2
    assert f"--config {moved} names " in proc.stderr and "which does not exist" in proc.stderr
    proc = station(tmp_path / "nope.toml", tmp_path, "incidents", "list")
    assert proc.returncode == 2 and "nope.toml: no such file" in proc.stderr
