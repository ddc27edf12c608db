"""`station bench console` on a small scale: it fills the store, starts the ingest and the console
as processes, measures every page (the health page too) and CALL FLOOR end to end in Debian's
Chromium, shows a 60-table map at 1920x1080, and prints its one JSON line. Every run: 2 tables,
1,000 rows, 3 requests of each page, 1 CALL FLOOR; with `./dev test --full`: 4 tables, 4,000
rows, 10 requests, 3 CALL FLOORs. (Most of its time is fixed: the services, the processes and the
browser.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("STATION_CHROMIUM", "/usr/bin/chromium")


def _bench(tables: int, rows: int, requests: int, calls: int) -> dict[str, Any]:
    try:
        import playwright  # noqa: F401

        from station.central.services import MissingError, mosquitto_binary, pg_bindir

        mosquitto_binary()
        pg_bindir()
        if not Path(CHROMIUM).exists():
            raise MissingError(f"no Chromium at {CHROMIUM}")
    except (ModuleNotFoundError, MissingError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: {exc}")
        pytest.skip(str(exc))
    proc = subprocess.run(
        [sys.executable, "-m", "station", "bench", "console", "--tables", str(tables),
         "--live", "1", "--rows", str(rows), "--requests", str(requests), "--calls", str(calls)],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    line: dict[str, Any] = json.loads(proc.stdout)
    assert line["bench"] == "console"
    assert line["rows_stored"] >= rows
    assert line["incidents_indexed"] > 0
    assert line["call_floor_samples"] == calls
    for page in ("map", "queue", "incident", "health"):
        assert line[f"{page}_p95_ms"] > 0
    assert line["call_floor_p99_ms"] > 0
    # the 60-table map in Chromium at 1920x1080 (issue 31)
    assert line["map60_tiles"] == 60
    assert line["map60_render_p95_ms"] > 0
    assert line["map60_fits_1920x1080"] in (0, 1)
    assert set(line["bar"]) == {
        "map_p95_ms", "queue_p95_ms", "incident_p95_ms", "call_floor_p99_ms", "health_p95_ms",
        "map60_render_p95_ms", "map60_fits_1920x1080",
    }  # fmt: skip
    return line


@pytest.mark.slow
def test_a_small_console_bench_measures_every_page_and_call_floor_to_the_browser() -> None:
    assert _bench(tables=2, rows=1000, requests=3, calls=1)["tables"] == 2


@pytest.mark.full
@pytest.mark.slow
def test_the_console_bench_measures_every_page_and_call_floor_to_the_browser() -> None:
    assert _bench(tables=4, rows=4000, requests=10, calls=3)["tables"] == 4


def test_bad_arguments_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "station", "bench", "console", "--tables", "2", "--live", "3"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "--live" in proc.stderr
