"""The benches that measure the daemon run end to end on the emulated table and print their one
JSON line: latency, idle, startup, and a short soak whose journal a restart then recovers (at a
tenth of the hardware's waits; `./dev test --full` also soaks at the table's own timing and
compares the two). Small sizes, and no assertion on a time: the figures are the benches' to
print (the performance bars of docs/performance.md are never timed unit tests). What is asserted is
what must hold at any speed: every draw measured and matched, nothing lost or doubled, the daemon
stopped
cleanly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.cli import main

pytestmark = pytest.mark.slow


def _one_line(capsys: pytest.CaptureFixture[str], bench: str) -> dict[str, object]:
    out = capsys.readouterr().out
    assert out.count("\n") == 1, out
    line = json.loads(out)
    assert isinstance(line, dict)
    assert line["bench"] == bench
    assert isinstance(line["ok"], bool)
    assert isinstance(line["bar"], dict) and line["bar"]
    assert set(line["bar"]) <= set(line)  # each bar names a figure of the line
    return line


def test_latency_measures_every_draw_of_real_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "latency", "--draws", "8"]) == 0
    line = _one_line(capsys, "latency")
    assert line["bar"] == {"p99_ms": "<= 20"}
    assert isinstance(line["draws"], int) and line["draws"] >= 8
    assert line["unmatched"] == 0  # every journaled draw was matched to its frame on the pty
    for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms", "drawn_p99_ms"):
        assert isinstance(line[key], float) and line[key] > 0, key
    assert line["p50_ms"] <= line["p99_ms"] <= line["max_ms"]  # type: ignore[operator]


def test_latency_with_the_fleet_broker_down_deals_on_and_keeps_the_outbox(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The daemon's forwarder cannot reach its broker for the whole run: the table deals as
    before (every draw measured) and every journal row waits in the outbox. The figures are
    the bench's to print (README: p99 with and without the broker)."""
    assert main(["bench", "latency", "--draws", "8", "--fleet-offline"]) == 0
    line = _one_line(capsys, "latency")
    assert isinstance(line["draws"], int) and line["draws"] >= 8
    assert line["unmatched"] == 0
    assert line["fleet"] == "broker down"
    assert line["outbox_rows"] == line["journal_rows"]
    assert isinstance(line["outbox_rows"], int) and line["outbox_rows"] > 8


def test_idle_reads_the_cpu_and_memory_of_station_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "idle", "--seconds", "1", "--settle-s", "0"]) == 0
    line = _one_line(capsys, "idle")
    assert line["bar"] == {"cpu_pct": "<= 2", "peak_rss_mb": "<= 80", "exit_status": "== 0"}
    assert line["exit_status"] == 0  # SIGTERM stopped it cleanly
    assert isinstance(line["cpu_pct"], float) and line["cpu_pct"] >= 0
    assert isinstance(line["peak_rss_mb"], float) and line["peak_rss_mb"] > 10
    assert isinstance(line["threads"], int) and line["threads"] >= 4  # core, display, 2 links


def _soak(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    """`station bench soak --hands 3 --sample-s 0.5 ARGS`: nothing lost, doubled or reordered."""
    assert main(["bench", "soak", "--hands", "3", "--sample-s", "0.5", *args]) == 0
    soak = _one_line(capsys, "soak")
    assert soak["hands"] == 3
    assert (soak["lost"], soak["duplicated"], soak["sequence_mismatches"]) == (0, 0, 0)
    sent, journaled = soak["sent"], soak["journaled"]
    assert isinstance(sent, dict) and sent == journaled
    assert sent["shoe"] >= 3 * 2 * 2 and sent["setup"] == 3  # hole cards at least; a re-seat each
    assert sent["betzones"] > 0 and sent["key"] > 0
    assert isinstance(soak["rss_end_mb"], float) and soak["rss_end_mb"] > 0
    return soak


def _restarts(capsys: pytest.CaptureFixture[str], journal: Path) -> None:
    """`station bench startup --runs 2` on a soak's journal: the first start replays the soak
    and saves a checkpoint, the restart replays only what came after it."""
    assert main(["bench", "startup", "--runs", "2", "--journal", str(journal)]) == 0
    startup = _one_line(capsys, "startup")
    assert startup["bar"] == {"median_s": "<= 2"}
    assert startup["runs"] == 2
    runs = startup["runs_s"]
    assert isinstance(runs, list) and len(runs) == 2 and all(t > 0 for t in runs)
    assert isinstance(startup["journal_rows"], int) and startup["journal_rows"] > 100
    assert startup["journal_hands"] == 3 and startup["journal_mb"] > 0
    # The soak's last hand ended with a resume row: both starts begin there, replaying only what
    # came after it (the bench table's own setup, and whatever the emulated devices sent before
    # SIGTERM stopped the run: under load, a few inputs more; the setup writes a resume row of
    # its own, so the restart may replay none). A start that replayed the soak
    # would replay its hundreds.
    first, second = startup["recoveries"]
    assert first["resume_seq"] > 0 and first["rows"] < 40 and first["inputs"] <= 10
    assert second["resume_seq"] >= first["resume_seq"]
    assert first["mismatches"] == 0 and first["drift"] == 0
    assert second["inputs"] <= 10  # none when the first start's last input wrote a resume row
    assert second["rows"] < 40


def test_a_start_on_a_journal_a_previous_engine_wrote_resumes_from_its_resume_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--make` writes with an altered copy of the engine (another code, pure Python); the
    start reads its resume row, replays the half hand after it and counts the altered prompt
    as engine drift, not a mismatch."""
    made = tmp_path / "previous.sqlite"
    assert main(["bench", "startup", "--make", "5", "--out", str(made)]) == 0
    written = json.loads(capsys.readouterr().out)  # what was written: a line with no bar
    assert written["bench"] == "startup" and written["bar"] == {} and written["ok"] is True
    assert written["hands"] == 5 and written["engine"] == "pure" and made.exists()
    from station.journal.engine_id import deriving_code

    assert written["code"] != deriving_code()
    assert main(["bench", "startup", "--runs", "1", "--journal", str(made)]) == 0
    startup = _one_line(capsys, "startup")
    assert startup["journal_hands"] == 5 and startup["journal_rows"] == written["rows"]
    (first,) = startup["recoveries"]
    assert first["resume_seq"] > 0 and 0 < first["inputs"] < 40
    assert first["drift"] == 1 and first["mismatches"] == 0  # the first deal's prompt
    assert main(["bench", "startup", "--make", "5", "--out", str(made)]) == 2  # it exists


def test_a_short_soak_loses_and_doubles_nothing_and_its_journal_restarts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """At a tenth of the hardware's waits (every run; the table's own timing: --full)."""
    folder = tmp_path / "soak"
    soak = _soak(capsys, "--time-scale", "0.1", "--keep", str(folder))
    assert soak["time_scale"] == 0.1
    _restarts(capsys, folder / "journal.sqlite")


@pytest.mark.full
def test_a_soak_loses_and_doubles_nothing_and_its_journal_restarts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "soak"
    soak = _soak(capsys, "--keep", str(folder))
    # Compressed hardware timing deals the same hands: the same inputs, all journaled once.
    fast = _soak(capsys, "--time-scale", "0.1")
    assert fast["time_scale"] == 0.1 and soak["time_scale"] == 1.0
    assert fast["sent"] == soak["sent"] and fast["journaled"] == soak["sent"]
    _restarts(capsys, folder / "journal.sqlite")


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "latency", "--draws", "0"]) == 2
    assert main(["bench", "idle", "--seconds", "0"]) == 2
    assert main(["bench", "startup", "--runs", "0"]) == 2
    assert main(["bench", "soak", "--hands", "0"]) == 2
    assert main(["bench", "soak", "--time-scale", "0"]) == 2
    assert main(["bench", "soak", "--time-scale", "1.5"]) == 2
    assert main(["bench", "startup", "--journal", "/no/such/journal.sqlite"]) == 2
    err = capsys.readouterr()
    assert err.out == ""
    assert "--draws must be at least 1" in err.err and "no such journal" in err.err
