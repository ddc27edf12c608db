"""`station central demo --tables N` (issue 31 item 2): one command brings up a room on this
machine (a throw-away broker and PostgreSQL, the ingest and the console as processes, N
emulated tables each `station demo` in its own process under its own station id, forwarding),
prints the console's address and a login; the tables appear on the map dealing real hands
with incidents; Ctrl-C stops everything and says so."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from station.central.services import free_port
from tests.fleet.conftest import wait_until

pytestmark = pytest.mark.slow

TABLES = 2  # (the room's own default is 8; two show the map and the stop as well)
# The waits below reload the page at most this often: the room deals for tens of seconds, and
# each reload is a page load in Chromium while the room's own processes want the cores.
RELOAD_S = 1.0


def _room(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], Any, Path, int]:
    """`station central demo ARGS` started (the process, its output file, its folder, the
    console's port); skips (or under CI fails) without a broker or PostgreSQL."""
    from station.central.services import MissingError, mosquitto_binary, pg_bindir
    from tests.console.conftest import _unavailable

    try:
        mosquitto_binary()
        pg_bindir()
    except MissingError as exc:
        _unavailable(str(exc))
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="station-room-test-"))  # the services' user gets in
    log = (tmp_path / "room.out").open("w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "station", "central", "demo", *args, "--port", str(port),
         "--speed", "8", "--dir", str(folder)],
        stdout=log, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    return proc, log, folder, port


def _signed_in(browser: Any, log: Any, port: int) -> tuple[Any, str]:
    """Waits for the room's banner, signs in as the floor with the password it printed: the
    page (on the map) and the banner."""
    out = Path(log.name)
    wait_until(lambda: "Ctrl-C stops the room" in out.read_text(), 90, "the room's banner")
    text = out.read_text()
    assert f"floor console: http://127.0.0.1:{port}/" in text, text
    password = re.search(r"floor1 \(floor\) or admin \(admin\), password (\S+)", text)
    assert password, text
    page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    page.goto(f"http://127.0.0.1:{port}/login")
    page.fill("input[name=name]", "floor1")
    page.fill("input[name=password]", password[1])
    page.click("form button[type=submit]")
    page.wait_for_url("**/map")
    return page, text


def test_one_command_brings_up_a_room_of_dealing_tables_and_ctrl_c_stops_it(
    browser: Any, tmp_path: Path
) -> None:
    proc, log, folder, port = _room(tmp_path, "--tables", str(TABLES))
    try:
        page, _text = _signed_in(browser, log, port)

        def dealing() -> bool:
            page.reload()
            tiles = page.locator("li.tile")
            if tiles.count() != TABLES:
                return False
            hands = [
                int(m[1]) for m in re.finditer(r"Hand (\d+)", page.locator("#tables").inner_text())
            ]
            return (
                len(hands) >= TABLES - 1
                and max(hands) >= 2
                and "open incidents" in page.locator("#summary").inner_text()
            )

        wait_until(dealing, 90, "the tables dealing on the map", most_s=RELOAD_S)
        ids = sorted(
            str(page.locator("li.tile").nth(i).get_attribute("data-station")) for i in range(TABLES)
        )
        assert ids == [f"T{k:02d}" for k in range(1, TABLES + 1)]
        assert "Broker up" in page.locator("#centre").inner_text()
        page.screenshot(path=str(tmp_path / "room.png"))
        page.context.close()
    finally:
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(90)
        stopped_s = time.monotonic() - started
        log.seek(0)
        text = log.read()
        log.close()
    print(f"Ctrl-C -> the room stopped in {stopped_s:.1f} s")
    assert code == 0, text
    assert "room: stopped; journals and logs kept in" in text
    try:
        for station in (f"T{k:02d}" for k in range(1, TABLES + 1)):
            table_log = (folder / "logs" / f"{station}.log").read_text()
            assert "hash chain verified" in table_log, table_log[-2000:]
            assert "demo: ok" in table_log, table_log[-2000:]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_room_with_an_event_plays_it_from_the_floors_draw(browser: Any, tmp_path: Path) -> None:
    """`station central demo --event`: the tables are tournament tables and the event DEMO is
    created on them; the floor draws the seats and starts the clock on the console, and the
    tables deal: players go out and are listed in the finishing order."""
    proc, log, folder, port = _room(tmp_path, "--event", "--tables", "2")
    try:
        page, text = _signed_in(browser, log, port)
        assert f"the event DEMO: http://127.0.0.1:{port}/tournaments/DEMO" in text, text
        page.goto(f"http://127.0.0.1:{port}/tournaments/DEMO")
        assert "18 of 18" in page.locator("#left").inner_text()
        page.click("text=Draw the seats")
        page.wait_for_url("**/tournaments/DEMO")
        page.click("text=Start the clock")
        page.wait_for_url("**/tournaments/DEMO")

        def out_at_a_table() -> bool:
            page.reload()
            left = re.search(r"(\d+) of 18", page.locator("#left").inner_text())
            return left is not None and int(left[1]) <= 16

        wait_until(out_at_a_table, 90, "players out at the tables", most_s=RELOAD_S)
        assert re.search(r"T0[12] hand \d+", page.locator("table.order").inner_text())
        page.context.close()
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(90)
        log.seek(0)
        text = log.read()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
    assert code == 0, text
    assert "room: stopped; journals and logs kept in" in text
