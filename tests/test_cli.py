"""The `station` command line: exit codes and messages users see."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from station.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent
SETUP = (
    '{"type":"setup","game":"nlhe","profile":"RR11","stakes":{"sb":1,"bb":2},'
    '"seats":{"1":200,"2":200},"button":1}'
)


def test_replay_of_a_bad_second_line_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "bad.jsonl"
    session.write_text(SETUP + '\n{"type":"zone","seat":1,"amount":"lots"}\n')
    assert main(["replay", str(session), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{session}:2: ")
    assert "'amount' must be a whole number of chips" in err


def test_replay_of_a_good_file_exits_0_with_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "ok.jsonl"
    session.write_text(SETUP + '\n{"type":"key","key":"NEW_HAND"}\n')
    assert main(["replay", str(session), "--json"]) == 0
    out = capsys.readouterr().out
    for line in out.splitlines():
        assert json.loads(line)["type"] in ("incident", "prompt", "hand_end")


def test_replay_of_a_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_every_command_is_in_the_readme_cli_reference() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in COMMANDS if f"station {name}" not in readme]
    assert not missing, f"commands missing from README: {missing}"


def test_the_console_script_runs_as_a_module() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "station.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith("station ")
