"""The tournament director on a real PostgreSQL (`station.central.tournament.director`): the
stations' rows (their own codes and payloads, stored as the ingest stores them) folded, players
out placed, the balancing move ordered by the rule and carried on when the seat sensors confirm
it, a table broken with the redraw, hand-for-hand rounds released and their players out ranked
across tables, the clock announced to every table."""

from __future__ import annotations

import re
import time
from typing import Any

from station.central.tournament import store as events
from station.central.tournament.board import board
from station.central.tournament.director import Director
from station.central.tournament.seating import draw_seats
from tests.tournament.stored import Store

STRUCTURE = {
    "levels": [{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 100, "bb": 200, "minutes": 20}]
}
PLAYERS = [(f"P{i:02d}", f"Player {i}") for i in range(1, 11)]


def event(
    s: Store,
    profile: str = "RR11",
    players: int = 10,
    seats: int = 4,
    tables: int = 3,
    prizes: tuple[int, ...] = (5000, 3000, 2000),
    journaled: bool = True,
) -> None:
    """Event E1: `players` entrants at `tables` tables (T1 broken first) of `seats` seats,
    drawn from seed-1; `journaled`: each table journals the draw it was sent."""
    entrants = [(f"P{i:02d}", f"Player {i}") for i in range(1, players + 1)]
    spec = events.EventSpec(
        id="E1", title="Test", profile=profile, game="nlhe", structure=STRUCTURE,
        start_chips=10_000, tables=[(f"T{k}", seats) for k in range(1, tables + 1)],
        entrants=entrants, prizes=list(prizes),
    )  # fmt: skip
    events.create(s.conn, spec, "flo")
    events.draw(s.conn, "E1", "flo", seed="seed-1", now_utc=1_750_000_000.0)
    if journaled:
        echo(s, "tournament.seat_draw")


def echo(s: Store, kind: str) -> None:
    """Each table journals the centre's commands of `kind` as its tournament desk does."""
    for station, k, body in s.commands(kind=kind):
        match k:
            case "tournament.seat_draw":
                players = {seat: v["player"] for seat, v in body["seats"].items()}
                chips = {seat: v["chips"] for seat, v in body["seats"].items()}
                s.row(station, "tournament.seats_drawn",
                      {"event": "E1", "players": players, "chips": chips})  # fmt: skip
            case _:
                s.row(station, k, body)


def seats(s: Store, station: str) -> dict[int, str]:
    return {
        int(seat): str(p)
        for p, seat in s.conn.execute(
            "SELECT player, seat FROM tourney_seats WHERE event_id = 'E1' AND station_id = %s",
            (station,),
        )
    }


def hand_start(s: Store, station: str, hand: int, button: int, bb: int) -> None:
    taken = seats(s, station)
    payload = {
        "hand": hand, "game": "nlhe", "profile": "RR11", "button": button,
        "seats": {str(t): {"stack": 10_000, "bet": 0, "status": "active",
                           "blind": "BB" if t == bb else ""} for t in taken},
    }  # fmt: skip
    s.row(station, "table.hand_start", payload, hand)


def out(
    s: Store, station: str, hand: int, who: list[tuple[int, str, int]], rnd: int | None = None
) -> int:
    players = [{"seat": seat, "player": p, "start_stack": st} for seat, p, st in who]
    seq = s.row(station, "tournament.eliminated",
                {"event": "E1", "hand": hand, "round": rnd, "players": players}, hand)  # fmt: skip
    s.row(station, "decision.hand_end", {"type": "hand_end", "hand": hand, "stacks": {}}, hand)
    return seq


def places(s: Store) -> dict[str, tuple[int, int]]:
    return {
        str(p): (int(a), int(b))
        for p, a, b in s.conn.execute(
            "SELECT player, place, place_last FROM tourney_outs WHERE event_id = 'E1'"
        )
    }


def moves(s: Store) -> list[tuple[Any, ...]]:
    return list(
        s.conn.execute(
            "SELECT player, from_station, from_seat, to_station, to_seat, reason, state"
            " FROM tourney_moves WHERE event_id = 'E1' ORDER BY id"
        )
    )


def test_the_seat_draw_is_recorded_with_its_seed_and_sent_to_every_table(store: Store) -> None:
    event(store)
    drawn = draw_seats([p for p, _ in PLAYERS], [(t, (1, 2, 3, 4)) for t in ("T1", "T2", "T3")],
                       "seed-1")  # fmt: skip
    (seed, result) = store.conn.execute(
        "SELECT seed, result FROM tourney_draws WHERE event_id = 'E1' AND n = 0"
    ).fetchone()
    assert seed == "seed-1" and {p: tuple(w) for p, w in result.items()} == drawn
    # 10 players at three tables of four: 3, 3 and 4, the extra one at the table broken last
    assert [len(seats(store, t)) for t in ("T1", "T2", "T3")] == [3, 3, 4]
    for t in ("T1", "T2", "T3"):
        ((_, _, draw),) = store.commands(t, "tournament.seat_draw")
        assert {int(k): v["player"] for k, v in draw["seats"].items()} == seats(store, t)
        assert {v["chips"] for v in draw["seats"].values()} == {10_000}
        ((_, _, clock),) = store.commands(t, "tournament.clock")
        assert (clock["level"], clock["paused"], clock["remaining_s"]) == (1, True, 1200.0)


def test_TOURN_balancing_a_player_out_moves_the_big_blind_to_the_short_table(store: Store) -> None:
    event(store)
    director = Director()
    t1 = seats(store, "T1")
    # T1: the big blind of hand 1 is a seat whose next seat clockwise is taken; that player
    # busts, so his seat is the open seat due the big blind soonest.
    bb = next(s for s in t1 if (s % 4) + 1 in t1)
    busted = (bb % 4) + 1
    hand_start(store, "T3", 1, button=1, bb=2)  # T3 is full: 1..4
    hand_start(store, "T1", 1, button=bb, bb=bb)
    cause = out(store, "T1", 1, [(busted, t1[busted], 10_000)])
    assert director.on_rows(store.conn, ["T1", "T3"]) == ["E1"]
    assert places(store) == {t1[busted]: (10, 10)}
    # 2, 3, 4 is more than one apart at three tables (001-RR11 §15 r17): the player due the big
    # blind at T3 (its big blind was seat 2: seat 3) to T1's earliest seat due the big blind.
    t3 = seats(store, "T1")  # (T3's player is counted at T1 now)
    mover = t3[busted]
    assert moves(store) == [(mover, "T3", 3, "T1", busted, "balance", "ordered")]
    ((_, _, order),) = store.commands("T3", "tournament.move_out")
    assert (order["player"], order["seat"], order["to_table"], order["to_seat"]) == (
        mover, 3, "T1", busted,
    )  # fmt: skip
    (cause_seq,) = store.conn.execute("SELECT cause_seq FROM tourney_moves").fetchone()
    assert cause_seq == cause
    # The seat sensor at T3 confirms he left, with his chips: T1 is told to seat him.
    store.row("T3", "tournament.moved_out",
              {"player": mover, "seat": 3, "chips": 10_400, "to_table": "T1", "to_seat": busted,
               "ordered_by": 1})  # fmt: skip
    director.on_rows(store.conn, ["T3"])
    ((_, _, arrive),) = store.commands("T1", "tournament.move_in")
    assert (arrive["player"], arrive["seat"], arrive["from_table"], arrive["chips"]) == (
        mover, busted, "T3", 10_400,
    )  # fmt: skip
    store.row("T1", "tournament.moved_in",
              {"player": mover, "seat": busted, "chips": 10_400, "from_table": "T3"})  # fmt: skip
    director.on_rows(store.conn, ["T1"])
    assert moves(store)[0][-1] == "done"
    # 3, 3, 3: balanced, nothing more
    assert len(moves(store)) == 1


def test_TOURN_a_table_broken_in_order_and_the_redraw_at_two_tables(store: Store) -> None:
    event(store)
    director = Director()
    t1, t2, t3 = seats(store, "T1"), seats(store, "T2"), seats(store, "T3")
    # One out at T3: 3, 3, 3 (balanced); one out at T2: 8 players fit two tables of four ->
    # T1 (first in the breaking order) is broken; RR11 redraws at two tables.
    s3 = min(t3)
    out(store, "T3", 1, [(s3, t3[s3], 10_000)])
    director.on_rows(store.conn, ["T3"])
    assert moves(store) == []
    s2 = min(t2)
    out(store, "T2", 1, [(s2, t2[s2], 10_000)])
    director.on_rows(store.conn, ["T2"])
    (kind, broken, left, seed, result) = store.conn.execute(
        "SELECT kind, broken, tables_left, seed, result FROM tourney_draws WHERE n = 1"
    ).fetchone()
    assert (kind, broken, left) == ("redraw", "T1", 2)
    assert seed == "seed-1:1"
    still = sorted({*t1.values(), *t2.values(), *t3.values()} - {t3[s3], t2[s2]})
    again = draw_seats(still, [("T2", (1, 2, 3, 4)), ("T3", (1, 2, 3, 4))], seed)
    where = {p: (t, s) for t, w in (("T1", t1), ("T2", t2), ("T3", t3)) for s, p in w.items()}
    # the same seed draws the same seats; a player keeping his seat is not moved
    assert {p: tuple(w) for p, w in result.items()} == {
        p: w for p, w in again.items() if where[p] != w
    }
    assert all(m[5] == "redraw" and m[3] in ("T2", "T3") for m in moves(store))
    assert [len(seats(store, t)) for t in ("T1", "T2", "T3")] == [0, 4, 4]
    (broken_at,) = store.conn.execute(
        "SELECT broken_at FROM tourney_tables WHERE station_id = 'T1'"
    ).fetchone()
    assert broken_at is not None
    # every player of T1 is ordered out of T1
    outs = {o[2]["player"] for o in store.commands("T1", "tournament.move_out")}
    assert outs == set(t1.values())


def _h4h(store: Store, profile: str) -> dict[str, tuple[int, int]]:
    # 15 players at three tables of six: two players out leave 13, more than two tables seat
    event(store, profile, players=15, seats=6)
    director = Director()
    t2, t3 = seats(store, "T2"), seats(store, "T3")
    assert events.hand_for_hand(store.conn, "E1", True, "flo") == 1
    assert len(store.commands(kind="tournament.hand_for_hand")) == 3
    echo(store, "tournament.hand_for_hand")
    for t in ("T1", "T2", "T3"):
        store.row(t, "tournament.holding", {"round": 1})
    director.on_rows(store.conn, ["T1", "T2", "T3"])
    assert {c[0] for c in store.commands(kind="tournament.release")} == {"T1", "T2", "T3"}
    a, b = min(t2), min(t3)
    for t in ("T1", "T2", "T3"):
        store.row(t, "tournament.round_dealt", {"round": 1, "hand": 2})
        hand_start(store, t, 2, button=1, bb=2)
    # T3's player busts first (with 6,000 at the start of the hand), then T2's (with 3,000):
    # one hand across tables, so the smaller starting stack finishes lower.
    out(store, "T3", 2, [(b, t3[b], 6000)], rnd=1)
    store.row("T3", "tournament.holding", {"round": 2})
    director.on_rows(store.conn, ["T3"])
    out(store, "T2", 2, [(a, t2[a], 3000)], rnd=1)
    store.row("T2", "tournament.holding", {"round": 2})
    director.on_rows(store.conn, ["T2"])
    assert len(store.commands(kind="tournament.release")) == 3  # T1 still plays round 1
    store.row("T1", "decision.hand_end", {"type": "hand_end", "hand": 2, "stacks": {}}, 2)
    store.row("T1", "tournament.holding", {"round": 2})
    director.on_rows(store.conn, ["T1"])
    released = [c[2]["round"] for c in store.commands(kind="tournament.release")]
    assert released == [1, 1, 1, 2, 2, 2]
    (done,) = store.conn.execute(
        "SELECT complete_at FROM tourney_rounds WHERE round = 1"
    ).fetchone()
    assert done is not None
    p = places(store)
    return {("T2" if k == t2[a] else "T3"): v for k, v in p.items()}


def test_TOURN_ELIMINATION_ORDER_one_hand_for_hand_round_ranks_across_tables(store: Store) -> None:
    # 001-RR11 §15 r35: the player who started the hand with more chips finishes higher.
    assert _h4h(store, "RR11") == {"T2": (15, 15), "T3": (14, 14)}


def test_TOURN_ELIMINATION_ORDER_tda_ties_a_round_across_tables(store: Store) -> None:
    # TDA 2024 RP-8: players out in the same hand-for-hand hand at different tables tie.
    assert _h4h(store, "TDA") == {"T2": (14, 15), "T3": (14, 15)}


def test_the_event_clock_is_announced_at_start_pause_and_each_new_level(store: Store) -> None:
    event(store)
    start = 1_750_000_100.0
    events.set_clock(store.conn, "E1", "start", "flo", now_utc=start)
    clocks = store.commands("T2", "tournament.clock")
    assert [(c[2]["level"], c[2]["paused"], c[2]["remaining_s"]) for c in clocks] == [
        (1, True, 1200.0),
        (1, False, 1200.0),
    ]
    director = Director()
    assert director.tick(store.conn, start + 600) == []  # still level 1
    assert director.tick(store.conn, start + 1230) == ["E1"]
    last = store.commands("T2", "tournament.clock")[-1][2]
    assert (last["level"], last["paused"], last["remaining_s"]) == (2, False, 1170.0)
    events.set_clock(store.conn, "E1", "pause", "flo", now_utc=start + 1290)
    last = store.commands("T3", "tournament.clock")[-1][2]
    assert (last["level"], last["paused"], last["remaining_s"]) == (2, True, 1110.0)


def carry_moves(
    s: Store,
    director: Director,
    chips: int = 10_000,
    start: dict[tuple[str, int], str] | None = None,
    after: int = 0,
) -> dict[tuple[str, int], str]:
    """The tables carry out every move the centre orders, as their desks and seat sensors do: a
    player told to leave leaves; an arriving player sits only in an empty seat (he waits by the
    table while it is taken); a redraw's seat draw seats its table anew (a player already there
    keeps his chips, `chips` null). Returns who sits where when nothing more can happen (from
    `start`, the commands after `after`, when given)."""
    where: dict[tuple[str, int], str] = dict(start or {})
    for station, _k, body in s.commands(kind="tournament.seat_draw"):
        if "draw" not in body and start is None:
            where.update({(station, int(seat)): v["player"] for seat, v in body["seats"].items()})
    for (p,) in s.conn.execute("SELECT player FROM tourney_outs WHERE event_id = 'E1'"):
        where = {k: v for k, v in where.items() if v != p}
    handled: set[int] = set()
    moved = True
    while moved:
        moved = False
        for ident, station, kind, body in s.conn.execute(
            "SELECT id, station_id, kind, body FROM commands"
            " WHERE kind IN ('tournament.move_out', 'tournament.move_in')"
            " OR (kind = 'tournament.seat_draw' AND body ? 'draw') ORDER BY id"
        ).fetchall():
            if ident <= after:
                continue
            if ident in handled:
                continue
            if kind == "tournament.seat_draw":
                here = {p for (t, _), p in where.items() if t == station}
                for v in body["seats"].values():
                    if v["chips"] is None:
                        assert v["player"] in here, f"{v['player']} kept chips not at {station}"
                    else:
                        assert v["player"] not in where.values(), f"{v['player']} still seated"
                left = {k: v for k, v in where.items() if k[0] != station}
                assert not here - {v["player"] for v in body["seats"].values()}, "one left out"
                where = left | {
                    (str(station), int(k)): v["player"] for k, v in body["seats"].items()
                }
                s.row(station, "tournament.seats_drawn",
                      {"event": "E1", "players": {k: v["player"] for k, v in body["seats"].items()},
                       "chips": {k: v["chips"] for k, v in body["seats"].items()
                                 if v["chips"] is not None},
                       "final_table": body.get("final_table"), "setup": True, "via": "centre",
                       "command": ident})  # fmt: skip
                director.on_rows(s.conn, [str(station)])
                # its next hand is dealt from the draw: the table is set up (the button drawn)
                s.row(station, "input.setup",
                      {"game": "nlhe", "seats": {k: v["chips"] or chips
                                                 for k, v in body["seats"].items()}})  # fmt: skip
                handled.add(ident)
                moved = True
                director.on_rows(s.conn, [str(station)])
                continue
            player, at = body["player"], (str(station), int(body["seat"]))
            if kind == "tournament.move_out":
                assert where.get(at) == player, f"{player} ordered out of {at}: {where.get(at)}"
                del where[at]
                s.row(station, "tournament.moved_out",
                      {"player": player, "seat": at[1], "chips": chips,
                       "to_table": body["to_table"], "to_seat": body["to_seat"]})  # fmt: skip
            elif at in where:
                continue  # the seat is still taken: he waits
            else:
                where[at] = player
                s.row(station, "tournament.moved_in",
                      {"player": player, "seat": at[1], "chips": body["chips"],
                       "from_table": body["from_table"]})  # fmt: skip
            handled.add(ident)
            moved = True
            director.on_rows(s.conn, [str(station)])
    return where


def test_TOURN_a_player_on_his_way_when_the_tables_are_redrawn_gets_his_seat_first(
    store: Store,
) -> None:
    # Four tables of four, 14 players (4, 4, 3, 3): a player out at a table of three moves one
    # from a table of four to it (balancing); before he reaches his seat, a player out at T1
    # leaves 12, which fit three tables: T1 breaks and RR11 redraws at three tables
    # (001-RR11 §15 r18), every seat of the three taken. The redraw counts the moving player
    # at his new seat, and gives that seat to someone else: that player must wait until the
    # first has sat and left it (two players ordered into one seat would leave one of them,
    # and his chips, nowhere).
    event(store, players=14, tables=4)
    tables = [("T1", 4), ("T2", 4), ("T3", 4), ("T4", 4)]
    director = Director()
    sizes = {t: len(seats(store, t)) for t, _ in tables}
    assert sorted(sizes.values()) == [3, 3, 4, 4]
    short = next(t for t in ("T2", "T3", "T4") if sizes[t] == 3)
    gone = seats(store, short)
    busted = min(gone)
    for t, _ in tables:
        hand_start(store, t, 1, button=min(seats(store, t)), bb=max(seats(store, t)))
    out(store, short, 1, [(busted, gone[busted], 10_000)])
    director.on_rows(store.conn, [short])
    ((mover, frm, frm_seat, to, to_seat, reason, state),) = moves(store)
    assert (reason, state, to) == ("balance", "ordered", short)
    store.row(frm, "tournament.moved_out",
              {"player": mover, "seat": frm_seat, "chips": 10_000, "to_table": to,
               "to_seat": to_seat})  # fmt: skip
    director.on_rows(store.conn, [frm])
    # on his way: T1's player out breaks T1
    t1 = seats(store, "T1")
    out(store, "T1", 2, [(min(t1), t1[min(t1)], 10_000)])
    director.on_rows(store.conn, ["T1"])
    (kind, broken) = store.conn.execute(
        "SELECT kind, broken FROM tourney_draws WHERE n = 1"
    ).fetchone()
    assert (kind, broken) == ("redraw", "T1")
    # his redraw move (if the draw sends him on) waits for him to reach the seat he is on his
    # way to; the redraw's tables are seated by one seat draw each once their players are out
    on_way = [m for m in moves(store) if m[0] == mover and m[5] == "redraw"]
    assert all(m[6] == "waiting" for m in on_way)
    seated = carry_moves(store, director)
    assert {m[6] for m in moves(store)} == {"done"}
    expected = {
        (str(t), int(s)): str(p)
        for p, t, s in store.conn.execute(
            "SELECT player, station_id, seat FROM tourney_seats WHERE event_id = 'E1'"
        )
    }
    assert seated == expected and len(seated) == 12


def _redraw_at_two(store: Store, director: Director) -> dict[str, dict[int, str]]:
    """10 players on three tables of four, two out: T1 broken, the field redrawn at two."""
    before = {t: seats(store, t) for t in ("T1", "T2", "T3")}
    for t, hand in (("T3", 1), ("T2", 1)):
        here = seats(store, t)
        out(store, t, hand, [(min(here), here[min(here)], 10_000)])
        director.on_rows(store.conn, [t])
    (kind, left) = store.conn.execute(
        "SELECT kind, tables_left FROM tourney_draws WHERE n = 1"
    ).fetchone()
    assert (kind, left) == ("redraw", 2)
    return before


def test_TOURN_BUTTON_a_redraw_seats_each_table_by_one_seat_draw_with_every_chip(
    store: Store,
) -> None:
    # 001-RR11 §15 r18: at two tables every player draws a new seat; the tables deal their
    # next hand from the draw, the button drawn for (a seat draw with chips): not moves
    # arriving one by one at tables dealing on with their old button.
    event(store)
    director = Director()
    before = _redraw_at_two(store, director)
    at = {p: t for t, w in before.items() for p in w.values()}
    # no seat draw before the players are out of their old seats, no balancing move meanwhile
    assert not [c for c in store.commands(kind="tournament.seat_draw") if "draw" in c[2]]
    assert not store.commands(kind="tournament.move_in")
    seated = carry_moves(store, director, chips=7_300)
    draws = {t: b for t, _k, b in store.commands(kind="tournament.seat_draw") if "draw" in b}
    assert sorted(draws) == ["T2", "T3"]
    for t, body in draws.items():
        assert body["draw"] == 1 and body["final_table"] is False
        now = seats(store, t)
        assert {int(k): v["player"] for k, v in body["seats"].items()} == now
        for v in body["seats"].values():
            # a player from another table brings the chips his old table confirmed; one
            # already here keeps his own (null: the table takes them from its stacks)
            assert v["chips"] == (None if at[v["player"]] == t else 7_300)
    assert len(seated) == 8 and {m[6] for m in moves(store)} == {"done"}
    assert not store.commands(kind="tournament.move_in")
    (moving,) = store.conn.execute("SELECT count(*) FROM tourney_seats WHERE moving").fetchone()
    assert moving == 0


def test_TOURN_RAISE_CAP_the_final_table_redraw_is_flagged_final(store: Store) -> None:
    # The last table's seat draw says final_table: the station lifts the raise cap between
    # the last two in limit and lets cards be shown there (TOURN-RAISE-CAP,
    # TOURN-SHOWING-CARDS); the redraw at two tables is not the final table.
    event(store)
    director = Director()
    _redraw_at_two(store, director)
    where = carry_moves(store, director)
    (last,) = store.conn.execute("SELECT max(id) FROM commands").fetchone()
    hand = 2
    while len(store.conn.execute("SELECT 1 FROM tourney_seats").fetchall()) > 4:
        t = max(("T2", "T3"), key=lambda t: len(seats(store, t)))
        here = seats(store, t)
        out(store, t, hand, [(min(here), here[min(here)], 10_000)])
        director.on_rows(store.conn, [t])
        hand += 1
    (left,) = store.conn.execute(
        "SELECT tables_left FROM tourney_draws WHERE kind = 'redraw' ORDER BY n DESC LIMIT 1"
    ).fetchone()
    assert left == 1
    for (p,) in store.conn.execute("SELECT player FROM tourney_outs"):
        where = {k: v for k, v in where.items() if v != p}
    seated = carry_moves(store, director, start=where, after=last)
    assert len(seated) == 4 and {t for t, _ in seated} == {"T3"}
    final = [(t, b) for t, _k, b in store.commands(kind="tournament.seat_draw") if "draw" in b]
    (_table, body) = final[-1]
    assert body["final_table"] is True and len(body["seats"]) == 4
    assert [b["final_table"] for _, b in final[:-1]] == [False, False]


def test_TOURN_NEW_PLAYERS_AT_TABLE_a_move_refused_after_the_big_blind_is_decided_again(
    store: Store,
) -> None:
    # 001-RR11 §15 r15: the player due the big blind moves. The order names the hand the
    # decision saw; the table dealt on and that player posted the big blind in the next hand,
    # so the table refuses it; the director cancels the move and moves the player now due it.
    event(store)
    director = Director()
    t1 = seats(store, "T1")
    bb = next(s for s in t1 if (s % 4) + 1 in t1)
    busted = (bb % 4) + 1
    hand_start(store, "T3", 1, button=1, bb=2)  # T3 is full: 1..4, seat 3 due the big blind
    hand_start(store, "T1", 1, button=bb, bb=bb)
    out(store, "T1", 1, [(busted, t1[busted], 10_000)])
    director.on_rows(store.conn, ["T1", "T3"])
    t3 = seats(store, "T3") | {3: seats(store, "T1")[busted]}
    ((ident, command, body),) = store.conn.execute(
        "SELECT m.id, m.out_command, c.body FROM tourney_moves m JOIN commands c"
        " ON c.id = m.out_command"
    ).fetchall()
    assert (body["seat"], body["hand"]) == (3, 1)
    # T3 deals hand 2 before the order comes: seat 3 posts the big blind; the table refuses
    payload = {
        "hand": 2, "game": "nlhe", "profile": "RR11", "button": 2,
        "seats": {str(t): {"stack": 10_000, "bet": 0, "status": "active",
                           "blind": "BB" if t == 3 else ""} for t in (1, 2, 3, 4)},
    }  # fmt: skip
    store.row("T3", "table.hand_start", payload, 2)
    store.conn.execute(
        "UPDATE commands SET state = 'refused', reply = %s WHERE id = %s",
        ('{"detail": "seat 3 posted the big blind in hand 2, after hand 1"}', command),
    )
    assert director.on_rows(store.conn, ["T3"]) == ["E1"]
    rows = store.conn.execute(
        "SELECT id, player, from_station, from_seat, state FROM tourney_moves ORDER BY id"
    ).fetchall()
    assert rows[0][0] == ident and rows[0][4] == "cancelled"
    # now seat 4 is due the big blind at T3: its player moves, into the same seat at T1
    ((_, player, frm, frm_seat, state),) = rows[1:]
    assert (frm, frm_seat, state, player) == ("T3", 4, "ordered", t3[4])
    ((_, _, again),) = store.commands("T3", "tournament.move_out")[1:]
    assert (again["seat"], again["hand"], again["to_seat"]) == (4, 2, busted)
    assert seats(store, "T3")[3] == t3[3]  # the first player is counted back at his seat
    # the floor's event view says which table refused the order, and why
    view = board(store.conn, "E1")
    assert view is not None
    refused = next(m for m in view.moves if m.id == ident)
    assert refused.state == "cancelled"
    assert refused.refused == "T3: seat 3 posted the big blind in hand 2, after hand 1"
    assert next(m for m in view.moves if m.id != ident).refused == ""


def test_the_first_draw_seats_the_tables_the_field_needs_the_last_of_the_breaking_order(
    store: Store,
) -> None:
    # 18 entrants, three tables of nine: two tables hold them. Seating all three would break
    # the first at once (its six players fit the others' open seats): 17 moves before anyone
    # is out. The draw seats T2 and T3 (broken last), nine each; T1 is not used.
    event(store, players=18, seats=9, journaled=False)
    assert [len(seats(store, t)) for t in ("T1", "T2", "T3")] == [0, 9, 9]
    assert store.commands("T1") == []
    assert {t for t, _k, _b in store.commands()} == {"T2", "T3"}
    (why, left) = store.conn.execute(
        "SELECT why, tables_left FROM tourney_draws WHERE n = 0"
    ).fetchone()
    assert left == 2 and "T1 not used" in why
    echo(store, "tournament.seat_draw")
    director = Director()
    director.catch_up_all(store.conn)
    assert moves(store) == []
    assert events.load(store.conn, "E1").tables == ["T2", "T3"]


def test_TOURN_RAISE_CAP_an_event_of_one_table_is_its_final_table_from_the_draw(
    store: Store,
) -> None:
    event(store, players=6, seats=9, tables=2, prizes=(100,), journaled=False)
    ((table, _k, body),) = store.commands(kind="tournament.seat_draw")
    assert table == "T2" and body["final_table"] is True and len(body["seats"]) == 6


def test_hand_for_hand_ends_at_one_table_and_the_clock_stops_with_the_winner(store: Store) -> None:
    # One table left: hand-for-hand holds its deal for a release that waits for no other table;
    # the director takes it off. When the last player is out the event is finished and the
    # floor's clock stops where it stood (it ran on, RUNNING, after the winner).
    event(store, players=3, seats=9, tables=1, prizes=(100,))
    events.set_clock(store.conn, "E1", "start", "flo")
    events.hand_for_hand(store.conn, "E1", True, "flo")
    director = Director()
    t1 = seats(store, "T1")
    hand_start(store, "T1", 1, button=min(t1), bb=max(t1))
    director.on_rows(store.conn, ["T1"])
    (on,) = store.conn.execute("SELECT h4h_on FROM tourney_events WHERE id = 'E1'").fetchone()
    assert on is False
    *_, (_, _, off) = store.commands("T1", "tournament.hand_for_hand")
    assert off["on"] is False
    # two players out in hand 2: one left, the winner
    out(store, "T1", 2, [(s, p, 10_000) for s, p in sorted(t1.items())[:2]])
    director.on_rows(store.conn, ["T1"])
    view = board(store.conn, "E1", now_utc=time.time() + 3600)
    assert view is not None and view.clock.state == "FINISHED"
    later = board(store.conn, "E1", now_utc=time.time() + 7200)
    assert later is not None and later.clock.left == view.clock.left  # stopped, not running


def _cancel_rows(s: Store) -> list[tuple[Any, ...]]:
    return list(
        s.conn.execute(
            "SELECT player, from_station, to_station, state, cancel_state, cancel_why,"
            " out_command, cancel_command FROM tourney_moves WHERE event_id = 'E1' ORDER BY id"
        )
    )


def _counted_once(s: Store) -> None:
    """Every entrant is seated once or out, never both, never neither."""
    seated = [str(p) for (p,) in s.conn.execute("SELECT player FROM tourney_seats")]
    gone = [str(p) for (p,) in s.conn.execute("SELECT player FROM tourney_outs")]
    entrants = {str(p) for (p,) in s.conn.execute("SELECT player FROM tourney_entrants")}
    assert sorted(seated + gone) == sorted(entrants)
    places_taken = s.conn.execute(
        "SELECT station_id, seat, count(*) FROM tourney_seats GROUP BY 1, 2 HAVING count(*) > 1"
    ).fetchall()
    assert places_taken == []


def _page(s: Store) -> str:
    """The console's event view as the floor reads it (its own template, as text)."""
    from importlib import resources

    import jinja2

    folder = resources.files("station.central.console") / "templates"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    view = board(s.conn, "E1")
    html = env.get_template("_tournament.html").render(b=view, when=str)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _stale_view(store: Store, director: Director) -> tuple[str, int, int]:
    """22 players at four tables of six (5, 5, 6, 6). A player goes out at T3 and, 0.3 s later,
    one at T1. The ingest has stored T3's row, but the director is woken for T1 first (its
    picture of T3 stale): it sees 4, 5, 6, 6 and moves the player due the big blind at T3 (the
    first of the largest tables in the breaking order) to T1. The real counts were 4, 5, 5, 6:
    one move, T4 -> T1, balanced them (001-RR11 §15 r15, r17). Returns the first move's
    player, seat and command."""
    event(store, players=22, seats=6, tables=4)
    assert [len(seats(store, t)) for t in ("T1", "T2", "T3", "T4")] == [5, 5, 6, 6]
    t1, t3 = seats(store, "T1"), seats(store, "T3")
    out(store, "T3", 1, [(max(t3), t3[max(t3)], 10_000)])  # stored, not folded yet
    out(store, "T1", 1, [(min(t1), t1[min(t1)], 10_000)])
    director.on_rows(store.conn, ["T1"])
    ((player, frm, to, state, cancel, _why, command, _c),) = _cancel_rows(store)
    assert (frm, to, state, cancel) == ("T3", "T1", "ordered", None)
    (seat,) = store.conn.execute(
        "SELECT from_seat FROM tourney_moves WHERE out_command = %s", (command,)
    ).fetchone()
    return str(player), int(seat), int(command)


def test_TOURN_balancing_a_move_made_on_a_stale_view_is_cancelled_and_one_move_balances(
    store: Store,
) -> None:
    director = Director()
    player, seat, command = _stale_view(store, director)
    # T3's player out is folded in: with T3's mover counted at T1 the tables would be 5, 5, 4,
    # 6 and need a second move (T4 -> T3). Re-planned from the tables as they are (4, 5, 5,
    # 6), the move T3 -> T1 is not the rule's: it is cancelled at T3, and nothing else is
    # decided until T3 has answered.
    director.on_rows(store.conn, ["T3"])
    ((_p, _f, _t, state, cancel, why, _o, cancel_command),) = _cancel_rows(store)
    assert (state, cancel, why) == ("ordered", "sent", "no longer needed: T3 lost a player")
    ((_, _, body),) = store.commands("T3", "tournament.move_cancel")
    assert (body["player"], body["seat"], body["move"], body["to_table"]) == (
        player, seat, command, "T1",
    )  # fmt: skip
    assert body["why"] == "no longer needed: T3 lost a player"
    assert len(store.commands(kind="tournament.move_out")) == 1
    page = _page(store)
    assert f"T3 seat {seat} → T1 seat {body['to_seat']} · CANCELLING" in page, page
    assert "CANCEL SENT to T3 : no longer needed: T3 lost a player" in page
    # T3 calls it off (the player had not left his seat): he is counted back at his seat, and
    # the one move the rule makes is ordered: the player due the big blind at T4 to T1.
    store.row("T3", "tournament.move_cancelled",
              {"player": player, "seat": seat, "ordered_by": command, "to_table": "T1",
               "to_seat": body["to_seat"], "why": body["why"], "held": True, "via": "centre",
               "command": cancel_command})  # fmt: skip
    director.on_rows(store.conn, ["T3"])
    rows = _cancel_rows(store)
    assert [(r[1], r[2], r[3], r[4]) for r in rows] == [
        ("T3", "T1", "cancelled", "done"),
        ("T4", "T1", "ordered", None),
    ]
    assert seats(store, "T3")[seat] == player
    assert [len(seats(store, t)) for t in ("T1", "T2", "T3", "T4")] == [5, 5, 5, 5]
    _counted_once(store)
    (moving,) = store.conn.execute(
        "SELECT count(*) FROM tourney_seats WHERE moving AND player = %s", (player,)
    ).fetchone()
    assert moving == 0
    # the new move carried out: nothing more to do, one move made
    carry_moves(store, director, after=command)
    assert [(r[1], r[2], r[3]) for r in _cancel_rows(store)] == [
        ("T3", "T1", "cancelled"),
        ("T4", "T1", "done"),
    ]
    # the floor's view: the cancelled move and why
    view = board(store.conn, "E1")
    assert view is not None
    line = next(m for m in view.moves if m.state == "cancelled")
    assert line.cancelled == "no longer needed: T3 lost a player"
    page = _page(store)
    assert "balance · CANCELLED (no longer needed: T3 lost a player)" in page, page
    assert "CANCELLING" not in page


def test_TOURN_balancing_a_cancel_refused_after_the_player_stood_up_keeps_the_move(
    store: Store,
) -> None:
    director = Director()
    player, seat, command = _stale_view(store, director)
    director.on_rows(store.conn, ["T3"])
    ((_, _, body),) = store.commands("T3", "tournament.move_cancel")
    # He had left his seat before the cancel came: T3 journaled his move out, and refuses it.
    store.row("T3", "tournament.moved_out",
              {"player": player, "seat": seat, "chips": 10_000, "to_table": "T1",
               "to_seat": body["to_seat"], "ordered_by": command})  # fmt: skip
    director.on_rows(store.conn, ["T3"])
    rows = _cancel_rows(store)
    assert (rows[0][3], rows[0][4]) == ("out", "refused")
    # the move stands (he is on his way to T1); T3 is short now: the rule's next move fills it
    assert [(r[1], r[2], r[3]) for r in rows[1:]] == [("T4", "T3", "ordered")]
    ((_, _, arrive),) = store.commands("T1", "tournament.move_in")
    assert arrive["player"] == player
    _counted_once(store)
    view = board(store.conn, "E1")
    assert view is not None
    line = next(m for m in view.moves if m.player == player)
    assert line.state == "out" and "had left seat" in line.cancel_refused
    page = _page(store)
    assert (
        f"ON HIS WAY with 10,000 CANCEL REFUSED by T3: {player} had left seat {seat}: the move"
        " stands (no longer needed: T3 lost a player)"
    ) in page, page


def test_TOURN_balancing_moves_still_needed_are_not_cancelled(store: Store) -> None:
    # The same two players out, both folded in before the director decides: one move, T4 ->
    # T1, and each update after it keeps it (re-planning from the same counts makes the same
    # move).
    event(store, players=22, seats=6, tables=4)
    director = Director()
    t1, t3 = seats(store, "T1"), seats(store, "T3")
    out(store, "T3", 1, [(max(t3), t3[max(t3)], 10_000)])
    out(store, "T1", 1, [(min(t1), t1[min(t1)], 10_000)])
    director.on_rows(store.conn, ["T1", "T3"])
    for _ in range(3):
        director.catch_up_all(store.conn)
    assert [(r[1], r[2], r[3], r[4]) for r in _cancel_rows(store)] == [
        ("T4", "T1", "ordered", None)
    ]
    assert store.commands(kind="tournament.move_cancel") == []


def test_TOURN_an_earlier_event_at_the_same_tables_puts_no_one_out_of_this_one(
    store: Store,
) -> None:
    """Player ids repeat from event to event (P03 in both): T1's rows of an earlier event E0 -
    its seats, a player out, a move - are not this event's, whether stored before the event
    was made or late, after it (a table's rows can arrive late: the ingest's lag, a link down)."""
    earlier = {"event": "E0", "players": {"1": "P03", "2": "P04"}, "chips": {"1": 500, "2": 900}}
    store.row("T1", "tournament.seats_drawn", earlier)
    # (a desk that said no event: only where the fold starts keeps it out)
    store.row("T1", "tournament.eliminated",
              {"hand": 7, "round": None,
               "players": [{"seat": 1, "player": "P03", "start_stack": 500}]}, 7)  # fmt: skip
    store.row("T1", "decision.hand_end", {"type": "hand_end", "hand": 7, "stacks": {}}, 7)
    event(store)
    director = Director()
    director.on_rows(store.conn, ["T1", "T2", "T3"])
    # late: another of E0's players out, stored after E1 was made
    store.row("T1", "tournament.eliminated",
              {"event": "E0", "hand": 8, "round": None,
               "players": [{"seat": 2, "player": "P04", "start_stack": 900}]}, 8)  # fmt: skip
    director.on_rows(store.conn, ["T1"])
    assert places(store) == {}
    assert sum(len(seats(store, t)) for t in ("T1", "T2", "T3")) == 10
    assert moves(store) == []
