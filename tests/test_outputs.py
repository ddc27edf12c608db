"""Every file a command writes goes through `station.output` (issue 27, item 1): no `--out`
(or folder a command fills) can write over a journal, its companions or the station config,
whatever the path (a link, `..`); a file already there needs `--force`; files are written whole
(a temporary file renamed) with the mode their contents call for."""

from __future__ import annotations

import argparse
import os
import shutil
import stat
from pathlib import Path

import pytest

from station.bench.overwrite import READERS, WRITERS, attempts, make_table
from station.cli import build_parser, main
from station.output import Guard, OutputRefusedError, fresh_folder, write_output

PATH_WORDS = ("out", "output", "dir", "keep", "save", "write", "dest", "file", "folder")


def _walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> set[tuple[tuple[str, ...], str]]:
    found: set[tuple[tuple[str, ...], str]] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= _walk(sub, (*path, name))
            continue
        if not action.option_strings or action.dest in ("journal", "config", "help"):
            continue  # positional inputs; the shared journal and config locators
        option = next(o for o in (*action.option_strings, "") if o.startswith("--") or not o)
        words = set(option.lstrip("-").split("-"))
        names_a_path = (
            action.type is Path
            or action.metavar in ("FILE", "DIR", "PATH")
            or bool(words & set(PATH_WORDS))
        )
        if names_a_path:
            found.add((path, option))
    return found


def test_every_option_that_names_a_file_or_folder_is_a_known_writer_or_reader() -> None:
    found = _walk(build_parser(), ())
    writers = {(w.command, w.option) for w in WRITERS}
    unknown = found - writers - READERS
    assert not unknown, f"options that may write, not run through the overwrite cases: {unknown}"
    assert writers <= found, f"stale WRITERS entries: {writers - found}"


def test_the_walk_finds_a_new_writer() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    p = sub.add_parser("report")
    p.add_argument("--save-as")
    p.add_argument("--summary-file", type=Path)
    p.add_argument("--to", help="a date")
    assert _walk(parser, ()) == {(("report",), "--save-as"), (("report",), "--summary-file")}


def test_no_writer_can_overwrite_a_journal_its_companions_or_the_config(
    demo_table: Path, tmp_path: Path
) -> None:
    table = make_table(tmp_path / "table", demo_table / "journal.sqlite")
    tried = attempts(main, table)
    assert len(tried) >= 60
    bad = [a for a in tried if not a.refused or a.lost]
    assert not bad, "\n".join(f"{a.writer} -> {a.target}: {a.said}" for a in bad)
    assert {a.writer for a in tried} == {f"{' '.join(w.command)} {w.option}" for w in WRITERS}


def test_a_file_is_replaced_only_with_force_and_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "report.csv"
    old = tmp_path / "old-link.csv"
    written = write_output(target, "first\n", Guard())
    assert written.path == target and written.size == 6
    os.link(target, old)  # another name for the old file keeps the old contents
    with pytest.raises(OutputRefusedError, match="--force"):
        write_output(target, "second\n", Guard())
    write_output(target, "second\n", Guard(), force=True)
    assert target.read_text() == "second\n" and old.read_text() == "first\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(("private", "mode"), [(True, 0o600), (False, 0o644)])
def test_the_mode_follows_the_contents_whatever_the_umask(
    tmp_path: Path, private: bool, mode: int
) -> None:
    before = os.umask(0o000 if private else 0o077)
    try:
        write_output(tmp_path / "out", b"x", Guard(), private=private)
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == mode


def test_a_folder_of_its_own_must_be_new_or_empty(tmp_path: Path) -> None:
    journal = tmp_path / "station" / "journal.sqlite"
    journal.parent.mkdir()
    journal.write_bytes(b"SQLite format 3\x00")
    with pytest.raises(OutputRefusedError):
        fresh_folder(journal.parent, Guard((journal,)))
    with pytest.raises(OutputRefusedError):
        fresh_folder(journal, Guard())
    assert fresh_folder(tmp_path / "new", Guard()).is_dir()
    shutil.rmtree(tmp_path / "new")


@pytest.mark.parametrize(
    ("name", "text", "what"),
    [
        ("decks.toml", '[[deck]]\nname = "blue-1"\nback = "blue"\n', "deck registry"),
        ("rev-a.toml", '[chips.x1]\naddress = 0x20\n[defaults]\npull = "up"\n', "pin map"),
    ],
)
def test_a_deck_registry_or_a_pin_map_is_never_written_over_even_with_force(
    tmp_path: Path, name: str, text: str, what: str
) -> None:
    """A station does not start without its deck registry and pin map: an export given one of
    them with `--force` (a probe replaced decks.toml with a rake report, and the table would
    not start) is refused, and the file stays as it was."""
    target = tmp_path / name
    target.write_text(text)
    with pytest.raises(OutputRefusedError, match=what):
        write_output(target, "report\n", Guard(), force=True)
    assert target.read_text() == text
