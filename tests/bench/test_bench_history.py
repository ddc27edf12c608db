"""`station bench history` writes a journal, checks what a start took on trust, scrubs the
whole journal and prints one JSON line."""

from __future__ import annotations

import json

import pytest

from station.cli import main
from station.native import engine_kind


def test_bench_history_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "history", "--hands", "3", "--before", "6"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    figures = json.loads(out[0])
    assert figures["bench"] == "history"
    assert figures["new_hands"] == 3 and figures["hands_before"] == 6
    assert figures["engine"] == engine_kind()
    # the rows since the last check are walked, not the ones before; one hand is re-derived
    assert 0 < figures["rows_walked"] < figures["rows"] / 2
    assert 0 < figures["rows_rederived"] < figures["rows_walked"]
    assert figures["mismatches"] == 0 and figures["history_ok"] is True
    assert figures["incremental_ms_per_new_hand"] > 0
    assert figures["bar"] == {"incremental_ms_per_new_hand": "<= 0.3", "mismatches": "== 0"}
    assert figures["ok"] == (figures["incremental_ms_per_new_hand"] <= 0.3)
    # the scrub re-derives every row, and the floor is the sum of its four parts
    assert figures["scrub_rows"] == figures["rows"] and figures["scrub_ok"] is True
    assert figures["scrub_hands_per_s"] > 0
    parts = ("read", "hash", "json", "engine")
    each = [figures[f"floor_{p}_ms_per_hand"] for p in parts]
    assert all(v > 0 for v in each)
    # each figure is rounded to 0.001: the sum of five roundings is within 0.0025
    assert figures["floor_ms_per_hand"] == pytest.approx(sum(each), abs=0.003)


def test_bench_history_refuses_no_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "history", "--hands", "0"]) == 2
    assert "--hands" in capsys.readouterr().err
