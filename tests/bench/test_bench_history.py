"""`station bench history` writes a journal, checks its history and prints one JSON line."""

from __future__ import annotations

import json

import pytest

from station.cli import main
from station.native import engine_kind


def test_bench_history_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "history", "--hands", "4"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    figures = json.loads(out[0])
    assert figures["bench"] == "history"
    assert figures["hands"] == 4
    assert figures["engine"] == engine_kind()
    # every row before the checkpoint (taken at the last row) is checked, and all agree
    assert 0 < figures["rows_checked"] < figures["rows"]
    assert figures["mismatches"] == 0 and figures["history_ok"] is True
    assert figures["history_ms_per_hand"] > 0
    assert figures["bar"] == {"history_ms_per_hand": "<= 0.3", "mismatches": "== 0"}
    assert figures["ok"] == (figures["history_ms_per_hand"] <= 0.3)
    # the floor is the sum of its four parts, each timed alone
    parts = ("read", "hash", "json", "engine")
    each = [figures[f"floor_{p}_ms_per_hand"] for p in parts]
    assert all(v > 0 for v in each)
    assert figures["floor_ms_per_hand"] == pytest.approx(sum(each), abs=0.002)


def test_bench_history_refuses_no_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "history", "--hands", "0"]) == 2
    assert "--hands" in capsys.readouterr().err
