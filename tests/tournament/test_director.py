"""The tournament director on a real PostgreSQL (`station.central.tournament.director`): the
stations' rows (their own codes and payloads, stored as the ingest stores them) folded, players
out placed, the balancing move ordered by the rule and carried on when the seat sensors confirm
it, a table broken with the redraw, hand-for-hand rounds released and their players out ranked
across tables, the clock announced to every table."""

from __future__ import annotations

from typing import Any

from station.central.tournament import store as events
from station.central.tournament.director import Director
from station.central.tournament.seating import draw_seats
from tests.tournament.stored import Store

STRUCTURE = {
    "levels": [{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 100, "bb": 200, "minutes": 20}]
}
PLAYERS = [(f"P{i:02d}", f"Player {i}") for i in range(1, 11)]


def event(s: Store, profile: str = "RR11", players: int = 10, seats: int = 4) -> None:
    entrants = [(f"P{i:02d}", f"Player {i}") for i in range(1, players + 1)]
    spec = events.EventSpec(
        id="E1", title="Test", profile=profile, game="nlhe", structure=STRUCTURE,
        start_chips=10_000, tables=[("T1", seats), ("T2", seats), ("T3", seats)],
        entrants=entrants, prizes=[5000, 3000, 2000],
    )  # fmt: skip
    events.create(s.conn, spec, "flo")
    events.draw(s.conn, "E1", "flo", seed="seed-1", now_utc=1_750_000_000.0)
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


def carry_moves(s: Store, director: Director, chips: int = 10_000) -> dict[tuple[str, int], str]:
    """The tables carry out every move the centre orders, as their desks and seat sensors do: a
    player told to leave leaves; an arriving player sits only in an empty seat (he waits by the
    table while it is taken). Returns who sits where when nothing more can happen."""
    where: dict[tuple[str, int], str] = {}
    for station, _k, body in s.commands(kind="tournament.seat_draw"):
        where.update({(station, int(seat)): v["player"] for seat, v in body["seats"].items()})
    for (p,) in s.conn.execute("SELECT player FROM tourney_outs WHERE event_id = 'E1'"):
        where = {k: v for k, v in where.items() if v != p}
    handled: set[int] = set()
    moved = True
    while moved:
        moved = False
        for ident, station, kind, body in s.conn.execute(
            "SELECT id, station_id, kind, body FROM commands WHERE kind LIKE 'tournament.move_%'"
            " ORDER BY id"
        ).fetchall():
            if ident in handled:
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
    entrants = [(f"P{i:02d}", f"Player {i}") for i in range(1, 15)]
    tables = [("T1", 4), ("T2", 4), ("T3", 4), ("T4", 4)]
    spec = events.EventSpec(
        id="E1", title="Test", profile="RR11", game="nlhe", structure=STRUCTURE,
        start_chips=10_000, tables=tables, entrants=entrants, prizes=[5000, 3000, 2000],
    )  # fmt: skip
    events.create(store.conn, spec, "flo")
    events.draw(store.conn, "E1", "flo", seed="seed-1", now_utc=1_750_000_000.0)
    echo(store, "tournament.seat_draw")
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
    into = [m for m in moves(store) if (m[3], m[4]) == (to, to_seat) and m[0] != mover]
    assert into, "the redraw gave the moving player's seat to another (the case under test)"
    assert into[0][6] == "waiting"  # not ordered while the seat is promised to the mover
    seated = carry_moves(store, director)
    assert {m[6] for m in moves(store)} == {"done"}
    expected = {
        (str(t), int(s)): str(p)
        for p, t, s in store.conn.execute(
            "SELECT player, station_id, seat FROM tourney_seats WHERE event_id = 'E1'"
        )
    }
    assert seated == expected and len(seated) == 12
