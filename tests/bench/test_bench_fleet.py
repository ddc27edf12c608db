"""`station bench fleet` on a small scale: every fault of `--faults all` injected for real (broker
kill -9 and down, ingest kill -9, a station process kill -9, PostgreSQL restart) with 3 stations
for 12 s (`./dev test --full`), and two of them with 2 stations for 4 s in every run; and
nothing lost, nothing doubled, no false alarm, every chain verified."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str) -> dict[str, Any]:
    try:
        from station.central.services import MissingError, mosquitto_binary, pg_bindir

        mosquitto_binary()
        pg_bindir()
    except (ModuleNotFoundError, MissingError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: {exc}")
        pytest.skip(str(exc))
    child = subprocess.Popen(
        [sys.executable, "-m", "station", "bench", "fleet", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        out, err = child.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        child.terminate()  # the bench stops its workers, ingest, broker and database
        out, err = child.communicate(timeout=60)
        pytest.fail(f"the bench did not finish in 240 s: {err[-3000:]}")
    assert child.returncode == 0, err[-3000:]
    line: dict[str, Any] = json.loads(out)
    assert line["stored"] == line["events"]
    assert line["lost"] == 0
    assert line["forks_detected"] == 0, err[-3000:]
    assert line["bar"]["lost"] == "== 0"
    return line


@pytest.mark.slow
def test_a_small_fleet_loses_nothing_when_the_broker_and_a_station_are_killed() -> None:
    line = _bench(
        "--stations", "2", "--rate", "10", "--seconds", "4",
        "--faults", "broker-kill,forwarder-kill",
    )  # fmt: skip
    assert line["faults"] == ["broker-kill", "forwarder-kill"]
    assert line["events"] > 20
    assert line["chains_verified"] == 2


@pytest.mark.full
@pytest.mark.slow
@pytest.mark.timeout(330)
def test_the_fleet_bench_loses_nothing_under_every_fault() -> None:
    line = _bench("--stations", "3", "--rate", "5", "--seconds", "12", "--faults", "all")
    assert line["faults"] == [
        "broker-kill", "ingest-kill", "forwarder-kill", "postgres-restart", "broker-down"
    ]  # fmt: skip
    assert line["events"] > 100
    assert line["chains_verified"] == 3
    assert line["duplicates_absorbed"] > 0  # the faults made stations send rows again
