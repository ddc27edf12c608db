"""The deal sequence: each card out of the shoe takes the role of the next expected slot. Pure.

A draw when no slot is expected is an irregularity (a premature card while betting is open, a
rabbit hunt after the hand); so are a re-read tag, a foreign back, a duplicate and a joker not in
use. When the last expected card of a step is out the hand moves on: the first betting round
after the starting hands, the betting of a street, or the next draw cards of a draw round.
The slots themselves are planned in `deal_plan`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from station.engine import deal_errors, deal_plan, draw_round, irregular, stub, stud
from station.engine.cards import Card
from station.engine.decisions import DrawRole, PromptCode, Role
from station.engine.games import Family
from station.engine.hand_state import Slot
from station.engine.snapshot import Phase

if TYPE_CHECKING:
    from station.engine.hand import Hand


def on_draw(
    hand: Hand, card: Card | None, tag: str | None, face_up: bool, back_ok: bool, seq: int
) -> None:
    """A card left the shoe. `card` is None for a tag no deck knows."""
    if hand.result is not None:
        irregular.after_hand(hand, card, seq, back_ok=back_ok)
        return
    if tag is not None and tag in hand.deal.tags:
        return  # the same tag read again: a sensor re-read, not a second card
    if not back_ok:
        irregular.foreign_back(hand, card, seq)
        return
    if card is not None and card in hand.deal.seen:
        irregular.duplicate(hand, card, seq)
        return
    if card is not None:
        hand.deal.seen[card] = seq
    if tag is not None:
        hand.deal.tags[tag] = seq
        if card is not None:
            hand.deal.card_tags[card] = tag
    if card is not None and _not_in_the_deck(hand, card):
        irregular.joker_not_in_use(hand, card, seq)
        return
    if hand.repair.awaiting_reshuffle:
        irregular.wrong_recovery(hand, card, seq)
        return
    if face_up or hand.phase is not Phase.DEALING or deal_errors.must_settle_at_next_card(hand):
        # During the deal the dealer may still answer BOXED after the next card
        # (DECK-BOXED-LATE); another face-up card or a later street settles the question.
        deal_errors.settle_face_up(hand, seq)
    first = hand.deal.last_draw_seq == 0
    hand.deal.last_draw_seq = seq
    if first and deal_errors.button_check(hand, seq):
        hand.out.append(DrawRole(hand.number, seq, card.code if card else "??", Role.STRAY))
        return
    if hand.phase is Phase.MISDEAL or hand.result is not None:
        irregular.unexpected_draw(hand, card, face_up, seq)
        return
    if not hand.deal.slots:
        irregular.unexpected_draw(hand, card, face_up, seq)
        return
    slot = hand.deal.slots[0]
    if face_up and deal_errors.face_up(hand, slot, card, seq):
        return
    hand.deal.slots.popleft()
    place(hand, slot, card, seq)
    holder = hand.faults.holder
    if holder is not None and slot.role is Role.REPLACEMENT and slot.seat == holder[0]:
        hand.faults.holder = None  # the irregular card is replaced before he acted
    if slot.street == 0 and slot.role in (Role.HOLE, Role.DOWN, Role.UP):
        hand.deal.deal_draws.append(seq)
    if not hand.deal.slots:
        _slots_done(hand, seq)
    stub.rit_check(hand, seq)


def _joker_in_use(hand: Hand) -> bool:
    return hand.spec.joker and hand.profile.joker_in_use_a5


def _not_in_the_deck(hand: Hand, card: Card) -> bool:
    """A joker in a game not using one, or a card a short deck does not hold (deuces to fives,
    004-GN r359): scrap paper (DECK-JOKER-NOT-IN-USE, 001-RR11 §3 r8-r9)."""
    if card.is_joker:
        return not _joker_in_use(hand)
    return hand.spec.short_deck and card.rank < 6


def place(hand: Hand, slot: Slot, card: Card | None, seq: int) -> None:
    """Give a drawn card its role."""
    hand.alerts.progress += 1
    code = card.code if card is not None else "??"
    if card is not None:
        match slot.role:
            case Role.BURN:
                hand.deal.burns.append(card)
            case Role.BOARD:
                hand.deal.board.append(card)
            case Role.HOLE | Role.DOWN | Role.UP | Role.DRAW | Role.REPLACEMENT:
                if slot.seat is not None:
                    hand.deal.cards[slot.seat].append((card, slot.up))
            case _:
                pass
    hand.out.append(DrawRole(hand.number, seq, code, slot.role, slot.seat, slot.street))
    if slot.street > 0:
        hand.deal.street_log.append((card, slot.role, seq))


def _slots_done(hand: Hand, seq: int) -> None:
    """Every expected card of the current step has been drawn."""
    if hand.phase is Phase.DEALING:
        deal_errors.settle_face_up(hand, seq)
        if hand.phase is not Phase.DEALING or hand.deal.slots:
            return  # the answer misdealt the hand or owes a replacement card first
        hand.phase = Phase.BETTING
        if hand.bets.round is not None:
            return  # a replacement card came in before the betting went on
        hand.street = 0
        hand.open_round(seq)
    elif hand.phase is Phase.DRAWING:
        draw_round.plan_draws(hand, seq)
    elif hand.phase is Phase.STREET:
        if hand.spec.family is Family.STUD and stud.street_paused(hand, seq):
            return  # STUD-CARD-SHORTAGE: the rest of the street comes after a scramble
        irregular.street_cards_done(hand)
        hand.open_round(seq)


def street_draws(hand: Hand) -> list[tuple[Card | None, Role, int]]:
    """(card, role, seq) of the draws placed for the current street's cards."""
    return [x for x in hand.deal.street_log if x[1] is not Role.ELIMINATED]


def relabel_burn_as_board(hand: Hand, seq: int) -> None:
    """BURN-ERROR-ANY-STREET: the card taken as the burn was turned up and stands."""
    for card, role, s in hand.deal.street_log:
        if s == seq and role is Role.BURN and card is not None:
            hand.deal.burns.remove(card)
            hand.deal.board.append(card)
            hand.out.append(DrawRole(hand.number, seq, card.code, Role.BOARD, None, hand.street))


def open_short_deal(hand: Hand, seq: int) -> None:
    """MISDEAL-WRONG-CARD-COUNT: action began with the last starting card still due. The
    first betting round opens; the card keeps its slot and goes to its seat when drawn."""
    hand.street = 0
    hand.open_round(seq)


def street_dealt(hand: Hand, seq: int) -> None:
    """The street's cards are out (after a correction): open its betting round."""
    hand.deal.slots.clear()
    irregular.street_cards_done(hand)
    hand.open_round(seq)


def deal_street(hand: Hand, seq: int) -> None:
    """The betting closed and another street is due: plan its cards (a draw round in draw
    games) and tell the dealer."""
    if hand.spec.family is Family.DRAW:
        draw_round.open_draw(hand, seq)
        return
    hand.phase = Phase.STREET
    deal_plan.plan_street(hand, hand.street)
    hand.prompt(seq, deal_plan.street_prompt(hand, hand.street), PromptCode.BURN_AND_DEAL)


def resume_after_reshuffle(hand: Hand, seq: int) -> None:
    """STUB_RESHUFFLE done: deal the street the recovery was holding back (or go on with the
    cards already expected: a stub that ran out in the middle of a street or a draw)."""
    if hand.repair.awaiting_reshuffle:
        hand.repair.awaiting_reshuffle = False
        if hand.phase is Phase.DRAWING:
            draw_round.plan_draws(hand, seq)
        elif not hand.deal.slots:
            deal_street(hand, seq)
