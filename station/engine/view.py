"""Builds the frozen `TableSnapshot` from the live table. Pure.

Only public information crosses: stacks, bets, pots, the board, stud up-cards, whose turn it is
and what he may do. Face-down cards appear as a count.
"""

from __future__ import annotations

from station.engine import lineup, tournament
from station.engine.decisions import PromptCode
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.hand_cycle import refunds
from station.engine.positions import button_layout
from station.engine.pots import build_pots
from station.engine.snapshot import (
    NextHandView,
    Phase,
    PostDue,
    PostKind,
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


def _drew(hand: Hand) -> dict[int, int]:
    """DRAW-QUERY (001-RR11 §11 r13): how many cards each seat drew, while the dealer must tell:
    during the draw round and until there is action after it."""
    if hand.result is not None or not hand.draws.requests:
        return {}
    if hand.phase is Phase.DRAWING:
        return dict(hand.draws.requests)
    rnd = hand.bets.round
    if hand.phase is Phase.BETTING and rnd is not None and rnd.last_actor is None:
        return dict(hand.draws.requests)
    return {}


def _pots(hand: Hand) -> tuple[PotView, ...]:
    pots = build_pots(
        {s: c for s, c in hand.chips.committed.items() if c},
        hand.in_hand(),
        sum(hand.chips.dead.values()) + hand.terms.carry,
    )
    return tuple(
        PotView("Main" if i == 0 else f"Side {i}", p.amount, p.eligible) for i, p in enumerate(pots)
    )


def _next_step(t: TableState, hand: Hand, to_act: int | None) -> str:
    if hand.alerts.stop_text:
        return hand.alerts.stop_text
    said = t.screen.prompt(t.hand)
    if said is not None and said.code is PromptCode.DEAL and hand.deal.deal_draws:
        slots = hand.deal.slots
        slot = slots[0] if hand.phase is Phase.DEALING and slots else None
        if slot is not None and slot.seat is not None:  # "FIRST CARD TO SEAT 1" is past
            return f"DEAL: NEXT CARD TO SEAT {slot.seat}"
    if hand.discard.due and hand.phase is Phase.STREET:
        # Pineapple, Super Stud: who still owes his discard before the next card.
        due = " ".join(map(str, sorted(hand.discard.due)))
        n = hand.spec.discard
        return f"DISCARD {n}: SEAT{'S' if len(hand.discard.due) > 1 else ''} {due}"
    if said is not None:
        return said.text
    if hand.phase is Phase.BETTING and to_act is not None:
        return f"ACTION: SEAT {to_act}"
    if hand.result is not None and t.lineup.posts_prompt:
        return t.lineup.posts_prompt
    return hand.alerts.last_prompt


def _waiting(t: TableState) -> tuple[int, ...]:
    """Seated players with chips, not in the hand, who wait to come in with the big blind (a
    new player, a player back from missing the blinds, one who changed seats)."""
    hand, ln = t.hand, t.lineup
    return tuple(
        sorted(
            s
            for s in t.occupied
            if (s in ln.newcomers or ln.missed.get(s) or ln.seat_wait.get(s))
            and t.stacks.get(s, None) != 0
            and (hand is None or hand.result is not None or s not in hand.seats)
        )
    )


def _next_hand(t: TableState) -> NextHandView | None:
    """Who the next hand would deal in now, the button and blinds, and who still waits."""
    setup, spec = t.setup, t.spec
    if setup is None or spec is None:
        return None
    dealt = lineup.dealt_in(t, commit=False)
    st = setup.stakes
    posts: list[PostDue] = []
    button: int | None = None
    if spec.family is not Family.STUD and len(dealt) >= 2 and not lineup.button_draw_due(t):
        button, blinds = lineup.positions(t, dealt)
        if button is not None:
            layout = button_layout(dealt, button, blinds)
            button = layout.button
            for kind, seat, amount in (
                (PostKind.SB, layout.small_blind, st.sb),
                (PostKind.BB, layout.big_blind, st.bb),
            ):
                if seat is not None and amount:
                    posts.append(PostDue(seat, kind, amount, t.posting.posted.get(seat, 0)))
    if st.ante:
        posts.extend(PostDue(s, PostKind.ANTE, st.ante, t.posting.antes.get(s, 0)) for s in dealt)
    owed = {
        seat: (st.bb or 0) + (st.sb or 0 if "sb" in kinds else 0)
        for seat, kinds in t.lineup.missed.items()
        if kinds
    }
    waiting = sorted(s for s in t.occupied if s not in dealt and t.stacks.get(s, None) != 0)
    return NextHandView(
        button=button,
        dealt=tuple(dealt),
        posts=tuple(sorted(posts, key=lambda p: (p.seat, p.kind.value))),
        missed=tuple(sorted(owed.items())),
        waiting=tuple(waiting),
    )


def table_snapshot(t: TableState) -> TableSnapshot:
    if t.setup is None:
        return TableSnapshot.empty()
    hand = t.hand
    seat_numbers = sorted(set(t.stacks) | t.occupied | (set(hand.seats) if hand else set()))
    if hand is None:
        said = t.screen.prompt(t.hand)
        upcoming = _next_hand(t)
        # The marker is where the next hand's button will be: a seat left since the setup
        # named it passes it on (moving button), as the posting prompt says.
        marker = t.button
        if marker is not None and upcoming is not None and upcoming.button is not None:
            marker = upcoming.button
        seats = tuple(
            SeatView(
                seat=s,
                status=SeatStatus.OUT if s in t.occupied else SeatStatus.EMPTY,
                stack=_behind(t.stacks.get(s), _put_out(t, s)),
                bet=t.posting.posted.get(s, 0),
                cards=0,
                button=s == marker,
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
            pots=_antes_in(t),
            to_act=None,
            to_call=0,
            min_raise_to=None,
            max_raise_to=None,
            next_step=said.text if said is not None else t.lineup.posts_prompt or "NEW HAND",
            button=marker,
            floor_call=t.floor_call,
            carry=t.forfeit.carry,
            chip_race=t.race.new_chip if t.race is not None else None,
            alerts=t.screen.open_alerts(),
            prompt=said,
            # A new setup put the hand away with its seats: its result goes with it (the seats
            # on show are the new setup's, and a result's markers must be its own hand's).
            result=None,
            next_hand=upcoming,
            waiting=_waiting(t),
            tournament=tournament.view(t),
        )
    rnd = hand.bets.round if hand.phase is Phase.BETTING else None
    to_act = rnd.to_act() if rnd is not None else None
    blinds = _blind_labels(hand)
    drew = _drew(hand)
    # The forced bets are on the felt from the post to the push: until the first betting round
    # books them (during the deal, a misdeal before it), they are the seat's bet in front.
    unbooked = {} if hand.chips.posts_booked or hand.result is not None else hand.chips.posts
    views = []
    for s in seat_numbers:
        seat = hand.seats.get(s)
        if seat is None:
            status = SeatStatus.OUT if s in t.occupied else SeatStatus.EMPTY
            front = t.posting.posted.get(s, 0) if hand.result is not None else 0
            behind = _behind(t.stacks.get(s), _put_out(t, s) if hand.result is not None else 0)
            views.append(SeatView(s, status, behind, front, 0, button=s == hand.button))
            continue
        if seat.folded:
            status = SeatStatus.FOLDED
        elif seat.allin:
            status = SeatStatus.ALLIN
        else:
            status = SeatStatus.ACTIVE
        cards = hand.deal.cards.get(s, [])
        up = tuple(c.code for c, is_up in cards if is_up) if hand.spec.family is Family.STUD else ()
        held = len(cards) - hand.discard.unknown.get(s, 0)  # a discard not named is gone too
        views.append(
            SeatView(
                seat=s,
                status=status,
                # Once the pot is pushed the table's stacks hold the payouts (and any ruling
                # since); the hand's seats still hold what was behind during the play.
                # Once it is pushed, what is in front is a post for the next hand.
                stack=_behind(seat.stack, unbooked.get(s, 0))
                if hand.result is None
                else _behind(t.stacks.get(s), _put_out(t, s)),
                bet=seat.bet
                if rnd is not None and s in rnd
                else unbooked.get(s, 0)
                if hand.result is None
                else t.posting.posted.get(s, 0),
                cards=held,
                up=up,
                button=s == hand.button,
                blind=blinds.get(s, ""),
                to_act=s == to_act,
                drew=drew.get(s),
            )
        )
    rng = rnd.raise_range(to_act) if rnd is not None and to_act is not None else None
    to_call = rnd.to_call(to_act) if rnd is not None and to_act is not None else 0
    if to_act is not None and hand.bring_in_pending() and to_act == hand.stud.bring_in_seat:
        to_call = hand.terms.stakes.bring_in or to_call  # STUD-BRINGIN: the forced bet is owed
    rec = hand.repair.recovery if hand.result is None else None  # a hand over has no recovery
    recovery = RecoveryView(rec.rule.value, rec.texts(), rec.at) if rec is not None else None
    return TableSnapshot(
        hand=t.hand_number(),
        game=hand.spec.name,
        profile=hand.profile.name,
        phase=hand.phase,
        street=hand.street_name(),
        seats=tuple(views),
        board=tuple(c.code for c in hand.deal.board),
        board2=tuple(c.code for c in hand.deal.board2),
        pots=_pots(hand),
        to_act=to_act,
        to_call=to_call,
        min_raise_to=rng[0] if rng else None,
        max_raise_to=rng[1] if rng else None,
        next_step=_next_step(t, hand, to_act),
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
        alerts=t.screen.open_alerts(),
        prompt=t.screen.prompt(t.hand),
        result=t.screen.last_result(),
        next_hand=_next_hand(t) if hand.result is not None else None,
        waiting=_waiting(t),
        tournament=tournament.view(t),
    )


def _put_out(t: TableState, seat: int) -> int:
    """Between hands: what a seat has put out for the next hand (posts in front, antes in)."""
    return t.posting.posted.get(seat, 0) + t.posting.antes.get(seat, 0)


def _antes_in(t: TableState) -> tuple[PotView, ...]:
    """Between hands: the antes already taken in are the next hand's pot."""
    antes = {s: c for s, c in t.posting.antes.items() if c}
    if not antes:
        return ()
    return (PotView("Main", sum(antes.values()), tuple(sorted(antes))),)


def _behind(stack: int | None, in_front: int) -> int | None:
    """Chips behind a seat: its stack less what it has put out in front (never below 0)."""
    return None if stack is None else max(0, stack - in_front)


def _drop(t: TableState, hand: Hand) -> int:
    """The rake still to be dropped for the hand just ended (DROP n)."""
    rake = hand.result.rake if hand.result is not None else None
    if rake is None or (t.drop.sensor and t.drop.due is None):
        return 0  # no rake, or the rake zone's drop has been checked
    return rake.total
