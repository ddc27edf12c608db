"""The console's room pages: the floor map (every table on one screen, problems first), its
live parts (the tiles, the centre's health line), one table's detail page, the health page
(the broker, the ingest, every station's forwarding) and the money view (rake and time by
table, day, shift and dealer). Edge adapter (HTTP handlers on the console's request threads).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Final
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from station.central.console import accounts, floor, health, money, views
from station.central.console.accounts import Action
from station.recall.rake_report import DIMENSIONS, FIGURES, report_csv

if TYPE_CHECKING:
    from station.central.console.app import Console

HEADINGS: Final = {
    "table": "Table",
    "day": "Gaming day",
    "shift": "Shift",
    "dealer": "Dealer",
    "hands": "Hands",
    "hands_raked": "Raked",
    "pots_raked": "Pots raked",
    "rake": "Rake",
    "time": "Time collected",
    "wrong_drops": "Wrong drops",
}


def _room(console: Console) -> tuple[list[floor.Tile], health.Centre]:
    with console.conn() as conn:
        centre = health.centre(conn, console.probe)
        tiles = floor.floor_map(conn, centre, console.cfg.console.offline_after_s)
    return tiles, centre


def map_page(console: Console, request: Request) -> Response:
    current = console.need(request)
    tiles, centre = _room(console)
    return console.render(
        request, "map.html", current, tiles=tiles, centre=centre, room=floor.Room.of(tiles)
    )


def map_tables(console: Console, request: Request) -> Response:
    current = console.need(request)
    tiles, centre = _room(console)
    return console.render(
        request, "_tables.html", current, tiles=tiles, centre=centre, room=floor.Room.of(tiles)
    )


def map_health(console: Console, request: Request) -> Response:
    """The centre's health line alone: the map and the health page ask for it every 2 s."""
    current = console.need(request)
    with console.conn() as conn:
        centre = health.centre(conn, console.probe)
    return console.render(request, "_centre.html", current, centre=centre)


def table_page(console: Console, request: Request) -> Response:
    current = console.need(request)
    station = request.path_params["station"]
    with console.conn() as conn:
        centre = health.centre(conn, console.probe)
        found = floor.floor_map(conn, centre, console.cfg.console.offline_after_s, station)
        if not found:
            raise HTTPException(404, f"no table {station} in the central store")
        incidents, _ = views.queue(conn, views.QueueFilter(table=station, state="active"), 50)
        commands = [c for c in views.commands_of_station(conn, station) if c.state == "pending"]
    return console.render(
        request, "table.html", current, t=found[0], centre=centre, incidents=incidents,
        commands=commands,
    )  # fmt: skip


def health_page(console: Console, request: Request) -> Response:
    current = console.need(request)
    with console.conn() as conn:
        centre = health.centre(conn, console.probe)
        tiles = floor.floor_map(conn, centre, console.cfg.console.offline_after_s)
        counters = views.ingest_counters(conn)
    tiles.sort(key=lambda t: (not t.offline, -t.behind, t.station))
    return console.render(
        request, "health.html", current, tiles=tiles, centre=centre, counters=counters,
        room=floor.Room.of(tiles), broker=f"{console.cfg.host}:{console.cfg.port}",
        offline_after_s=console.cfg.console.offline_after_s,
    )  # fmt: skip


def money_page(console: Console, request: Request) -> Response:
    """Rake and time collected by table, day, shift and dealer, and the wrong drops."""
    current = console.need(request)
    f = money.MoneyFilter.of(request.query_params, request.query_params.getlist("by"))
    message, found = "", None
    with console.conn() as conn:
        try:
            found = money.money(conn, f)
        except money.MoneyError as exc:
            message = str(exc)
        tables = views.station_ids(conn)
    return console.render(
        request, "money.html", current, status_code=400 if message else 200, f=f, found=found,
        message=message, tables=tables, dimensions=DIMENSIONS, figures=FIGURES,
        headings=HEADINGS, export=urlencode(f.query()),
    )  # fmt: skip


def money_csv(console: Console, request: Request) -> Response:
    """The rake report as CSV: the same text as `station report rake --format csv`."""
    current = console.need(request, Action.EXPORT)
    f = money.MoneyFilter.of(request.query_params, request.query_params.getlist("by"))
    with console.conn() as conn:
        try:
            found = money.money(conn, f)
        except money.MoneyError as exc:
            raise HTTPException(400, str(exc)) from None
        accounts.audit(
            conn, current.account, current.role.value, "export.rake.csv",
            target=urlencode(f.query()), detail={"groups": len(found.result.rows)},
            address=request.client.host if request.client else "",
        )  # fmt: skip
    stamp = datetime.now().astimezone().strftime("%Y%m%d-%H%M%S")
    return Response(
        report_csv(found.result),
        media_type="text/csv; charset=utf-8",
        headers={
            "content-disposition": f'attachment; filename="rake-{console.cfg.site}-{stamp}.csv"'
        },
    )
