"""The dealer screen is true at every moment: over every input of every rule scenario and every
hand of the PHH sample, what the dealer view shows (each seat's stack, bet, state, the button
and blind markers, every pot, the board) is the engine's snapshot of that same moment; while a
hand's result is on show every marker is that hand's own; and posted blinds stay on the felt
from the post to the push (the chips a seat has out never vanish between NEW_HAND and the
first action)."""

from __future__ import annotations

import pytest

from station.display.dealer_view import DASH, DealerView, Middle, dealer_view
from station.engine.snapshot import Phase, TableSnapshot
from station.engine.table import Table
from station.formats.session import Session, parse_session
from tests.corpus.corpus import read_part
from tests.display.engine_texts import sessions
from tests.fuzz.budget import SCALE


def _checked(snap: TableSnapshot, view: DealerView, where: str) -> list[str]:
    out: list[str] = []
    result_up = view.middle is Middle.RESULT
    paid = dict(view.result.payouts) if view.result is not None and result_up else {}
    between = (
        snap.next_hand if not result_up and snap.phase in (Phase.BETWEEN, Phase.ENDED) else None
    )
    for seat, label in zip(snap.seats, view.seats, strict=True):
        # From the post to the push a seat's stack is what is behind the chips in front of it:
        # a winner's payout is drawn in front of him while the result is up, so his stack is the
        # engine's (which already counts it) less that payout.
        behind = None if seat.stack is None else seat.stack - paid.get(seat.seat, 0)
        stack = "" if label.state.value == "empty" else (DASH if behind is None else str(behind))
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


def _session_truth(name: str, session: Session) -> tuple[int, int, list[str]]:
    """Every moment of one session: (how many, how many with a result on show, what differs).
    Between the push and the next hand's posts the seats show the hand just ended: its button
    and blinds, never the next hand's (those are in NEXT)."""
    failures: list[str] = []
    moments = results = 0
    table = Table()
    posted: dict[int, int] = {}
    # (a post the hand refused, a straddle not allowed, goes back: it is not a blind of the hand)
    snap = table.snapshot()
    for line in session.lines:
        before = snap  # (the table does not change between two inputs)
        table.feed(line.event, seq=line.line, at=line.t)
        snap = table.snapshot()
        view = dealer_view(snap)
        moments += 1
        where = f"{name}:{line.line}"
        failures += _checked(snap, view, where)
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
        if snap.phase is Phase.ENDED and view.middle is Middle.RESULT:
            results += 1
            failures += _own_markers(snap, view, where)
    return moments, results, failures


def _own_markers(snap: TableSnapshot, view: DealerView, where: str) -> list[str]:
    """While a hand's result is on show, the puck and the blinds on the seats are its own."""
    own = next((s.seat for s in snap.seats if s.button), None)
    shown = next((s.seat for s in view.seats if s.button), None)
    out = [f"{where}: puck on {shown}, the hand's button {own}"] if shown != own else []
    if {s.seat: s.blind for s in view.seats} != {s.seat: s.blind for s in snap.seats}:
        out.append(f"{where}: the blinds shown are not the hand's own")
    return out


def _report(failures: list[str]) -> str:
    return f"{len(failures)} moments differ; the first 20:\n" + "\n".join(failures[:20])


# The sessions are those the every-engine-text tests replay: one worker (the xdist group)
# reads and converts them once.
@pytest.mark.xdist_group("engine_texts")
@pytest.mark.timeout(600)  # every input of every session: minutes on a loaded machine
def test_the_dealer_view_is_the_snapshot_of_every_moment() -> None:
    """Every input of every rule scenario and every PHH sample hand."""
    failures: list[str] = []
    moments = results = 0
    for name, session in sessions():
        n, r, found = _session_truth(name, session)
        moments, results = moments + n, results + r
        failures += found
    assert moments > 5000 and results > 100, (moments, results)
    assert not failures, _report(failures)


# The replay corpus's real hands with a dealer's mistakes in them (tests/corpus): every tenth
# by default; FUZZ_SCALE=10 (or more) checks all of them.
EVERY = max(1, round(10 / max(1.0, SCALE)))


@pytest.mark.timeout(600)
def test_the_dealer_view_is_the_snapshot_of_every_moment_of_hands_with_mistakes() -> None:
    failures: list[str] = []
    moments = results = 0
    entries = read_part("mistakes")[::EVERY]
    for entry in entries:
        session = parse_session("\n".join(entry.inputs) + "\n", entry.name)
        n, r, found = _session_truth(entry.name, session)
        moments, results = moments + n, results + r
        failures += found
    assert len(entries) >= 60 and moments > 2000 and results > 30, (len(entries), moments, results)
    assert not failures, _report(failures)
