"""`station bench link`: one JSON line, the figures the issue asks for, exit codes."""

from __future__ import annotations

import json

import pytest

from station.cli import main


def test_the_bench_prints_one_json_line_with_the_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "link", "--draws", "40", "--faults", "none"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    figures = json.loads(out)
    for key in (
        "sent",
        "received",
        "lost",
        "duplicated",
        "out_of_order",
        "crc_errors",
        "resyncs",
        "retransmits",
        "reconnects",
        "seconds",
    ):
        assert key in figures, key
    assert (figures["sent"], figures["received"], figures["lost"]) == (40, 40, 0)
    assert (figures["duplicated"], figures["out_of_order"], figures["crc_errors"]) == (0, 0, 0)


def test_a_list_of_faults_injects_only_those(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "link", "--draws", "1000", "--faults", "bitflip,duplicate"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["lost"] == figures["duplicated"] == figures["out_of_order"] == 0
    assert figures["injected_bitflip"] > 0 and figures["injected_duplicate"] > 0
    assert figures["injected_drop"] == figures["injected_unplug"] == 0


def test_an_unknown_fault_is_a_usage_error_naming_the_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "link", "--faults", "gremlins"]) == 2
    err = capsys.readouterr().err
    assert "unknown fault 'gremlins'" in err
    assert "garbage, bitflip, drop, duplicate, split, unplug, reboot" in err
