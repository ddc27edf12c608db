"""Text people type into the journal is cleaned on input: terminal escapes, control characters
and bidirectional overrides are removed, line breaks become spaces, and bytes that are not UTF-8
are refused (exit 2) instead of crashing the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from station.incidents.workflow import incidents
from station.journal.clock import ManualClock
from station.journal.store import Journal
from station.journal.text import TextError, clean_text
from tests.conftest import StationRun

from .conftest import PINS, enrol
from .synth import Writer, write_hand

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("\x1b[31mRED\x1b[0m card replaced", "RED card replaced"),
        ("see\x1b]8;;http://evil\x07link\x1b]8;;\x07 here", "seelink here"),
        ("line one\nline two\tend", "line one line two end"),
        ("bell\x07 and \x00nul and \x7fdel", "bell and nul and del"),
        ("abc\u202edcba", "abcdcba"),
        ("  Dealer's error: 7\u2665 exposed  ", "Dealer's error: 7\u2665 exposed"),
        ("\x9b2Jgone", "gone"),
    ],
)
def test_clean_text(typed: str, kept: str) -> None:
    assert clean_text(typed) == kept


def test_bytes_that_are_not_utf8_are_refused() -> None:
    with pytest.raises(TextError, match="not UTF-8"):
        clean_text(b"\xff".decode("utf-8", "surrogateescape"), "--text")


@pytest.fixture
def ruled_journal(journal: Journal, clock: ManualClock) -> Path:
    enrol(journal, "flo")
    write_hand(Writer(journal, clock), 1, setup=True)
    return journal.path


def _rule(path: Path, text: bytes) -> subprocess.CompletedProcess[bytes]:
    with Journal.open(path, clock=ManualClock()) as journal:
        iid = next(iter(incidents(journal)))
    return subprocess.run(
        [sys.executable, "-m", "station.cli", "incidents", "rule", str(iid), "--text", text,
         "--person", "flo", "--pin-stdin", "--journal", str(path)],
        input=f"{PINS['flo']}\n".encode(), cwd=ROOT, capture_output=True, timeout=60,
        check=False,
    )  # fmt: skip


def test_a_ruling_that_is_not_utf8_exits_2_without_a_traceback(ruled_journal: Path) -> None:
    done = _rule(ruled_journal, b"\xff")
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert done.stderr.decode().strip() == "station incidents: the ruling is not UTF-8 text"


def test_escapes_in_a_ruling_are_stored_and_shown_without_them(
    ruled_journal: Path, station_cli: StationRun
) -> None:
    done = _rule(ruled_journal, b"\x1b[2J\x1b[31mcard\x1b[0m replaced\r\nby floor")
    assert done.returncode == 0, done.stderr
    with Journal.open(ruled_journal, clock=ManualClock()) as journal:
        rec = next(iter(incidents(journal).values()))
    assert rec.ruling is not None and rec.ruling.text == "card replaced by floor"
    shown = station_cli("incidents", "show", str(rec.id), "--journal", str(ruled_journal))
    assert "\x1b" not in shown.stdout and "ruling: card replaced by floor" in shown.stdout
