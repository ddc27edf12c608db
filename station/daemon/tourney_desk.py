"""The centre's tournament commands carried out at the station, and what the table does about
them: the event's clock as an input, moves confirmed by the seat sensors, hand-for-hand holds,
eliminations by player, the seat draw. Application service over the journal and the recorder;
the core thread.

Every command is journaled as given (`tournament.*`, with `"via": "centre"` and its id, so one
that arrives twice is answered from the journal, never carried out twice), and everything the
table then does is journaled too, so the centre's store holds each step:

- `tournament.clock` {event, level, remaining_s, paused, sent_utc, levels?}: a `clock` input
  (actor `centre`), the time it spent on its way taken off when the station's clock allows.
- `tournament.move_out` {player, seat, to_table, to_seat, hand?}: the dealer screen says MOVE
  SEAT 4 TO TABLE T07 SEAT 2; when the seat is empty between hands (or he has left a hand he was
  not in), the station records MOVE_OUT 4 and `tournament.moved_out` with his chips. `hand`: the
  table's last hand the balancing decision saw; refused when the seat has posted a big blind in
  a later hand (the player due it was chosen; he has posted it, the centre decides again).
- `tournament.move_in` {player, seat, from_table, chips}: NEW PLAYER SEAT 6 FROM T03 (12,400);
  once the seat's sensor shows him seated, MOVE_IN 6 12400 and `tournament.moved_in`.
- `tournament.move_cancel` {player, seat, move, to_table, to_seat, why?}: the move ordered by
  command `move` is called off (the centre re-planned: it is no longer needed) while its player
  has not left his seat: `tournament.move_cancelled` with `why`, and the MOVE SEAT line leaves
  the dealer screen; refused once the table has journaled his `tournament.moved_out` (the move
  stands). An order that comes after its cancel is refused.
- `tournament.hand_for_hand` {on, round} / `tournament.release` {round}: see
  `station.daemon.tourney_state`; NEW_HAND is refused while the table holds (HAND FOR HAND:
  WAIT), each refusal journaled like any other (`station.input_refused`).
- `tournament.seat_draw` {seats: {seat: player or {player, chips}}, draw?, final_table?,
  structure?}: the players at this table; with chips, the table is set up with them once no hand
  is in play (a hand in play finishes with the old seats and their players) at the clock's
  level, the button by the draw for it (or the profile's rule), `final_table` as sent. A redraw
  gives `"chips": null` for a player already at this table: he keeps the chips he has when the
  table is set up, in his new seat (`kept` in the row: new seat -> old seat); one the table
  does not hold (out before the draw came) is left out (`missing`).

A hand's end with players out is journaled as `tournament.eliminated` (seat, player, the
chips he started the hand with, the hand-for-hand round), beside the engine's `hand_end`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, Final

from station.daemon.tourney_state import (
    DeskState,
    RefusedError,
    count,
    drawn_seats,
    flag,
    seat,
    text,
)
from station.engine.decisions import Decision, HandEnd
from station.engine.events import ClockSet, InputEvent, Key, KeyPress, Setup
from station.engine.levels import (
    Schedule,
    ScheduleError,
    levels_from_list,
    playing_index,
    reading,
    schedule_from_dict,
)
from station.engine.table import Table
from station.engine.tournament import level_stakes
from station.fleet.messages import Command, Reply, ReplyStatus
from station.journal.codes import ActorRole, Code
from station.journal.recorder import Recorder
from station.journal.rows import Entry, LogRow

log = logging.getLogger(__name__)

KINDS: Final = (
    "tournament.clock",
    "tournament.move_out",
    "tournament.move_in",
    "tournament.move_cancel",
    "tournament.hand_for_hand",
    "tournament.release",
    "tournament.seat_draw",
)
# The rows that record a command as given (the id a repeated command is found by).
COMMAND_CODES: Final = (
    Code.TOURNAMENT_CLOCK,
    Code.TOURNAMENT_MOVE_ORDERED,
    Code.TOURNAMENT_ARRIVAL_ORDERED,
    Code.TOURNAMENT_MOVE_CANCELLED,
    Code.TOURNAMENT_HAND_FOR_HAND,
    Code.TOURNAMENT_RELEASED,
    Code.TOURNAMENT_SEATS_DRAWN,
)
MAX_TRANSIT_S: Final = 60.0  # a clock command older than this by our clock: the clocks differ
ACTOR: Final = "tournament"  # the station's own tournament rows and the inputs it records
CENTRE: Final = "centre"

Record = Callable[[InputEvent, str], list[Decision]]


class TourneyDesk:
    def __init__(self, recorder: Recorder, record: Record, session_t: Callable[[], float]) -> None:
        self.recorder = recorder
        self.journal = recorder.journal
        self._record = record
        self._session_t = session_t
        self.state = DeskState()
        self._busy = False
        self._last_hand = 0
        self.pending_setup: Setup | None = None
        self.pending_keep: dict[int, int] = {}  # drawn seat -> his seat now (chips from there)
        self.link_lost: str = ""  # local hh:mm the link to the centre was lost ("" up)
        codes = [c.value for c in (*COMMAND_CODES, *_OWN_CODES, Code.INPUT_SETUP)]
        for row in self.journal.rows(codes=codes):
            self.state.apply(row)
        self._last_hand = self._table().hand_number()

    def _table(self) -> Table:
        return self.recorder.table

    # --- commands -----------------------------------------------------------------------------

    def done_row(self, command_id: int) -> int | None:
        marks = ", ".join("?" * len(COMMAND_CODES))
        found = self.journal.conn.execute(
            f"SELECT seq FROM log WHERE code IN ({marks})"
            " AND json_extract(payload, '$.via') = 'centre'"
            " AND json_extract(payload, '$.command') = ? ORDER BY seq LIMIT 1",
            (*(c.value for c in COMMAND_CODES), command_id),
        ).fetchone()
        return None if found is None else int(found[0])

    def carry_out(self, command: Command) -> Reply:
        """Journal what `command` asks (once), act on it, and say how it went."""
        if command.kind not in KINDS:
            return Reply(command.id, ReplyStatus.UNSUPPORTED, detail=f"unknown kind {command.kind}")
        seq = self.done_row(command.id)
        if seq is not None:
            return Reply(command.id, ReplyStatus.DONE, seq=seq, detail="already carried out")
        try:
            seq = self._carry_out(command)
        except RefusedError as exc:
            log.warning("centre command %d (%s) refused: %s", command.id, command.kind, exc)
            return Reply(command.id, ReplyStatus.REFUSED, detail=str(exc))
        log.info("centre command %d (%s) journaled at seq %d", command.id, command.kind, seq)
        self.settle([])
        return Reply(command.id, ReplyStatus.DONE, seq=seq)

    def _carry_out(self, command: Command) -> int:
        body, via = command.body, {"via": CENTRE, "command": command.id}
        match command.kind:
            case "tournament.clock":
                return self._clock(body, via)
            case "tournament.move_out":
                s, player = seat(body, "seat"), text(body, "player")
                called_off = self._cancel_of(command.id)
                if called_off is not None:
                    # the cancel overtook the order (the order was sent again after it)
                    raise RefusedError(
                        f"the move of {player} was cancelled (row {called_off}) before its"
                        " order came"
                    )
                holder = self.state.roster.get(s)  # (none known at a table set up by hand)
                if holder is not None and holder != player:
                    raise RefusedError(f"seat {s} holds {holder}, not {player}")
                if holder is None and not self._table().stacks.get(s):
                    # out in a hand the centre had not heard of when it ordered the move
                    raise RefusedError(f"seat {s} is empty: {player} is not at this table")
                if body.get("hand") is not None:
                    seen = count(body, "hand")
                    later = self._big_blind_since(s, seen)
                    if later is not None:
                        # he was moved as the player due the big blind: he has posted it
                        raise RefusedError(
                            f"seat {s} posted the big blind in hand {later}, after hand {seen}"
                            " the move was decided on"
                        )
                order = {
                    **via,
                    "player": player,
                    "seat": s,
                    "to_table": text(body, "to_table"),
                    "to_seat": seat(body, "to_seat"),
                }
                return self._write(Code.TOURNAMENT_MOVE_ORDERED, order, CENTRE).seq
            case "tournament.move_in":
                s, player = seat(body, "seat"), text(body, "player")
                promised = self.state.arriving.get(s)
                if promised is not None and promised.player != player:
                    raise RefusedError(f"seat {s} is promised to {promised.player}, not {player}")
                order = {
                    **via,
                    "player": player,
                    "seat": s,
                    "from_table": text(body, "from_table"),
                    "chips": count(body, "chips", low=1),
                }
                return self._write(Code.TOURNAMENT_ARRIVAL_ORDERED, order, CENTRE).seq
            case "tournament.move_cancel":
                return self._move_cancel(body, via)
            case "tournament.hand_for_hand":
                on = flag(body, "on")
                rnd = count(body, "round", low=1) if on else 0
                row = self._write(Code.TOURNAMENT_HAND_FOR_HAND, {**via, "on": on, "round": rnd})
                return row.seq
            case "tournament.release":
                rnd = count(body, "round", low=1)
                return self._write(Code.TOURNAMENT_RELEASED, {**via, "round": rnd}).seq
            case _:
                return self._seat_draw(body, via)

    def _move_cancel(self, body: Mapping[str, Any], via: dict[str, Any]) -> int:
        """Call off a move ordered here while its player has not left his seat: the dealer
        screen drops the instruction and the journal says why. Refused once the table has
        journaled his move out (he is up, on his way with his chips): that move stands."""
        s, player = seat(body, "seat"), text(body, "player")
        move = count(body, "move", low=1)  # the move_out command it calls off
        why = text(body, "why", required=False, limit=200) or "cancelled by the centre"
        gone = self.journal.conn.execute(
            "SELECT seq, json_extract(payload, '$.seat'), json_extract(payload, '$.to_table')"
            " FROM log WHERE code = ? AND json_extract(payload, '$.player') = ?"
            " AND json_extract(payload, '$.ordered_by') = ? ORDER BY seq LIMIT 1",
            (Code.TOURNAMENT_MOVED_OUT.value, player, move),
        ).fetchone()
        if gone is not None:
            left = f"{player} has left seat {gone[1]} for {gone[2]} (row {gone[0]})"
            raise RefusedError(f"{left}: the move stands")
        order = self.state.leaving.get(s)
        if order is not None and (order.player != player or order.command != move):
            raise RefusedError(f"seat {s} is to move {order.player} by order {order.command},"
                               f" not {player} by order {move}")  # fmt: skip
        payload = {
            **via,
            "event": text(body, "event", required=False) or None,
            "player": player,
            "seat": s,
            "to_table": order.table if order is not None else text(body, "to_table"),
            "to_seat": order.to_seat if order is not None else seat(body, "to_seat"),
            "ordered_by": move,
            "why": why,
            "held": order is not None,  # False: the order had not come, or was refused
        }
        return self._write(Code.TOURNAMENT_MOVE_CANCELLED, payload, CENTRE).seq

    def _cancel_of(self, move: int) -> int | None:
        """The row that cancelled the move_out command `move`, if one did."""
        found = self.journal.conn.execute(
            "SELECT seq FROM log WHERE code = ? AND json_extract(payload, '$.ordered_by') = ?"
            " ORDER BY seq LIMIT 1",
            (Code.TOURNAMENT_MOVE_CANCELLED.value, move),
        ).fetchone()
        return None if found is None else int(found[0])

    def _big_blind_since(self, s: int, hand: int) -> int | None:
        """The first hand after `hand` in which seat `s` posted the big blind (None: none)."""
        found = self.journal.conn.execute(
            "SELECT hand FROM log WHERE hand > ? AND code = ?"
            " AND json_extract(payload, ?) = 'BB' ORDER BY seq LIMIT 1",
            (hand, Code.HAND_START.value, f'$.seats."{s}".blind'),
        ).fetchone()
        return None if found is None else int(found[0])

    def _clock(self, body: Mapping[str, Any], via: dict[str, Any]) -> int:
        level = count(body, "level", low=1)
        left = body.get("remaining_s")
        if not isinstance(left, int | float) or isinstance(left, bool) or left < 0:
            raise RefusedError("remaining_s: not seconds >= 0")
        paused = flag(body, "paused") if "paused" in body else False
        event = text(body, "event", required=False) or None
        levels = None
        if body.get("levels") is not None:
            try:
                levels = levels_from_list(body["levels"], "")
            except ScheduleError as exc:
                raise RefusedError(str(exc)) from None
        sent = text(body, "sent_utc", required=False)
        transit = _transit_s(sent, self.journal.clock.utc()) if sent else None
        remaining = float(left)
        if transit is not None and not paused:
            remaining = max(0.0, remaining - transit)
        self._record(ClockSet(level, round(remaining, 3), paused, levels, event), CENTRE)
        payload = {
            **via,
            "event": event,
            "level": level,
            "remaining_s": left,
            "paused": paused,
            "sent_utc": sent or None,
            "transit_s": None if transit is None else round(transit, 3),
            "input": self._last_input(),
        }
        return self._write(Code.TOURNAMENT_CLOCK, payload, CENTRE).seq

    def _seat_draw(self, body: Mapping[str, Any], via: dict[str, Any]) -> int:
        drawn = drawn_seats(body)
        final = flag(body, "final_table") if "final_table" in body else None
        event = text(body, "event", required=False) or None
        structure = body.get("structure")
        setup = None
        keep: dict[int, int] = {}  # drawn seat -> the seat its player holds here now
        missing: list[str] = []  # kept players the table does not hold (out before it came)
        if any(chips is not None for _, chips in drawn.values()):
            held = {p: s for s, p in (self.state.drawn or self.state.roster).items()}
            for s, (player, chips) in list(drawn.items()):
                if chips is None:
                    if player not in held:
                        missing.append(player)
                        del drawn[s]
                    else:
                        keep[s] = held[player]
            if not drawn:
                raise RefusedError("seats: none of the players drawn is at this table")
            setup = self._drawn_setup(drawn, final, structure)
        payload = {
            **via,
            "event": event,
            "players": {str(s): p for s, (p, _) in sorted(drawn.items())},
            "chips": {str(s): c for s, (_, c) in sorted(drawn.items()) if c is not None},
            "kept": {str(s): old for s, old in sorted(keep.items())},
            "missing": missing,
            "final_table": final,
            "setup": setup is not None,
        }
        row = self._write(Code.TOURNAMENT_SEATS_DRAWN, payload, CENTRE)
        if setup is not None:
            self.pending_setup, self.pending_keep = setup, keep
        return row.seq

    def _drawn_setup(
        self, drawn: Mapping[int, tuple[str, int | None]], final: bool | None, structure: object
    ) -> Setup:
        """The table as the draw seats it: the same game and rules, the structure's clock where
        it stands now, the drawn players with their chips, the button to be drawn for."""
        table = self._table()
        current = table.setup
        t = table.tourney
        if current is None:
            raise RefusedError("the table has never been set up: no game to seat the draw at")
        now = self._session_t()
        if structure is not None:
            try:
                schedule = schedule_from_dict(structure, current.game)
            except ScheduleError as exc:
                raise RefusedError(str(exc)) from None
            schedule = replace(schedule, start_t=now)
        elif t is not None:
            r = reading(t.levels, t.clock, now)
            schedule = Schedule(
                levels=t.levels,
                start_t=now,
                level=r.index + 1,
                elapsed_s=max(0.0, t.levels[r.index].duration_s - r.remaining_s),
                event=t.schedule.event,
                final_table=t.schedule.final_table,
                winner_take_all=t.schedule.winner_take_all,
            )
        else:
            raise RefusedError("the table has no tournament structure: send one with the draw")
        if final is not None:
            schedule = replace(schedule, final_table=final)
        game = t.game if t is not None else current.game
        start = schedule.levels[playing_index(schedule.levels, schedule.level - 1)]
        return Setup(
            game=game,
            profile=current.profile,
            stakes=level_stakes(start),
            seats={s: chips or 0 for s, (_, chips) in sorted(drawn.items())},
            button=None,
            deck=current.deck,
            rules=current.rules,
            rake=None,
            tournament=schedule,
        )

    # --- what the table does ------------------------------------------------------------------

    def settle(self, decisions: list[Decision]) -> None:
        """After an input (or a command): rounds, eliminations, a drawn table to seat, moves the
        seat sensors confirm."""
        if self._busy:
            return
        self._busy = True
        try:
            self._settle(decisions)
        finally:
            self._busy = False

    def _settle(self, decisions: list[Decision]) -> None:
        table = self._table()
        ended = next((d for d in decisions if isinstance(d, HandEnd)), None)
        hand = table.hand
        if hand is not None and hand.result is None and hand.number > self._last_hand:
            self._last_hand = hand.number
            if self.state.h4h and not self.state.hold():
                rnd = self.state.next_round
                self._write(Code.TOURNAMENT_ROUND_DEALT, {"round": rnd, "hand": hand.number})
        if ended is not None and not ended.void:
            played = self.state.in_round
            if ended.eliminated:
                self._eliminated(ended, played)
            if self.state.h4h:
                nxt = played + 1 if played is not None else self.state.next_round
                self._write(Code.TOURNAMENT_HOLDING, {"round": nxt, "hand": ended.hand})
        elif (
            self.state.h4h
            and not self._in_play()
            and self.state.in_round is None
            and self.state.holding < self.state.next_round
        ):
            self._write(Code.TOURNAMENT_HOLDING, {"round": self.state.next_round})
        if self.pending_setup is not None and not self._in_play():
            setup, self.pending_setup = self.pending_setup, None
            keep, self.pending_keep = self.pending_keep, {}
            stacks = self._table().stacks
            seats = {s: stacks.get(keep[s], 0) if s in keep else c for s, c in setup.seats.items()}
            seats = {s: c for s, c in seats.items() if c}  # (one out since the draw came)
            drawn = replace(setup, seats=seats, tournament=_at(setup.tournament, self._session_t()))
            self._record(drawn, ACTOR)
            self.state.seated_drawn(seats)
        self._moves()

    def _in_play(self) -> bool:
        hand = self._table().hand
        return hand is not None and hand.result is None

    def _eliminated(self, ended: HandEnd, played: int | None) -> None:
        players = [
            {"seat": s, "player": self.state.roster.get(s), "start_stack": start}
            for s, start in ended.eliminated
        ]
        payload = {
            "event": self.state.event,
            "hand": ended.hand,
            "input": self._last_input(),
            "round": played,
            "players": players,
        }
        self._write(Code.TOURNAMENT_ELIMINATED, payload)

    def _moves(self) -> None:
        table = self._table()
        hand = table.hand
        in_hand = set(hand.seats) if hand is not None and hand.result is None else set()
        for s, move in sorted(self.state.leaving.items()):
            if s in table.occupied or s in in_hand:
                continue
            chips = table.stacks.get(s)
            self._record(KeyPress(Key.MOVE_OUT, seat=s), ACTOR)
            payload = {
                "ordered_by": move.command,
                "player": move.player,
                "seat": s,
                "chips": chips,
                "to_table": move.table,
                "to_seat": move.to_seat,
                "input": self._last_input(),
            }
            self._write(Code.TOURNAMENT_MOVED_OUT, payload)
        for s, move in sorted(self.state.arriving.items()):
            if s not in table.occupied or s in in_hand or table.stacks.get(s):
                continue
            self._record(KeyPress(Key.MOVE_IN, seat=s, amount=move.chips), ACTOR)
            payload = {
                "ordered_by": move.command,
                "player": move.player,
                "seat": s,
                "chips": move.chips,
                "from_table": move.table,
                "input": self._last_input(),
            }
            self._write(Code.TOURNAMENT_MOVED_IN, payload)

    # --- what the screens say -----------------------------------------------------------------

    def hold_reason(self) -> str:
        """Why NEW_HAND must wait (empty: it need not): hand-for-hand, before the release."""
        if self.state.hold() and not self._in_play():
            return "HAND FOR HAND: WAIT"
        return ""

    def banner(self) -> str:
        """The tournament's word to the dealer: moves to make, hand-for-hand."""
        parts = [
            f"MOVE SEAT {s} TO TABLE {m.table} SEAT {m.to_seat}"
            for s, m in sorted(self.state.leaving.items())
        ]
        parts += [
            f"NEW PLAYER SEAT {s} FROM {m.table} ({m.chips:,})"
            for s, m in sorted(self.state.arriving.items())
        ]
        if self.state.h4h:
            if self.state.hold():
                parts.append("HAND FOR HAND: WAIT")
            else:
                parts.append(f"HAND FOR HAND: ROUND {self.state.next_round}")
        return " · ".join(parts)

    def clock_source(self, tournament: bool, online: bool | None) -> str:
        """EVENT CLOCK while the centre's clock comes; OWN CLOCK SINCE hh:mm once the link is
        lost (the table keeps the level it had and counts on); OWN CLOCK without an event."""
        if not tournament:
            return ""
        if self.state.clock_utc is None:
            return "OWN CLOCK"
        if online is False or self.link_lost:
            return f"OWN CLOCK SINCE {self.link_lost}" if self.link_lost else "OWN CLOCK"
        return "EVENT CLOCK"

    def note_link(self, online: bool | None, local_hhmm: str) -> None:
        if online is False and not self.link_lost:
            self.link_lost = local_hhmm
        elif online:
            self.link_lost = ""

    # --- the journal --------------------------------------------------------------------------

    def _write(self, code: Code, payload: Mapping[str, Any], actor: str = ACTOR) -> LogRow:
        (row,) = self.journal.append([Entry(code, dict(payload), actor, ActorRole.STATION)])
        self.state.apply(row)
        return row

    def _last_input(self) -> int:
        return self.recorder.last_input_seq


_OWN_CODES: Final = (
    Code.TOURNAMENT_MOVED_OUT,
    Code.TOURNAMENT_MOVED_IN,
    Code.TOURNAMENT_HOLDING,
    Code.TOURNAMENT_ROUND_DEALT,
    Code.TOURNAMENT_ELIMINATED,
)


def _at(schedule: Schedule | None, now: float) -> Schedule | None:
    """A drawn table's clock starts where the structure stood, from the setup's own time."""
    return None if schedule is None else replace(schedule, start_t=now)


def _transit_s(sent_utc: str, now: datetime) -> float | None:
    """Seconds the command spent on its way by the station's clock (None: not to be trusted)."""
    try:
        sent = datetime.fromisoformat(sent_utc.replace("Z", "+00:00"))
    except ValueError:
        return None
    if sent.tzinfo is None:
        return None
    delay = (now - sent).total_seconds()
    return delay if 0 <= delay <= MAX_TRANSIT_S else None
