"""`station bench tournament` on a small scale (4 tables, 30 players): the event reaches the final
table through the real centre, every balancing, breaking and redraw decision checked against the
rule, and the figures printed. The full size (30 tables, 300 players) with `./dev test --full`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str, timeout: float) -> dict[str, Any]:
    try:
        from station.central.services import MissingError, mosquitto_binary, pg_bindir

        mosquitto_binary()
        pg_bindir()
    except (ModuleNotFoundError, MissingError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: {exc}")
        pytest.skip(str(exc))
    child = subprocess.Popen(
        [sys.executable, "-m", "station", "bench", "tournament", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.terminate()  # the bench stops its workers, ingest, console, broker and database
        out, err = child.communicate(timeout=90)
        pytest.fail(f"the bench did not finish in {timeout} s: {err[-3000:]}")
    assert child.returncode == 0, err[-3000:]
    line: dict[str, Any] = json.loads(out)
    assert line["decisions_wrong"] == 0, err[-3000:]
    assert line["final_table"] == 1, err[-3000:]
    return line


@pytest.mark.slow
def test_a_small_event_reaches_the_final_table_with_every_decision_by_the_rule() -> None:
    line = _bench("--tables", "3", "--players", "22", "--pace", "0.3", "--timeout", "150",
                  timeout=240)  # fmt: skip
    assert line["eliminated"] >= 12  # 22 players, at most 10 at the final table
    assert line["tables_used"] == 3  # 22 players need three tables of ten
    assert line["tables_broken"] == 2
    assert line["redraws"] >= 1  # RR11 §15 r18: at three, two and one table(s)
    assert line["decisions_checked"] >= line["tables_broken"]
    assert line["busts_with_a_move"] >= 1
    assert "move_p99_s" in line["bar"]


@pytest.mark.full
@pytest.mark.slow
@pytest.mark.timeout(1900)
def test_the_tournament_bench_at_full_size() -> None:
    line = _bench("--timeout", "1700", timeout=1800)
    assert line["ok"] is True
    assert line["tables"] == 30
    assert line["players"] == 300
