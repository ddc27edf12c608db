"""One tournament run by real stations, from the seat draw to the final table (issue 30, second
"must show"): three emulated tables (`station run`'s Daemon on the demo's rig: the emulated
shoe and bet-zone board on real ptys, the panel, puck and seat sensors on mock pins, a real
SQLite journal, a real forwarder with its client certificate), a real mosquitto and PostgreSQL,
the central ingest and the console's live thread (where the tournament director runs).

The floor creates the event and draws the seats; the tables deal scripted hands in which a
player goes broke (`station.bench.tourney_hands`), moving players as their screens tell them.
Checked against the stations' own journals: the balancing move is the one the rule gives (the
player due the big blind, to the earliest seat due the big blind), a table is broken and the
field redrawn at two tables, one hand-for-hand round's two players out are ranked by the chips
they started the hand with (not by which table finished first), the field is redrawn to one
table, every move is journaled at both tables, and the finishing order in the central store is
the one the journals give.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from station.journal import Journal, SystemClock
from tests.fleet.conftest import SITE, RunningIngest, start_ingest, wait_until

TABLES = ("T1", "T2", "T3")  # the breaking order: T1 first
ENTRANTS = [(f"P{i:02d}", f"Player {i}") for i in range(1, 11)]
STRUCTURE = {"levels": [{"sb": 25, "bb": 50, "minutes": 30}, {"sb": 50, "bb": 100, "minutes": 30}]}
HAND_S = 60.0


@pytest.fixture
def event_rig(services: Any, tmp_path: Path) -> Iterator[tuple[RunningIngest, dict[str, Any]]]:
    from station.bench.tourney_table import TourneyTable
    from station.central.console.live import Hub, Listener
    from station.demo.rig import FleetLink

    ingest = start_ingest(services)
    listener = Listener(ingest.cfg.conninfo, Hub(), sweep_s=5.0)
    listener.start()
    tables: dict[str, Any] = {}
    try:
        assert listener.ready.wait(30), "the console's live thread did not start"
        port = services.broker.port
        for i, station in enumerate(TABLES, start=1):
            ident = services.broker.identity(station)
            link = FleetLink(SITE, f"127.0.0.1:{port}", ident.ca, ident.cert, ident.key)
            tables[station] = TourneyTable(tmp_path / station, station, link, seats=4, seed=i)
        starting = [threading.Thread(target=t.start) for t in tables.values()]
        for th in starting:
            th.start()
        for th in starting:
            th.join(60)
        yield ingest, tables
    finally:
        for t in tables.values():
            t.stop()
        listener.stop()
        ingest.halt()


def _journal(table: Any, code: str) -> list[Any]:
    journal = Journal.open(table.rig.loaded.config.journal, clock=SystemClock())
    try:
        return list(journal.rows(codes=[code]))
    finally:
        journal.close()


def _hands(*asked: tuple[Any, dict[str, Any]]) -> None:
    """Deal these hands at once (one per table), wait for all of them."""
    done = [table.deal(**kw) for table, kw in asked]
    for (table, _), ev in zip(asked, done, strict=True):
        assert ev.wait(HAND_S), f"the hand did not end: {table.describe()}"
        table.results()  # raises the dealer's error, if any


def _moves_done(ingest: RunningIngest) -> Callable[[], bool]:
    def done() -> bool:
        open_ = ingest.query(
            "SELECT count(*) FROM tourney_moves WHERE state IN ('waiting', 'ordered', 'out')"
        )
        return int(open_[0][0]) == 0

    return done


def _seated(ingest: RunningIngest) -> dict[str, dict[int, str]]:
    out: dict[str, dict[int, str]] = {}
    for p, t, s in ingest.query("SELECT player, station_id, seat FROM tourney_seats"):
        out.setdefault(str(t), {})[int(s)] = str(p)
    return out


def _last_big_blind(table: Any) -> int:
    start = _journal(table, "table.hand_start")[-1].data()
    return next(int(s) for s, v in start["seats"].items() if v.get("blind") == "BB")


def _clockwise(after: int, seats: int = 4) -> list[int]:
    return [(after + k - 1) % seats + 1 for k in range(1, seats + 1)]


@pytest.mark.slow
def test_an_event_run_by_three_stations_from_the_seat_draw_to_the_final_table(
    event_rig: tuple[RunningIngest, dict[str, Any]],
) -> None:
    import psycopg

    from station.central.tournament import store

    started = time.monotonic()
    ingest, tables = event_rig
    t1, t2, t3 = (tables[t] for t in TABLES)
    with psycopg.connect(ingest.cfg.conninfo(), autocommit=True) as conn:
        spec = store.EventSpec(
            id="E1", title="Three tables", profile="RR11", game="nlhe", structure=STRUCTURE,
            start_chips=1000, tables=[(t, 4) for t in TABLES], entrants=ENTRANTS,
            prizes=[500, 300, 200],
        )  # fmt: skip
        store.create(conn, spec, "flo")
        store.draw(conn, "E1", "flo", seed="three-tables")
        store.set_clock(conn, "E1", "start", "flo")
    # 10 players at three tables of four: 3, 3, 4; every table deals a first hand (everyone
    # folds to the big blind) so its positions are in its journal.
    for t in tables.values():
        wait_until(lambda t=t: t._ready(), 30, f"{t.station} seated from the draw")
    assert [len(_seated(ingest)[t]) for t in TABLES] == [3, 3, 4]
    _hands((t1, {"bust": False}), (t2, {"bust": False}), (t3, {"bust": False}))

    # 1. A player out at T1: 2, 3, 4 -> the player due the big blind at T3 moves to T1's
    # earliest seat due the big blind (001-RR11 §15 r15, r17), as the journals give them.
    before = _seated(ingest)
    _hands((t1, {"bust": True}))
    wait_until(lambda: bool(ingest.query("SELECT 1 FROM tourney_moves")), 15, "the move ordered")
    ((player, frm, frm_seat, to, to_seat, reason),) = ingest.query(
        "SELECT player, from_station, from_seat, to_station, to_seat, reason FROM tourney_moves"
    )
    t3_bb, t1_bb = _last_big_blind(t3), _last_big_blind(t1)
    busted = {int(o["seat"]) for r in _journal(t1, "tournament.eliminated")
              for o in r.data()["players"]}  # fmt: skip
    t1_left = set(before["T1"]) - busted
    due = next(s for s in _clockwise(t3_bb) if s in before["T3"])
    seat = next(s for s in _clockwise(t1_bb) if s not in t1_left)
    assert (frm, frm_seat, to, to_seat, reason) == ("T3", due, "T1", seat, "balance")
    assert player == before["T3"][due]
    wait_until(_moves_done(ingest), 30, "the move confirmed at both tables")

    # 2. A player out at T2: 8 players fit two tables -> T1 (first in the breaking order) is
    # broken and, RR11 redrawing at two tables (r18), the field drawn anew.
    _hands((t2, {"bust": True}))
    wait_until(lambda: bool(ingest.query("SELECT 1 FROM tourney_draws WHERE kind = 'redraw'")),
               15, "the redraw")  # fmt: skip
    ((broken, left),) = ingest.query(
        "SELECT broken, tables_left FROM tourney_draws WHERE kind = 'redraw'"
    )
    assert (broken, left) == ("T1", 2)
    wait_until(_moves_done(ingest), 60, "the redraw's moves confirmed")
    assert sorted(len(v) for k, v in _seated(ingest).items() if v) == [4, 4]
    wait_until(lambda: t2._ready() and t3._ready(), 30, "T2 and T3 seated")

    # 3. Hand-for-hand at both tables: round 1, T3's hand (its loser the biggest stack but one)
    # ends first, T2's (its shortest stack) after; the two are ranked by their starting chips.
    with psycopg.connect(ingest.cfg.conninfo(), autocommit=True) as conn:
        assert store.hand_for_hand(conn, "E1", True, "flo") == 1
    wait_until(lambda: bool(ingest.query("SELECT 1 FROM tourney_rounds WHERE round = 1")), 15,
               "round 1 released")  # fmt: skip
    _hands((t3, {"bust": True, "loser": "second"}))
    _hands((t2, {"bust": True}))
    wait_until(lambda: bool(ingest.query(
        "SELECT 1 FROM tourney_rounds WHERE round = 1 AND complete_at IS NOT NULL")), 15,
        "round 1 over")  # fmt: skip
    with psycopg.connect(ingest.cfg.conninfo(), autocommit=True) as conn:
        store.hand_for_hand(conn, "E1", False, "flo")

    # 4. Two more out: 4 players fit one table -> T2 broken, the final table redrawn at T3.
    _hands((t2, {"bust": True}))
    _hands((t3, {"bust": True}))
    wait_until(lambda: bool(ingest.query(
        "SELECT 1 FROM tourney_draws WHERE kind = 'redraw' AND tables_left = 1")), 15,
        "the final table's redraw")  # fmt: skip
    wait_until(_moves_done(ingest), 60, "the final table seated")
    assert {k: len(v) for k, v in _seated(ingest).items() if v} == {"T3": 4}

    # Every move is journaled at both of its tables.
    journaled_out = {(t.station, r.data()["player"]) for t in tables.values()
                     for r in _journal(t, "tournament.moved_out")}  # fmt: skip
    journaled_in = {(t.station, r.data()["player"]) for t in tables.values()
                    for r in _journal(t, "tournament.moved_in")}  # fmt: skip
    # (a redraw's player arrives in his new table's seat draw, with his chips: 001-RR11 §15
    # r18, the table dealing its next hand from the draw)
    journaled_drawn = {(t.station, p, r.data()["chips"].get(s)) for t in tables.values()
                       for r in _journal(t, "tournament.seats_drawn")
                       for s, p in r.data()["players"].items()}  # fmt: skip
    for p, frm, to, reason, chips in ingest.query(
        "SELECT player, from_station, to_station, reason, chips FROM tourney_moves"
    ):
        assert (frm, p) in journaled_out
        if reason == "redraw":
            assert (to, p, chips) in journaled_drawn, (
                p, sorted((x for x in journaled_drawn if x[0] == to), key=str),
                ingest.query("SELECT station_id, state, body, reply FROM commands"
                             " WHERE kind = 'tournament.seat_draw'"),
            )  # fmt: skip
        else:
            assert (to, p) in journaled_in
    final = [r.data() for r in _journal(t3, "tournament.seats_drawn")][-1]
    assert final["final_table"] is True and len(final["players"]) == 4

    # The finishing order in the central store is the one the stations' journals give: in
    # the order the players went out, the hand-for-hand round's two by their starting chips.
    outs = []
    for t in tables.values():
        for r in _journal(t, "tournament.eliminated"):
            d = r.data()
            when = datetime.fromisoformat(r.recorded_utc).timestamp()
            for o in d["players"]:
                outs.append((when, d.get("round"), o["player"], int(o["start_stack"]), t.station))
    outs.sort()
    assert len(outs) == 6
    rnd = [o for o in outs if o[1] == 1]
    assert len(rnd) == 2 and {o[4] for o in rnd} == {"T2", "T3"}
    assert rnd[0][4] == "T3" and rnd[0][3] != rnd[1][3]  # T3's went first, stacks differ
    expected: dict[str, int] = {}
    place = 10
    for o in [o for o in outs if o[1] is None][:2]:
        expected[o[2]] = place
        place -= 1
    for o in sorted(rnd, key=lambda o: o[3]):
        expected[o[2]] = place
        place -= 1
    for o in [o for o in outs if o[1] is None][2:]:
        expected[o[2]] = place
        place -= 1
    stored = {str(p): int(pl) for p, pl in ingest.query("SELECT player, place FROM tourney_outs")}
    assert stored == expected
    stacks = {str(p): (str(t), int(s)) for p, t, s in ingest.query(
        "SELECT player, station_id, start_stack FROM tourney_outs")}  # fmt: skip
    assert stacks == {o[2]: (o[4], o[3]) for o in outs}
    print(f"tournament from the seat draw to the final table: {time.monotonic() - started:.1f} s")
