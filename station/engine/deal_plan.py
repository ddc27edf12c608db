"""The deal plan: the slots, in order, that the coming draws are expected to fill. Pure.

The shoe cannot see where a card goes, so every draw takes the role of the next expected slot
(catalog §1, "deal sequence model"): hole card for seat N, burn, board, stud up/down card, draw
replacement. This module lays out those slots for the starting hands and for each street, and
edits them when a deal error owes a seat a card or turns a card up or down; `deal_sequence` gives
the drawn cards their roles and `draw_round` queues the draws of draw games.
"""

from __future__ import annotations

from station.engine import stud
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.hand_state import Slot
from station.engine.recovery import Expect
from station.engine.snapshot import Phase


def plan_initial_deal(hand: Hand) -> None:
    """The starting hands: one card at a time to every seat in deal order (stud: the game's
    down and up cards). A bomb pot's flop follows on every board, with no burn and no betting
    before it (004-GN §VIII "5 Card Double Board Bomb Pot PLO" a)."""
    spec = hand.spec
    if spec.family is Family.STUD:
        for k, up in enumerate(spec.stud_start):
            for s in hand.dealt:
                hand.deal.slots.append(Slot(DealSlot.UP if up else DealSlot.DOWN, s, 0, up, k))
        return
    for k in range(spec.hole_for(len(hand.dealt))):
        for s in hand.dealt:
            hand.deal.slots.append(Slot(DealSlot.HOLE, s, 0, False, k))
    if spec.bomb:
        for b in range(spec.boards):
            for _ in range(spec.board[0]):
                hand.deal.slots.append(Slot(DealSlot.BOARD, None, 0, True, 0, b))


def plan_street(hand: Hand, street: int) -> None:
    """Expected draws for the cards of betting round `street` (> 0)."""
    hand.deal.street_log = []
    rec = hand.repair.recovery
    step = rec.current if rec is not None else None
    burn = not hand.repair.skip_next_burn and not (step is not None and step.no_burn)
    hand.repair.skip_next_burn = False
    if rec is not None and step is not None and step.expect is Expect.ELIMINATE:
        for _ in range(rec.eliminate):
            hand.deal.slots.append(Slot(DealSlot.ELIMINATED, None, street))
    spec = hand.spec
    if spec.family is Family.FLOP:
        if street == 1 and not spec.flop_burn:
            burn = False  # Ultimate Big O: no burn card for the flop
        if burn:
            hand.deal.slots.append(Slot(DealSlot.BURN, None, street))
        for _ in range(hand.repair.extra_burns):  # BURN-ERROR-ANY-STREET
            hand.deal.slots.append(Slot(DealSlot.BURN, None, street))
        hand.repair.extra_burns = 0
        # Double board: the second board's cards follow, without a burn (004-GN §VIII "Double
        # Board Omaha": "no burn will be used for the second board").
        for b in range(spec.boards):
            for _ in range(spec.street_cards(street)):
                hand.deal.slots.append(Slot(DealSlot.BOARD, None, street, True, 0, b))
    elif spec.family is Family.STUD:
        burn, seats, common = stud.street_plan(hand, street, burn)
        if burn:
            hand.deal.slots.append(Slot(DealSlot.BURN, None, street))
        if common:  # STUD-CARD-SHORTAGE: one common card in the centre
            hand.deal.slots.append(Slot(DealSlot.BOARD, None, street, True))
        for s in seats:
            up = stud.card_up(hand, s, street)
            hand.deal.slots.append(Slot(DealSlot.UP if up else DealSlot.DOWN, s, street, up))


def street_prompt(hand: Hand, street: int) -> str:
    """What the dealer is asked to deal for `street`, from the slots planned for it."""
    roles = [slot.role for slot in hand.deal.slots]
    burn = DealSlot.BURN in roles
    if DealSlot.ELIMINATED in roles:
        n = roles.count(DealSlot.ELIMINATED)
        return f"ELIMINATE {n} CARDS, THEN BURN & DEAL {hand.street_name(street).upper()}"
    what = hand.street_name(street).upper()
    if hand.spec.family is Family.FLOP and hand.spec.boards > 1:
        what = f"{what} ON BOTH BOARDS"
    said = f"BURN & {what}" if burn else f"{what} (NO BURN)"
    ghosts = sorted(s for s in hand.stud.ghosts if any(slot.seat == s for slot in hand.deal.slots))
    if ghosts:
        # DEAL-STUD-ORDER: a hand folded with no wager still gets its cards until a bet kills
        # it (001-RR11 §8 r9, 004-GN r220, 000-USPA 3.2.3.5.7); a dealer's habit skips it.
        who = " AND ".join(f"SEAT {s}" for s in ghosts)
        said += f": {who} FOLDED WITH NO BET AND STILL GETS A CARD"
    return said


def owe_after_round(hand: Hand, slot: Slot) -> None:
    """DECK-BOXED-LATE: the seat gets its card after the current round of dealing."""
    i = 0
    while (
        i < len(hand.deal.slots)
        and hand.deal.slots[i].k <= slot.k
        and hand.deal.slots[i].street == 0
    ):
        i += 1
    hand.deal.slots.insert(i, Slot(DealSlot.REPLACEMENT, slot.seat, slot.street, slot.up, slot.k))


def owe_after_deal(hand: Hand, seat: int) -> None:
    """The seat gets a replacement card once the starting hands are dealt."""
    hand.deal.slots.append(Slot(DealSlot.REPLACEMENT, seat, 0, False, 99))
    if hand.phase is Phase.BETTING and hand.street == 0:
        hand.phase = Phase.DEALING  # the replacement is due before the betting goes on


def third_card_down(hand: Hand, seat: int) -> None:
    """EXPOSE-STUD-DOWNCARD-INITIAL: the seat's third-street up-card is dealt down."""
    for slot in hand.deal.slots:
        if slot.seat == seat and slot.street == 0 and slot.role is DealSlot.UP:
            slot.role, slot.up = DealSlot.DOWN, False
            return


def seventh_up(hand: Hand) -> None:
    """004-GN r228: the remaining seventh-street cards are dealt face up."""
    for slot in hand.deal.slots:
        if slot.street == 4 and slot.role is DealSlot.DOWN:
            slot.role, slot.up = DealSlot.UP, True


# --- the cards drawn into the slots ------------------------------------------------------------


def place(hand: Hand, slot: Slot, card: Card | None, seq: int) -> None:
    """Give a drawn card its role."""
    hand.alerts.progress += 1
    code = card.code if card is not None else "??"
    if card is not None:
        match slot.role:
            case DealSlot.BURN:
                hand.deal.burns.append(card)
            case DealSlot.BOARD:
                (hand.deal.board2 if slot.board else hand.deal.board).append(card)
            case DealSlot.HOLE | DealSlot.DOWN | DealSlot.UP | DealSlot.DRAW | DealSlot.REPLACEMENT:
                if slot.seat is not None:
                    hand.deal.cards[slot.seat].append((card, slot.up))
            case _:
                pass
    hand.out.append(DrawRole(hand.number, seq, code, slot.role, slot.seat, slot.street, slot.board))
    if slot.street > 0:
        hand.deal.street_log.append((card, slot.role, seq))


def street_draws(hand: Hand) -> list[tuple[Card | None, DealSlot, int]]:
    """(card, role, seq) of the draws placed for the current street's cards."""
    return [x for x in hand.deal.street_log if x[1] is not DealSlot.ELIMINATED]


def relabel_burn_as_board(hand: Hand, seq: int) -> None:
    """BURN-ERROR-ANY-STREET: the card taken as the burn was turned up and stands."""
    for card, role, s in hand.deal.street_log:
        if s == seq and role is DealSlot.BURN and card is not None:
            hand.deal.burns.remove(card)
            hand.deal.board.append(card)
            hand.out.append(
                DrawRole(hand.number, seq, card.code, DealSlot.BOARD, None, hand.street)
            )
