"""The tournament director at the centre: each event's tables' new rows folded (`tables`), the
players out placed, the moves the seat sensors confirmed carried on (a player out of his old seat
is sent to the new table with his chips), the next balancing step decided by the rule
(`balance`) and ordered, hand-for-hand rounds released (`rounds`), the clock announced at every
new level. Edge adapter (PostgreSQL through psycopg 3), run by the console's live thread on the
ingest's notifications (`fleet_rows`) and once a second.

Each event is worked on in one transaction under an advisory lock on the event, so two console
processes never decide twice; everything it decides is in the store before the commands it
queued can go out (the ingest sends them after the commit).
"""

from __future__ import annotations

import json
import logging
import time
import zlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Final

import psycopg

from station.central.tournament import clock, replan, rounds, store
from station.central.tournament.balance import Plan, Reason, plan
from station.central.tournament.places import Out, finishing_order
from station.central.tournament.replan import Pending, after
from station.central.tournament.rules import rules_for
from station.central.tournament.seating import TableSeats
from station.central.tournament.tables import (
    CODES,
    Eliminated,
    Fact,
    MoveCancelled,
    MovedIn,
    MovedOut,
    Row,
    SeatsDrawn,
    TableFold,
)

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

CHUNK: Final = 5000
MAX_STEPS: Final = 1000  # balancing steps in one update (a field of 5000 needs far fewer)
OPEN: Final = ("waiting", "ordered", "out")


class Director:
    def __init__(self) -> None:
        self.decisions = 0  # balancing steps decided (for the bench)

    # --- entry points -------------------------------------------------------------------------

    def on_rows(self, conn: Conn, stations: Iterable[str]) -> list[str]:
        """New rows of these stations: the events they play in, brought up to date."""
        wanted = sorted(set(stations))
        if not wanted:
            return []
        events = [
            str(r[0])
            for r in conn.execute(
                "SELECT DISTINCT t.event_id FROM tourney_tables t JOIN tourney_events e"
                " ON e.id = t.event_id WHERE e.state = 'seated' AND t.station_id = ANY(%s)",
                (wanted,),
            )
        ]
        return [ev for ev in events if self.update(conn, ev, wanted)]

    def catch_up_all(self, conn: Conn) -> list[str]:
        events = [
            str(r[0]) for r in conn.execute("SELECT id FROM tourney_events WHERE state = 'seated'")
        ]
        return [ev for ev in events if self.update(conn, ev, None)]

    def tick(self, conn: Conn, now_utc: float | None = None) -> list[str]:
        """Announce a new level to the tables when the clock has moved on to one."""
        now = time.time() if now_utc is None else now_utc
        changed = []
        running = conn.execute(
            "SELECT id FROM tourney_events WHERE state = 'seated' AND clock IS NOT NULL"
            " AND NOT (clock->>'paused')::boolean"
        ).fetchall()
        for (event,) in running:
            with conn.transaction():
                ev = store.load(conn, str(event), lock=True)
                if ev is None or ev.clock is None:
                    continue
                levels = ev.levels
                state = clock.from_json(ev.clock, levels, now)
                index = clock.level_index(levels, state, now)
                if index == ev.clock_sent:
                    continue
                body = clock.command_body(ev.id, levels, state, now)
                for station in ev.tables:
                    store.queue(conn, station, "tournament.clock", body, store.DIRECTOR)
                conn.execute(
                    "UPDATE tourney_events SET clock_sent = %s WHERE id = %s", (index, ev.id)
                )
                changed.append(ev.id)
        return changed

    # --- one event ----------------------------------------------------------------------------

    def update(self, conn: Conn, event: str, stations: list[str] | None) -> bool:
        """Fold the event's tables' new rows (of `stations`, or all), then decide. True when
        anything changed."""
        with conn.transaction():
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s)", (zlib.crc32(f"tourney:{event}".encode()),)
            )
            ev = store.load(conn, event, lock=True)
            if ev is None or ev.state != "seated":
                return False
            work = _Work(conn, ev)
            folds = work.fold_tables(stations)
            if work.facts:
                work.place()
            if ev.state == "seated" and not work.finished:
                work.refused()
                work.seat_redraws(folds)
                work.balance(folds)
                work.hand_for_hand(folds)
            self.decisions += work.decided
            return work.changed


class _Work:
    """One update of one event, inside its transaction."""

    def __init__(self, conn: Conn, ev: store.Event) -> None:
        self.conn = conn
        self.ev = ev
        self.rules = rules_for(ev.profile)
        self.facts = 0
        self.changed = False
        self.finished = False
        self.decided = 0
        self.cause: tuple[str, int] | None = None  # the last player-out row (what a move is for)
        self.redrawing = False  # a redraw's tables not all seated yet

    # --- folding --------------------------------------------------------------------------

    def fold_tables(self, stations: list[str] | None) -> dict[str, TableFold]:
        conn, event = self.conn, self.ev.id
        folds: dict[str, TableFold] = {}
        found = conn.execute(
            "SELECT station_id, fold, seq FROM tourney_tables WHERE event_id = %s", (event,)
        ).fetchall()
        for station, state, seq in found:
            fold = TableFold.from_json(dict(state))
            name = str(station)
            if stations is None or name in stations:
                cursor = int(seq)
                while True:
                    rows = conn.execute(
                        "SELECT seq, code, hand, recorded_utc, payload FROM rows"
                        " WHERE station_id = %s AND seq > %s AND code = ANY(%s)"
                        " ORDER BY seq LIMIT %s",
                        (name, cursor, list(CODES), CHUNK),
                    ).fetchall()
                    for seq_, code, hand, utc, payload in rows:
                        row = Row(int(seq_), str(code), int(hand), str(utc), _data(payload))
                        try:
                            fact = fold.apply(row)
                        except (KeyError, ValueError, TypeError) as exc:
                            log.error(
                                "tournament %s: %s row %s unreadable: %r", event, name, seq_, exc
                            )
                            continue
                        if fact is not None:
                            self._fact(name, fact)
                    if rows:
                        cursor = int(rows[-1][0])
                        self.changed = True
                    if len(rows) < CHUNK:
                        break
                if cursor != int(seq):
                    conn.execute(
                        "UPDATE tourney_tables SET fold = %s, seq = %s"
                        " WHERE event_id = %s AND station_id = %s",
                        (json.dumps(fold.to_json()), cursor, event, name),
                    )
            folds[name] = fold
        return folds

    def _fact(self, station: str, fact: Fact) -> None:
        self.facts += 1
        match fact:
            case Eliminated():
                self._out(station, fact)
            case MovedOut():
                self._moved_out(station, fact)
            case MovedIn():
                self._moved_in(station, fact)
            case MoveCancelled():
                self._move_cancelled(station, fact)
            case SeatsDrawn():
                self._seats_drawn(station, fact)

    def _seats_drawn(self, station: str, fact: SeatsDrawn) -> None:
        """A redraw's table set up from its seat draw: the players drawn to it have arrived."""
        for ident, player in self.conn.execute(
            "UPDATE tourney_moves SET state = 'done', in_seq = %s, in_at = now()"
            " WHERE event_id = %s AND in_command = %s AND to_station = %s AND state = 'out'"
            " RETURNING id, player",
            (fact.seq, self.ev.id, fact.command, station),
        ).fetchall():
            self._release_after(int(ident))
            self._settle_moving(str(player))
        for (player,) in self.conn.execute(
            "SELECT player FROM tourney_seats WHERE event_id = %s AND station_id = %s",
            (self.ev.id, station),
        ).fetchall():
            self._settle_moving(str(player))

    def _out(self, station: str, fact: Eliminated) -> None:
        conn, event = self.conn, self.ev.id
        if fact.event is not None and fact.event != event:
            # another event's player out at this table (an earlier event's row, stored late)
            log.warning("tournament %s: %s row %d puts players out of event %s: not this one",
                        event, station, fact.seq, fact.event)  # fmt: skip
            return
        grp = f"round:{fact.round}" if fact.round is not None else f"{station}:{fact.hand}"
        for o in fact.players:
            player = o.player or self._at(station, o.seat)
            if not player:
                log.warning("tournament %s: %s seat %d out, player unknown", event, station, o.seat)
                continue
            seated = conn.execute(
                "SELECT 1 FROM tourney_seats WHERE event_id = %s AND player = %s", (event, player)
            ).fetchone()
            if seated is None:
                continue  # out already, or never here
            conn.execute(
                "INSERT INTO tourney_outs (event_id, player, station_id, seat, hand, start_stack,"
                " round, grp, ord, row_seq, recorded) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
                " %s, %s, %s) ON CONFLICT DO NOTHING",
                (
                    event, player, station, o.seat, fact.hand, o.start_stack, fact.round, grp,
                    _micros(fact.recorded_utc), fact.seq, fact.recorded_utc,
                ),
            )  # fmt: skip
            conn.execute(
                "DELETE FROM tourney_seats WHERE event_id = %s AND player = %s", (event, player)
            )
            for (cancelled,) in conn.execute(
                "UPDATE tourney_moves SET state = 'cancelled' WHERE event_id = %s AND player = %s"
                " AND state IN ('waiting', 'ordered') RETURNING id",
                (event, player),
            ).fetchall():
                self._release_after(int(cancelled))  # the seat he was to leave is free
        self.cause = (station, fact.seq)

    def _at(self, station: str, seat: int) -> str:
        found = self.conn.execute(
            "SELECT player FROM tourney_seats WHERE event_id = %s AND station_id = %s"
            " AND seat = %s",
            (self.ev.id, station, seat),
        ).fetchone()
        return "" if found is None else str(found[0])

    def _moved_out(self, station: str, fact: MovedOut) -> None:
        conn, event = self.conn, self.ev.id
        found = conn.execute(
            "SELECT id, to_station, to_seat, reason FROM tourney_moves WHERE event_id = %s"
            " AND player = %s AND from_station = %s AND state = 'ordered' ORDER BY id LIMIT 1",
            (event, fact.player, station),
        ).fetchone()
        if found is None:
            log.warning("tournament %s: %s moved out %s: no move ordered", event, station,
                        fact.player)  # fmt: skip
            return
        ident, to_station, to_seat = int(found[0]), str(found[1]), int(found[2])
        conn.execute(
            "UPDATE tourney_moves SET cancel_state = 'refused', cancel_detail = %s"
            " WHERE id = %s AND cancel_state = 'sent'",
            (f"{fact.player} had left seat {fact.seat}: the move stands", ident),
        )  # the cancel came after he stood up: the table refuses it, the move is kept
        if str(found[3]) == Reason.REDRAW:
            # his new table is seated by the redraw's seat draw once all its players are out
            conn.execute(
                "UPDATE tourney_moves SET state = 'out', out_seq = %s, out_at = now(),"
                " chips = %s WHERE id = %s",
                (fact.seq, fact.chips, ident),
            )
            conn.execute(
                "UPDATE tourney_seats SET chips = %s WHERE event_id = %s AND player = %s",
                (fact.chips, event, fact.player),
            )
            return
        body = {
            "player": fact.player,
            "seat": to_seat,
            "from_table": station,
            "chips": fact.chips,
            "event": event,
        }
        command = store.queue(conn, to_station, "tournament.move_in", body, store.DIRECTOR)
        conn.execute(
            "UPDATE tourney_moves SET state = 'out', out_seq = %s, out_at = now(), chips = %s,"
            " in_command = %s WHERE id = %s",
            (fact.seq, fact.chips, command, ident),
        )
        conn.execute(
            "UPDATE tourney_seats SET chips = %s WHERE event_id = %s AND player = %s",
            (fact.chips, event, fact.player),
        )
        self._release_after(ident)  # a move to the seat this player left may go now

    def _moved_in(self, station: str, fact: MovedIn) -> None:
        conn, event = self.conn, self.ev.id
        found = conn.execute(
            "SELECT id FROM tourney_moves WHERE event_id = %s AND player = %s"
            " AND to_station = %s AND state = 'out' ORDER BY id LIMIT 1",
            (event, fact.player, station),
        ).fetchone()
        if found is None:
            log.warning("tournament %s: %s moved in %s: no move on its way", event, station,
                        fact.player)  # fmt: skip
            return
        ident = int(found[0])
        conn.execute(
            "UPDATE tourney_moves SET state = 'done', in_seq = %s, in_at = now() WHERE id = %s",
            (fact.seq, ident),
        )
        conn.execute(
            "UPDATE tourney_seats SET chips = %s WHERE event_id = %s AND player = %s",
            (fact.chips, event, fact.player),
        )
        self._release_after(ident)
        self._settle_moving(fact.player)

    def _move_cancelled(self, station: str, fact: MoveCancelled) -> None:
        """The table called a move off before its player left his seat: he stays."""
        conn, event = self.conn, self.ev.id
        found = conn.execute(
            "SELECT id, player, from_seat, state, cancel_cause_station, cancel_cause_seq"
            " FROM tourney_moves WHERE event_id = %s AND from_station = %s AND out_command = %s"
            " ORDER BY id LIMIT 1",
            (event, station, fact.command),
        ).fetchone()
        if found is None:
            log.warning("tournament %s: %s cancelled move order %s: no such move", event,
                        station, fact.command)  # fmt: skip
            return
        ident, player, seat, state = int(found[0]), str(found[1]), int(found[2]), str(found[3])
        conn.execute(
            "UPDATE tourney_moves SET cancel_state = 'done', cancel_seq = %s,"
            " cancel_why = coalesce(cancel_why, %s) WHERE id = %s",
            (fact.seq, fact.why, ident),
        )
        if state not in ("waiting", "ordered"):
            return  # cancelled already (refused, or its player out)
        self._call_off(ident, player, station, seat)
        if self.cause is None and found[4] is not None and found[5] is not None:
            self.cause = (str(found[4]), int(found[5]))  # what the next move is decided for

    def _call_off(self, ident: int, player: str, station: str, seat: int) -> None:
        """Move `ident` cancelled before its player left `seat`: he is counted there again,
        and whatever waited for the move may go."""
        conn, event = self.conn, self.ev.id
        conn.execute("UPDATE tourney_moves SET state = 'cancelled' WHERE id = %s", (ident,))
        conn.execute(
            "UPDATE tourney_seats SET station_id = %s, seat = %s WHERE event_id = %s"
            " AND player = %s",
            (station, seat, event, player),
        )
        self._settle_moving(player)
        self._release_after(ident)
        self.changed = True

    def _blocker(self, ident: int) -> int | None:
        """What the waiting move `ident` still waits for: its player's earlier open move (he is
        on his way to the seat this move takes him from), else a waiting move of another player
        out of the seat this one goes to (that player has not reached it yet: two players sent
        to one seat, and the second's chips would have nowhere to land). None: it may go."""
        conn, event = self.conn, self.ev.id
        row = conn.execute(
            "SELECT player, to_station, to_seat FROM tourney_moves WHERE id = %s", (ident,)
        ).fetchone()
        assert row is not None
        player, to_station, to_seat = str(row[0]), str(row[1]), int(row[2])
        own = conn.execute(
            "SELECT max(id) FROM tourney_moves WHERE event_id = %s AND player = %s AND id < %s"
            " AND state = ANY(%s)",
            (event, player, ident, list(OPEN)),
        ).fetchone()
        if own is not None and own[0] is not None:
            return int(own[0])
        seat = conn.execute(
            "SELECT id FROM tourney_moves WHERE event_id = %s AND from_station = %s"
            " AND from_seat = %s AND player <> %s AND state = 'waiting' ORDER BY id LIMIT 1",
            (event, to_station, to_seat, player),
        ).fetchone()
        if seat is None or self._waits_on(int(seat[0]), ident):
            return None  # two players swapping seats they have not reached: both go at once
        return int(seat[0])

    def _waits_on(self, ident: int, target: int) -> bool:
        """Whether waiting move `ident` waits, through others, for move `target`."""
        seen: set[int] = set()
        while ident not in seen:
            seen.add(ident)
            row = self.conn.execute(
                "SELECT after_move FROM tourney_moves WHERE id = %s AND state = 'waiting'",
                (ident,),
            ).fetchone()
            if row is None or row[0] is None:
                return False
            if int(row[0]) == target:
                return True
            ident = int(row[0])
        return False

    def _release_after(self, ident: int) -> None:
        """Order each move that waited for move `ident`, or set it waiting for what still
        holds it."""
        for (nxt,) in self.conn.execute(
            "SELECT id FROM tourney_moves WHERE after_move = %s AND state = 'waiting' ORDER BY id",
            (ident,),
        ).fetchall():
            self._go_or_wait(int(nxt))

    def _wait(self, ident: int, blocker: int) -> None:
        self.conn.execute(
            "UPDATE tourney_moves SET after_move = %s, state = 'waiting' WHERE id = %s",
            (blocker, ident),
        )

    def _go_or_wait(self, ident: int) -> None:
        blocker = self._blocker(ident)
        if blocker is not None:
            self._wait(ident, blocker)
            return
        row = self.conn.execute(
            "SELECT player, from_station, from_seat, to_station, to_seat FROM tourney_moves"
            " WHERE id = %s",
            (ident,),
        ).fetchone()
        assert row is not None
        self._order(ident, str(row[0]), str(row[1]), int(row[2]), str(row[3]), int(row[4]))

    def _settle_moving(self, player: str) -> None:
        self.conn.execute(
            "UPDATE tourney_seats SET moving = EXISTS (SELECT 1 FROM tourney_moves m"
            " WHERE m.event_id = %s AND m.player = %s AND m.state = ANY(%s))"
            " WHERE event_id = %s AND player = %s",
            (self.ev.id, player, list(OPEN), self.ev.id, player),
        )

    def _order(self, ident: int, player: str, from_station: str, from_seat: int,
               to_station: str, to_seat: int) -> None:  # fmt: skip
        body: dict[str, Any] = {
            "player": player,
            "seat": from_seat,
            "to_table": to_station,
            "to_seat": to_seat,
            "event": self.ev.id,
        }
        row = self.conn.execute(
            "SELECT reason, decision FROM tourney_moves WHERE id = %s", (ident,)
        ).fetchone()
        if row is not None and str(row[0]) == Reason.BALANCE:
            # the hand the decision saw: the table refuses the order if this seat has posted
            # a big blind since (he was due it: the player due the next one moves instead)
            seen = next(
                (t.get("hand") for t in _data(row[1]).get("tables", [])
                 if t.get("table") == from_station),
                None,
            )  # fmt: skip
            if isinstance(seen, int):
                body["hand"] = seen
        command = store.queue(self.conn, from_station, "tournament.move_out", body, store.DIRECTOR)
        self.conn.execute(
            "UPDATE tourney_moves SET state = 'ordered', out_command = %s WHERE id = %s",
            (command, ident),
        )

    # --- places ---------------------------------------------------------------------------

    def place(self) -> None:
        conn, event = self.conn, self.ev.id
        stored: dict[str, tuple[int | None, int | None]] = {}
        outs = []
        for p, t, s, h, st, g, o, was, was_last in conn.execute(
            "SELECT player, station_id, seat, hand, start_stack, grp, ord, place, place_last"
            " FROM tourney_outs WHERE event_id = %s",
            (event,),
        ):
            outs.append(Out(str(p), str(t), int(s), int(h), int(st), str(g), int(o)))
            stored[str(p)] = (was, was_last)
        entrants = _one(conn, "SELECT count(*) FROM tourney_entrants WHERE event_id = %s", event)
        left = [
            str(r[0])
            for r in conn.execute("SELECT player FROM tourney_seats WHERE event_id = %s", (event,))
        ]
        winner = left[0] if len(left) == 1 else ""
        placed = finishing_order(
            entrants, outs, tie_across_tables=self.rules.tie_across_tables, winner=winner
        )
        conn.cursor().executemany(
            "UPDATE tourney_outs SET place = %s, place_last = %s WHERE event_id = %s"
            " AND player = %s",
            [
                (p.place, p.last, event, p.player)
                for p in placed
                if p.out is not None and stored.get(p.player) != (p.place, p.last)
            ],  # the places that changed (a field of 300 would be every row, every time)
        )
        if winner:
            conn.execute(
                "UPDATE tourney_events SET winner = %s, state = 'finished', finished_at = now(),"
                " h4h_on = false WHERE id = %s",
                (winner, event),
            )
            self.finished = True
        self.changed = True

    # --- balancing ------------------------------------------------------------------------

    def _tables(self, folds: Mapping[str, TableFold]) -> list[TableSeats]:
        conn, event = self.conn, self.ev.id
        seated: dict[str, dict[int, str]] = {}
        for player, station, seat in conn.execute(
            "SELECT player, station_id, seat FROM tourney_seats WHERE event_id = %s", (event,)
        ):
            seated.setdefault(str(station), {})[int(seat)] = str(player)
        out = []
        for station, seats in conn.execute(
            "SELECT station_id, seats FROM tourney_tables WHERE event_id = %s"
            " AND broken_at IS NULL ORDER BY break_order",
            (event,),
        ):
            fold = folds.get(str(station), TableFold())
            out.append(
                TableSeats(
                    str(station),
                    tuple(int(s) for s in seats),
                    seated.get(str(station), {}),
                    button=fold.button,
                    big_blind=fold.big_blind,
                    has_button=fold.has_button,
                    opened=tuple(fold.opened),
                )
            )
        return out

    def balance(self, folds: Mapping[str, TableFold]) -> None:
        conn, ev = self.conn, self.ev
        if self.redrawing:
            return  # the tables are being redrawn: nothing moves until they are seated
        if self._cancelling():
            return  # decided again once the table has answered (cancelled, or he had left)
        start_tables = _one(
            conn,
            "SELECT count(DISTINCT r.value->>0) FROM tourney_draws d, jsonb_each(d.result) r"
            " WHERE d.event_id = %s AND d.n = 0",
            ev.id,
        )  # the tables the first draw seated
        if self._replan(folds, start_tables):
            return
        tables = self._tables(folds)
        for _ in range(MAX_STEPS):
            n = _one(conn, "SELECT coalesce(max(n), 0) + 1 FROM tourney_draws WHERE event_id = %s",
                     ev.id)  # fmt: skip
            step = plan(
                tables,
                self.rules,
                start_tables=start_tables,
                seed=f"{ev.seed}:{n}",
                redraw_at_three=ev.redraw_at_three,
            )
            if step is None:
                return
            self._apply(step, n, _decision(tables, folds, self.rules.tolerance(len(tables))))
            tables = after(tables, step)
            self.decided += 1
            self.changed = True

    def _cancelling(self) -> bool:
        """A `tournament.move_cancel` is on its way or not answered yet."""
        found = self.conn.execute(
            "SELECT 1 FROM tourney_moves WHERE event_id = %s AND state = 'ordered'"
            " AND cancel_state = 'sent' LIMIT 1",
            (self.ev.id,),
        ).fetchone()
        return found is not None

    def _replan(self, folds: Mapping[str, TableFold], start_tables: int) -> bool:
        """Cancel the balancing moves not carried out that the tables no longer need
        (`replan`): one only waiting, at once; one ordered, by a `tournament.move_cancel` to
        its table (True: one was sent, and nothing more is decided until it is answered). A
        move stays whose player's seat another move is to fill, or whose cancel was refused
        (and so does the move before it of the same player); a move cancelled takes its
        player's later moves with it (they leave from the seat he will not reach)."""
        conn, ev = self.conn, self.ev
        rows = conn.execute(
            "SELECT m.id, m.player, m.from_station, m.from_seat, m.to_station, m.to_seat,"
            " m.reason = 'balance' AND m.state IN ('waiting', 'ordered')"
            " AND m.cancel_state IS NULL AND NOT EXISTS (SELECT 1 FROM tourney_moves o"
            " WHERE o.event_id = m.event_id AND o.id <> m.id AND o.state = ANY(%s)"
            " AND o.to_station = m.from_station AND o.to_seat = m.from_seat)"
            " FROM tourney_moves m WHERE m.event_id = %s AND m.state = ANY(%s) ORDER BY m.id",
            (list(OPEN), ev.id, list(OPEN)),
        ).fetchall()
        moves = [
            (Pending(int(i), str(p), str(f), int(fs), str(t), int(ts)), bool(ok))
            for i, p, f, fs, t, ts, ok in rows
        ]
        pending = replan.cancellable(moves)
        if not pending:
            return False
        n = _one(conn, "SELECT coalesce(max(n), 0) + 1 FROM tourney_draws WHERE event_id = %s",
                 ev.id)  # fmt: skip
        drop = replan.unneeded(
            self._tables(folds),
            pending,
            self.rules,
            start_tables=start_tables,
            seed=f"{ev.seed}:{n}",
            redraw_at_three=ev.redraw_at_three,
        )
        drop = replan.with_later(drop, pending)
        sent = False
        cause_station, cause_seq = self.cause if self.cause else (None, None)
        for ident in reversed(drop):  # a later move first (an earlier one may hold it)
            row = conn.execute(
                "SELECT player, from_station, from_seat, to_station, to_seat, state, out_command,"
                " decided_at FROM tourney_moves WHERE id = %s",
                (ident,),
            ).fetchone()
            assert row is not None
            player, frm, frm_seat, to, to_seat, state, command, decided = row
            lost = {
                str(t): int(k)
                for t, k in conn.execute(
                    "SELECT station_id, count(*) FROM tourney_outs WHERE event_id = %s"
                    " AND stored_at > %s GROUP BY station_id",
                    (ev.id, decided),
                )
            }
            why = replan.why(lost)
            log.info("tournament %s: move %s of %s %s -> %s cancelled: %s", ev.id, ident,
                     player, frm, to, why)  # fmt: skip
            conn.execute(
                "UPDATE tourney_moves SET cancel_why = %s, cancel_cause_station = %s,"
                " cancel_cause_seq = %s WHERE id = %s",
                (why, cause_station, cause_seq, ident),
            )
            if state == "waiting":  # never sent: nothing to tell the table
                conn.execute(
                    "UPDATE tourney_moves SET cancel_state = 'done' WHERE id = %s", (ident,)
                )
                self._call_off(ident, str(player), str(frm), int(frm_seat))
                continue
            body = {
                "player": str(player),
                "seat": int(frm_seat),
                "move": int(command),
                "to_table": str(to),
                "to_seat": int(to_seat),
                "why": why,
                "event": ev.id,
            }
            cancel = store.queue(conn, str(frm), "tournament.move_cancel", body, store.DIRECTOR)
            conn.execute(
                "UPDATE tourney_moves SET cancel_command = %s, cancel_state = 'sent' WHERE id = %s",
                (cancel, ident),
            )
            sent = True
            self.changed = True
        return sent

    def _apply(self, step: Plan, n: int, decision: dict[str, Any]) -> None:
        conn, event = self.conn, self.ev.id
        draw_n = None
        if step.reason in (Reason.BREAK, Reason.REDRAW):
            draw_n = n
            result = {m.player: [m.to_table, m.to_seat] for m in step.moves}
            conn.execute(
                "INSERT INTO tourney_draws (event_id, n, kind, seed, broken, tables_left, rule,"
                " why, result) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (event, n, step.reason.value, step.seed, step.broken, step.tables_left,
                 step.rule, step.why, json.dumps(result)),
            )  # fmt: skip
            conn.execute(
                "UPDATE tourney_tables SET broken_at = now() WHERE event_id = %s"
                " AND station_id = %s",
                (event, step.broken),
            )
        cause_station, cause_seq = self.cause if self.cause else (None, None)
        made: list[int] = []
        for m in step.moves:
            if step.reason is Reason.REDRAW and m.from_table == m.to_table:
                # a new seat at the same table: the table's seat draw gives it (seat_redraws)
                conn.execute(
                    "UPDATE tourney_seats SET seat = %s, moving = true WHERE event_id = %s"
                    " AND player = %s",
                    (m.to_seat, event, m.player),
                )
                continue
            prev = conn.execute(
                "SELECT max(id) FROM tourney_moves WHERE event_id = %s AND player = %s"
                " AND state = ANY(%s)",
                (event, m.player, list(OPEN)),
            ).fetchone()
            after = int(prev[0]) if prev is not None and prev[0] is not None else None
            found = conn.execute(
                "INSERT INTO tourney_moves (event_id, player, from_station, from_seat,"
                " to_station, to_seat, reason, rule, why, draw_n, cause_seq, cause_station,"
                " after_move, state, decision, decided_at) VALUES (%s, %s, %s, %s, %s, %s, %s,"
                " %s, %s, %s, %s, %s, %s, %s, %s, clock_timestamp()) RETURNING id",
                (event, m.player, m.from_table, m.from_seat, m.to_table, m.to_seat,
                 m.reason.value, step.rule, step.why, draw_n, cause_seq, cause_station, after,
                 "waiting" if after is not None else "ordered", json.dumps(decision)),
            ).fetchone()  # fmt: skip
            assert found is not None
            if after is None:
                made.append(int(found[0]))
            conn.execute(
                "UPDATE tourney_seats SET station_id = %s, seat = %s, moving = true"
                " WHERE event_id = %s AND player = %s",
                (m.to_table, m.to_seat, event, m.player),
            )
        # a move to a seat whose holder-to-be is still on his way waits for him to leave it
        # (and so, in turn, does a move to the seat of a player who now waits)
        held = True
        while held:
            held = False
            for ident in list(made):
                blocker = self._blocker(ident)
                if blocker is not None:
                    self._wait(ident, blocker)
                    made.remove(ident)
                    held = True
        for ident in made:
            self._go_or_wait(ident)

    # --- refusals ------------------------------------------------------------------------

    def refused(self) -> None:
        """Moves whose order a table refused (the seat had posted a big blind since the
        decision, or the player had gone out meanwhile): cancelled, the player counted back at
        his seat, so the next balancing step is decided again from the tables as they are."""
        conn, event = self.conn, self.ev.id
        for ident, player, frm, frm_seat, detail in conn.execute(
            "SELECT m.id, m.player, m.from_station, m.from_seat, c.reply->>'detail'"
            " FROM tourney_moves m JOIN commands c ON c.id = m.out_command"
            " WHERE m.event_id = %s AND m.state = 'ordered' AND c.state = 'refused'"
            " ORDER BY m.id",
            (event,),
        ).fetchall():
            log.info("tournament %s: move %s of %s refused by %s: %s", event, ident, player,
                     frm, detail)  # fmt: skip
            taken = conn.execute(
                "SELECT player FROM tourney_seats WHERE event_id = %s AND station_id = %s"
                " AND seat = %s AND player <> %s",
                (event, str(frm), int(frm_seat), str(player)),
            ).fetchone()
            if taken is not None:  # his seat is promised to another since: the floor decides
                log.error("tournament %s: move %s refused, and %s seat %s is promised to %s",
                          event, ident, frm, frm_seat, taken[0])  # fmt: skip
                continue
            self._call_off(int(ident), str(player), str(frm), int(frm_seat))
        # a cancel the table refused (he had left his seat; a station that does not know the
        # command answers `unsupported`): the move stands, and balancing goes on from it
        for ident, frm, state, detail in conn.execute(
            "SELECT m.id, m.from_station, c.state, c.reply->>'detail' FROM tourney_moves m"
            " JOIN commands c ON c.id = m.cancel_command WHERE m.event_id = %s"
            " AND m.cancel_state = 'sent' AND c.state IN ('refused', 'unsupported')",
            (event,),
        ).fetchall():
            log.info("tournament %s: cancel of move %s %s by %s: %s", event, ident, state, frm,
                     detail)  # fmt: skip
            conn.execute(
                "UPDATE tourney_moves SET cancel_state = 'refused', cancel_detail = %s"
                " WHERE id = %s",
                (str(detail or state), int(ident)),
            )
            self.changed = True

    # --- redraws -------------------------------------------------------------------------

    def seat_redraws(self, folds: Mapping[str, TableFold]) -> None:
        """Seat each table of a redraw whose players are all out of their old seats: one
        `tournament.seat_draw` with every player's chips (null for a player already at that
        table, who keeps his own), `final_table` when it is the last table, so the table
        deals its next hand from the draw with a button drawn for (001-RR11 §15 r18)."""
        conn, event = self.conn, self.ev.id
        for n, tables_left, result in conn.execute(
            "SELECT n, tables_left, result FROM tourney_draws WHERE event_id = %s"
            " AND kind = 'redraw' ORDER BY n",
            (event,),
        ).fetchall():
            drawn = _data(result)
            for station in sorted({str(w[0]) for w in drawn.values()}):
                sent = self._seat_drawn(int(n), station)
                if sent is not None:
                    fold = folds.get(station)
                    if fold is None or fold.seated < sent:
                        self.redrawing = True  # not set up from it yet: nothing moves there
                    continue
                if not self._redraw_ready(int(n), station):
                    self.redrawing = True
                    continue
                self._send_redraw(int(n), station, int(tables_left) == 1)

    def _seat_drawn(self, n: int, station: str) -> int | None:
        """The seat draw command of redraw `n` sent to `station`, if it was."""
        found = self.conn.execute(
            "SELECT id FROM commands WHERE station_id = %s AND kind = 'tournament.seat_draw'"
            " AND body->>'event' = %s AND (body->>'draw')::int = %s",
            (station, self.ev.id, n),
        ).fetchone()
        return None if found is None else int(found[0])

    def _redraw_ready(self, n: int, station: str) -> bool:
        """Every player leaving `station` is out of his seat, every player drawn to it out of
        his old one (his chips known), and no other move to it is still on its way."""
        found = self.conn.execute(
            "SELECT 1 FROM tourney_moves WHERE event_id = %s AND ("
            " (from_station = %s AND state IN ('waiting', 'ordered'))"
            " OR (to_station = %s AND state IN ('waiting', 'ordered'))"
            " OR (to_station = %s AND state = 'out' AND draw_n IS DISTINCT FROM %s)) LIMIT 1",
            (self.ev.id, station, station, station, n),
        ).fetchone()
        return found is None

    def _send_redraw(self, n: int, station: str, final: bool) -> None:
        conn, event = self.conn, self.ev.id
        coming = {
            str(p): (int(i), int(c))
            for i, p, c in conn.execute(
                "SELECT id, player, chips FROM tourney_moves WHERE event_id = %s AND draw_n = %s"
                " AND to_station = %s AND state = 'out'",
                (event, n, station),
            )
        }
        seats: dict[str, dict[str, Any]] = {}
        for player, seat in conn.execute(
            "SELECT player, seat FROM tourney_seats WHERE event_id = %s AND station_id = %s"
            " ORDER BY seat",
            (event, station),
        ):
            chips = coming[str(player)][1] if str(player) in coming else None
            seats[str(seat)] = {"player": str(player), "chips": chips}
        if not seats:
            return
        body = {"event": event, "draw": n, "seats": seats, "final_table": final}
        command = store.queue(conn, station, "tournament.seat_draw", body, store.DIRECTOR)
        for ident, _ in coming.values():
            conn.execute(
                "UPDATE tourney_moves SET in_command = %s WHERE id = %s", (command, ident)
            )  # done once the table is set up from the draw (its seats_drawn, then its setup)
        self.redrawing = True
        self.changed = True

    # --- hand-for-hand --------------------------------------------------------------------

    def hand_for_hand(self, folds: Mapping[str, TableFold]) -> None:
        conn, ev = self.conn, self.ev
        if not ev.h4h_on:
            return
        if len(ev.tables) == 1 and not self.redrawing:
            # one table left: every hand is one round already; the director takes the table
            # off hand-for-hand (it held the deal for a release nobody else waits for)
            store.hand_for_hand(conn, ev.id, False, store.DIRECTOR)
            ev.h4h_on = False
            self.changed = True
            return
        seated: dict[str, int] = {
            str(s): int(n)
            for s, n in conn.execute(
                "SELECT station_id, count(*) FROM tourney_seats WHERE event_id = %s"
                " GROUP BY station_id",
                (ev.id,),
            )
        }
        tables = {
            s: rounds.TableRound(f.holding, f.in_hand, max(len(f.players), seated.get(s, 0)))
            for s, f in folds.items()
            if s in ev.tables
        }
        state = rounds.RoundState(True, ev.h4h_round, ev.h4h_released)
        step = rounds.step(state, tables)
        if step.complete is not None:
            conn.execute(
                "INSERT INTO tourney_rounds (event_id, round, complete_at) VALUES (%s, %s, now())"
                " ON CONFLICT (event_id, round) DO UPDATE SET complete_at = now()",
                (ev.id, step.complete),
            )
        if step.release is not None:
            for station in ev.tables:
                store.queue(
                    conn,
                    station,
                    "tournament.release",
                    {"round": step.release, "event": ev.id},
                    store.DIRECTOR,
                )
            conn.execute(
                "INSERT INTO tourney_rounds (event_id, round, released_at) VALUES (%s, %s, now())"
                " ON CONFLICT (event_id, round) DO UPDATE SET released_at = now()",
                (ev.id, step.release),
            )
        if step.state != state:
            conn.execute(
                "UPDATE tourney_events SET h4h_round = %s, h4h_released = %s WHERE id = %s",
                (step.state.round, step.state.released, ev.id),
            )
            ev.h4h_round, ev.h4h_released = step.state.round, step.state.released
            self.changed = True


def _decision(
    tables: list[TableSeats], folds: Mapping[str, TableFold], tolerance: int
) -> dict[str, Any]:
    """The tables as the rule saw them for a step (in breaking order), with the last row of
    each station's journal the positions come from: what a check of the decision starts from."""
    return {
        "tolerance": tolerance,
        "tables": [
            {
                "table": t.table,
                "seats": list(t.seats),
                "players": {str(s): p for s, p in sorted(t.players.items())},
                "button": t.button,
                "big_blind": t.big_blind,
                "has_button": t.has_button,
                "seq": folds[t.table].seq if t.table in folds else 0,
                "hand": folds[t.table].hand if t.table in folds else 0,
            }
            for t in tables
        ],
    }


def _one(conn: Conn, sql: str, *params: object) -> int:
    found = conn.execute(sql.encode(), params).fetchone()
    return int(found[0]) if found is not None and found[0] is not None else 0


def _data(payload: object) -> dict[str, Any]:
    data = json.loads(payload) if isinstance(payload, str | bytes) else payload
    return dict(data) if isinstance(data, dict) else {}


def _micros(utc: str) -> int:
    try:
        return int(datetime.fromisoformat(utc).timestamp() * 1_000_000)
    except ValueError:
        return 0
