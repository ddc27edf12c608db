"""The dealer view checked against the engine's snapshot at every moment of a replayed session:
each seat's stack, bet, state, the button and blind markers, every pot, the board; while a
hand's result is on show every marker is that hand's own; posted blinds stay on the felt from
the post to the push. Used by the screen-truth tests (every session the every-engine-text test
replays is checked during that same replay: `engine_texts.replayed`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from station.display.dealer_view import DASH, DealerView, Middle, dealer_view
from station.engine.snapshot import Phase, TableSnapshot
from station.engine.table import Table
from station.formats.session import Session

# One input of a session: (its line, the table before it, the table after it).
Moment = Callable[[int, TableSnapshot, TableSnapshot], None]


@dataclass
class Truth:
    """What every moment checked so far came to: how many, how many with a result on show,
    what differs."""

    moments: int = 0
    results: int = 0
    failures: list[str] = field(default_factory=list)

    def session(self, name: str) -> Moment:
        """The check of each moment of the session `name`, in order. Between the push and the
        next hand's posts the seats show the hand just ended: its button and blinds, never the
        next hand's (those are in NEXT)."""
        posted: dict[int, int] = {}
        # (a post the hand refused, a straddle not allowed, goes back: not a blind of the hand)

        def moment(line: int, before: TableSnapshot, snap: TableSnapshot) -> None:
            nonlocal posted
            view = dealer_view(snap)
            self.moments += 1
            where = f"{name}:{line}"
            self.failures += _checked(snap, view, where)
            if before.phase is Phase.BETWEEN and snap.phase is Phase.DEALING:
                posted = {s.seat: s.bet for s in before.seats if s.bet}
            if snap.phase is Phase.DEALING and posted:
                # From the post to the first action: each post is in front of its seat.
                shown = {s.seat: s.bet for s in snap.seats if s.blind in ("SB", "BB")}
                lost = {s: c for s, c in posted.items() if s in shown and shown[s] < c}
                if lost:
                    self.failures.append(f"{where}: posted {lost} no longer on the felt ({shown})")
            if snap.phase is not Phase.DEALING:
                posted = {}
            if snap.phase is Phase.ENDED and view.middle is Middle.RESULT:
                self.results += 1
                self.failures += _own_markers(snap, view, where)

        return moment

    def replay(self, name: str, session: Session) -> None:
        """Every moment of `session`, replayed through the engine."""
        table = Table()
        moment = self.session(name)
        snap = table.snapshot()
        for line in session.lines:
            before = snap  # (the table does not change between two inputs)
            table.feed(line.event, seq=line.line, at=line.t)
            snap = table.snapshot()
            moment(line.line, before, snap)


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
        stack = "" if label.state == "empty" else (DASH if behind is None else str(behind))
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
    if len(view.board) != len(snap.board):
        board = ["".join(c) for c in view.board]
        out.append(f"{where}: board {board}, snapshot {snap.board}")
    return out


def _own_markers(snap: TableSnapshot, view: DealerView, where: str) -> list[str]:
    """While a hand's result is on show, the puck and the blinds on the seats are its own."""
    own = next((s.seat for s in snap.seats if s.button), None)
    shown = next((s.seat for s in view.seats if s.button), None)
    out = [f"{where}: puck on {shown}, the hand's button {own}"] if shown != own else []
    if {s.seat: s.blind for s in view.seats} != {s.seat: s.blind for s in snap.seats}:
        out.append(f"{where}: the blinds shown are not the hand's own")
    return out
