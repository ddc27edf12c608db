"""`station config check`: exit status and the messages a technician sees."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from station.cli import config as config_cli
from station.cli import main
from station.config.checks import CHECKS, CheckInputs, CheckResult, Problem, run_checks
from tests.inputs.conftest import rev_a_text

ROOT = Path(__file__).resolve().parents[2]


def config(argv: list[str]) -> int:
    """`station config ARGV` through the command module alone (independent of other commands)."""
    parser = argparse.ArgumentParser(prog="station config")
    config_cli.add_arguments(parser)
    return config_cli.run(parser.parse_args(argv))


def write_variant(tmp_path: Path, *edits: tuple[str, str], name: str = "rev-b.toml") -> Path:
    text = rev_a_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_config_check_accepts_the_default_pin_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert config(["check", "--pinmap", str(ROOT / "hardware" / "pinmaps" / "rev-a.toml")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: pin map ")
    assert "rev-a.toml: revision A, 10 seats: 39 keys, 10 puck sensors" in out


def test_config_check_refuses_duplicate_pin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_variant(tmp_path, ("CHECK = 27", "CHECK = 17"))
    assert main(["config", "check", "--pinmap", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}: keys.CHECK: pin 17 is already used by keys.FOLD\n" in captured.err


def test_config_check_refuses_unknown_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_variant(tmp_path, ("BOXED = 8", "BOXXED = 8"))
    assert main(["config", "check", "--pinmap", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{path}: keys.BOXXED: unknown dealer key (did you mean BOXED?)",
        f"{path}: keys.BOXED: missing: the panel needs this key",
        "station config check: 2 problem(s)",
    ]


def test_config_check_of_a_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nope.toml"
    assert config(["check", "--pinmap", str(path)]) == 2
    assert f"{path}: file: cannot read" in capsys.readouterr().err


def test_config_without_a_subcommand_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        config([])
    assert info.value.code == 2


def test_the_command_runs_as_a_process_with_exit_status_2(tmp_path: Path) -> None:
    path = write_variant(tmp_path, ("CHECK = 27", "CHECK = 17"))
    proc = subprocess.run(
        [sys.executable, "-m", "station.cli", "config", "check", "--pinmap", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 2
    assert f"{path}: keys.CHECK: pin 17 is already used by keys.FOLD" in proc.stderr


def test_every_check_in_the_list_runs_and_reports(tmp_path: Path) -> None:
    def station_toml(inputs: CheckInputs) -> CheckResult:
        return CheckResult("station", (Problem("station.toml", "journal.path", "missing"),))

    bad = write_variant(tmp_path, ("CHECK = 27", "CHECK = 17"))
    results = run_checks(
        CheckInputs(pinmap=bad),
        checks=[*CHECKS, ("station", station_toml)],
    )
    assert [str(p) for r in results for p in r.problems] == [
        f"{bad}: keys.CHECK: pin 17 is already used by keys.FOLD",
        "station.toml: journal.path: missing",
    ]
