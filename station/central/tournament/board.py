"""The event's live view as the floor console shows it: the clock, players left and the average
stack, every table and who sits where (the button, the big blind, players on their way), the
moves, hand-for-hand, the finishing order with each elimination's hand, the payouts by place,
the draws with their seeds. Edge adapter (reads PostgreSQL through psycopg 3).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import psycopg

from station.central.tournament import clock, rounds, store
from station.central.tournament.places import Out, Placed, finishing_order, payouts
from station.central.tournament.rules import rules_for
from station.central.tournament.tables import TableFold

Conn = psycopg.Connection[tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    player: str
    name: str
    chips: int | None
    button: bool
    big_blind: bool
    note: str  # "FROM T03" (on his way in), "TO T07 SEAT 2" (ordered out)


@dataclass(frozen=True, slots=True)
class TableLine:
    station: str
    seats: tuple[SeatLine, ...]
    players: int  # seated now
    arriving: int  # ordered here, not seated yet
    leaving: int  # ordered out, still seated
    online: bool | None
    broken: bool
    hand: int
    in_hand: bool
    clock: str  # what the table last took from the event's clock
    h4h: str  # the table's hand-for-hand state in words


@dataclass(frozen=True, slots=True)
class MoveLine:
    id: int
    player: str
    name: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    reason: str
    rule: str
    why: str
    state: str
    chips: int | None
    refused: str = ""  # a table refused its order: the station and its reason
    cancel: str = ""  # called off (re-planned): sent, done, refused (the move stands)
    cancelled: str = ""  # why it was called off ("no longer needed: T04 lost a player")
    cancel_refused: str = ""  # the table refused the cancel: the station and its reason


@dataclass(frozen=True, slots=True)
class OutLine:
    place: str
    player: str
    name: str
    station: str
    seat: int
    hand: int
    start_stack: int
    round: int | None
    prize: int
    odd: int


@dataclass(frozen=True, slots=True)
class DrawLine:
    n: int
    kind: str
    seed: str
    broken: str | None
    tables_left: int
    rule: str
    why: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Board:
    event: store.Event
    clock: clock.ClockView
    entrants: int
    left: int
    average: int
    tables: tuple[TableLine, ...]
    moves: tuple[MoveLine, ...]
    outs: tuple[OutLine, ...]
    prizes: tuple[tuple[int, int], ...]  # (place, amount)
    draws: tuple[DrawLine, ...]
    waiting_for: tuple[str, ...]  # hand-for-hand: the tables the round waits for
    rules_source: str
    winner_name: str = ""  # the winner's name as entered ("" until the event is won)


@dataclass(frozen=True, slots=True)
class EventLine:
    id: str
    title: str
    profile: str
    state: str
    entrants: int
    left: int
    tables: int
    created_at: datetime


def events(conn: Conn) -> list[EventLine]:
    return [
        EventLine(str(i), str(t), str(p), str(s), int(e), int(left), int(n), c)
        for i, t, p, s, e, left, n, c in conn.execute(
            "SELECT e.id, e.title, e.profile, e.state,"
            " (SELECT count(*) FROM tourney_entrants x WHERE x.event_id = e.id),"
            " (SELECT count(*) FROM tourney_seats x WHERE x.event_id = e.id),"
            " (SELECT count(*) FROM tourney_tables x WHERE x.event_id = e.id"
            "  AND x.broken_at IS NULL),"
            " e.created_at FROM tourney_events e ORDER BY e.created_at DESC LIMIT 200"
        )
    ]


def board(conn: Conn, event: str, now_utc: float | None = None) -> Board | None:
    now = time.time() if now_utc is None else now_utc
    ev = store.load(conn, event)
    if ev is None:
        return None
    levels = ev.levels
    finished = None
    if ev.state == "finished":  # the clock stopped with the last hand: read it there
        row = conn.execute(
            "SELECT extract(epoch FROM finished_at) FROM tourney_events WHERE id = %s", (event,)
        ).fetchone()
        finished = float(row[0]) if row is not None and row[0] is not None else now
        now = min(now, finished)
    state = clock.from_json(ev.clock, levels, now)
    started = bool((ev.clock or {}).get("started"))
    view = clock.view(levels, state, ev.game, now, started)
    if finished is not None:
        view = replace(view, finished=True)
    names = {
        str(p): str(n)
        for p, n in conn.execute(
            "SELECT player, name FROM tourney_entrants WHERE event_id = %s", (event,)
        )
    }
    entrants = len(names)
    seated = conn.execute(
        "SELECT player, station_id, seat, chips, moving FROM tourney_seats WHERE event_id = %s",
        (event,),
    ).fetchall()
    left = len(seated) if ev.state != "planned" else entrants
    total = entrants * ev.start_chips
    moves = _moves(conn, event, names)
    tables, folds = _tables(conn, ev, seated, names, moves)
    outs = _outs(conn, ev, names, entrants, str(ev.winner or ""))
    waiting: list[str] = []
    if ev.h4h_on:
        tr = {
            s: rounds.TableRound(f.holding, f.in_hand, len(f.players))
            for s, f in folds.items()
            if s in ev.tables
        }
        waiting = rounds.waiting_for(rounds.RoundState(True, ev.h4h_round, ev.h4h_released), tr)
    draws = tuple(
        DrawLine(int(n), str(k), str(sd), b, int(tl), str(r), str(w), at)
        for n, k, sd, b, tl, r, w, at in conn.execute(
            "SELECT n, kind, seed, broken, tables_left, rule, why, at FROM tourney_draws"
            " WHERE event_id = %s ORDER BY n",
            (event,),
        )
    )
    return Board(
        event=ev,
        clock=view,
        entrants=entrants,
        left=left,
        average=total // left if left else 0,
        tables=tables,
        moves=moves,
        outs=outs,
        prizes=tuple((i + 1, int(a)) for i, a in enumerate(ev.prizes)),
        draws=draws,
        waiting_for=tuple(waiting),
        rules_source=rules_for(ev.profile).sources,
        winner_name=names.get(str(ev.winner), str(ev.winner)) if ev.winner else "",
    )


def _moves(conn: Conn, event: str, names: dict[str, str]) -> tuple[MoveLine, ...]:
    found = conn.execute(
        "SELECT m.id, m.player, m.from_station, m.from_seat, m.to_station, m.to_seat, m.reason,"
        " m.rule, m.why, m.state, m.chips,"
        " CASE WHEN o.state = 'refused' THEN concat(o.station_id, ': ', o.reply->>'detail')"
        " WHEN i.state = 'refused' THEN concat(i.station_id, ': ', i.reply->>'detail') END,"
        " m.cancel_state, m.cancel_why,"
        " CASE WHEN m.cancel_state = 'refused' THEN concat(m.from_station, ': ',"
        " m.cancel_detail) END"
        " FROM tourney_moves m LEFT JOIN commands o ON o.id = m.out_command"
        " LEFT JOIN commands i ON i.id = m.in_command WHERE m.event_id = %s"
        " ORDER BY (m.state IN ('waiting', 'ordered', 'out')) DESC, m.id DESC LIMIT 60",
        (event,),
    ).fetchall()
    return tuple(
        MoveLine(int(i), str(p), names.get(str(p), str(p)), str(ft), int(fs), str(tt), int(ts),
                 str(r), str(ru), str(w), str(st), None if c is None else int(c), str(x or ""),
                 str(cs or ""), str(cw or ""), str(cr or ""))
        for i, p, ft, fs, tt, ts, r, ru, w, st, c, x, cs, cw, cr in found
    )  # fmt: skip


def _tables(
    conn: Conn,
    ev: store.Event,
    seated: list[tuple[Any, ...]],
    names: dict[str, str],
    moves: tuple[MoveLine, ...],
) -> tuple[tuple[TableLine, ...], dict[str, TableFold]]:
    online = {
        str(s): (None if o is None else bool(o))
        for s, o in conn.execute("SELECT station_id, online FROM stations")
    }
    leaving = {(m.from_table, m.from_seat): m for m in moves if m.state in ("ordered", "waiting")}
    lines: list[TableLine] = []
    folds: dict[str, TableFold] = {}
    for station, broken, fold_json in conn.execute(
        "SELECT station_id, broken_at IS NOT NULL, fold FROM tourney_tables WHERE event_id = %s"
        " ORDER BY broken_at IS NOT NULL, break_order",
        (ev.id,),
    ).fetchall():
        name = str(station)
        fold = TableFold.from_json(dict(fold_json))
        folds[name] = fold
        seats: list[SeatLine] = []
        here = sorted((int(s), str(p), int(c), bool(mv)) for p, t, s, c, mv in seated if t == name)
        coming = 0
        for seat, player, chips, moving in here:
            arriving = moving and fold.players.get(seat) != player
            coming += arriving
            note = ""
            if arriving:
                src = next((m for m in moves if m.player == player and m.state != "done"), None)
                note = f"FROM {src.from_table}" if src is not None else "ARRIVING"
            out = leaving.get((name, seat))
            if out is not None and out.player != player:
                note = f"{note} · {names.get(out.player, out.player)} TO {out.to_table}".strip(" ·")
            seats.append(
                SeatLine(
                    seat,
                    player,
                    names.get(player, player),
                    fold.chips.get(seat, chips) if not arriving else chips,
                    fold.button == seat,
                    fold.big_blind == seat,
                    note,
                )
            )
        going = 0
        for (t, s), m in sorted(leaving.items()):
            if t == name and all(x.seat != s for x in seats):
                going += 1
                seats.append(
                    SeatLine(s, m.player, m.name, fold.chips.get(s), fold.button == s,
                             fold.big_blind == s, f"TO {m.to_table} SEAT {m.to_seat}")
                )  # fmt: skip
        seats.sort(key=lambda x: x.seat)
        clock_note = (
            f"level {fold.clock_level} from the centre"
            if fold.clock_level
            else "no event clock yet"
        )
        h4h = ""
        if ev.h4h_on:
            if fold.in_hand:
                h4h = f"playing round {fold.in_round}" if fold.in_round else "playing its hand"
            elif fold.holding:
                h4h = f"holding for round {fold.holding}"
            else:
                h4h = "not holding yet"
        lines.append(
            TableLine(
                name,
                tuple(seats),
                len(here) - coming + going,
                coming,
                going,
                online.get(name),
                bool(broken),
                fold.hand,
                fold.in_hand,
                clock_note,
                h4h,
            )
        )
    return tuple(lines), folds


def _outs(
    conn: Conn, ev: store.Event, names: dict[str, str], entrants: int, winner: str
) -> tuple[OutLine, ...]:
    rows = conn.execute(
        "SELECT player, station_id, seat, hand, start_stack, grp, ord, round FROM tourney_outs"
        " WHERE event_id = %s",
        (ev.id,),
    ).fetchall()
    outs = [
        Out(str(p), str(t), int(s), int(h), int(st), str(g), int(o))
        for p, t, s, h, st, g, o, _ in rows
    ]
    rnd = {str(r[0]): (None if r[7] is None else int(r[7])) for r in rows}
    placed: list[Placed] = finishing_order(
        entrants, outs, tie_across_tables=rules_for(ev.profile).tie_across_tables, winner=winner
    )
    prize = {p.player: p for p in payouts(placed, [int(a) for a in ev.prizes])}
    lines = []
    for p in placed:
        o = p.out
        won = prize.get(p.player)
        lines.append(
            OutLine(
                p.label(),
                p.player,
                names.get(p.player, p.player),
                o.table if o else "",
                o.seat if o else 0,
                o.hand if o else 0,
                o.start_stack if o else 0,
                rnd.get(p.player),
                won.amount if won else 0,
                won.odd if won else 0,
            )
        )
    return tuple(lines)
