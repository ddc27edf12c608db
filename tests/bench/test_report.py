"""The output convention every `station bench` shares: one JSON object, name first, the bars it
is held to and whether they are met."""

from __future__ import annotations

import io
import json
import math

import pytest

from station.bench.report import Bar, emit, percentile, report


def test_a_bar_compares_its_figure() -> None:
    assert Bar("p99_ms", "<=", 20).met({"p99_ms": 20})
    assert not Bar("p99_ms", "<=", 20).met({"p99_ms": 20.5})
    assert Bar("hands_per_s", ">=", 2000).met({"hands_per_s": 2100.0})
    assert Bar("lost", "==", 0).met({"lost": 0})
    assert not Bar("lost", "==", 0).met({"lost": 1})


def test_a_figure_that_could_not_be_measured_misses_its_bar() -> None:
    assert not Bar("ratio", ">=", 1).met({"ratio": None})
    assert not Bar("ratio", ">=", 1).met({})
    assert not Bar("ok", "==", 1).met({"ok": True})  # a flag is not a figure


def test_an_unknown_operator_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="operator"):
        Bar("x", "<", 1)


def test_the_report_names_the_bench_first_and_ends_with_bar_and_ok() -> None:
    bars = (Bar("cpu_pct", "<=", 2), Bar("peak_rss_mb", "<=", 80))
    line = report("idle", {"cpu_pct": 1.3, "peak_rss_mb": 81.0}, bars)
    assert list(line) == ["bench", "cpu_pct", "peak_rss_mb", "bar", "ok"]
    assert line["bar"] == {"cpu_pct": "<= 2", "peak_rss_mb": "<= 80"}
    assert line["ok"] is False


def test_emit_prints_exactly_one_json_line() -> None:
    out = io.StringIO()
    emit("startup", {"median_s": 0.6}, (Bar("median_s", "<=", 2),), out)
    assert out.getvalue().count("\n") == 1
    assert json.loads(out.getvalue()) == {
        "bench": "startup",
        "median_s": 0.6,
        "bar": {"median_s": "<= 2"},
        "ok": True,
    }


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]  # 100 .. 1, unsorted
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([7.0], 99) == 7
    assert math.isnan(percentile([], 50))


@pytest.mark.parametrize(
    ("argv", "bars"),
    [
        (["bench", "link", "--draws", "20", "--faults", "none"], {"lost", "duplicated"}),
        (
            ["crashtest", "--rounds", "1", "--hands", "2"],
            {"rounds", "lost_events", "integrity_failures", "state_mismatches"},
        ),
    ],
)
def test_the_other_measuring_commands_print_the_same_line(
    argv: list[str], bars: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from station.cli import main

    main(argv)
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    line = json.loads(out)
    assert line["bench"] == (argv[1] if argv[0] == "bench" else argv[0])
    assert set(line["bar"]) == bars
    assert isinstance(line["ok"], bool)
