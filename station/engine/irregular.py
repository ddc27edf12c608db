"""Irregularities met during a hand: detection, the ruling, and what the engine expects next. Pure.

Every function here is called by `Hand` where the normal flow meets something unexpected; each
records an `Incident` with the catalog rule id and the profile's citation. Irregularities are
data, never exceptions.
"""

from __future__ import annotations

from collections import deque
from typing import assert_never

from station.engine import burn_errors, deal_errors, recovery, settlement
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole, PromptCode, Ruling
from station.engine.events import Key, KeyPress, key_label
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.hand_state import Pending, Slot
from station.engine.profiles import OotPolicy, StudPremature
from station.engine.recovery import Expect
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, Check, Fold, Resume, Steps, Wager


def floor_closes(hand: Hand, seq: int) -> None:
    """CONFIRM after the floor was called for a hand the station could not follow (`went_past`,
    a showdown out of step): the floor takes the hand over. A showdown the station can settle
    is settled; otherwise the hand is closed with every wager back to its owner, and the
    floor's own ruling on the pot is the one recorded against the incident."""
    settlement.finish(hand, seq)
    if hand.result is not None:
        return
    hand.incident(
        seq,
        Rule.STATION_FLOOR_CLOSED,
        Ruling.VOID,
        f"HAND {hand.number} CLOSED BY THE FLOOR: EVERY WAGER GOES BACK TO ITS OWNER",
    )
    settlement.void(hand, seq)


# --- deck integrity ---------------------------------------------------------------------------


def after_hand(hand: Hand, card: Card | None, seq: int, *, back_ok: bool = True) -> None:
    """A card off the shoe once the hand is over: it never plays. The first is the card that
    would have come next (DECK-NO-RABBIT-HUNT, 001-RR11 §2 r24); more are a look through the
    stub (NO-STUB-PEEK, r23). A foreign back found there leaves the result standing
    (DECK-FOREIGN-BACK, 001-RR11 §3 r3: "discovered in the stub, all action stands")."""
    code = card.code if card is not None else "??"
    hand.out.append(DrawRole(hand.number, seq, code, DealSlot.STRAY))
    hand.alerts.after_hand_draws += 1
    if not back_ok:
        _foreign_back_in_stub(hand, code, seq)
        return
    if hand.alerts.after_hand_draws == 1:
        hand.incident(
            seq,
            Rule.DECK_NO_RABBIT_HUNT,
            Ruling.WARNING,
            f"HAND IS OVER: {code} MUST NOT BE SHOWN (NO RABBIT HUNTING)",
        )
        return
    hand.incident(
        seq,
        Rule.NO_STUB_PEEK,
        Ruling.WARNING,
        f"HAND IS OVER: {code} FROM THE STUB. LOOKING THROUGH THE STUB IS NOT ALLOWED",
    )


def _foreign_back_in_stub(hand: Hand, code: str, seq: int) -> None:
    """DECK-FOREIGN-BACK found in the stub after the hand: it played no part, action stands.
    GN (004-GN r110, D09) also wants substantial action; without it the floor decides."""
    if hand.profile.foreign_back_stub_needs_substantial and not hand.cutoff_passed():
        hand.incident(
            seq,
            Rule.DECK_FOREIGN_BACK,
            Ruling.FLOOR,
            f"{code} WITH A FOREIGN BACK IN THE STUB, NO SUBSTANTIAL ACTION: FLOOR DECIDES "
            "WHETHER THE RESULT STANDS. CHANGE THE DECK",
        )
        return
    hand.incident(
        seq,
        Rule.DECK_FOREIGN_BACK,
        Ruling.WARNING,
        f"{code} WITH A FOREIGN BACK FOUND IN THE STUB: THE RESULT STANDS. CHANGE THE DECK",
    )


def foreign_back(hand: Hand, card: Card | None, seq: int) -> None:
    """DECK-FOREIGN-BACK: a card with a different back during a hand voids all action."""
    code = card.code if card is not None else "A CARD"
    hand.incident(
        seq,
        Rule.DECK_FOREIGN_BACK,
        Ruling.VOID,
        f"VOID HAND: {code} HAS A FOREIGN BACK. RETURN EVERY WAGER; CHANGE THE DECK",
    )
    settlement.void(hand, seq)


def duplicate(hand: Hand, card: Card, seq: int) -> None:
    """DECK-DUPLICATE-CARD: two cards of the same rank and suit void the hand."""
    first = hand.deal.seen[card]
    hand.incident(
        seq,
        Rule.DECK_DUPLICATE_CARD,
        Ruling.VOID,
        f"VOID HAND: DUPLICATE {card.code}. RETURN EVERY WAGER; CHANGE THE DECK",
        events=(first, seq),
    )
    settlement.void(hand, seq)


def joker_not_in_use(hand: Hand, card: Card, seq: int) -> None:
    """DECK-JOKER-NOT-IN-USE: a scrap of paper, replaced by the next card (001-RR11 §3 r8;
    the same for a card the deck does not hold, r9)."""
    slot = hand.deal.slots[0] if hand.deal.slots else None
    hand.out.append(DrawRole(hand.number, seq, card.code, DealSlot.SCRAP))
    where = _slot_text(slot) if slot is not None else "NOTHING"
    what = "JOKER IS NOT IN USE" if card.is_joker else f"{card.code} IS NOT IN THIS DECK"
    if (
        slot is not None
        and slot.street == 0
        and slot.role in (DealSlot.HOLE, DealSlot.DOWN, DealSlot.UP)
        and hand.phase is Phase.DEALING
        and hand.bets.round is None
    ):
        hand.faults.scraps.append((card, seq, len(hand.deal.deal_draws)))
    hand.incident(
        seq,
        deal_errors.irregular_rule(card),
        Ruling.REPLACE,
        f"{what}: MUCK IT; NEXT CARD GOES TO {where}",
        seat=slot.seat if slot is not None else None,
    )


def irregular_card_acted_on(hand: Hand, seq: int) -> None:
    """DECK-JOKER-NOT-IN-USE, DEAD-JOKER-ACTED-ON: the seat holding a joker (or a card the deck
    does not hold) acted on his hand before it was replaced: "If the player does not call
    attention to the joker before acting, then the player has a dead hand" (001-RR11 §3 r8,
    "Dead Hands" r1(e)). A fold needs no ruling."""
    if hand.faults.holder is None:
        return
    seat, card = hand.faults.holder
    rnd = hand.bets.round
    if hand.seats[seat].folded:
        hand.faults.holder = None
        hand.deal.slots = deque(slot for slot in hand.deal.slots if slot.seat != seat)
        return
    if rnd is None or seat not in rnd or not rnd.seat(seat).acted:
        return
    hand.faults.holder = None
    what = "A JOKER" if card.is_joker else f"{card.code}, A CARD NOT IN THIS DECK,"
    hand.incident(
        seq,
        deal_errors.irregular_rule(card),
        Ruling.DEAD_HAND,
        f"SEAT {seat} ACTED ON A HAND HOLDING {what} WITHOUT CALLING ATTENTION TO IT: HIS HAND "
        "IS DEAD",
        seat=seat,
    )
    hand.kill(seat, refund_dead=False, seq=seq)


def _slot_text(slot: Slot) -> str:
    if slot.seat is not None:
        return f"SEAT {slot.seat}"
    return slot.role.value.upper()


# --- cards when none is expected --------------------------------------------------------------


def _before_any_action(hand: Hand) -> bool:
    """Right after the starting hands, before anyone acted: a further card is an extra card of
    the deal, not a card of the next street."""
    rnd = hand.bets.round
    if rnd is None or rnd.last_actor is not None or hand.repair.premature_street == hand.street:
        return False
    if hand.street == 0:
        return hand.bets.voluntary_actions == 0
    return hand.spec.family is not Family.DRAW and not hand.repair.extra_street_seen(hand.street)


def _premature_rule(hand: Hand) -> Rule:
    if hand.spec.family is Family.FLOP:
        street = hand.street + (1 if hand.spec.bomb else 0)  # a bomb pot bets first on the flop
        return (Rule.PREMATURE_FLOP, Rule.PREMATURE_TURN, Rule.PREMATURE_RIVER)[min(street, 2)]
    if hand.spec.family is Family.STUD:
        return Rule.PREMATURE_STUD_STREET
    return Rule.PREMATURE_GENERAL


def unexpected_draw(hand: Hand, card: Card | None, face_up: bool, seq: int) -> None:
    code = card.code if card is not None else "??"
    if hand.phase is Phase.MISDEAL:
        hand.out.append(DrawRole(hand.number, seq, code, DealSlot.STRAY))
        hand.incident(
            seq,
            Rule.MISDEAL_PROCEDURE,
            Ruling.STOP,
            f"MISDEAL: {code} DOES NOT PLAY. RESHUFFLE, THEN PRESS NEW HAND TO REDEAL",
        )
        return
    if hand.phase is Phase.BETTING and hand.bets.round is not None:
        if _before_any_action(hand):
            if hand.street == 0:
                deal_errors.extra_card(hand, card, seq)
            else:
                burn_errors.extra_card(hand, card, seq)
            return
        premature(hand, card, seq)
        return
    hand.out.append(DrawRole(hand.number, seq, code, DealSlot.STRAY))
    if hand.phase is Phase.DRAWING:
        hand.incident(
            seq,
            Rule.DRAW_ORDER,
            Ruling.STOP,
            f"STOP: NO DRAW ANNOUNCED YET. SEAT {hand.draws.pending[0]} DRAWS FIRST",
            seat=hand.draws.pending[0] if hand.draws.pending else None,
        )
        return
    hand.incident(seq, Rule.PREMATURE_GENERAL, Ruling.STOP, f"STOP: NO CARD IS DUE ({code})")


def premature(hand: Hand, card: Card | None, seq: int) -> None:
    """PREMATURE-*: a card drawn while the betting round is open. STOP at once, then guide the
    profile's recovery (see `recovery.premature`)."""
    code = card.code if card is not None else "??"
    rnd = hand.bets.round
    to_act = rnd.to_act() if rnd is not None else None
    rule = _premature_rule(hand)
    first = hand.repair.premature_street != hand.street
    if first:
        hand.repair.premature = []
        hand.repair.premature_street = hand.street
    hand.repair.premature.append((card, seq))
    family = hand.spec.family
    eliminated = family is Family.STUD and hand.profile.stud_premature is StudPremature.RR
    if first and family is not Family.DRAW and not eliminated:
        # The first card of a street is its burn: it stays the burn (PREMATURE-FLOP: "the
        # burncard stays on the table as the burn"; 004-GN r225 "leave the burn as is").
        if card is not None:
            hand.deal.burns.append(card)
        role = DealSlot.BURN
    else:
        role = DealSlot.ELIMINATED if eliminated else DealSlot.PREMATURE
    hand.out.append(DrawRole(hand.number, seq, code, role, None, hand.street + 1))
    skip = 0 if family is Family.DRAW or eliminated else 1
    exposed = [c for c, _ in hand.repair.premature[skip:] if c is not None]
    hand.repair.recovery = recovery.premature(
        family=family,
        street=hand.street + (1 if hand.spec.bomb else 0),  # a bomb pot bets first on the flop
        profile=hand.profile,
        rule=rule,
        to_act=to_act,
        exposed=exposed,
        active=len(hand.in_hand()),
    )
    who = f"SEAT {to_act} IS STILL TO ACT" if to_act is not None else "BETTING IS NOT COMPLETE"
    if first:
        hand.alerts.stop_text = f"STOP: BETTING IS NOT COMPLETE. {who}"
        hand.alerts.stop_seat = to_act
        hand.incident(seq, rule, Ruling.STOP, f"STOP - PREMATURE CARD: {who}", seat=to_act)
        return
    # One error, one incident: the cards dealt on after the first are the same premature deal
    # (its STOP stands); the recovery's steps, rebuilt above, now name them (return them to the
    # stub, reshuffle) and each card's role says it does not play.


def wrong_recovery(hand: Hand, card: Card | None, seq: int) -> None:
    """A card dealt while the recovery waits for something else (a reshuffle)."""
    rec = hand.repair.recovery
    assert rec is not None
    code = card.code if card is not None else "??"
    hand.out.append(DrawRole(hand.number, seq, code, DealSlot.STRAY))
    if card is not None:
        rec.reshuffle.append(card)  # it goes back into the stub with the reshuffle
    step = rec.current.text if rec.current is not None else "FOLLOW THE STEPS"
    hand.incident(
        seq,
        rec.rule,
        Ruling.STOP,
        f"WRONG RECOVERY: {code} DEALT TOO EARLY. {step}",
    )


def stub_reshuffled(hand: Hand, seq: int) -> bool:
    """STUB_RESHUFFLE pressed; True when a recovery expected it."""
    rec = hand.repair.recovery
    if rec is None or rec.current is None or rec.current.expect is not Expect.RESHUFFLE:
        return False
    for c in rec.reshuffle:
        hand.return_to_stub(c)  # back in the stub: it may legitimately come out again
    rec.reshuffle.clear()
    hand.alerts.progress += 1
    rec.complete(Expect.RESHUFFLE)
    if hand.bets.round is not None and hand.bets.round.complete():
        rec.complete(Expect.BETTING)
    return True


# --- betting irregularities -------------------------------------------------------------------


def out_of_turn_wager(hand: Hand, seat: int, total: int, to_act: int | None, seq: int) -> None:
    _hold(hand, seat, None, total, to_act, seq)


def out_of_turn_key(hand: Hand, key: Key, seat: int, to_act: int | None, seq: int) -> None:
    _hold(hand, seat, key, 0, to_act, seq)


def _hold(hand: Hand, seat: int, key: Key | None, total: int, to_act: int | None, seq: int) -> None:
    """BET-OUT-OF-TURN: hold the action; it binds when the turn comes unless the action changed."""
    rnd = hand.bets.round
    assert rnd is not None
    if to_act is None or seat not in rnd or not rnd.seat(seat).live:
        unexpected_key(hand, key or Key.VERBAL, seat, seq)
        return
    hand.conduct.pending[seat] = Pending(key, total, seq, rnd.max_bet, hand.conduct.calls)
    what = key_label(key.value) if key is not None else f"CHIPS TO {total}"
    hand.incident(
        seq,
        Rule.BET_OUT_OF_TURN,
        Ruling.WARNING,
        f"OUT OF TURN ({what}) BY SEAT {seat}: ACTION IS ON SEAT {to_act}",
        seat=seat,
    )
    behind = len(hand.conduct.pending)
    if behind == hand.profile.time_forfeit_count and to_act not in hand.conduct.time_called:
        # BET-RIGHT-TO-ACT (D41): RR three, GN two players acting behind a player who did not
        # call time may cost him the right to act: the floor decides.
        hand.alerts.floor_call = True
        hand.incident(
            seq,
            Rule.BET_RIGHT_TO_ACT,
            Ruling.FLOOR,
            f"SEAT {to_act} DID NOT CALL TIME AND {behind} PLAYERS ACTED BEHIND: FLOOR DECIDES "
            "IF HE KEEPS THE RIGHT TO ACT",
            seat=to_act,
            events=tuple(p.seq for p in hand.conduct.pending.values()),
        )


def _changed(hand: Hand, p: Pending) -> bool:
    rnd = hand.bets.round
    assert rnd is not None
    raised = rnd.max_bet > p.max_bet
    if hand.profile.oot_policy is OotPolicy.RR:
        return raised or hand.conduct.calls > p.calls  # an intervening bet, call or raise
    return raised  # RR11 and GN: only a bet or raise changes the action


def apply_pending_oot(hand: Hand, seq: int) -> Steps:
    """BET-OUT-OF-TURN: the action has reached a seat that acted out of turn. His action binds
    (the step that books it) unless the action changed meanwhile."""
    rnd = hand.bets.round
    if rnd is None:
        return NOTHING
    seat = rnd.to_act()
    if seat is None or seat not in hand.conduct.pending:
        return NOTHING
    p = hand.conduct.pending.pop(seat)
    if _changed(hand, p):
        if p.key is Key.CHECK and hand.profile.oot_policy is not OotPolicy.GN:
            # 001-RR11 §3 r11: "A player who checks out of turn may not bet or raise on his next
            # turn." GN r131 lets him call, raise or fold once the action has changed.
            rnd.seat(seat).no_raise = True
        hand.incident(
            seq,
            Rule.BET_OUT_OF_TURN,
            Ruling.PLAY_ON,
            f"ACTION CHANGED: SEAT {seat} MAY ACT AGAIN (OUT-OF-TURN ACTION NOT BINDING)",
            seat=seat,
            events=(p.seq, seq),
        )
        return NOTHING
    if p.key is Key.FOLD:
        return (Fold(seat, p.seq),)
    if p.key is Key.CHECK:
        return (Check(seat, p.seq),)
    return (Wager(seat, p.total, p.seq),)


def withdrawal(hand: Hand, seat: int, amount: int, booked: int, seq: int) -> None:
    """BET-RELEASED-CHIPS: chips released into the pot are binding."""
    hand.incident(
        seq,
        Rule.BET_RELEASED_CHIPS,
        Ruling.CORRECT_BET,
        f"SEAT {seat} TOOK BACK {booked - amount}: RELEASED CHIPS ARE BINDING, ZONE MUST SHOW "
        f"{booked}",
        seat=seat,
    )


def chips_out_of_round(hand: Hand, seat: int, total: int, seq: int) -> None:
    if hand.seats[seat].folded:
        text = f"SEAT {seat} HAS FOLDED: RETURN {total}"
    else:
        text = f"NO BETTING NOW: SEAT {seat} TAKE BACK {total}"
    hand.incident(seq, Rule.BET_OUT_OF_TURN, Ruling.CORRECT_BET, text, seat=seat)


def unexpected_key(hand: Hand, key: Key, seat: int | None, seq: int) -> None:
    where = f" FOR SEAT {seat}" if seat is not None else ""
    hand.incident(
        seq,
        Rule.STATION_UNEXPECTED_KEY,
        Ruling.WARNING,
        f"{key_label(key.value)}{where} DOES NOT APPLY NOW",
        seat=seat,
    )


# --- misdeals and other keys ------------------------------------------------------------------


def key(hand: Hand, k: KeyPress, seat: int | None, seq: int) -> Steps:
    """A key of the hand that is not an action of the betting (`actions`): misdeal, reshuffle,
    boxed or exposed cards, the floor, the clock."""
    match k.key:
        case Key.MISDEAL:
            rule = (
                Rule.MISDEAL_CUTOFF_STUD
                if hand.spec.family is Family.STUD
                else (Rule.MISDEAL_CUTOFF_BUTTON)
            )
            if hand.cutoff_passed():
                hand.incident(
                    seq,
                    Rule.MISDEAL_AFTER_CUTOFF,
                    Ruling.PLAY_ON,
                    "ACTION HAS OCCURRED: NO MISDEAL, PLAY ON",
                )
                return NOTHING
            hand.incident(
                seq, rule, Ruling.MISDEAL, "MISDEAL: GATHER THE CARDS, RESHUFFLE AND REDEAL"
            )
            hand.declare_misdeal()
        case Key.STUB_RESHUFFLE:
            if stub_reshuffled(hand, seq):
                return (Resume(seq),)
            if hand.phase is not Phase.MISDEAL:
                unexpected_key(hand, k.key, seat, seq)
        case Key.BOXED:
            if not deal_errors.box_key(hand, seq):
                unexpected_key(hand, k.key, seat, seq)
        case Key.BURN_SELECT:
            if not burn_errors.burn_select(hand, k.card, seq):
                unexpected_key(hand, k.key, seat, seq)
        case Key.ELIMINATE:
            if not _eliminate_due(hand):
                unexpected_key(hand, k.key, seat, seq)
        case Key.EXPOSED | Key.FLASH if (
            seat is None
            and hand.faults.faceup is None
            and deal_errors.flash_burn(hand, k.card, seq)
        ):
            pass  # the dealer exposed the burn card: it stays the burn (house practice)
        case Key.EXPOSED | Key.FLASH if seat is not None or hand.faults.faceup is not None:
            deal_errors.expose_key(hand, seat, k.card, seq)
        case Key.CONFIRM if hand.alerts.out_of_step and hand.phase is not Phase.MISDEAL:
            floor_closes(hand, seq)
        case Key.FLOOR:
            hand.alerts.floor_call = True
            hand.incident(seq, Rule.STATION_FLOOR_CALL, Ruling.FLOOR, "CALL FLOOR")
        case Key.TIME if seat is not None:
            hand.conduct.time_called.add(seat)  # BET-RIGHT-TO-ACT: he stopped the action
        case Key.CLOCK if seat is not None:
            start_clock(hand, seat, seq)
        case Key.CONFIRM | Key.CANCEL | Key.TIME | Key.CLOCK:
            pass  # acknowledgements with nothing pending: nothing to do
        case (
            Key.NEW_HAND
            | Key.FOLD
            | Key.CHECK
            | Key.VERBAL
            | Key.ALLIN
            | Key.EXPOSED
            | Key.FLASH
            | Key.DRAW
            | Key.DISCARD
            | Key.STRADDLE
            | Key.KILL
            | Key.TABLED
            | Key.MUCK
            | Key.RUN_IT
            | Key.CHOP
            | Key.SEAT_CHANGE
            | Key.DECK_CHECK
            | Key.CHIP_RACE
            | Key.FORFEIT
            | Key.MOVE_OUT
            | Key.MOVE_IN
            | Key.SHOWN
        ):
            # Keys of the betting without a seat (`actions`), and keys of the time between
            # hands: they do not apply during a hand.
            unexpected_key(hand, k.key, seat, seq)
        case _:
            assert_never(k.key)
    return NOTHING


def start_clock(hand: Hand, seat: int, seq: int) -> None:
    """MISC-CLOCK: the floor put the clock on the seat: one more minute, then a ten-second
    warning (RR11 §14 r16; GN r180). The time comes from the events, never from a clock here."""
    p = hand.profile
    if hand.conduct.now is None:
        hand.prompt(seq, f"CLOCK ON SEAT {seat}: TIME IT BY HAND (NO EVENT TIMES)", PromptCode.INFO)
        return
    hand.conduct.clock = (seat, hand.conduct.now + p.clock_seconds + p.clock_warning_seconds)
    hand.prompt(
        seq,
        f"CLOCK ON SEAT {seat}: {p.clock_seconds} SECONDS, THEN A {p.clock_warning_seconds}-SECOND "
        "WARNING",
        PromptCode.INFO,
    )


def clock_tick(hand: Hand, seq: int) -> Steps:
    """DEAD-CLOCK-EXPIRED: the clock ran out before the seat acted: facing a bet his hand is
    dead (the fold that follows); otherwise the floor decides."""
    clock, rnd, now = hand.conduct.clock, hand.bets.round, hand.conduct.now
    if clock is None or now is None or now <= clock[1]:
        return NOTHING
    hand.conduct.clock = None
    seat = clock[0]
    if rnd is None or not hand.betting() or rnd.to_act() != seat:
        return NOTHING  # he acted in time
    if rnd.max_bet > rnd.seat(seat).bet:
        hand.incident(
            seq,
            Rule.DEAD_CLOCK_EXPIRED,
            Ruling.DEAD_HAND,
            f"TIME: SEAT {seat}'S CLOCK EXPIRED FACING A BET: HAND DEAD",
            seat=seat,
        )
        return (Fold(seat, seq),)
    hand.alerts.floor_call = True
    hand.incident(
        seq, Rule.MISC_CLOCK, Ruling.FLOOR, f"TIME: SEAT {seat}'S CLOCK EXPIRED: FLOOR", seat=seat
    )
    return NOTHING


def _eliminate_due(hand: Hand) -> bool:
    """PREMATURE-STUD-STREET (RR): the ELIMINATE key confirms the cards taken out of play; it
    applies once the betting is over and those cards are due."""
    return any(slot.role is DealSlot.ELIMINATED for slot in hand.deal.slots)


def round_complete(hand: Hand, seq: int) -> None:
    """The betting round just closed: clear a STOP and move any recovery on."""
    hand.conduct.pending.clear()
    hand.conduct.time_called.clear()
    hand.conduct.verbal_calls.clear()
    hand.conduct.short_calls.clear()
    hand.conduct.last_wager = None
    if hand.repair.premature_street == hand.street:
        hand.alerts.stop_text = None
        hand.alerts.stop_seat = None
    rec = hand.repair.recovery
    if rec is None:
        return
    rec.complete(Expect.BETTING)
    for c in rec.returned:
        hand.return_to_stub(c)  # returned to the stub (GN premature turn)
    rec.returned.clear()


def street_cards_done(hand: Hand) -> None:
    """All cards of a street are out: a CARDS or ELIMINATE step of a recovery is done."""
    rec = hand.repair.recovery
    if rec is None:
        return
    rec.complete(Expect.ELIMINATE)
    rec.complete(Expect.CARDS)
    if rec.finished:
        hand.repair.recovery = None
