"""The floor's money view (issue 31 item 8): rake and time collected by table, gaming day, shift
and dealer, and the wrong drops, from the central store, are the station's own figures:
the console's CSV is the very text `station report rake --format csv` gives from the table's
journal. The table is `station demo` (real raked hands: 10 % up to 300, dropped through the
board's rake zone) whose journal a real forwarder delivers through the running fleet."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.console.fleet import Fleet
from tests.console.test_http import sign_in
from tests.fleet.conftest import forwarder, wait_until

pytestmark = pytest.mark.slow

STATION = "TR"


@pytest.fixture(scope="module")
def raked(fleet: Fleet, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from station.journal import Journal, SystemClock

    folder = tmp_path_factory.mktemp("raked")
    done = subprocess.run(
        [sys.executable, "-m", "station", "demo", "--headless", "--hands", "4",
         "--station-id", STATION, "--dir", str(folder)],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    journal = folder / "journal.sqlite"
    with Journal.open(journal, clock=SystemClock()) as j:
        head = j.head()[0]
    fwd = forwarder(fleet.services, journal, STATION)
    fwd.start()
    try:
        wait_until(lambda: fwd.status().acked_seq == head, 60, "TR delivered")
    finally:
        fwd.stop()
    return journal


BY = ["table,day,shift,dealer", "table", "dealer", "day,shift"]


@pytest.mark.parametrize("by", BY)
def test_the_console_s_rake_csv_is_the_station_s_own_report(
    fleet: Fleet, raked: Path, by: str
) -> None:
    station = subprocess.run(
        [sys.executable, "-m", "station", "report", "rake", "--journal", str(raked),
         "--tz", "UTC", "--shifts", "06:00,14:00,22:00", "--by", by, "--format", "csv"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert station.count("\n") >= 2, station  # a heading and at least one group
    client, _ = sign_in(fleet, "flo")
    with contextlib.closing(client):
        query = [("table", STATION), ("tz", "UTC"), ("shifts", "06:00,14:00,22:00")]
        query += [("by", d) for d in by.split(",")]
        console = client.get("/money/export.csv", params=query)
        assert console.status_code == 200
        assert console.text == station
        page = client.get("/money", params=query)
        assert page.status_code == 200
        total_rake = station.splitlines()[1:]  # the groups' rake column, summed
        heading = station.splitlines()[0].split(",")
        rake = sum(int(line.split(",")[heading.index("rake")]) for line in total_rake)
        assert rake > 0
        assert f"rake <strong>{rake}</strong>" in page.text


def test_the_money_view_refuses_a_bad_filter_in_words(fleet: Fleet) -> None:
    client, _ = sign_in(fleet, "flo")
    with contextlib.closing(client):
        bad = client.get("/money", params={"tz": "Mars/Olympus"})
        assert bad.status_code == 400
        assert "unknown" in bad.text
        assert client.get("/money", params={"shifts": "25:00"}).status_code == 400
        assert client.get("/money", params={"from": "yesterday"}).status_code == 400
        assert isinstance(bad, httpx.Response)
