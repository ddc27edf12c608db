"""The deal sequence: each card out of the shoe takes the role of the next expected slot. Pure.

A draw when no slot is expected is an irregularity (a premature card while betting is open, a
rabbit hunt after the hand); so are a re-read tag, a foreign back, a duplicate and a joker not in
use. When the last expected card of a step is out the hand moves on: the first betting round
after the starting hands, the betting of a street, or the next draw cards of a draw round.
The slots themselves are planned, and a drawn card placed, in `deal_plan`.
"""

from __future__ import annotations

from typing import assert_never

from station.engine import (
    deal_errors,
    deal_plan,
    discard_round,
    draw_round,
    irregular,
    rounds,
    stub,
    stud,
)
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, Steps, then


def on_draw(
    hand: Hand, card: Card | None, tag: str | None, face_up: bool, back_ok: bool, seq: int
) -> Steps:
    """A card left the shoe. `card` is None for a tag no deck knows."""
    if hand.result is not None:
        irregular.after_hand(hand, card, seq, back_ok=back_ok)
        return NOTHING
    deal = hand.deal
    if tag is not None and tag in deal.tags:
        return NOTHING  # the same tag read again: a sensor re-read, not a second card
    if not back_ok:
        irregular.foreign_back(hand, card, seq)
        return NOTHING
    if card is not None:
        if card in deal.seen:
            irregular.duplicate(hand, card, seq)
            return NOTHING
        deal.seen[card] = seq
    if tag is not None:
        deal.tags[tag] = seq
        if card is not None:
            deal.card_tags[card] = tag
    if (
        card is not None
        and (card.rank < 6 or hand.spec.no_ranks)
        and not stub.in_the_deck(hand, card)
    ):
        irregular.joker_not_in_use(hand, card, seq)
        return NOTHING
    if hand.repair.awaiting_reshuffle:
        irregular.wrong_recovery(hand, card, seq)
        return NOTHING
    faults = hand.faults
    faults.burn_up = None  # BOXED for a face-up burn comes before the next card
    if faults.faceup is not None and (
        face_up or hand.phase is not Phase.DEALING or deal_errors.must_settle_at_next_card(hand)
    ):
        # During the deal the dealer may still answer BOXED after the next card
        # (DECK-BOXED-LATE); another face-up card or a later street settles the question.
        deal_errors.settle_face_up(hand, seq)
    first = deal.last_draw_seq == 0
    deal.last_draw_seq = seq
    if first and deal.puck is not None and deal_errors.button_check(hand, seq):
        hand.out.append(DrawRole(hand.number, seq, card.code if card else "??", DealSlot.STRAY))
        return NOTHING
    slots = deal.slots
    if hand.phase is Phase.MISDEAL or hand.result is not None or not slots:
        irregular.unexpected_draw(hand, card, face_up, seq)
        return NOTHING
    if hand.discard.due and hand.phase is Phase.STREET:
        discard_round.missed(hand, seq)  # the next street's first card: no discard, dead hand
        slots = deal.slots  # the dead hands' cards are no longer expected
        if hand.result is not None or not slots:
            return NOTHING
    slot = slots[0]
    if face_up and deal_errors.face_up(hand, slot, card, seq):
        return NOTHING
    slots.popleft()
    deal_plan.place(hand, slot, card, seq)
    holder = faults.holder
    if holder is not None and slot.role is DealSlot.REPLACEMENT and slot.seat == holder[0]:
        faults.holder = None  # the irregular card is replaced before he acted
    if slot.street == 0 and slot.role in _STARTING:
        deal.deal_draws.append(seq)
    if not slots:
        steps = _slots_done(hand, seq)
        if hand.show.runs < 2:
            return steps  # no run-it-more-than-once to count the stub for
        return then(steps, lambda: _rit_check(hand, seq))
    if hand.show.runs > 1:
        stub.rit_check(hand, seq)
    return NOTHING


_STARTING = frozenset({DealSlot.HOLE, DealSlot.DOWN, DealSlot.UP})


def _rit_check(hand: Hand, seq: int) -> Steps:
    stub.rit_check(hand, seq)
    return NOTHING


def _slots_done(hand: Hand, seq: int) -> Steps:
    """Every expected card of the current step has been drawn: the betting of the starting
    hands or of a street opens, or the next cards of the draw are queued."""
    match hand.phase:
        case Phase.DEALING:
            deal_errors.settle_face_up(hand, seq)
            if hand.phase is not Phase.DEALING or hand.deal.slots:
                return NOTHING  # the answer misdealt the hand or owes a replacement card first
            hand.phase = Phase.BETTING
            if hand.bets.round is not None:
                return NOTHING  # a replacement card came in before the betting went on
            hand.street = 0
            return rounds.open_round(hand, seq)
        case Phase.DRAWING:
            return draw_round.plan_draws(hand, seq)
        case Phase.STREET:
            if hand.spec.family is Family.STUD and stud.street_paused(hand, seq):
                return NOTHING  # STUD-CARD-SHORTAGE: the rest of the street after a scramble
            irregular.street_cards_done(hand)
            return rounds.open_round(hand, seq)
        case (
            Phase.BETTING
            | Phase.SHOWDOWN
            | Phase.ENDED
            | Phase.MISDEAL
            | Phase.IDLE
            | Phase.BETWEEN
        ):
            return NOTHING  # a card owed to a seat while the betting goes on (a short deal)
        case _:
            assert_never(hand.phase)
