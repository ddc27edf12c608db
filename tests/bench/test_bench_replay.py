"""`station bench replay` prints one JSON line with our figure beside PokerKit's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.cli import main
from station.data import phh_sample
from station.native import engine_kind


def test_bench_replay_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "replay", "sample:pluribus/30"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    figures = json.loads(out[0])
    assert set(figures) == {
        "bench",
        "hands",
        "seconds",
        "hands_per_s",
        "pokerkit_seconds",
        "pokerkit_hands_per_s",
        "ratio",
        "engine",
        "bar",
        "ok",
    }
    assert figures["bench"] == "replay"
    assert figures["engine"] == engine_kind()
    assert figures["bar"] == {"hands_per_s": ">= 5000", "ratio": ">= 2.8"}
    assert figures["ok"] == (figures["hands_per_s"] >= 5000 and figures["ratio"] >= 2.8)
    assert figures["hands"] == sum(1 for _ in phh_sample("pluribus/30"))
    assert figures["hands_per_s"] > 0
    assert figures["pokerkit_hands_per_s"] > 0


def test_bench_replay_without_hands_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "replay", "sample:no-such-folder"]) == 2
    assert "no hands" in capsys.readouterr().err


def test_bench_replay_of_a_missing_path_exits_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-phh"
    assert main(["bench", "replay", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"no such file or folder: {missing}" in err
    assert "Traceback" not in err
