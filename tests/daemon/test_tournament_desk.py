"""The centre's tournament commands at the station, through the core (`station.daemon.core`,
`station.daemon.tourney_desk`): the event's clock becomes a journaled `clock` input, a move is
carried out when the seat sensor confirms it, hand-for-hand holds NEW_HAND until the round is
released, a seat draw sets the table up, and eliminations are journaled by player. A restart
folds the same state back from the journal.

The core runs on the test's thread with its real parts (SQLite journal, recorder, engine); only
the screen is a `NullSink` and time a `FakeClock`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hardware.inputs.clock import FakeClock
from station.daemon.core import Core
from station.daemon.items import FleetCommandReceived, Inbox, Stop
from station.daemon.sink import NullSink
from station.daemon.tourney_desk import TourneyDesk
from station.engine.cards import Card
from station.engine.events import Draw, Key, KeyPress, SeatSensor, Setup, Zone
from station.fleet.messages import Command, ReplyStatus
from station.formats.session import event_from_dict
from station.journal import Code, Journal, Recorder, SystemClock
from station.journal.rows import LogRow
from tests.daemon.conftest import offline_core

STRUCTURE = {
    "event": "E1",
    "levels": [{"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "minutes": 20}],
}


def _setup(seats: dict[str, int]) -> Setup:
    _, event = event_from_dict(
        {"type": "setup", "game": "nlhe", "seats": seats, "button": 1, "tournament": STRUCTURE}
    )
    assert isinstance(event, Setup)
    return event


@dataclass
class Station:
    journal: Journal
    core: Core
    inbox: Inbox
    sink: NullSink
    clock: FakeClock

    def table(self, *events: Any) -> None:
        for event in events:
            self.clock.advance(0.5)
            self.core.record(event, "table", self.clock())

    def command(self, ident: int, kind: str, **body: Any) -> None:
        self.inbox.put(FleetCommandReceived(Command(ident, kind, body)))
        self.inbox.put(Stop("served"))
        self.core.run()

    def rows(self, code: Code) -> list[LogRow]:
        return [r for r in self.journal.rows() if r.code == code]


@pytest.fixture
def station(tmp_path: Path) -> Iterator[Station]:
    journal = Journal.open(
        tmp_path / "journal.sqlite", clock=SystemClock(), station_id="T07", create=True
    )
    try:
        recorder = Recorder(journal)
        recorder.recover()
        core, inbox, sink, clock = offline_core(recorder)
        yield Station(journal, core, inbox, sink, clock)
    finally:
        journal.close()


def test_the_event_clock_is_a_journaled_input_and_a_repeated_command_is_not_carried_out_twice(
    station: Station,
) -> None:
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    station.command(7, "tournament.clock", event="E1", level=2, remaining_s=600, paused=False)
    (given,) = station.rows(Code.TOURNAMENT_CLOCK)
    (clock,) = station.rows(Code.INPUT_CLOCK)
    assert (clock.actor, clock.data()["level"], clock.data()["remaining_s"]) == ("centre", 2, 600)
    assert given.data()["command"] == 7 and given.data()["input"] == clock.seq
    view = station.core.recorder.snapshot().tournament
    assert view is not None and (view.label, view.stakes) == ("LEVEL 2", "50-100")
    # The posting prompt of the next hand names the new blinds at once (no hand in play).
    assert (
        station.core.recorder.snapshot().next_step == "BUTTON SEAT 1 / SB SEAT 2 50 / BB SEAT 3 100"
    )
    again = station.core.tourney.carry_out(
        Command(7, "tournament.clock", {"level": 1, "remaining_s": 5})
    )
    assert (again.status, again.seq, again.detail) == (
        ReplyStatus.DONE,
        given.seq,
        "already carried out",
    )
    assert len(station.rows(Code.INPUT_CLOCK)) == 1
    bad = station.core.tourney.carry_out(
        Command(8, "tournament.clock", {"level": 0, "remaining_s": 5})
    )
    assert bad.status is ReplyStatus.REFUSED and "level" in bad.detail


def test_a_move_out_waits_for_the_hand_and_the_empty_seat(station: Station) -> None:
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000, "4": 800}))
    station.table(Zone(2, 25), Zone(3, 50), KeyPress(Key.NEW_HAND))
    station.command(3, "tournament.move_out", player="P4", seat=4, to_table="T09", to_seat=2)
    assert station.core.tourney.banner() == "MOVE SEAT 4 TO TABLE T09 SEAT 2"
    assert station.rows(Code.TOURNAMENT_MOVED_OUT) == []
    # Seat 4 is dealt in: he stands up during the hand (absent: his hand is killed at the end
    # of the deal), and only when the hand is over does the station take him off the table.
    station.table(SeatSensor(4, False))
    for card in ("Ah", "Kd", "7c", "2s", "Qh", "Jd", "9c", "3s"):
        station.table(Draw(Card.parse(card)))
    assert station.rows(Code.TOURNAMENT_MOVED_OUT) == []
    station.table(KeyPress(Key.FOLD, seat=1), KeyPress(Key.FOLD, seat=2))
    (moved,) = station.rows(Code.TOURNAMENT_MOVED_OUT)
    assert (moved.data()["player"], moved.data()["chips"], moved.data()["to_table"]) == (
        "P4",
        800,
        "T09",
    )
    key = [r for r in station.rows(Code.INPUT_KEY) if r.data()["key"] == "MOVE_OUT"]
    assert len(key) == 1 and moved.data()["input"] == key[0].seq
    assert 4 not in station.core.recorder.table.stacks
    assert station.core.tourney.banner() == ""


def test_a_move_in_is_seated_with_his_chips_when_the_sensor_shows_him(station: Station) -> None:
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    station.command(4, "tournament.move_in", player="P9", seat=5, from_table="T03", chips=12400)
    assert station.core.tourney.banner() == "NEW PLAYER SEAT 5 FROM T03 (12,400)"
    station.table(SeatSensor(5, True))
    (moved,) = station.rows(Code.TOURNAMENT_MOVED_IN)
    assert (moved.data()["player"], moved.data()["chips"]) == ("P9", 12400)
    assert station.core.recorder.table.stacks[5] == 12400
    assert station.core.tourney.state.roster[5] == "P9"


def _seats_2_and_3_go_out(station: Station) -> None:
    """The hand NEW_HAND began (seats 1-4; 5000, 1000, 600, 5000): seat 1 folds, seats 2 and 3
    are all in against seat 4's 5000 and lose at the showdown."""
    for card in ("7c", "8s", "As", "Kd", "2d", "3h", "Ah", "Qd"):
        station.table(Draw(Card.parse(card)))
    station.table(Zone(4, 5000), KeyPress(Key.FOLD, seat=1), Zone(2, 1000), Zone(3, 600))
    station.table(Zone(2, 0), Zone(3, 0), Zone(4, 0))
    for card in ("4c", "9h", "Tc", "Jd", "2s", "5c", "3s", "Kc"):
        station.table(Draw(Card.parse(card)))
    station.table(*(KeyPress(Key.TABLED, seat=s) for s in (4, 2, 3)))


def test_hand_for_hand_holds_the_deal_until_the_round_is_released(station: Station) -> None:
    station.command(
        1,
        "tournament.seat_draw",
        seats={"1": {"player": "A", "chips": 5000}, "2": {"player": "B", "chips": 1000}},
    )  # no table yet: refused, nothing drawn
    assert station.rows(Code.TOURNAMENT_SEATS_DRAWN) == []
    station.table(_setup({"1": 5000, "2": 1000, "3": 600, "4": 5000}))
    station.command(
        2,
        "tournament.seat_draw",
        seats={"1": "A", "2": "B", "3": "C", "4": "D"},
    )
    station.command(5, "tournament.hand_for_hand", on=True, round=1)
    (holding,) = station.rows(Code.TOURNAMENT_HOLDING)
    assert holding.data()["round"] == 1
    assert "HAND FOR HAND: WAIT" in station.core.why_no_new_hand()
    station.command(6, "tournament.release", round=1)
    assert station.core.why_no_new_hand() == ()
    station.table(Zone(2, 25), Zone(3, 50), KeyPress(Key.NEW_HAND))
    (dealt,) = station.rows(Code.TOURNAMENT_ROUND_DEALT)
    assert dealt.data() == {"round": 1, "hand": 1}
    _seats_2_and_3_go_out(station)
    (out,) = station.rows(Code.TOURNAMENT_ELIMINATED)
    assert out.data()["round"] == 1 and out.data()["hand"] == 1
    assert out.data()["players"] == [
        {"seat": 2, "player": "B", "start_stack": 1000},  # started with more: finishes higher
        {"seat": 3, "player": "C", "start_stack": 600},
    ]
    assert [r.data()["round"] for r in station.rows(Code.TOURNAMENT_HOLDING)] == [1, 2]
    assert "HAND FOR HAND: WAIT" in station.core.why_no_new_hand()
    # A restart folds the same state from the journal.
    again = TourneyDesk(station.core.recorder, station.core.tourney._record, station.core.session_t)
    assert again.state == station.core.tourney.state


def test_a_new_events_draw_ends_the_last_events_hand_for_hand(station: Station) -> None:
    """A table broken while event E1 played hand-for-hand is never told it ended; E2's draw
    there must not leave its first deal waiting for a release no one will send."""
    station.table(_setup({"1": 5000, "2": 1000, "3": 600}))
    station.command(1, "tournament.seat_draw", event="E1", seats={"1": "A", "2": "B", "3": "C"})
    station.command(2, "tournament.hand_for_hand", on=True, round=4)
    assert "HAND FOR HAND: WAIT" in station.core.why_no_new_hand()
    station.command(3, "tournament.seat_draw", event="E1", seats={"1": "A", "2": "B"})
    assert "HAND FOR HAND: WAIT" in station.core.why_no_new_hand()  # the same event: still on
    station.command(
        4,
        "tournament.seat_draw",
        event="E2",
        seats={"1": {"player": "P1", "chips": 3000}, "3": {"player": "P2", "chips": 3000}},
    )
    assert station.core.why_no_new_hand() == ()
    assert not station.core.tourney.state.h4h
    again = TourneyDesk(station.core.recorder, station.core.tourney._record, station.core.session_t)
    assert again.state == station.core.tourney.state


def test_a_seat_draw_with_chips_sets_the_table_up_at_the_clocks_level(station: Station) -> None:
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    station.command(1, "tournament.clock", level=2, remaining_s=300, paused=True)
    station.command(
        2,
        "tournament.seat_draw",
        seats={"2": {"player": "X", "chips": 20000}, "6": {"player": "Y", "chips": 18000}},
        final_table=True,
    )
    setup = station.rows(Code.INPUT_SETUP)[-1].data()
    assert setup["seats"] == {"2": 20000, "6": 18000} and "button" not in setup
    assert setup["tournament"]["level"] == 2 and setup["tournament"]["final_table"] is True
    assert setup["tournament"]["elapsed_s"] == 900  # 20 minutes, 300 s left
    assert station.core.tourney.state.roster == {2: "X", 6: "Y"}


def test_a_seat_draw_sets_the_table_up_at_the_events_game_and_rules(station: Station) -> None:
    """The table dealt no-limit hold'em under RR11; the event is limit hold'em under the TDA's
    rules: the draw's setup is the event's (a table left at its own game would let a player
    lose his stack in one hand of a limit event). A game or profile it does not know is
    refused, nothing set up."""
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    seats = {"1": {"player": "X", "chips": 5000}, "4": {"player": "Y", "chips": 5000}}
    bad = station.core.tourney.carry_out(
        Command(2, "tournament.seat_draw", {"seats": seats, "game": "nlhe7", "profile": "TDA"})
    )
    assert bad.status is ReplyStatus.REFUSED and "'nlhe7' is not a game" in bad.detail
    bad = station.core.tourney.carry_out(
        Command(3, "tournament.seat_draw", {"seats": seats, "game": "flhe", "profile": "WSOP"})
    )
    assert bad.status is ReplyStatus.REFUSED and "'WSOP' is not one of" in bad.detail
    assert len(station.rows(Code.INPUT_SETUP)) == 1
    station.command(4, "tournament.seat_draw", seats=seats, game="flhe", profile="TDA")
    setup = station.rows(Code.INPUT_SETUP)[-1].data()
    assert (setup["game"], setup["profile"]) == ("flhe", "TDA")
    assert setup["seats"] == {"1": 5000, "4": 5000}


def test_no_hand_is_dealt_while_the_event_clock_is_stopped(station: Station) -> None:
    """The first draw comes before the floor starts the clock ("shuffle up and deal"): the table
    set up from it waits, as it does while the floor has the clock paused; once the centre is
    not heard the table keeps its own clock, and the dealer is not held by a stopped one."""
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    seats = {"1": {"player": "X", "chips": 5000}, "4": {"player": "Y", "chips": 5000}}
    station.command(1, "tournament.seat_draw", event="E1", seats=seats, paused=True)
    (clock,) = station.rows(Code.INPUT_CLOCK)
    assert clock.data()["paused"] is True  # at once with the setup, no gap before the command
    assert station.core.why_no_new_hand() == ("EVENT CLOCK STOPPED: WAIT",)
    assert "EVENT CLOCK STOPPED: WAIT" in station.core.tourney.banner()
    station.command(2, "tournament.clock", event="E1", level=1, remaining_s=1200, paused=False)
    assert station.core.why_no_new_hand() == ()
    station.command(3, "tournament.clock", event="E1", level=1, remaining_s=900, paused=True)
    assert station.core.why_no_new_hand() == ("EVENT CLOCK STOPPED: WAIT",)
    station.core.tourney.note_link(False, "21:04")
    assert station.core.why_no_new_hand() == ()


def test_a_move_for_a_player_out_or_into_a_promised_seat_is_refused(station: Station) -> None:
    # The centre decided the move before it heard the player went out: the table refuses it
    # rather than journal a player leaving with no chips.
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    station.command(
        2, "tournament.seat_draw", event="E1",
        seats={"1": {"player": "P1", "chips": 1000}, "2": {"player": "P2", "chips": 1000},
               "3": {"player": "P3", "chips": 1000}},
    )  # fmt: skip
    assert station.core.tourney.state.roster == {1: "P1", 2: "P2", 3: "P3"}
    wrong = station.core.tourney.carry_out(
        Command(
            5, "tournament.move_out", {"player": "P9", "seat": 2, "to_table": "T09", "to_seat": 1}
        )
    )
    assert wrong.status is ReplyStatus.REFUSED and wrong.detail == "seat 2 holds P2, not P9"
    empty = station.core.tourney.carry_out(
        Command(
            6, "tournament.move_out", {"player": "P9", "seat": 6, "to_table": "T09", "to_seat": 1}
        )
    )
    assert empty.status is ReplyStatus.REFUSED and "seat 6 is empty" in empty.detail
    assert station.rows(Code.TOURNAMENT_MOVE_ORDERED) == []
    # Two players sent to one seat: the second is refused, the first keeps it.
    first = station.core.tourney.carry_out(
        Command(
            7, "tournament.move_in", {"player": "P7", "seat": 5, "from_table": "T03", "chips": 900}
        )
    )
    second = station.core.tourney.carry_out(
        Command(
            8, "tournament.move_in", {"player": "P8", "seat": 5, "from_table": "T04", "chips": 700}
        )
    )
    assert first.status is ReplyStatus.DONE
    assert (
        second.status is ReplyStatus.REFUSED and second.detail == "seat 5 is promised to P7, not P8"
    )
    assert station.core.tourney.state.arriving[5].player == "P7"


def test_TOURN_BUTTON_a_redraw_arriving_mid_hand_seats_the_table_after_it(
    station: Station,
) -> None:
    # 001-RR11 §15 r18: at a redraw the table deals its next hand from the draw, with a
    # button drawn for. The draw comes while a hand is in play: that hand finishes with the
    # old seats (an elimination in it names the old seat's player), then the table is set up
    # from the draw; a player already here (chips null) keeps the chips he ends the hand with.
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000}))
    station.command(
        1, "tournament.seat_draw", event="E1",
        seats={"1": {"player": "P1", "chips": 1000}, "2": {"player": "P2", "chips": 1000},
               "3": {"player": "P3", "chips": 1000}},
    )  # fmt: skip
    station.table(
        SeatSensor(1, True), SeatSensor(2, True), SeatSensor(3, True),
        Zone(2, 25), Zone(3, 50), KeyPress(Key.NEW_HAND),
    )  # fmt: skip
    station.command(
        2, "tournament.seat_draw", event="E1", draw=1, final_table=True,
        seats={"5": {"player": "P3", "chips": None}, "1": {"player": "P9", "chips": 4200},
               "2": {"player": "P1", "chips": None}},
    )  # fmt: skip
    assert station.core.tourney.state.roster == {1: "P1", 2: "P2", 3: "P3"}  # not yet
    setups = len(station.rows(Code.INPUT_SETUP))
    for card in ("Ah", "Kd", "7c", "2s", "Qh", "Jd"):
        station.table(Draw(Card.parse(card)))
    station.table(KeyPress(Key.FOLD, seat=1), KeyPress(Key.FOLD, seat=2))  # seat 3 wins 75
    (drawn,) = station.rows(Code.INPUT_SETUP)[setups:]
    d = drawn.data()
    assert d["seats"] == {"1": 4200, "2": 1000, "5": 1025} and "button" not in d
    assert d["tournament"]["final_table"] is True
    assert station.core.tourney.state.roster == {1: "P9", 2: "P1", 5: "P3"}
    seats_drawn = station.rows(Code.TOURNAMENT_SEATS_DRAWN)[-1].data()
    assert seats_drawn["kept"] == {"2": 1, "5": 3} and seats_drawn["final_table"] is True
    again = TourneyDesk(station.core.recorder, station.core.tourney._record, station.core.session_t)
    assert again.state == station.core.tourney.state
    # a player the table does not hold keeps no chips here: out before the draw came, he is
    # left out of it (and named), never seated with chips from nowhere
    station.command(
        3, "tournament.seat_draw",
        seats={"4": {"player": "P7", "chips": None}, "1": {"player": "P9", "chips": None},
               "3": {"player": "P4", "chips": 10}},
    )  # fmt: skip
    last = station.rows(Code.TOURNAMENT_SEATS_DRAWN)[-1].data()
    assert last["missing"] == ["P7"] and last["kept"] == {"1": 1}
    assert station.rows(Code.INPUT_SETUP)[-1].data()["seats"] == {"1": 4200, "3": 10}
    assert station.core.tourney.state.roster == {1: "P9", 3: "P4"}


def test_TOURN_NEW_PLAYERS_AT_TABLE_a_move_decided_before_his_big_blind_is_refused_after_it(
    station: Station,
) -> None:
    # 001-RR11 §15 r15: the player due the big blind moves. The centre decided on hand 1 (seat
    # 3 due the big blind next); the order comes after seat 3 posted it in hand 2: refused,
    # the centre decides again. An order decided on hand 2 is carried out.
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000, "4": 1000}))
    station.table(Zone(2, 25), Zone(3, 50), KeyPress(Key.NEW_HAND))  # hand 1: BB seat 3
    for card in ("Ah", "Kd", "7c", "2s", "Qh", "Jd", "9c", "3s"):
        station.table(Draw(Card.parse(card)))
    station.table(KeyPress(Key.FOLD, seat=4), KeyPress(Key.FOLD, seat=1))
    station.table(KeyPress(Key.FOLD, seat=2))  # seat 3 wins; hand 2: button 2, BB seat 4
    station.table(Zone(3, 25), Zone(4, 50), KeyPress(Key.NEW_HAND))
    late = station.core.tourney.carry_out(
        Command(5, "tournament.move_out",
                {"player": "P4", "seat": 4, "to_table": "T09", "to_seat": 1, "hand": 1})
    )  # fmt: skip
    assert late.status is ReplyStatus.REFUSED
    assert (
        late.detail == "seat 4 posted the big blind in hand 2, after hand 1 the move was decided on"
    )
    assert station.rows(Code.TOURNAMENT_MOVE_ORDERED) == []
    ok = station.core.tourney.carry_out(
        Command(6, "tournament.move_out",
                {"player": "P1", "seat": 1, "to_table": "T09", "to_seat": 1, "hand": 2})
    )  # fmt: skip
    assert ok.status is ReplyStatus.DONE


WHY = "no longer needed: T04 lost a player"


def test_a_move_cancelled_before_the_player_stood_up_is_called_off_and_journaled(
    station: Station,
) -> None:
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000, "4": 800}))
    station.table(Zone(2, 25), Zone(3, 50), KeyPress(Key.NEW_HAND))
    station.command(3, "tournament.move_out", player="P4", seat=4, to_table="T09", to_seat=2)
    assert station.core.tourney.banner() == "MOVE SEAT 4 TO TABLE T09 SEAT 2"
    cancel = {"player": "P4", "seat": 4, "move": 3, "to_table": "T09", "to_seat": 2, "why": WHY}
    reply = station.core.tourney.carry_out(Command(5, "tournament.move_cancel", cancel))
    assert reply.status is ReplyStatus.DONE
    (row,) = station.rows(Code.TOURNAMENT_MOVE_CANCELLED)
    assert reply.seq == row.seq and row.actor == "centre"
    assert {k: row.data()[k] for k in ("player", "seat", "ordered_by", "to_table", "why")} == {
        "player": "P4", "seat": 4, "ordered_by": 3, "to_table": "T09", "why": WHY,
    }  # fmt: skip
    assert row.data()["command"] == 5 and row.data()["held"] is True
    # the instruction leaves the dealer screen; he stays: standing up for a while during the
    # hand and after it is no move out
    assert station.core.tourney.banner() == ""
    station.table(SeatSensor(4, False))
    for card in ("Ah", "Kd", "7c", "2s", "Qh", "Jd", "9c", "3s"):
        station.table(Draw(Card.parse(card)))
    station.table(KeyPress(Key.FOLD, seat=1), KeyPress(Key.FOLD, seat=2))
    assert station.rows(Code.TOURNAMENT_MOVED_OUT) == []
    assert 4 in station.core.recorder.table.stacks
    # the same cancel again is answered from the journal; a restart folds the same state
    again = station.core.tourney.carry_out(Command(5, "tournament.move_cancel", cancel))
    assert (again.status, again.seq) == (ReplyStatus.DONE, row.seq)
    desk = TourneyDesk(station.core.recorder, station.core.tourney._record, station.core.session_t)
    assert desk.state == station.core.tourney.state and desk.state.leaving == {}


def test_a_cancel_after_the_player_stood_up_is_refused_and_the_move_stands(
    station: Station,
) -> None:
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000, "4": 800}))
    station.command(3, "tournament.move_out", player="P4", seat=4, to_table="T09", to_seat=2)
    station.table(SeatSensor(4, False))  # between hands: he is up and gone, with his chips
    (moved,) = station.rows(Code.TOURNAMENT_MOVED_OUT)
    cancel = {"player": "P4", "seat": 4, "move": 3, "to_table": "T09", "to_seat": 2, "why": WHY}
    reply = station.core.tourney.carry_out(Command(5, "tournament.move_cancel", cancel))
    assert reply.status is ReplyStatus.REFUSED
    assert reply.detail == f"P4 has left seat 4 for T09 (row {moved.seq}): the move stands"
    assert station.rows(Code.TOURNAMENT_MOVE_CANCELLED) == []


def test_an_order_that_comes_after_its_cancel_is_refused(station: Station) -> None:
    # The order was lost on its way and sent again after the cancel: the cancel is journaled
    # (the order was not held here), and the order, when it comes, is refused.
    station.table(_setup({"1": 1000, "2": 1000, "3": 1000, "4": 800}))
    cancel = {"player": "P4", "seat": 4, "move": 9, "to_table": "T09", "to_seat": 2, "why": WHY}
    reply = station.core.tourney.carry_out(Command(8, "tournament.move_cancel", cancel))
    assert reply.status is ReplyStatus.DONE
    (row,) = station.rows(Code.TOURNAMENT_MOVE_CANCELLED)
    assert row.data()["held"] is False
    order = {"player": "P4", "seat": 4, "to_table": "T09", "to_seat": 2}
    late = station.core.tourney.carry_out(Command(9, "tournament.move_out", order))
    assert late.status is ReplyStatus.REFUSED and f"row {row.seq}" in late.detail
    assert station.core.tourney.banner() == ""


def test_a_player_ordered_to_move_who_goes_out_is_no_longer_told_to_move(station: Station) -> None:
    # The centre cancels the move of a player out (he has no seat to leave for another); the
    # table drops its instruction with the hand that put him out, and his standing up is no
    # move out.
    station.table(_setup({"1": 5000, "2": 1000, "3": 600, "4": 5000}))
    station.command(2, "tournament.seat_draw", seats={"1": "A", "2": "B", "3": "C", "4": "D"})
    station.table(Zone(2, 25), Zone(3, 50), KeyPress(Key.NEW_HAND))
    station.command(3, "tournament.move_out", player="C", seat=3, to_table="T09", to_seat=2)
    assert station.core.tourney.banner() == "MOVE SEAT 3 TO TABLE T09 SEAT 2"
    _seats_2_and_3_go_out(station)
    (out,) = station.rows(Code.TOURNAMENT_ELIMINATED)
    assert {p["player"] for p in out.data()["players"]} == {"B", "C"}
    assert station.core.tourney.banner() == ""
    station.table(SeatSensor(3, False))
    assert station.rows(Code.TOURNAMENT_MOVED_OUT) == []
