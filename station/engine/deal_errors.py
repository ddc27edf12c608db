"""Errors in dealing the starting hands: exposed and boxed cards, extra cards, a short deal, the
button out of position. Pure.

Catalog §1 product default (`faceup_draw_policy = EXPOSED`): a card that leaves the shoe face up
into a face-down slot is delivered face up to the seat the sequence assigns, and the dealer is
asked "BOXED or EXPOSED?"; BOXED re-labels it a scrap (DECK-BOXED-*). A face-up card into a board or
up-card slot is always a boxed card. A burn card that comes out face up, or that the dealer
flashes (FLASH or EXPOSED with no seat), is an exposed card (000-USPA §3.1.6.12: "A card that is
flashed by a dealer is treated as an exposed card"): the rulebooks say nothing of an exposed burn,
so the station follows the common practice, house practice here: it stays the burn, shown to all,
and the street is dealt as usual (BOXED, before the next card, still rules a face-up burn a boxed
card). The misdeal
rules of catalog §3 then apply before the action cutoff (MISDEAL-CUTOFF-*).
"""

from __future__ import annotations

from station.engine import deal_plan, settlement
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole, PromptCode, Ruling
from station.engine.games import Family, HighEval, LowEval, Structure
from station.engine.hand import Hand
from station.engine.hand_state import FaceUp, Slot
from station.engine.profiles import FaceUpPolicy
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase


def _code(card: Card | None) -> str:
    return card.code if card is not None else "??"


def face_up(hand: Hand, slot: Slot, card: Card | None, seq: int) -> bool:
    """A draw that left the shoe face up. True when it was handled here (the caller places
    nothing); False when the caller should place it in `slot` as usual."""
    if slot.role is DealSlot.BURN:
        burn_exposed(hand, card, seq, face_up=True)
        return False  # it is the burn all the same
    if slot.up or slot.role is DealSlot.BOARD:
        boxed(hand, slot, card, seq, immediate=True)
        return True
    if hand.profile.faceup_draw_policy is FaceUpPolicy.BOXED:
        boxed(hand, slot, card, seq, immediate=True)
        return True
    # Default policy: exposed, unless the dealer says BOXED before anything else happens.
    hand.faults.faceup = FaceUp(slot, card, seq)
    hand.alerts.stop_text = f"FACE-UP CARD {_code(card)} TO SEAT {slot.seat}: BOXED OR EXPOSED?"
    hand.alerts.stop_seat = slot.seat
    hand.prompt(
        seq,
        f"FACE-UP CARD {_code(card)} TO SEAT {slot.seat}: PRESS BOXED IF IT WAS FACE UP IN THE "
        "DECK, EXPOSED IF THE DEALER EXPOSED IT",
        PromptCode.RECOVERY,
    )
    return False


def burn_exposed(hand: Hand, card: Card | None, seq: int, *, face_up: bool) -> None:
    """An exposed burn card (house practice, see the module docstring): it stays the burn and is
    shown to all; the street's cards come as planned. `face_up`: it left the shoe face up, and
    BOXED before the next card may still rule it a boxed card."""
    hand.faults.burn_up = (card, seq) if face_up else None
    boxed_hint = " (BOXED IF IT WAS FACE UP IN THE DECK)" if face_up else ""
    hand.incident(
        seq,
        Rule.EXPOSE_GENERAL,
        Ruling.PLAY_ON,
        f"BURN CARD {_code(card)} EXPOSED: IT STAYS THE BURN, SHOW IT TO ALL{boxed_hint}",
    )


def flash_burn(hand: Hand, card: Card | None, seq: int) -> bool:
    """FLASH or EXPOSED with no seat just after a burn card: the dealer exposed the burn. True
    when it applied (the last card out is a burn, and the one named if a card is named)."""
    log = hand.deal.street_log
    if not log or hand.result is not None:
        return False
    last, role, _ = log[-1]
    if role is not DealSlot.BURN or (card is not None and card != last):
        return False
    pending = hand.faults.burn_up
    hand.faults.burn_up = None
    if pending is None or pending[0] != last:
        burn_exposed(hand, last, seq, face_up=False)
    return True  # (a face-up burn already ruled exposed: the key confirms it, one incident)


def _box_the_burn(hand: Hand, seq: int) -> bool:
    """BOXED just after a face-up burn, before the next card: it was face up in the deck, a scrap
    of paper (DECK-BOXED-SINGLE), and the next card is the burn."""
    pending = hand.faults.burn_up
    hand.faults.burn_up = None
    if pending is None or hand.result is not None:
        return False
    card, at = pending
    if card is not None and card in hand.deal.burns:
        hand.deal.burns.remove(card)
    hand.deal.street_log = [x for x in hand.deal.street_log if x[2] != at]
    hand.deal.slots.appendleft(Slot(DealSlot.BURN, None, hand.street))
    boxed(hand, None, card, seq, immediate=True)
    return True


def must_settle_at_next_card(hand: Hand) -> bool:
    """Whether a pending face-up card is ruled when the next card comes out. Only a later hole
    card of a flop or draw game may wait for a late BOXED (DECK-BOXED-LATE), since either answer
    ends in a replacement; a misdeal (first or second card, a second exposure) and every stud
    exposure (it decides how the third card is dealt) are ruled at once."""
    pending = hand.faults.faceup
    if pending is None:
        return False
    if hand.spec.family is Family.STUD or hand.faults.exposed:
        return True
    first_cards = (
        hand.profile.holdem_exposed_misdeal_cards if hand.spec.family is Family.FLOP else 2
    )
    draw_no = hand.deal_index(pending.seq)
    return draw_no is None or draw_no <= first_cards


def settle_face_up(hand: Hand, seq: int) -> None:
    """Anything but BOXED answers the question: the card was exposed (product default)."""
    pending = hand.faults.faceup
    if pending is None:
        return
    hand.faults.faceup = None
    hand.alerts.stop_text = None
    hand.alerts.stop_seat = None
    if pending.slot.seat is not None:
        exposed(hand, pending.slot.seat, pending.card, pending.seq, pending.slot)


def boxed(hand: Hand, slot: Slot | None, card: Card | None, seq: int, *, immediate: bool) -> None:
    """DECK-BOXED-SINGLE / -LATE: a scrap of paper; the slot is filled by another card."""
    hand.faults.boxed.append((card, seq))
    hand.out.append(DrawRole(hand.number, seq, _code(card), DealSlot.SCRAP))
    where = f"SEAT {slot.seat}" if slot is not None and slot.seat is not None else "THAT PLACE"
    if len(hand.faults.boxed) >= 2 and _two_boxed(hand, seq):
        return
    if immediate:
        hand.incident(
            seq,
            Rule.DECK_BOXED_SINGLE,
            Ruling.REPLACE,
            f"BOXED CARD {_code(card)}: MUCK IT; THE NEXT CARD GOES TO {where}",
            seat=slot.seat if slot is not None else None,
        )
    else:
        hand.incident(
            seq,
            Rule.DECK_BOXED_LATE,
            Ruling.REPLACE,
            f"BOXED CARD {_code(card)}: MUCK IT; {where} GETS A CARD AFTER THIS ROUND OF DEALING",
            seat=slot.seat if slot is not None else None,
        )


def _two_boxed(hand: Hand, seq: int) -> bool:
    """MISDEAL-TWO-BOXED-CARDS; GN voids the hand whenever two boxed cards are needed (D08)."""
    events = tuple(s for _, s in hand.faults.boxed)
    if hand.profile.boxed_two_void_anytime:
        hand.incident(
            seq,
            Rule.MISDEAL_TWO_BOXED_CARDS,
            Ruling.VOID,
            "TWO BOXED CARDS: THE HAND IS VOID, EVERY WAGER GOES BACK",
            events=events,
        )
        settlement.void(hand, seq)
        return True
    misdeal(hand, seq, Rule.MISDEAL_TWO_BOXED_CARDS, "TWO BOXED CARDS", events=events)
    # After the cutoff each boxed card is simply replaced (DECK-BOXED-MULTIPLE): play on.
    return hand.phase is Phase.MISDEAL


def box_key(hand: Hand, seq: int) -> bool:
    """The BOXED key. True when it applied to a face-up card."""
    pending = hand.faults.faceup
    if pending is None:
        return _box_the_burn(hand, seq)
    hand.faults.faceup = None
    hand.alerts.stop_text = None
    hand.alerts.stop_seat = None
    seat = pending.slot.seat
    if seat is not None and pending.card is not None:
        hand.take_back(seat, pending.card)
    late = hand.slots_since(pending.seq)
    if late:
        deal_plan.owe_after_round(hand, pending.slot)
    else:
        hand.deal.slots.appendleft(pending.slot)
    boxed(hand, pending.slot, pending.card, seq, immediate=not late)
    return True


# --- exposed cards ----------------------------------------------------------------------------


def expose_key(hand: Hand, seat: int | None, card: Card | None, seq: int) -> None:
    """The EXPOSED or FLASH key. When it answers the face-up question (for that seat, or with
    no seat given) it is the same exposure, not a second one."""
    pending = hand.faults.faceup
    if (
        pending is not None
        and seat in (None, pending.slot.seat)
        and (card is None or card == pending.card)
    ):
        settle_face_up(hand, seq)
        return
    if seat is None:
        return  # the caller reports a seatless key with no face-up question as unexpected
    if card is None:
        card = hand.last_card_of(seat)
    drawn_at = hand.deal.seen.get(card) if card is not None else None
    exposed(hand, seat, card, drawn_at if drawn_at is not None else seq, None, keyed_at=seq)


def exposed(
    hand: Hand,
    seat: int,
    card: Card | None,
    seq: int,
    slot: Slot | None = None,
    *,
    keyed_at: int | None = None,
) -> None:
    """A hole card exposed by the dealer (face-up draw, or the EXPOSED / FLASH key). `seq` is
    the card's own draw; `keyed_at` the key that reported it."""
    drawn_at, seq = seq, keyed_at if keyed_at is not None else seq  # incidents name the report
    hand.faults.exposed.append((seat, card, drawn_at))
    if slot is not None and slot.role is DealSlot.DRAW:
        _exposed_on_the_draw(hand, seat, card, seq)
        return
    if hand.spec.family is Family.STUD:
        _stud_exposed(hand, seat, card, seq, slot)
        return
    if hand.street > 0 or hand.bets.voluntary_actions > 0:
        hand.incident(
            seq,
            Rule.EXPOSE_GENERAL,
            Ruling.WARNING,
            f"{_code(card)} OF SEAT {seat} WAS EXPOSED: IT PLAYS",
            seat=seat,
        )
        return
    draw_no = hand.deal_index(drawn_at)
    # D04: the hold'em sections of RRPG/USPA name only the first hole card; every general and
    # lowball misdeal list names the first or second card (002-RRPG §11 r1(a)).
    first_cards = (
        hand.profile.holdem_exposed_misdeal_cards if hand.spec.family is Family.FLOP else 2
    )
    if draw_no is not None and draw_no <= first_cards:
        misdeal(
            hand,
            seq,
            Rule.MISDEAL_FIRST_SECOND_CARD_EXPOSED,
            f"CARD {draw_no} OF THE DEAL ({_code(card)}) WAS EXPOSED",
            seat=seat,
        )
        return
    if len(hand.faults.exposed) >= 2:
        misdeal(
            hand,
            seq,
            Rule.MISDEAL_TWO_CARDS_EXPOSED,
            "TWO CARDS EXPOSED DURING THE DEAL",
            events=tuple(s for _, _, s in hand.faults.exposed),
        )
        return
    if hand.spec.family is Family.DRAW:
        _lowball_exposed(hand, seat, card, seq)
        return
    if hand.profile.exposed_holecard_floor:
        # 004-GN §VI r118 (D05): the floor decides whether the player takes it or gets another.
        hand.incident(
            seq,
            Rule.EXPOSE_HOLDEM_OTHER_HOLECARD,
            Ruling.FLOOR,
            f"{_code(card)} OF SEAT {seat} WAS EXPOSED: FLOOR DECIDES WHETHER IT IS REPLACED",
            seat=seat,
        )
        return
    # EXPOSE-HOLDEM-OTHER-HOLECARD: finish the deal, replace it with the top card afterwards, and
    # the exposed card becomes the burn (001-RR11 §5 r1).
    if card is not None:
        hand.take_back(seat, card)
        hand.deal.burns.append(card)
    deal_plan.owe_after_deal(hand, seat)
    hand.repair.skip_next_burn = True
    hand.incident(
        seq,
        Rule.EXPOSE_HOLDEM_OTHER_HOLECARD,
        Ruling.REPLACE,
        f"{_code(card)} OF SEAT {seat} WAS EXPOSED: FINISH THE DEAL, THEN SEAT {seat} GETS THE "
        "NEXT CARD; THE EXPOSED CARD IS THE BURN FOR THE FLOP",
        seat=seat,
    )


def _lowball_take(hand: Hand, card: Card) -> bool:
    """EXPOSE-LOWBALL-BEFORE-DRAW: whether the player must take an exposed card (RR tables)."""
    if hand.profile.name == "GN":
        return False  # 004-GN r267, r277: all exposed cards are replaced
    low = hand.spec.low
    big_bet = hand.spec.structure is not Structure.FIXED_LIMIT
    if low is LowEval.D27:
        return card.rank in (2, 3, 4, 5, 7)
    if low is LowEval.A5:
        return card.low_rank <= 5 if big_bet else card.low_rank <= 7
    return False  # badugi and the rest: replaced


def _lowball_exposed(hand: Hand, seat: int, card: Card | None, seq: int) -> None:
    if hand.spec.high is HighEval.JOKER:
        # EXPOSE-DRAW-HIGH-BEFORE-DRAW (001-RR11 §12 r4): "Any card that is exposed by the
        # dealer before the draw must be kept."
        hand.incident(
            seq,
            Rule.EXPOSE_DRAW_HIGH_BEFORE_DRAW,
            Ruling.PLAY_ON,
            f"{_code(card)} OF SEAT {seat} WAS EXPOSED BEFORE THE DRAW: SEAT {seat} KEEPS IT",
            seat=seat,
        )
        return
    if card is not None and _lowball_take(hand, card):
        hand.incident(
            seq,
            Rule.EXPOSE_LOWBALL_BEFORE_DRAW,
            Ruling.PLAY_ON,
            f"{card.code} OF SEAT {seat} WAS EXPOSED: SEAT {seat} MUST TAKE IT",
            seat=seat,
        )
        return
    if card is not None:
        hand.take_back(seat, card)
        if not hand.faults.exposed_burn:
            hand.deal.burns.append(card)
            hand.faults.exposed_burn = True
            hand.repair.skip_next_burn = True  # the first exposed card is the burn
    deal_plan.owe_after_deal(hand, seat)
    hand.incident(
        seq,
        Rule.EXPOSE_LOWBALL_BEFORE_DRAW,
        Ruling.REPLACE,
        f"{_code(card)} OF SEAT {seat} WAS EXPOSED: IT IS REPLACED AFTER THE DEAL",
        seat=seat,
    )


def _exposed_on_the_draw(hand: Hand, seat: int, card: Card | None, seq: int) -> None:
    """EXPOSE-DRAW-ON-THE-DRAW: the card cannot be taken; the draw is completed to everyone in
    order, then it is replaced (001-RR11 §11 r9); GN uses it as the next burn (004-GN §X)."""
    if card is not None:
        hand.take_back(seat, card)
    gn = hand.profile.exposed_holecard_floor  # GN profile
    if gn and card is not None:
        hand.deal.burns.append(card)
        hand.repair.skip_next_burn = True
    hand.draws.owed.append(seat)
    hand.incident(
        seq,
        Rule.EXPOSE_DRAW_ON_THE_DRAW,
        Ruling.REPLACE,
        f"{_code(card)} TO SEAT {seat} WAS EXPOSED ON THE DRAW: FINISH THE DRAW, THEN SEAT {seat}"
        " GETS A REPLACEMENT" + ("; THE EXPOSED CARD IS THE NEXT BURN" if gn else ""),
        seat=seat,
    )


def _mexican_exposed(hand: Hand, seat: int, card: Card | None, seq: int) -> None:
    """EXPOSE-MEXICAN-STUD (004-GN r251): a down card the dealer exposes is face up, so that
    player's next card comes down, and he may declare all in for the pot or stay in for all the
    betting; an exposed joker still plays as if dealt down (wild)."""
    hand.reveal(seat, card)
    joker = " (THE JOKER STILL PLAYS WILD)" if card is not None and card.is_joker else ""
    hand.incident(
        seq,
        Rule.EXPOSE_MEXICAN_STUD,
        Ruling.PLAY_ON,
        f"{_code(card)} OF SEAT {seat} EXPOSED{joker}: HIS NEXT CARD COMES DOWN; HE MAY DECLARE "
        "ALL IN FOR THE POT OR STAY IN",
        seat=seat,
    )


def _stud_exposed(hand: Hand, seat: int, card: Card | None, seq: int, slot: Slot | None) -> None:
    street = slot.street if slot is not None else hand.street
    if hand.spec.dealer_button:
        _mexican_exposed(hand, seat, card, seq)
        return
    if street > 0:
        if street == hand.spec.rounds - 1:
            hand.reveal(seat, card)
            if hand.seats[seat].allin:
                # 001-RR11 §8 r16: an all-in player's final card dealt up is kept.
                hand.incident(
                    seq,
                    Rule.EXPOSE_STUD_ALLIN_FINAL,
                    Ruling.PLAY_ON,
                    f"ALL-IN SEAT {seat}'S LAST CARD {_code(card)} IS UP: IT PLAYS; THE OTHERS GET "
                    "THEIRS AS USUAL",
                    seat=seat,
                )
                return
            first = hand.first_to_receive() == seat
            if hand.profile.stud_seventh_gn and first:
                # 004-GN r228: the first player's card exposed: everyone's last card face up.
                deal_plan.seventh_up(hand)
                text = f"{_code(card)} OF SEAT {seat} IS UP: DEAL EVERY LAST CARD FACE UP"
            else:
                text = f"SEAT {seat}'S SEVENTH CARD {_code(card)} IS FACE UP: IT PLAYS; DEAL THE "
                text += "OTHERS DOWN"
            hand.stud.seventh_exposed = seat
            hand.incident(seq, Rule.EXPOSE_STUD_FINAL_DOWNCARD, Ruling.PLAY_ON, text, seat=seat)
        else:
            hand.incident(seq, Rule.EXPOSE_GENERAL, Ruling.WARNING, "EXPOSED CARD PLAYS", seat=seat)
        return
    hand.reveal(seat, card)
    mine = [c for s, c, _ in hand.faults.exposed if s == seat]
    if hand.profile.tournament:
        misdeal(
            hand,
            seq,
            Rule.MISDEAL_STUD_TOURNAMENT_UPCARD,
            "A DOWNCARD WAS DEALT FACE UP",
            seat=seat,
        )
        return
    if len(mine) >= 3 and hand.profile.stud_exposed_three_misdeal:
        misdeal(
            hand,
            seq,
            Rule.MISDEAL_STUD_ALL_INITIAL_EXPOSED,
            "ALL THREE CARDS OF A PLAYER EXPOSED",
            seat=seat,
        )
        return
    if len(mine) == 2 and not hand.profile.stud_exposed_three_misdeal:
        hand.incident(
            seq,
            Rule.EXPOSE_STUD_BOTH_DOWNCARDS,
            Ruling.DEAD_HAND,
            f"BOTH DOWNCARDS OF SEAT {seat} EXPOSED: DEAD HAND, RETURN THE ANTE",
            seat=seat,
        )
        hand.kill(seat, refund_dead=True, seq=seq)
        return
    if len(mine) == 1:
        deal_plan.third_card_down(hand, seat)
        if card is not None:
            hand.stud.exposed_downcards.add(card)
        hand.incident(
            seq,
            Rule.EXPOSE_STUD_DOWNCARD_INITIAL,
            Ruling.PLAY_ON,
            f"{_code(card)} OF SEAT {seat} WAS EXPOSED: SEAT {seat}'S THIRD CARD IS DEALT DOWN",
            seat=seat,
        )


def irregular_rule(card: Card) -> Rule:
    """The rule of a card the game does not use: a joker (DECK-JOKER-NOT-IN-USE), or a card
    the deck does not hold, such as a deuce in a short deck (DECK-EXTRA-CARD-IN-DECK: 004-GN
    glossary "DEFECTIVE DECK"; r115, 001-RR11 §3 r9: "an irregular card or an improper joker")."""
    return Rule.DECK_JOKER_NOT_IN_USE if card.is_joker else Rule.DECK_EXTRA_CARD_IN_DECK


def kept_irregular_card(hand: Hand, seq: int) -> bool:
    """The action began one starting card short after a joker (or a card the deck does not
    hold) was scrapped in the deal: the dealer dealt on past the replacement prompt, so the
    irregular card is in the hand it was dealt to and every later card went one seat on, as
    dealt. Put each card back with its seat (no short deal); the seat holding the irregular
    card gets the top card before he acts, and his hand is dead if he acts on it first (001-RR11
    §3 "Irregularities" r7-r8, "Dead Hands" r1(e); 004-GN r114-r115). True when that is what
    happened (the caller opens the betting: `steps.ShortDeal`)."""
    if (
        len(hand.faults.scraps) != 1
        or hand.faults.boxed
        or hand.faults.exposed
        or hand.faults.extra
    ):
        return False
    card, drawn_at, before = hand.faults.scraps[0]
    stud = hand.spec.family is Family.STUD
    rounds = hand.starting_cards()
    start = hand.spec.stud_start
    plan = [(s, k, stud and start[k]) for k in range(rounds) for s in hand.dealt]
    last = hand.deal.slots[0] if len(hand.deal.slots) == 1 else None
    if last is None or (last.seat, last.k, last.up) != plan[-1] or last.street != 0:
        return False
    by_seq = {s: c for c, s in hand.deal.seen.items()}
    dealt = [by_seq.get(s) for s in hand.deal.deal_draws]
    if len(dealt) != len(plan) - 1 or before > len(dealt) or None in dealt:
        return False
    hand.faults.scraps.clear()
    holder, _, holder_up = plan[before]
    hand.deal.cards = {s: [] for s in hand.dealt}
    for i, (seat, _, up) in enumerate(plan):
        if i == before:
            hand.out.append(DrawRole(hand.number, seq, card.code, DealSlot.SCRAP, seat, 0))
            continue
        got = dealt[i if i < before else i - 1]
        assert got is not None
        hand.deal.cards[seat].append((got, up))
        if i > before:
            role = DealSlot.UP if up else (DealSlot.DOWN if stud else DealSlot.HOLE)
            hand.out.append(DrawRole(hand.number, seq, got.code, role, seat, 0))
    hand.deal.slots.clear()
    hand.deal.slots.append(Slot(DealSlot.REPLACEMENT, holder, 0, holder_up, 99))
    hand.faults.holder = (holder, card)
    what = "JOKER" if card.is_joker else card.code
    hand.incident(
        seq,
        irregular_rule(card),
        Ruling.REPLACE,
        f"THE DEAL WENT ON PAST THE {what}: SEAT {holder} HOLDS IT. GIVE HIM THE TOP CARD FOR IT "
        "BEFORE HE ACTS; IF HE ACTS ON IT, HIS HAND IS DEAD",
        seat=holder,
        events=(drawn_at, seq),
    )
    return True


# --- misdeals ---------------------------------------------------------------------------------


def misdeal(
    hand: Hand,
    seq: int,
    rule: Rule,
    why: str,
    *,
    seat: int | None = None,
    events: tuple[int, ...] = (),
) -> None:
    """A misdeal condition (catalog §3): misdeal before the action cutoff, play on after it."""
    if hand.cutoff_passed():
        hand.incident(
            seq,
            Rule.MISDEAL_AFTER_CUTOFF,
            Ruling.PLAY_ON,
            f"{why}: ACTION HAS OCCURRED, NO MISDEAL. PLAY ON",
            seat=seat,
            events=events,
        )
        return
    hand.incident(
        seq,
        rule,
        Ruling.MISDEAL,
        f"MISDEAL: {why}. RETURN THE CARDS, RESHUFFLE, PRESS NEW HAND TO REDEAL",
        seat=seat,
        events=events,
    )
    hand.declare_misdeal()


def extra_card(hand: Hand, card: Card | None, seq: int) -> None:
    """DEAL-EXTRA-CARD-ONE / MISDEAL-TWO-EXTRA-CARDS: cards beyond the starting hands, before
    any action. One becomes the burn card; two or more are a misdeal."""
    hand.faults.extra.append((card, seq))
    if len(hand.faults.extra) == 1:
        if card is not None:
            hand.deal.burns.append(card)
        hand.out.append(DrawRole(hand.number, seq, _code(card), DealSlot.BURN, None, 1))
        hand.repair.skip_next_burn = True
        hand.incident(
            seq,
            Rule.DEAL_EXTRA_CARD_ONE,
            Ruling.BURN,
            f"ONE EXTRA CARD ({_code(card)}): IT BECOMES THE BURN CARD. DO NOT BURN AGAIN",
        )
        return
    hand.out.append(DrawRole(hand.number, seq, _code(card), DealSlot.STRAY))
    extra = len(hand.faults.extra)
    per_hand = hand.starting_cards()
    rule = Rule.MISDEAL_TWO_EXTRA_CARDS
    if extra == per_hand and hand.empty_seat_between():
        rule = Rule.MISDEAL_DEALT_TO_EMPTY_SEAT
        if hand.profile.exposed_holecard_floor:
            # D03: GN's general misdeal list omits the empty seat: the floor confirms.
            hand.incident(
                seq,
                rule,
                Ruling.FLOOR,
                "A HAND WAS DEALT TO AN EMPTY SEAT: FLOOR TO CONFIRM A MISDEAL",
                events=tuple(s for _, s in hand.faults.extra),
            )
            return
    misdeal(
        hand, seq, rule, f"{extra} EXTRA CARDS DEALT", events=tuple(s for _, s in hand.faults.extra)
    )


def short_deal(hand: Hand, seq: int) -> bool:
    """An action while starting cards are still due (MISDEAL-WRONG-CARD-COUNT,
    MISDEAL-ENTITLED-PLAYER-DEALT-OUT). True when the betting opens one card short (the caller
    returns `steps.ShortDeal`, then books the action as usual if the betting is open)."""
    missing = len(hand.deal.slots)
    per_hand = hand.starting_cards()
    if missing == per_hand and len(hand.dealt) > 1:
        misdeal(
            hand,
            seq,
            Rule.MISDEAL_ENTITLED_PLAYER_DEALT_OUT,
            "A PLAYER WAS DEALT OUT (ONE HAND SHORT)",
        )
        return False
    if missing == 1 and kept_irregular_card(hand, seq):
        return True
    if missing == 1:
        # 001-RR11 §3 "Misdeals" r2(e): "the top card may be dealt if it goes to the player in
        # proper sequence"; lowball and draw high: the button may still receive the missing
        # card even though action has taken place (§11 r1(d), r12; §12 r5). The one card
        # still due is the last of the dealing order, so the action stands and the betting
        # goes on; the card is dealt to that seat whenever it comes.
        seat = hand.deal.slots[0].seat
        hand.incident(
            seq,
            Rule.MISDEAL_WRONG_CARD_COUNT,
            Ruling.REPLACE,
            f"THE DEAL IS ONE CARD SHORT: IF SEAT {seat} IS SHORT, DEAL HIM THE TOP CARD; "
            "OTHERWISE PRESS MISDEAL",
            seat=seat,
        )
        # Stud: the up-cards decide who acts, so the card comes before any betting.
        return hand.spec.family is not Family.STUD
    misdeal(hand, seq, Rule.MISDEAL_WRONG_CARD_COUNT, f"THE DEAL IS {missing} CARDS SHORT")
    return False


def button_check(hand: Hand, seq: int) -> bool:
    """MISDEAL-BUTTON-OUT-OF-POSITION at the first card. True when it caused a misdeal."""
    if hand.deal.puck is None or hand.button is None or hand.deal.puck == hand.button:
        return False
    misdeal(
        hand,
        seq,
        Rule.MISDEAL_BUTTON_OUT_OF_POSITION,
        f"THE BUTTON IS AT SEAT {hand.deal.puck}, IT BELONGS AT SEAT {hand.button}. MOVE IT",
    )
    return hand.phase is Phase.MISDEAL
