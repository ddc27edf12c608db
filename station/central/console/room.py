"""The console's room pages: the floor map (every table on one screen, problems first), its
live parts (the tiles, the centre's health line), one table's detail page and the health page
(the broker, the ingest, every station's forwarding). Edge adapter (HTTP handlers on the
console's request threads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from station.central.console import floor, health, views

if TYPE_CHECKING:
    from station.central.console.app import Console


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
