"""The `station` command line: exit codes and messages users see."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from os import close as os_close
from os import pipe as os_pipe
from pathlib import Path

import pytest

from station.cli import COMMANDS, main
from tests.conftest import demo_pins

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


def test_every_command_is_in_the_cli_reference() -> None:
    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = [name for name in COMMANDS if f"station {name}" not in reference]
    assert not missing, f"commands missing from docs/cli.md: {missing}"


def test_the_console_script_runs_as_a_module() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "station.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith("station ")


def test_every_registered_command_has_a_module_that_runs() -> None:
    """A missing or misspelt module in `COMMANDS` fails here (it would be left out of `station
    --help` rather than offered and failing)."""
    from station.cli import missing_commands

    assert missing_commands() == []


def test_station_help_lists_exactly_the_commands_that_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from station import cli

    monkeypatch.setitem(cli.COMMANDS, "teleport", ("station.teleport.cli", "not built"))
    monkeypatch.setitem(cli.COMMANDS, "typo", ("station.journal.cli_handz", "misspelt"))
    assert cli.missing_commands() == ["teleport", "typo"]
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    listed = capsys.readouterr().out
    for name in COMMANDS:
        if name not in ("teleport", "typo"):
            assert f"    {name}" in listed, name
    assert "teleport" not in listed and "typo" not in listed
    with pytest.raises(SystemExit) as done:
        cli.main(["teleport"])
    assert done.value.code == 2  # argparse: invalid choice


def test_every_command_and_sub_command_answers_help(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from station.cli import build_parser
    from station.cli.reference import _children

    parser = build_parser()

    def paths(p: argparse.ArgumentParser, at: list[str]) -> list[list[str]]:
        found = [at] if at else []
        for name, _, sub in _children(p):
            found += paths(sub, [*at, name])
        return found

    every = paths(parser, [])
    assert len(every) > len(COMMANDS)
    for path in every:
        with pytest.raises(SystemExit) as done:
            parser.parse_args([*path, "--help"])
        assert done.value.code == 0, path
        assert capsys.readouterr().out.startswith(f"usage: station {' '.join(path)}")


def test_the_cli_reference_is_generated_from_the_parsers() -> None:
    """docs/cli.md's CLI reference is exactly what `python -m station.cli.reference` prints: it
    fails when a command, option or help text changes without `--write`."""
    from station.cli.reference import in_reference, reference_markdown

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    current = in_reference(text)
    assert current is not None, "docs/cli.md has no generated CLI reference"
    assert current == reference_markdown(), (
        "docs/cli.md's CLI reference drifted: run `python -m station.cli.reference --write`"
    )


def test_a_reader_that_goes_away_ends_the_output_quietly(demo_table: Path, tmp_path: Path) -> None:
    """`station hands show 1 | head`: when the reader closes the pipe, exit 0 with nothing on
    stderr (no "Broken pipe", no traceback). On a copy of the demo's table: the PHH export
    journals who revealed the cards, and the shared demo journal is every other test's too."""
    demo_table = Path(shutil.copytree(demo_table, tmp_path / "table"))
    read_end, write_end = os_pipe()
    os_close(read_end)  # the reader is gone before the first line is written
    try:
        pin = demo_pins(demo_table)["floor1"]
        for args in (
            ["hands", "show", "1"],
            ["journal", "export", "--phh", "--person", "floor1", "--pin-stdin"],
            ["incidents", "list"],
            ["diag", "--offline"],
        ):
            proc = subprocess.run(
                [sys.executable, "-m", "station.cli", *args, "--journal",
                 str(demo_table / "journal.sqlite")],
                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
                input=pin + "\n",
            )  # fmt: skip
            assert proc.stderr == "", (args, proc.stderr)
            assert proc.returncode in ((0, 1) if args[0] == "diag" else (0,)), args
    finally:
        os_close(write_end)
