"""A tournament's live view in a real browser (Debian's Chromium, Playwright) against the running
console: the floor creates the event, draws the seats from a seed and starts the clock; the
tables' rows (their own codes and payloads, written into the central store as the ingest
stores them and announced as it announces them) make the director place a player out and
order the balancing move, and the open page shows both without a reload; hand-for-hand goes
on at every table. Screenshots of the view at 1600 and 390 px wide.

The tables here (X1-X3) are the store's only: the real stations play a tournament in
`tests/fleet/test_tournament_stations.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.console.fleet import Fleet
from tests.tournament.stored import Store

pytestmark = pytest.mark.slow

NAMES = ["Ann Lee", "Bo Chan", "Cy Diaz", "Di Moss", "Ed Park", "Flo Ruiz", "Gus Holt",
         "Hal Ng", "Ida Vos", "Jo Pike"]  # fmt: skip


def _conn(fleet: Fleet) -> Any:
    import psycopg

    return psycopg.connect(fleet.cfg.conninfo(), autocommit=True)


def _seats(store: Store, station: str) -> dict[int, str]:
    return {
        int(s): str(p)
        for p, s in store.conn.execute(
            "SELECT player, seat FROM tourney_seats WHERE event_id = 'FRI' AND station_id = %s",
            (station,),
        )
    }


def test_the_event_view_shows_the_clock_tables_moves_and_the_finishing_order(
    fleet: Fleet, signed: Any, shots: Path
) -> None:
    page = signed("flo").page
    page.click("nav >> text=Tournaments")
    page.wait_for_url("**/tournaments")
    page.fill("input[name=id]", "FRI")
    page.fill("input[name=title]", "Friday deepstack")
    page.fill("input[name=start_chips]", "20000")
    page.fill("input[name=seats]", "4")
    page.fill("input[name=tables]", "X3 X2 X1")
    page.fill("textarea[name=entrants]", "\n".join(NAMES))
    page.fill("input[name=prizes]", "5000 3000 2000")
    page.click("#new-event button[type=submit]")
    page.wait_for_url("**/tournaments/FRI")
    assert "NOT STARTED" in page.locator("#clock").inner_text()
    page.fill("input[name=seed]", "friday-seed")
    page.click("text=Draw the seats")
    page.wait_for_url("**/tournaments/FRI")
    draws = page.locator("ul.draws").inner_text()
    assert "DRAW" in draws and "friday-seed" in draws
    page.click("text=Start the clock")
    page.wait_for_url("**/tournaments/FRI")
    clock = page.locator("#clock").inner_text()
    assert "LEVEL 1" in clock and "25-50" in clock and "RUNNING" in clock
    assert "10 of 10" in page.locator("#left").inner_text()
    assert "20,000" in page.locator("#average").inner_text()
    page.wait_for_selector("#live:text('live')")

    with _conn(fleet) as conn:
        store = Store(conn)
        # each table journals the draw it was sent, then deals hand 1
        for station, _, body in store.commands(kind="tournament.seat_draw"):
            players = {s: v["player"] for s, v in body["seats"].items()}
            chips = {s: v["chips"] for s, v in body["seats"].items()}
            store.row(station, "tournament.seats_drawn",
                      {"event": "FRI", "players": players, "chips": chips})  # fmt: skip
        x3, x1 = _seats(store, "X3"), _seats(store, "X1")
        assert (len(x3), len(x1)) == (3, 4)  # 10 at three tables of four: X3 breaks first
        for station, taken in (("X3", x3), ("X1", x1)):
            first = min(taken)
            store.row(station, "table.hand_start", {
                "hand": 1, "button": first, "seats": {
                    str(s): {"blind": "BB" if s == first else ""} for s in taken}}, 1)  # fmt: skip
        busted = max(x3)
        gone = [{"seat": busted, "player": x3[busted], "start_stack": 20_000}]
        store.row("X3", "tournament.eliminated",
                  {"event": "FRI", "hand": 1, "round": None, "players": gone}, 1)  # fmt: skip
        stacks = {str(s): 20_000 * 2 if s == min(x3) else 20_000 for s in x3 if s != busted}
        store.row("X3", "decision.hand_end", {"type": "hand_end", "hand": 1, "stacks": stacks}, 1)
        even = {str(s): 20_000 for s in x1}
        store.row("X1", "decision.hand_end", {"type": "hand_end", "hand": 1, "stacks": even}, 1)
        store.notify()
        # 2, 3, 4: the player due the big blind at X1 moves to X3 (no reload: the page follows)
        page.wait_for_selector("#moves-h", timeout=10_000)
        moves = page.locator(".moves-open").inner_text()
        mover = x1[sorted(x1)[1]]  # X1's big blind was its first seat: the next one is due
        # X3's big blind was its first seat: the open seat clockwise nearest after it
        left = set(x3) - {busted}
        clockwise = [(min(x3) + k - 1) % 4 + 1 for k in range(1, 5)]
        seat = next(s for s in clockwise if s not in left)
        assert f"({mover}): X1 seat {sorted(x1)[1]} → X3 seat {seat}" in moves, moves
        assert "001-RR11 §15 r15, r17" in moves
        order = page.locator("table.order").inner_text()
        assert "10" in order and x3[busted] in order
        link = page.locator(f"#out-{x3[busted]} a")
        assert link.get_attribute("href") == "/hands/X3/1"
        assert "9 of 10" in page.locator("#left").inner_text()
        assert "22,222" in page.locator("#average").inner_text()  # 200,000 chips / 9 players
        assert "40,000" in page.locator("#table-X3").inner_text()
        page.screenshot(path=str(shots / "console-tournament.png"), full_page=True)

        page.click("text=Hand-for-hand at every table")
        page.wait_for_url("**/tournaments/FRI")
        h4h = page.locator("#h4h").inner_text()
        assert "HAND-FOR-HAND" in h4h and "round 1" in h4h and "X1, X2, X3" in h4h
        sent = store.commands(kind="tournament.hand_for_hand")
        assert sorted(s for s, _, _ in sent) == ["X1", "X2", "X3"]
        assert {b["round"] for _, _, b in sent} == {1}

    narrow = signed("flo", width=390).page
    narrow.goto(fleet.console_url + "/tournaments/FRI")
    narrow.wait_for_selector("#clock")
    width = narrow.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways at 390 px ({width} px)"
    narrow.screenshot(path=str(shots / "console-tournament-narrow.png"), full_page=True)

    # Everyone but one goes out (hand 2 at each table): the event is won; the page still fits
    # a phone, with the winner and the stopped clock on it.
    with _conn(fleet) as conn:
        store.conn = conn  # the same stations' rows, numbered on from where they were
        left = {str(p): (str(t), int(s)) for p, t, s in conn.execute(
            "SELECT player, station_id, seat FROM tourney_seats WHERE event_id = 'FRI'"
            " ORDER BY player")}  # fmt: skip
        winner = min(left)
        for station in sorted({t for t, _ in left.values()}):
            gone = [{"seat": s, "player": p, "start_stack": 20_000}
                    for p, (t, s) in left.items() if t == station and p != winner]  # fmt: skip
            if gone:
                out = {"event": "FRI", "hand": 2, "round": None, "players": gone}
                store.row(station, "tournament.eliminated", out, 2)
                store.row(station, "decision.hand_end",
                          {"type": "hand_end", "hand": 2, "stacks": {}}, 2)  # fmt: skip
        store.notify()
    narrow.wait_for_selector("#clock:has-text('won by')", timeout=15_000)
    narrow.reload()
    clock = narrow.locator("#clock").inner_text()
    with _conn(fleet) as conn:
        (name,) = conn.execute(
            "SELECT name FROM tourney_entrants WHERE event_id = 'FRI' AND player = %s", (winner,)
        ).fetchone()
    assert f"won by {name} ({winner})" in clock and "FINISHED" in clock, clock
    assert "next:" not in clock, clock  # the clock stopped at the winner: no level comes next
    narrow.screenshot(path=str(shots / "console-tournament-won-narrow.png"), full_page=True)
    width = narrow.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the finished event's page scrolls sideways at 390 px ({width} px)"
