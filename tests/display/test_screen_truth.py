"""The dealer screen is true at every moment: over every input of every rule scenario and every
hand of the PHH sample, what the dealer view shows (each seat's stack, bet, state, the button
and blind markers, every pot, the board) is the engine's snapshot of that same moment; while a
hand's result is on show every marker is that hand's own; and posted blinds stay on the felt
from the post to the push (the chips a seat has out never vanish between NEW_HAND and the
first action)."""

from __future__ import annotations

from station.display.dealer_view import DASH, Middle, dealer_view
from station.engine.snapshot import Phase, TableSnapshot
from station.engine.table import Table
from tests.display.engine_texts import sessions


def _checked(snap: TableSnapshot, where: str) -> list[str]:
    view = dealer_view(snap)
    out: list[str] = []
    result_up = view.middle is Middle.RESULT
    paid = dict(view.result.payouts) if view.result is not None and result_up else {}
    between = (
        snap.next_hand if not result_up and snap.phase in (Phase.BETWEEN, Phase.ENDED) else None
    )
    for seat, label in zip(snap.seats, view.seats, strict=True):
        stack = (
            ""
            if label.state.value == "empty"
            else (DASH if seat.stack is None else str(seat.stack))
        )
        if label.stack != stack:
            out.append(f"{where}: seat {seat.seat} stack {label.stack!r}, snapshot {seat.stack}")
        bet = paid.get(seat.seat) or seat.bet
        if label.bet_amount != bet:
            out.append(f"{where}: seat {seat.seat} bet {label.bet_amount}, snapshot {bet}")
        if between is None:  # the markers of the hand on show
            if (label.button, label.blind) != (seat.button, seat.blind):
                out.append(f"{where}: seat {seat.seat} markers {label.button, label.blind}, "
                           f"snapshot {seat.button, seat.blind}")  # fmt: skip
        elif label.button != (seat.seat == between.button):
            out.append(f"{where}: seat {seat.seat} button is not the next hand's")
    if view.pot_total != str(sum(p.amount for p in snap.pots) + sum(s.bet for s in snap.seats)):
        out.append(f"{where}: pot {view.pot_total}")
    if [(p.label, p.amount) for p in view.pots] != [
        (p.label.upper(), str(p.amount)) for p in snap.pots
    ]:
        out.append(f"{where}: pots differ")
    board = ["".join(c) for c in view.board]
    if len(board) != len(snap.board):
        out.append(f"{where}: board {board}, snapshot {snap.board}")
    return out


def test_the_dealer_view_is_the_snapshot_of_every_moment() -> None:
    failures: list[str] = []
    moments = 0
    # (a post the hand refused, a straddle not allowed, goes back: it is not a blind of the hand)
    for name, session in sessions():
        table = Table()
        posted: dict[int, int] = {}
        for line in session.lines:
            before = table.snapshot()
            table.feed(line.event, seq=line.line, at=line.t)
            snap = table.snapshot()
            moments += 1
            where = f"{name}:{line.line}"
            failures += _checked(snap, where)
            if before.phase is Phase.BETWEEN and snap.phase is Phase.DEALING:
                posted = {s.seat: s.bet for s in before.seats if s.bet}
            if snap.phase is Phase.DEALING and posted:
                # From the post to the first action: each post is in front of its seat.
                shown = {s.seat: s.bet for s in snap.seats if s.blind in ("SB", "BB")}
                lost = {s: c for s, c in posted.items() if s in shown and shown[s] < c}
                if lost:
                    failures.append(f"{where}: posted {lost} no longer on the felt ({shown})")
            if snap.phase is not Phase.DEALING:
                posted = {}
    assert moments > 5000
    assert not failures, f"{len(failures)} moments differ; the first 20:\n" + "\n".join(
        failures[:20]
    )


def test_a_result_on_show_keeps_its_own_hands_button_and_blinds() -> None:
    """Between the push and the next hand's posts the seats show the hand just ended: its
    button and blinds, never the next hand's (the next hand's are in NEXT)."""
    checked = 0
    for name, session in sessions():
        table = Table()
        for line in session.lines:
            table.feed(line.event, seq=line.line, at=line.t)
            snap = table.snapshot()
            view = dealer_view(snap)
            if view.middle is not Middle.RESULT or snap.phase is not Phase.ENDED:
                continue
            checked += 1
            own = next((s.seat for s in snap.seats if s.button), None)
            shown = next((s.seat for s in view.seats if s.button), None)
            assert shown == own, f"{name}:{line.line}: puck on {shown}, the hand's button {own}"
            assert {s.seat: s.blind for s in view.seats} == {s.seat: s.blind for s in snap.seats}
    assert checked > 100
