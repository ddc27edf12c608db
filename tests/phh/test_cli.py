"""`station import-phh`: files out, mirrored paths, problems as `FILE: problem`, exit status."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import pytest

from station.cli import COMMANDS
from station.cli import import_phh as cli
from station.formats.session import read_session

from .helpers import sample


def main(argv: list[str]) -> int:
    """`station import-phh ARGS` through the command module (as station.cli runs it), without
    importing the other commands' modules."""
    assert argv[0] == "import-phh"
    parser = argparse.ArgumentParser(prog="station import-phh")
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(argv[1:]))


def test_the_command_is_registered() -> None:
    assert COMMANDS["import-phh"][0] == "station.cli.import_phh"


def _tree(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    (src / "wsop").mkdir(parents=True)
    shutil.copy(sample("dwan-ivey-2009"), src / "dwan.phh")
    shutil.copy(sample("wsop/2023/43/5/00-22-43"), src / "wsop" / "stud.phh")
    return src


def test_a_folder_converts_into_mirrored_sessions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _tree(tmp_path)
    out = tmp_path / "out"
    assert main(["import-phh", str(src), "--out", str(out)]) == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.jsonl")) == [
        "dwan.jsonl",
        "wsop/stud.jsonl",
    ]
    session = read_session(out / "wsop" / "stud.jsonl")
    assert session.lines[0].event.game == "stud"  # type: ignore[union-attr]
    assert "converted 2 hands from 2 files" in capsys.readouterr().out


def test_a_bad_file_is_reported_and_the_good_ones_still_convert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _tree(tmp_path)
    bad = src / "broken.phh"
    bad.write_text("variant = 'NT'\nactions = []\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["import-phh", str(src), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"{bad}: ")
    assert "starting_stacks" in captured.err
    assert "converted 2 hands from 3 files" in captured.out
    assert "1 failed" in captured.out
    assert (out / "dwan.jsonl").exists()


def test_seed_changes_the_burns_only(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    assert main(["import-phh", str(src / "dwan.phh"), "-o", str(tmp_path / "a")]) == 0
    assert (
        main(["import-phh", str(src / "dwan.phh"), "-o", str(tmp_path / "b"), "--seed", "7"]) == 0
    )
    a = (tmp_path / "a" / "dwan.jsonl").read_text().splitlines()
    b = (tmp_path / "b" / "dwan.jsonl").read_text().splitlines()
    assert a != b
    assert [x for x in a if '"draw"' not in x] == [x for x in b if '"draw"' not in x]


def test_no_phh_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["import-phh", str(tmp_path / "empty"), "-o", str(tmp_path / "out")]) == 2
    assert "no .phh or .phhs files found" in capsys.readouterr().err
