"""The event in the central store, and what the floor does to it: create it (structure,
entrants, tables in their breaking order), draw the seats from a recorded seed, start, pause and
resume its clock, put every table hand-for-hand or take it off. Each step queues the commands
the tables carry out (`tournament.*`, through the console's command queue and the ingest).
Edge adapter (PostgreSQL through psycopg 3).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import psycopg

from station.central.tournament import clock
from station.central.tournament.rules import RULES
from station.central.tournament.seating import DrawError, draw_seats
from station.engine.games import GAMES
from station.engine.levels import ScheduleError

Conn = psycopg.Connection[tuple[Any, ...]]

DIRECTOR: Final = "tournament"  # who the director's own commands are created by
NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
MAX_ENTRANTS: Final = 5000
MAX_TABLES: Final = 500
MAX_SEAT: Final = 10


class EventError(ValueError):
    """The floor asked for something the event cannot do (the message says why)."""


@dataclass(frozen=True, slots=True)
class EventSpec:
    id: str
    title: str
    profile: str
    game: str
    structure: Mapping[str, Any]
    start_chips: int
    tables: Sequence[tuple[str, int]]  # (station, seats), in the breaking order: first broken first
    entrants: Sequence[tuple[str, str]]  # (player id, name)
    prizes: Sequence[int] = ()
    redraw_at_three: bool = True


def check(spec: EventSpec) -> None:
    """Raises EventError naming the first thing wrong with `spec`."""
    if not NAME.fullmatch(spec.id):
        raise EventError("event: 1-32 letters, digits, '.', '_' or '-'")
    if spec.profile not in RULES:
        raise EventError(f"profile: one of {', '.join(RULES)}")
    if spec.game not in GAMES:
        raise EventError(f"game: unknown game {spec.game!r}")
    try:
        clock.parse_levels(spec.structure, spec.game)
    except ScheduleError as exc:
        raise EventError(f"structure: {exc}") from None
    if not 0 < spec.start_chips <= 10**12:
        raise EventError("starting chips: a whole number above 0")
    if not spec.tables or len(spec.tables) > MAX_TABLES:
        raise EventError(f"tables: 1-{MAX_TABLES} tables")
    names = [s for s, _ in spec.tables]
    if len(set(names)) != len(names) or not all(NAME.fullmatch(s) for s in names):
        raise EventError("tables: station ids, each once")
    if any(not 2 <= n <= MAX_SEAT for _, n in spec.tables):
        raise EventError(f"seats per table: 2-{MAX_SEAT}")
    ids = [p for p, _ in spec.entrants]
    if len(set(ids)) != len(ids) or not all(NAME.fullmatch(p) for p in ids):
        raise EventError("entrants: player ids (letters, digits), each once")
    if not 2 <= len(ids) <= MAX_ENTRANTS:
        raise EventError(f"entrants: 2-{MAX_ENTRANTS} players")
    if len(ids) > sum(n for _, n in spec.tables):
        raise EventError(f"{len(ids)} entrants do not fit {sum(n for _, n in spec.tables)} seats")
    if any(p < 0 for p in spec.prizes):
        raise EventError("prizes: amounts of 0 or more")


def create(conn: Conn, spec: EventSpec, by: str) -> None:
    check(spec)
    with conn.transaction():
        busy = conn.execute(
            "SELECT t.station_id, t.event_id FROM tourney_tables t JOIN tourney_events e"
            " ON e.id = t.event_id WHERE e.state <> 'finished' AND t.broken_at IS NULL"
            " AND t.station_id = ANY(%s) LIMIT 1",
            ([s for s, _ in spec.tables],),
        ).fetchone()
        if busy is not None:
            raise EventError(f"table {busy[0]} is in play in event {busy[1]}")
        found = conn.execute(
            "INSERT INTO tourney_events (id, title, profile, game, structure, start_chips, prizes,"
            " redraw_at_three, created_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT DO NOTHING RETURNING id",
            (
                spec.id,
                spec.title.strip()[:200] or spec.id,
                spec.profile,
                spec.game,
                json.dumps({"levels": list(spec.structure["levels"])}),
                spec.start_chips,
                json.dumps(list(spec.prizes)),
                spec.redraw_at_three,
                by,
            ),
        ).fetchone()
        if found is None:
            raise EventError(f"event {spec.id} exists already")
        conn.cursor().executemany(
            "INSERT INTO tourney_entrants (event_id, player, name) VALUES (%s, %s, %s)",
            [(spec.id, p, n.strip()[:100] or p) for p, n in spec.entrants],
        )
        # Each table's rows are folded from its newest stored row on: what it journaled before
        # (an earlier event's players out, moves and seats) is not this event's.
        conn.cursor().executemany(
            "INSERT INTO tourney_tables (event_id, station_id, seats, break_order, seq)"
            " VALUES (%s, %s, %s, %s,"
            " (SELECT COALESCE(max(seq), 0) FROM rows WHERE station_id = %s))",
            [
                (spec.id, s, list(range(1, n + 1)), i, s)
                for i, (s, n) in enumerate(spec.tables, start=1)
            ],
        )


def queue(conn: Conn, station: str, kind: str, body: Mapping[str, Any], by: str) -> int:
    """A command for `station` (the ingest sends it while the station is connected)."""
    found = conn.execute(
        "INSERT INTO commands (station_id, kind, body, created_by) VALUES (%s, %s, %s, %s)"
        " RETURNING id",
        (station, kind, json.dumps(dict(body)), by),
    ).fetchone()
    assert found is not None
    return int(found[0])


@dataclass
class Event:
    id: str
    title: str
    profile: str
    game: str
    structure: dict[str, Any]
    start_chips: int
    prizes: list[int]
    redraw_at_three: bool
    seed: str | None
    state: str
    clock: dict[str, Any] | None
    clock_sent: int | None
    h4h_on: bool
    h4h_round: int
    h4h_released: bool
    winner: str | None
    tables: list[str] = field(default_factory=list)  # in play, in breaking order

    @property
    def levels(self) -> tuple[Any, ...]:
        return clock.parse_levels(self.structure, self.game)


_EVENT_COLUMNS: Final = (
    "id, title, profile, game, structure, start_chips, prizes, redraw_at_three, seed, state,"
    " clock, clock_sent, h4h_on, h4h_round, h4h_released, winner"
)


def load(conn: Conn, event: str, *, lock: bool = False) -> Event | None:
    found = conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM tourney_events WHERE id = %s"
        + (" FOR UPDATE" if lock else ""),
        (event,),
    ).fetchone()
    if found is None:
        return None
    ev = Event(*found)
    ev.tables = [
        str(r[0])
        for r in conn.execute(
            "SELECT station_id FROM tourney_tables WHERE event_id = %s AND broken_at IS NULL"
            " ORDER BY break_order",
            (event,),
        )
    ]
    return ev


def _need(conn: Conn, event: str) -> Event:
    ev = load(conn, event, lock=True)
    if ev is None:
        raise EventError(f"no event {event}")
    return ev


def draw(conn: Conn, event: str, by: str, seed: str = "", now_utc: float | None = None) -> str:
    """The seat draw from `seed` (a new random one when empty), recorded; each table is sent its
    players, their chips and the structure, and the clock as it stands. Returns the seed."""
    now = time.time() if now_utc is None else now_utc
    seed = seed.strip()[:64] or secrets.token_hex(16)
    with conn.transaction():
        ev = _need(conn, event)
        if ev.state != "planned":
            raise EventError(f"event {event} is already seated")
        players = sorted(
            str(r[0])
            for r in conn.execute(
                "SELECT player FROM tourney_entrants WHERE event_id = %s", (event,)
            )
        )
        tables = [
            (str(s), tuple(int(x) for x in seats))
            for s, seats in conn.execute(
                "SELECT station_id, seats FROM tourney_tables WHERE event_id = %s"
                " ORDER BY break_order",
                (event,),
            )
        ]
        used = tables_needed(len(players), tables)
        unused = [t for t, _ in tables[: len(tables) - len(used)]]
        try:
            drawn = draw_seats(players, used, seed)
        except DrawError as exc:
            raise EventError(str(exc)) from None
        why = "the seat draw: random, from the recorded seed"
        if unused:
            why += (
                f"; {len(players)} players need {len(used)} of the {len(tables)} tables, the"
                f" last of the breaking order: {', '.join(unused)} not used"
            )
        conn.execute(
            "INSERT INTO tourney_draws (event_id, n, kind, seed, tables_left, rule, why, result)"
            " VALUES (%s, 0, 'draw', %s, %s, %s, %s, %s)",
            (
                event,
                seed,
                len(used),
                "001-RR11 §15 r2; TDA 2024 Rule 7",
                why,
                json.dumps({p: list(w) for p, w in sorted(drawn.items())}),
            ),
        )
        if unused:  # out of play from the start, as a broken table is
            conn.execute(
                "UPDATE tourney_tables SET broken_at = now() WHERE event_id = %s"
                " AND station_id = ANY(%s)",
                (event, unused),
            )
        conn.cursor().executemany(
            "INSERT INTO tourney_seats (event_id, player, station_id, seat, chips)"
            " VALUES (%s, %s, %s, %s, %s)",
            [(event, p, t, s, ev.start_chips) for p, (t, s) in sorted(drawn.items())],
        )
        levels = ev.levels
        state = clock.from_json(ev.clock, levels, now)
        structure = {"event": event, "levels": ev.structure["levels"]}
        for station, _ in used:
            seats = {
                str(s): {"player": p, "chips": ev.start_chips}
                for p, (t, s) in sorted(drawn.items(), key=lambda kv: kv[1])
                if t == station
            }
            body: dict[str, Any] = {"event": event, "seats": seats, "structure": structure}
            if len(used) == 1:
                body["final_table"] = True  # one table from the start: the event's last
            queue(conn, station, "tournament.seat_draw", body, by)
            queue(
                conn, station, "tournament.clock", clock.command_body(event, levels, state, now), by
            )
        conn.execute(
            "UPDATE tourney_events SET seed = %s, state = 'seated', clock = %s, clock_sent = %s"
            " WHERE id = %s",
            (seed, json.dumps(clock.to_json(state)), state.index, event),
        )
    return seed


def tables_needed(
    players: int, tables: list[tuple[str, tuple[int, ...]]]
) -> list[tuple[str, tuple[int, ...]]]:
    """The tables a first draw seats `players` at: as few as hold them, the last of the breaking
    order (the ones broken last), so no table is broken before anyone is out (all of them when
    even all do not hold the field: the draw says so)."""
    for k in range(1, len(tables) + 1):
        if sum(len(seats) for _, seats in tables[-k:]) >= players:
            return tables[-k:]
    return tables


def set_clock(conn: Conn, event: str, what: str, by: str, now_utc: float | None = None) -> None:
    """Start, pause or resume the event's clock, and tell every table in play."""
    now = time.time() if now_utc is None else now_utc
    with conn.transaction():
        ev = _need(conn, event)
        if ev.state != "seated":
            raise EventError(f"event {event} is {ev.state}: its clock is not running")
        levels = ev.levels
        state = clock.from_json(ev.clock, levels, now)
        started = bool(ev.clock) and not _never_started(ev)
        match what:
            case "start":
                if started:
                    raise EventError("the clock is already started")
                state = clock.start(levels, now)
            case "pause":
                if state.paused:
                    raise EventError("the clock is not running")
                state = clock.pause(levels, state, now)
            case "resume":
                if not state.paused or not started:
                    raise EventError("the clock is not paused")
                state = clock.resume(levels, state, now)
            case _:
                raise EventError(f"unknown clock step {what!r}")
        stored = clock.to_json(state) | {"started": True}
        conn.execute(
            "UPDATE tourney_events SET clock = %s, clock_sent = %s WHERE id = %s",
            (json.dumps(stored), state.index, event),
        )
        body = clock.command_body(event, levels, state, now)
        for station in ev.tables:
            queue(conn, station, "tournament.clock", body, by)


def _never_started(ev: Event) -> bool:
    return not (ev.clock or {}).get("started", False)


def hand_for_hand(conn: Conn, event: str, on: bool, by: str) -> int:
    """Put every table of the event hand-for-hand (or take them off); the round number."""
    with conn.transaction():
        ev = _need(conn, event)
        if ev.state != "seated":
            raise EventError(f"event {event} is {ev.state}")
        if on == ev.h4h_on:
            raise EventError("hand-for-hand is already " + ("on" if on else "off"))
        rnd = ev.h4h_round + 1 if on else ev.h4h_round
        body: dict[str, Any] = {"on": on, "event": event}
        if on:
            body["round"] = rnd
        conn.execute(
            "UPDATE tourney_events SET h4h_on = %s, h4h_round = %s, h4h_released = false"
            " WHERE id = %s",
            (on, rnd, event),
        )
        for station in ev.tables:
            queue(conn, station, "tournament.hand_for_hand", body, by)
    return rnd
