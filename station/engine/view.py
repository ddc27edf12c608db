"""Builds the frozen `TableSnapshot` from the live table. Pure.

Only public information crosses: stacks, bets, pots, the board, stud up-cards, whose turn it is
and what he may do. Face-down cards appear as a count.
"""

from __future__ import annotations

from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.hand_cycle import refunds
from station.engine.pots import build_pots
from station.engine.snapshot import (
    Phase,
    PotView,
    RecoveryView,
    SeatStatus,
    SeatView,
    StopView,
    TableSnapshot,
)
from station.engine.table_state import TableState


def _blind_labels(hand: Hand) -> dict[int, str]:
    labels: dict[int, str] = {}
    if hand.layout is not None:
        if hand.layout.small_blind in hand.chips.posts:
            labels[hand.layout.small_blind] = "SB"
        if hand.layout.big_blind in hand.chips.posts:
            labels[hand.layout.big_blind] = "BB"
    if hand.stud.bring_in_seat is not None:
        labels[hand.stud.bring_in_seat] = "BI"
    return labels


def _pots(hand: Hand) -> tuple[PotView, ...]:
    pots = build_pots(
        {s: c for s, c in hand.chips.committed.items() if c},
        hand.in_hand(),
        sum(hand.chips.dead.values()) + hand.terms.carry,
    )
    return tuple(
        PotView("Main" if i == 0 else f"Side {i}", p.amount, p.eligible) for i, p in enumerate(pots)
    )


def _next_step(hand: Hand, to_act: int | None) -> str:
    if hand.alerts.stop_text:
        return hand.alerts.stop_text
    if hand.phase is Phase.BETTING and to_act is not None:
        return f"ACTION: SEAT {to_act}"
    return hand.alerts.last_prompt


def table_snapshot(t: TableState) -> TableSnapshot:
    if t.setup is None:
        return TableSnapshot.empty()
    hand = t.hand
    seat_numbers = sorted(set(t.stacks) | t.occupied | (set(hand.seats) if hand else set()))
    if hand is None:
        seats = tuple(
            SeatView(
                seat=s,
                status=SeatStatus.OUT if s in t.occupied else SeatStatus.EMPTY,
                stack=t.stacks.get(s),
                bet=t.posting.posted.get(s, 0),
                cards=0,
                button=s == t.button,
            )
            for s in seat_numbers
        )
        return TableSnapshot(
            hand=t.hand_number(),
            game=t.setup.game,
            profile=t.setup.profile,
            phase=Phase.BETWEEN,
            street="",
            seats=seats,
            board=(),
            pots=(),
            to_act=None,
            to_call=0,
            min_raise_to=None,
            max_raise_to=None,
            next_step=t.lineup.posts_prompt or "NEW HAND",
            button=t.button,
            floor_call=t.floor_call,
            carry=t.forfeit.carry,
            chip_race=t.race.new_chip if t.race is not None else None,
        )
    rnd = hand.bets.round if hand.phase is Phase.BETTING else None
    to_act = rnd.to_act() if rnd is not None else None
    blinds = _blind_labels(hand)
    views = []
    for s in seat_numbers:
        seat = hand.seats.get(s)
        if seat is None:
            status = SeatStatus.OUT if s in t.occupied else SeatStatus.EMPTY
            views.append(SeatView(s, status, t.stacks.get(s), 0, 0, button=s == hand.button))
            continue
        if seat.folded:
            status = SeatStatus.FOLDED
        elif seat.allin:
            status = SeatStatus.ALLIN
        else:
            status = SeatStatus.ACTIVE
        cards = hand.deal.cards.get(s, [])
        up = tuple(c.code for c, is_up in cards if is_up) if hand.spec.family is Family.STUD else ()
        views.append(
            SeatView(
                seat=s,
                status=status,
                # Once the pot is pushed the table's stacks hold the payouts (and any ruling
                # since); the hand's seats still hold what was behind during the play.
                stack=seat.stack if hand.result is None else t.stacks.get(s),
                bet=seat.bet if rnd is not None and s in rnd else 0,
                cards=len(cards),
                up=up,
                button=s == hand.button,
                blind=blinds.get(s, ""),
                to_act=s == to_act,
            )
        )
    rng = rnd.raise_range(to_act) if rnd is not None and to_act is not None else None
    to_call = rnd.to_call(to_act) if rnd is not None and to_act is not None else 0
    if to_act is not None and hand.bring_in_pending() and to_act == hand.stud.bring_in_seat:
        to_call = hand.terms.stakes.bring_in or to_call  # STUD-BRINGIN: the forced bet is owed
    rec = hand.repair.recovery
    recovery = RecoveryView(rec.rule, rec.texts(), rec.at) if rec is not None else None
    return TableSnapshot(
        hand=t.hand_number(),
        game=hand.spec.name,
        profile=hand.profile.name,
        phase=hand.phase,
        street=hand.street_name(),
        seats=tuple(views),
        board=tuple(c.code for c in hand.deal.board),
        pots=_pots(hand),
        to_act=to_act,
        to_call=to_call,
        min_raise_to=rng[0] if rng else None,
        max_raise_to=rng[1] if rng else None,
        next_step=t.lineup.posts_prompt
        if hand.result is not None and t.lineup.posts_prompt
        else _next_step(hand, to_act),
        stop=StopView(hand.alerts.stop_text, hand.alerts.stop_seat)
        if hand.alerts.stop_text
        else None,
        recovery=recovery,
        incidents=tuple(hand.alerts.incidents),
        floor_call=t.floor_call or hand.alerts.floor_call,
        capped=rnd.capped if rnd is not None else False,
        button=hand.button,
        refunds=tuple(refunds(t).items()),
        carry=t.forfeit.carry,
        chip_race=t.race.new_chip if t.race is not None else None,
        drop=_drop(t, hand),
    )


def _drop(t: TableState, hand: Hand) -> int:
    """The rake still to be dropped for the hand just ended (DROP n)."""
    rake = hand.result.rake if hand.result is not None else None
    if rake is None or (t.drop.sensor and t.drop.due is None):
        return 0  # no rake, or the rake zone's drop has been checked
    return rake.total
