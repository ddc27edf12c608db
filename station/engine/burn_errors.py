"""Burn errors and too many board cards: the shoe counts the cards of every street. Pure.

Between two betting rounds a flop game draws burn + board cards (4 for the flop, 2 for the turn
and the river); a stud street draws a burn and one card per player. Two situations are
detectable from the counts alone:

- action starts while one card of the street is still due: the dealer did not burn
  (BURN-ERROR-FLOP, BURN-ERROR-ANY-STREET, BURN-ERROR-STUD);
- a card is drawn after the street is complete and before anyone acted on it: one card too many
  (FLOP-TOO-MANY-CARDS on the flop; a double burn on the turn, the river and stud streets).

The rulings follow the profile's `burn_error_rule` and `flop_extra_card` switches (Part B D15,
D16).
"""

from __future__ import annotations

from station.engine import deal_plan
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole, PromptCode, Ruling
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.profiles import BurnErrorRule, FlopExtraCard
from station.engine.recovery import Expect, Recovery, Step
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, Steps, StreetDealt


def _code(card: Card | None) -> str:
    return card.code if card is not None else "??"


def missing_burn(hand: Hand, seq: int) -> Steps | None:
    """Action arrived with exactly one card of the street still due. None when that is not a
    burn error; otherwise what follows it (the street's betting opens when the card stands)."""
    if len(hand.deal.slots) != 1 or hand.street == 0:
        return None
    street_cards = deal_plan.street_draws(hand)
    if not street_cards or street_cards[0][1] is not DealSlot.BURN:
        return None
    first_card, _, first_seq = street_cards[0]
    rec = hand.repair.recovery
    if rec is not None and rec.current is not None and rec.current.burn_optional:
        # The recovery accepts the street's card without a burn (GN premature turn, D13).
        deal_plan.relabel_burn_as_board(hand, first_seq)
        return (StreetDealt(seq),)
    rule = hand.profile.burn_error_rule
    if hand.spec.family is Family.STUD:
        seats = hand.in_hand()
        hand.incident(
            seq,
            Rule.BURN_ERROR_STUD,
            Ruling.REPLACE,
            f"NO BURN: {_code(first_card)} IS THE BURN. MOVE EACH UP-CARD BACK ONE SEAT; SEAT "
            f"{seats[-1]} GETS THE NEXT CARD",
            events=(first_seq, seq),
        )
        return NOTHING
    if rule is BurnErrorRule.FLOOR:
        rid = Rule.BURN_ERROR_FLOP if hand.street == 1 else Rule.BURN_ERROR_ANY_STREET
        hand.incident(
            seq,
            rid,
            Ruling.FLOOR,
            "NO BURN CARD WAS DEALT: CALL THE FLOOR",
            events=(first_seq, seq),
        )
        return NOTHING
    if rule is BurnErrorRule.HPT:
        # 003-HPT "Poker Dealer Errors": the card turned in error is shown and is the burn;
        # the next card is turned as usual.
        hand.incident(
            seq,
            Rule.BURN_ERROR_FLOP if hand.street == 1 else Rule.BURN_ERROR_ANY_STREET,
            Ruling.BURN,
            f"NO BURN: SHOW {_code(first_card)} TO ALL, IT IS THE BURN; TURN ONE MORE CARD",
            events=(first_seq, seq),
        )
        return NOTHING
    if hand.street == 1:
        # 001-RR11 §5 r4, 004-GN §VII r163: the flop cards were exposed, so the deck is
        # reshuffled. Every card turned was a flop card (there was no burn to leave on the
        # table): all go back, reshuffle, and a new flop is dealt without burning (§5 r7).
        exposed = [c for c, _, _ in street_cards if c is not None]
        for c in exposed:
            if c in hand.deal.board:
                hand.deal.board.remove(c)
            elif c in hand.deal.burns:
                hand.deal.burns.remove(c)
        hand.deal.slots.clear()
        hand.repair.recovery = Recovery(
            Rule.BURN_ERROR_FLOP,
            [
                Step(f"RETURN {' '.join(c.code for c in exposed)} TO THE STUB", Expect.DONE),
                Step("RESHUFFLE AND CUT THE STUB, PRESS STUB RESHUFFLE", Expect.RESHUFFLE),
                Step("DEAL A NEW FLOP WITHOUT BURNING", Expect.CARDS, no_burn=True),
            ],
            reshuffle=exposed,
        ).start()
        hand.repair.awaiting_reshuffle = True
        hand.alerts.stop_text = "STOP: THE FLOP WAS DEALT WITHOUT A BURN"
        hand.incident(
            seq,
            Rule.BURN_ERROR_FLOP,
            Ruling.REDEAL,
            "NO BURN BEFORE THE FLOP: THE FLOP IS EXPOSED, RESHUFFLE AND DEAL A NEW FLOP",
            events=(first_seq, seq),
        )
        hand.prompt(seq, "RESHUFFLE THE STUB, THEN PRESS STUB RESHUFFLE", PromptCode.RECOVERY)
        return NOTHING
    # Turn or river: the card was acted on, so it stands (001-RR11 §3 r16, §5 r6). It is the
    # last card drawn (a street owing two burns may have had only one).
    card, _, card_seq = [x for x in street_cards if x[1] is DealSlot.BURN][-1]
    deal_plan.relabel_burn_as_board(hand, card_seq)
    hand.deal.slots.clear()
    # "subsequent cards dealt should be those that would have come if no error had occurred":
    # the card that should have been this street's board card is burned with the next burn.
    if hand.street < hand.spec.rounds - 1:
        hand.repair.extra_burns += 1
    hand.incident(
        seq,
        Rule.BURN_ERROR_ANY_STREET,
        Ruling.PLAY_ON,
        f"NO BURN BEFORE {_code(card)}: ACTION HAS BEGUN, THE CARD STANDS"
        + ("; BURN TWO CARDS BEFORE THE NEXT CARD" if hand.repair.extra_burns else ""),
        events=(card_seq, seq),
    )
    return (StreetDealt(seq),)


def extra_card(hand: Hand, card: Card | None, seq: int) -> None:
    """A card after a complete street, before any action on it."""
    code = _code(card)
    if hand.spec.family is Family.FLOP and hand.street == 1:
        _flop_too_many(hand, card, seq)
        return
    # A double burn: the engine's labels already put the proper cards where they belong; the
    # card turned last becomes the next round's burn (001-RR11 §3 r16: "one of the cards should
    # be put back on the deck and used for the burncard on the next round").
    if card is not None:
        hand.deal.burns.append(card)
    hand.out.append(DrawRole(hand.number, seq, code, DealSlot.BURN, None, hand.street + 1))
    hand.repair.skip_next_burn = True
    rule = Rule.BURN_ERROR_STUD if hand.spec.family is Family.STUD else Rule.BURN_ERROR_ANY_STREET
    hand.incident(
        seq,
        rule,
        Ruling.BURN,
        f"ONE CARD TOO MANY: CORRECT THE CARDS TO THEIR PROPER PLACES; {code} IS THE NEXT BURN",
    )


def _flop_too_many(hand: Hand, card: Card | None, seq: int) -> None:
    """FLOP-TOO-MANY-CARDS: RR redeals the flop; GN lets the floor pick the next burn (D15)."""
    board = list(hand.deal.board)
    if card is not None:
        board.append(card)
    hand.out.append(DrawRole(hand.number, seq, _code(card), DealSlot.BOARD, None, hand.street))
    cards = " ".join(c.code for c in board)
    if hand.profile.flop_extra_card is FlopExtraCard.GN_SELECT and len(board) == 4:
        hand.deal.board = board
        hand.repair.burn_select = True
        hand.alerts.stop_text = "STOP: FOUR FLOP CARDS: FLOOR PICKS THE NEXT BURN (BURN SELECT)"
        hand.incident(
            seq,
            Rule.FLOP_TOO_MANY_CARDS,
            Ruling.FLOOR,
            f"FOUR FLOP CARDS ({cards}): SCRAMBLE THEM FACE DOWN; THE FLOOR PICKS ONE AS THE NEXT "
            "BURN (PRESS BURN SELECT WITH THAT CARD); THE OTHER THREE ARE THE FLOP",
        )
        return
    # 001-RR11 §5 r3 and r7: the flop is redealt even if the extra card is identifiable: the
    # burn stays, the board cards go back into the stub, reshuffle, a new flop without a burn.
    hand.deal.board = []
    hand.bets.round = None  # the flop round never started
    hand.phase = Phase.STREET
    hand.repair.recovery = Recovery(
        Rule.FLOP_TOO_MANY_CARDS,
        [
            Step("THE BURN CARD STAYS", Expect.DONE),
            Step(f"RETURN {cards} TO THE STUB", Expect.DONE),
            Step("RESHUFFLE AND CUT THE STUB, PRESS STUB RESHUFFLE", Expect.RESHUFFLE),
            Step("DEAL A NEW FLOP WITHOUT BURNING", Expect.CARDS, no_burn=True),
        ],
        reshuffle=board,
    ).start()
    hand.repair.awaiting_reshuffle = True
    hand.alerts.stop_text = "STOP: TOO MANY FLOP CARDS"
    hand.incident(
        seq,
        Rule.FLOP_TOO_MANY_CARDS,
        Ruling.REDEAL,
        f"TOO MANY FLOP CARDS ({cards}): THE FLOP IS REDEALT. RETURN THEM, RESHUFFLE",
    )
    hand.prompt(seq, "RESHUFFLE THE STUB, THEN PRESS STUB RESHUFFLE", PromptCode.RECOVERY)


def burn_select(hand: Hand, card: Card | None, seq: int) -> bool:
    """GN: BURN_SELECT names the flop card the floor picked as the next burn."""
    if not hand.repair.burn_select or card is None or card not in hand.deal.board:
        return False
    hand.repair.burn_select = False
    hand.deal.board.remove(card)
    hand.deal.burns.append(card)
    hand.repair.skip_next_burn = True
    hand.alerts.stop_text = None
    hand.out.append(DrawRole(hand.number, seq, card.code, DealSlot.BURN, None, hand.street + 1))
    hand.incident(
        seq,
        Rule.FLOP_TOO_MANY_CARDS,
        Ruling.BURN,
        f"{card.code} IS THE NEXT BURN; THE FLOP IS {' '.join(c.code for c in hand.deal.board)}",
    )
    return True
