"""`station bench long` (issue 27, item 6): the per-input cost of a hand that never ends, at
four points of one long run, through the engine and through a real journal, and the replay of
the whole session. The suite runs a small version and checks the line's shape (the figures are
the bench's to print: no timed assertion), and that `station replay` gets through a long
one-hand session."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from station.bench.long import marks, session_text
from station.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_bench_long_prints_the_cost_per_input_at_four_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bench", "long", "--lines", "3000", "--journal-lines", "300", "--window", "100"]
    assert main(args) == 0
    (line,) = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(line)
    assert figures["bench"] == "long"
    assert list(figures["per_input_us"]) == [str(m) for m in marks(3000)] == [
        "100", "300", "1000", "3000",
    ]  # fmt: skip
    assert all(v > 0 for v in figures["per_input_us"].values())
    assert list(figures["journal_per_input_us"]) == ["10", "30", "100", "300"]
    assert list(figures["journal_wall_per_input_us"]) == ["10", "30", "100", "300"]
    assert isinstance(figures["journal_wall_ratio"], float)
    assert isinstance(figures["ratio"], float) and isinstance(figures["journal_ratio"], float)
    assert figures["replay_decisions"] >= 3000  # a warning for every stuck FOLD
    assert figures["bar"] == {"ratio": "<= 1.5", "journal_ratio": "<= 1.5"}


def test_station_replay_gets_through_a_long_one_hand_session(tmp_path: Path) -> None:
    session = tmp_path / "long.jsonl"
    session.write_text(session_text(30_000), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "station.cli", "replay", str(session)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.count("FOLD FOR SEAT 3 DOES NOT APPLY NOW") == 29_999
