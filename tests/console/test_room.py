"""A room on one screen (issue 31 item 7), in a real browser: a floor map of 60 tables fits one
1920x1080 screen without scrolling, problems first (CALL FLOOR, then alarms, offline tables, a
shoe link down), each table's name and state large enough to read from two metres, the detail
a click away; and every page of the console works 390 px wide without sideways scrolling.

The 60 tables are a room of stored tables (`station.bench.room_data`: one real table's session
copied under 60 ids, with a busy floor's states) in a database of their own in the fleet's
PostgreSQL, folded by a console of their own. Their ingest's heartbeat is written as a running
ingest writes it (there is no ingest for this database: its tables are stored, not live).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.console.fleet import PASSWORDS, Fleet, console_toml, serve
from tests.fleet.conftest import wait_until

pytestmark = pytest.mark.slow

WIDE = {"width": 1920, "height": 1080}
NARROW = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def room60(fleet: Fleet, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import psycopg

    from station.bench.room_data import fill_room
    from station.central.config import load_central
    from station.central.console import accounts
    from station.central.console.app import create_app
    from station.central.schema import migrate
    from station.central.services import free_port

    root = tmp_path_factory.mktemp("room60")
    port = free_port()
    toml = console_toml(fleet.services, root / "central.toml", port)
    toml.write_text(toml.read_text().replace("dbname=fleet", "dbname=room60"), encoding="utf-8")
    cfg = load_central(toml)
    with psycopg.connect(fleet.cfg.conninfo(), autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS room60")
        conn.execute("CREATE DATABASE room60")
    with psycopg.connect(cfg.conninfo(), autocommit=True) as conn:
        migrate(conn)
        fill_room(conn, root, 60)
        accounts.add_account(conn, "flo", accounts.Role.FLOOR, PASSWORDS["flo"], by="cli")
        conn.execute(
            "INSERT INTO central_health (service, host, pid, started_at, beat_at,"
            " broker_connected, broker_since) VALUES ('ingest', 'test', 1, now(),"
            " now() + interval '1 day', true, now())"
        )
    app = create_app(cfg)
    server, thread = serve(app, port)
    url = f"http://127.0.0.1:{port}"
    try:
        import httpx

        wait_until(lambda: httpx.get(url + "/healthz").status_code == 200, 60, "indexed")
        yield url
    finally:
        server.should_exit = True
        thread.join(15)


def _signed_page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(url + "/login")
    page.fill("input[name=name]", "flo")
    page.fill("input[name=password]", PASSWORDS["flo"])
    page.click("form button[type=submit]")
    page.wait_for_url("**/map")
    return page


def test_sixty_tables_fit_one_1920x1080_screen_problems_first(
    browser: Any, room60: str, shots: Path
) -> None:
    page = _signed_page(browser, room60, WIDE)
    tiles = page.locator("li.tile")
    assert tiles.count() == 60
    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    page.screenshot(path=str(shots / "console-map-60.png"))
    assert size[0] <= WIDE["width"] and size[1] <= WIDE["height"], size
    order = [str(tiles.nth(i).get_attribute("data-station")) for i in range(60)]
    # CALL FLOOR first, then the chain alarm, then the offline tables, then the shoe down
    assert order[:3] == ["T07", "T23", "T41"], order[:8]
    assert order[3] == "T18"
    assert order[4:6] == ["T12", "T35"]
    assert order[6] == "T52"
    assert "CALL FLOOR" in tiles.nth(0).inner_text()
    assert "OFFLINE" in page.locator("#table-T12").inner_text()
    assert "OFFLINE" in page.locator("#table-T35").inner_text()
    assert "SHOE LINK DOWN" in page.locator("#table-T52").inner_text()
    # readable from two metres: the table's name and its state in large bold type
    name_px, state_px = page.evaluate(
        "() => [parseFloat(getComputedStyle(document.querySelector('.tile .tid')).fontSize),"
        " parseFloat(getComputedStyle(document.querySelector('.tile .state')).fontSize)]"
    )
    assert name_px >= 32 and state_px >= 18, (name_px, state_px)
    # the detail is a click away
    page.click("#table-T52 a.tid")
    page.wait_for_url("**/tables/T52")
    assert "SHOE LINK DOWN" in page.locator("main").inner_text()
    page.context.close()


PAGES = [
    "/map",
    "/tables/T02",
    "/incidents?state=",
    "/incidents/T03/{incident}",
    "/hands?table=T01",
    "/hands/T01/2",
    "/money",
    "/health",
    "/audit",
    "/accounts",
    "/tables/T02/alarms",
]


def test_every_page_works_390_px_wide_without_sideways_scrolling(
    browser: Any, fleet: Fleet, shots: Path
) -> None:
    incident = fleet.query(
        "SELECT id FROM console_incidents WHERE station_id = 'T03' ORDER BY id LIMIT 1"
    )[0][0]
    context = browser.new_context(viewport=NARROW)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(fleet.console_url + "/login")
    page.fill("input[name=name]", "ada")
    page.fill("input[name=password]", PASSWORDS["ada"])
    page.click("form button[type=submit]")
    page.wait_for_url("**/map")
    wide = []
    for path in [*PAGES, "/login"]:
        page.goto(fleet.console_url + path.format(incident=incident))
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > NARROW["width"]:
            wide.append(f"{path}: {width} px")
        if path == "/incidents?state=":
            page.screenshot(path=str(shots / "console-narrow-queue.png"))
    context.close()
    assert wide == []
