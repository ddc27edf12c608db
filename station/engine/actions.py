"""Keyed actions in a hand: the key dispatch, fold, check, all-in, verbal, show, muck, run it. Pure.

Checks and folds are keys; so are the verbal declarations that bind a player before his chips
come in (BET-VERBAL-BINDING), showing and mucking at the showdown, and RUN_IT. Keys this module
does not know in the flow of the hand are irregularities (`irregular.key`).
"""

from __future__ import annotations

from typing import assert_never

from station.engine import (
    burn_errors,
    deal_errors,
    discard_round,
    draw_round,
    irregular,
    rounds,
    settlement,
    stub,
    stud,
    wagers,
)
from station.engine.decisions import Action, ActionKind, DealSlot, PromptCode, Ruling
from station.engine.events import Key, KeyPress, VerbalAction
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, ShortDeal, Steps, Then, then


def key(hand: Hand, k: KeyPress, seq: int) -> Steps:
    """A key pressed during the hand (the seat defaults to the one to act)."""
    if k.key not in (Key.BOXED, Key.EXPOSED, Key.FLASH):
        deal_errors.settle_face_up(hand, seq)  # any other key answers "exposed"
    if hand.phase is Phase.DEALING and hand.bets.round is None and k.key in (Key.FOLD, Key.CHECK):
        if not deal_errors.short_deal(hand, seq):
            return NOTHING
        return (ShortDeal(seq), Then(lambda: _key_on_a_street(hand, k, seq)))
    return _key_on_a_street(hand, k, seq)


def _key_on_a_street(hand: Hand, k: KeyPress, seq: int) -> Steps:
    if hand.phase is Phase.STREET and hand.deal.slots and k.key in (Key.FOLD, Key.CHECK):
        fixed = burn_errors.missing_burn(hand, seq)
        if fixed is not None:
            # The action found the missing burn: once the street is corrected, the action
            # counts if its betting is open.
            return then(fixed, lambda: _key_in_play(hand, k, seq) if hand.betting() else NOTHING)
    return _key_in_play(hand, k, seq)


def _key_in_play(hand: Hand, k: KeyPress, seq: int) -> Steps:
    seat = k.seat
    rnd = hand.bets.round
    to_act = rnd.to_act() if rnd is not None and hand.phase is Phase.BETTING else None
    if seat is None and k.key in (Key.FOLD, Key.CHECK, Key.ALLIN, Key.VERBAL):
        seat = to_act
    if seat is not None and seat not in hand.seats:
        irregular.unexpected_key(hand, k.key, seat, seq)
        return NOTHING
    match k.key:
        case Key.FOLD if seat is not None:
            if hand.phase is Phase.SHOWDOWN:
                return muck(hand, seat, seq)
            return fold(hand, seat, seq)
        case Key.CHECK if seat is not None:
            return check(hand, seat, seq)
        case Key.ALLIN if seat is not None:
            return allin(hand, seat, seq)
        case Key.VERBAL if seat is not None:
            return verbal(hand, seat, k, seq)
        case Key.TABLED if seat is not None:
            return table_hand(hand, seat, seq)
        case Key.SHOWN if seat is not None:
            showed_cards(hand, seat, seq)
            return NOTHING
        case Key.MUCK if seat is not None:
            return muck(hand, seat, seq)
        case Key.DRAW if seat is not None:
            return draw_round.request_draw(hand, seat, k.count or 0, k.cards, seq)
        case Key.DISCARD if seat is not None and hand.spec.discard:
            discard_round.discard(hand, seat, k.count, k.cards, seq)
            return NOTHING
        case Key.RUN_IT:
            run_it(hand, k.count or 1, seq)
            return NOTHING
        case Key.CANCEL if hand.show.runs > 1 and hand.result is None:
            cancel_run_it(hand, seq)
            return NOTHING
        case _:
            return irregular.key(hand, k, seat, seq)


def fold(hand: Hand, seat: int, seq: int) -> Steps:
    """FOLD: in turn during a betting round; outside one the hand is dead where it stands."""
    if hand.profile.tournament and _all_in(hand, seat):
        return _all_in_hand_stays(hand, seat, seq)
    rnd = hand.bets.round
    stud_hand = hand.spec.family is Family.STUD
    if stud_hand and hand.bring_in_pending():
        stud.wrong_bring_in_stands(hand, seat, seq)
    if rnd is not None and hand.phase is Phase.BETTING and seat in rnd:
        to_act = rnd.to_act()
        if rnd.seat(seat).allin and not rnd.seat(seat).folded:
            return _all_in_folds(hand, seat, seq)
        if seat != to_act:
            owed = wagers.settle_owed(hand, seat, seq)
            if owed is not None:
                return then(owed, lambda: fold(hand, seat, seq))  # his turn now, or not
            irregular.out_of_turn_key(hand, Key.FOLD, seat, to_act, seq)
            if seat in hand.conduct.pending:
                return _fold_out_of_turn(hand, seat, seq)
            return NOTHING
        if stud_hand:
            stud.on_fold(hand, seat)
        rnd.fold(seat)
    else:
        if stud_hand:
            stud.on_fold(hand, seat)
        hand.seats[seat].folded = True
    hand.out.append(Action(hand.number, seq, seat, ActionKind.FOLD, hand.seats[seat].bet))
    wagers.count_action(hand, chips=False)
    if hand.phase is Phase.BETTING:
        return rounds.after_action(hand, seq)
    if len(hand.in_hand()) == 1:
        settlement.end(hand, seq)
    elif hand.phase is Phase.SHOWDOWN:
        settlement.try_resolve(hand, seq)
    return NOTHING


def _all_in(hand: Hand, seat: int) -> bool:
    """The seat is in the hand with all his chips in (in or after the betting round he went
    all in)."""
    s = hand.seats[seat]
    if s.folded or hand.result is not None:
        return False
    rnd = hand.bets.round
    if rnd is not None and seat in rnd and rnd.seat(seat).allin:
        return True
    return s.allin


def _all_in_hand_stays(hand: Hand, seat: int, seq: int) -> Steps:
    """FOLD for a seat that is all in, in a tournament: refused. An all-in player has no action
    left, and his hand is turned up, not folded: "All hands will be turned faceup whenever a
    player is all-in and betting action is complete" (001-RR11 §15 r34; 002-RRPG §15 r34;
    003-RR5 §15 r34; 000-USPA §3.3.2.28). The hand goes on to its showdown."""
    hand.incident(
        seq,
        Rule.SHOW_ORDER,
        Ruling.WARNING,
        f"SEAT {seat} IS ALL IN: HIS HAND CANNOT BE FOLDED, IT IS TURNED UP AT THE SHOWDOWN",
        seat=seat,
    )
    return NOTHING


def _all_in_folds(hand: Hand, seat: int, seq: int) -> Steps:
    """FOLD for a seat that is all in: he has no action, but his cards went into the muck, and
    a hand thrown into the muck is dead (001-RR11 §3 "Dead Hands" r2: "Cards thrown into the
    muck may be ruled dead"): his chips stay in the pot, as when he folds between rounds."""
    hand.incident(
        seq,
        Rule.DEAD_FOLD,
        Ruling.DEAD_HAND,
        f"SEAT {seat} IS ALL IN AND HIS HAND WENT INTO THE MUCK: IT IS DEAD, HIS CHIPS STAY IN",
        seat=seat,
    )
    return _fold_out_of_turn(hand, seat, seq)


def _fold_out_of_turn(hand: Hand, seat: int, seq: int) -> Steps:
    """A fold out of turn is final: the hand is dead (001-RR11 §3 "Dead Hands" r1(a), 004-GN
    r131); nothing later revives it. The action stays with the seat whose turn it is."""
    if hand.spec.family is Family.STUD:
        stud.on_fold(hand, seat)
    hand.seats[seat].folded = True
    hand.out.append(Action(hand.number, seq, seat, ActionKind.FOLD, hand.seats[seat].bet))
    wagers.count_action(hand, chips=False)
    return rounds.after_action(hand, seq)


def check(hand: Hand, seat: int, seq: int) -> Steps:
    """CHECK, in turn, when there is nothing to call."""
    rnd = hand.bets.round
    if rnd is None or hand.phase is not Phase.BETTING or seat not in rnd:
        irregular.unexpected_key(hand, Key.CHECK, seat, seq)
        return NOTHING
    to_act = rnd.to_act()
    if seat != to_act:
        owed = wagers.settle_owed(hand, seat, seq)
        if owed is not None:
            return then(owed, lambda: check(hand, seat, seq))  # his turn now, or not
        irregular.out_of_turn_key(hand, Key.CHECK, seat, to_act, seq)
        return NOTHING
    if hand.bring_in_pending():
        stud.refuse_check(hand, seat, seq)  # STUD-BRINGIN: third street is never checked
        return NOTHING
    if not rnd.check(seat):
        owe = rnd.to_call(seat)
        hand.incident(
            seq,
            Rule.BET_UNDERSIZED_CORRECTION,
            Ruling.CORRECT_BET,
            f"SEAT {seat} CANNOT CHECK: CALL {owe} MORE OR FOLD",
            seat=seat,
        )
        return NOTHING
    hand.out.append(Action(hand.number, seq, seat, ActionKind.CHECK, hand.seats[seat].bet))
    hand.conduct.checks.add((hand.street, seat))
    wagers.count_action(hand, chips=False)
    return rounds.after_action(hand, seq)


def allin(hand: Hand, seat: int, seq: int) -> Steps:
    """ALLIN: the chips that follow (or came just before) are the whole stack. With the
    stacks tracked it is the declaration "all in" (his whole stack, `verbal`)."""
    rnd = hand.bets.round
    s = hand.seats[seat]
    if s.stack is not None and rnd is not None and hand.phase is Phase.BETTING:
        return verbal(hand, seat, KeyPress(Key.VERBAL, seat, action=VerbalAction.ALLIN), seq)
    if rnd is not None and rnd.last_actor == seat and s.stack is None:
        rnd.mark_allin(seat)  # the chips are already in: they were the whole stack
        return NOTHING
    hand.bets.allin_pending.add(seat)
    return NOTHING


def verbal(hand: Hand, seat: int, k: KeyPress, seq: int) -> Steps:
    """BET-VERBAL-BINDING: a declaration in turn binds and takes precedence over the chips
    (001-RR11 §3 r9); the chips follow, or came just before it (`wagers.verbal_after_chips`)."""
    done = wagers.verbal_after_chips(hand, seat, k, seq)
    if done is not None:
        return done
    if hand.phase in _CLOSED and k.action in _RAISES and not hand.seats[seat].folded:
        # Said after a card of the next street (or another action): too late to reopen.
        hand.incident(
            seq,
            Rule.BET_VERBAL_BINDING,
            Ruling.WARNING,
            f"SEAT {seat} SPOKE AFTER THE BETTING CLOSED: THE ACTION STANDS",
            seat=seat,
        )
        return NOTHING
    match k.action:
        case VerbalAction.FOLD:
            return fold(hand, seat, seq)
        case VerbalAction.CHECK:
            return check(hand, seat, seq)
        case VerbalAction.CALL:
            rnd = hand.bets.round
            if rnd is not None and hand.phase is Phase.BETTING:
                if rnd.to_act() == seat:
                    hand.conduct.verbal_calls.add(seat)
                return wagers.wager(hand, seat, max(rnd.max_bet, hand.seats[seat].bet), seq)
            return NOTHING
        case VerbalAction.ALLIN:
            rnd = hand.bets.round
            stack = hand.seats[seat].stack
            if rnd is not None and hand.phase is Phase.BETTING and stack is not None:
                # "All in" binds him to his whole stack (001-RR11 §14 NL r8: corrected to the
                # verbal statement); the chips follow.
                return wagers.wager(hand, seat, hand.seats[seat].bet + stack, seq)
            hand.bets.allin_pending.add(seat)  # stacks not tracked: the chips that follow
            return NOTHING
        case VerbalAction.BET | VerbalAction.RAISE | VerbalAction.COMPLETE:
            hand.bets.declared_raise.add(seat)
            if k.amount is not None and hand.bets.round is not None and hand.phase is Phase.BETTING:
                return wagers.wager(hand, seat, k.amount, seq)
            return NOTHING
        case None:
            return NOTHING
        case _:
            assert_never(k.action)


_CLOSED = frozenset({Phase.STREET, Phase.DRAWING, Phase.SHOWDOWN})
_RAISES = frozenset(
    {VerbalAction.BET, VerbalAction.RAISE, VerbalAction.COMPLETE, VerbalAction.ALLIN}
)


def table_hand(hand: Hand, seat: int, seq: int) -> Steps:
    """TABLED: the seat shows its hand."""
    if hand.seats[seat].folded:
        irregular.unexpected_key(hand, Key.TABLED, seat, seq)
        return NOTHING
    if hand.spec.dealer_button and hand.phase is not Phase.SHOWDOWN:
        stud.show_down_card(hand, seat, seq)  # Mexican stud: shown by choice, or not at its time
        return NOTHING
    if hand.phase is Phase.BETTING:
        # The showdown came while the seat to act still owed his short call: it binds him and
        # must be made good, "even if the hand is beaten or mucked" (004-GN r176, 001-RR11 §14
        # NL r9); the betting is over.
        owed = wagers.settle_owed(hand, seat, seq)
        if owed:
            return (*owed, Then(lambda: _tabled(hand, seat, seq)))
    return _tabled(hand, seat, seq)


def showed_cards(hand: Hand, seat: int, seq: int) -> None:
    """SHOWN: a player showed his cards with the betting still to come. TOURN-SHOWING-CARDS: "A
    player in a multihanded pot may not show any cards during a deal. Heads-up, a player may not
    show any cards unless the event has only two remaining players, or is winner-take-all. If a
    player deliberately shows a card, the player may be penalized (but his hand will not be
    ruled dead)" (001-RR11 §15 r22); USPA: "that hand may be ruled dead" (000-USPA §3.3.2.19).
    Once a player is all in and the betting is over every hand is turned up (r34): no fault. A
    cash game: revealing a live hand in a multihanded pot is improper (001-RR11 §1 etiquette)."""
    if hand.seats[seat].folded or hand.result is not None or rounds.round_skippable(hand):
        return
    live = len(hand.in_hand())
    p = hand.profile
    if not p.tournament:
        if live > 2:
            hand.incident(
                seq,
                Rule.MISC_CONDUCT,
                Ruling.WARNING,
                f"SEAT {seat} SHOWED A LIVE HAND IN A MULTIHANDED POT",
                seat=seat,
            )
        return
    allowed = live == 2 and (
        hand.terms.last_two or (hand.terms.winner_take_all and p.tourn_show_wta_heads_up)
    )
    if allowed:
        return
    if p.tourn_show_may_kill:
        ruling, then = Ruling.FLOOR, "THE FLOOR MAY RULE THE HAND DEAD"
    else:
        ruling, then = Ruling.WARNING, "A PENALTY MAY FOLLOW; THE HAND STAYS LIVE"
    hand.incident(
        seq,
        Rule.TOURN_SHOWING_CARDS,
        ruling,
        f"SEAT {seat} SHOWED CARDS DURING THE DEAL: {then}",
        seat=seat,
    )


def _tabled(hand: Hand, seat: int, seq: int) -> Steps:
    hand.show.tabled.add(seat)
    hand.show.mucked.discard(seat)
    hand.out.append(Action(hand.number, seq, seat, ActionKind.SHOW, 0))
    if hand.phase is Phase.SHOWDOWN:
        settlement.try_resolve(hand, seq)
    else:
        _showdown_too_soon(hand, seq)
    return NOTHING


def muck(hand: Hand, seat: int, seq: int) -> Steps:
    """MUCK: the seat throws its hand away: a fold, but at the showdown."""
    if hand.phase is not Phase.SHOWDOWN and not hand.seats[seat].folded:
        return fold(hand, seat, seq)  # a mucked hand is dead (001-RR11 §3 "Dead Hands" r2)
    hand.show.mucked.add(seat)
    hand.show.tabled.discard(seat)
    hand.out.append(Action(hand.number, seq, seat, ActionKind.MUCK, 0))
    if hand.phase is Phase.SHOWDOWN:
        settlement.try_resolve(hand, seq)
    else:
        _showdown_too_soon(hand, seq)
    return NOTHING


def _showdown_too_soon(hand: Hand, seq: int) -> None:
    """Hands shown or mucked while the station still waits for betting or cards (and no
    player can bet any more, when all-in players show before the board is out): the table is
    at its showdown and the station cannot follow the hand to it. A hand can always end: the
    floor is called, once, and decides (the dealer went on past a correction or a STOP)."""
    if hand.alerts.out_of_step:
        return
    if hand.phase is Phase.STREET and rounds.round_skippable(hand):
        # All-in players show before the rest of the board: fine, unless a recovery is still
        # waiting and every hand is shown (the table is at its showdown).
        waiting = hand.repair.recovery is not None or hand.repair.awaiting_reshuffle
        if not waiting or any(
            s not in hand.show.tabled and s not in hand.show.mucked for s in hand.in_hand()
        ):
            return
    hand.alerts.out_of_step = True  # the floor's CONFIRM closes the hand (`irregular.floor_closes`)
    hand.alerts.floor_call = True
    hand.incident(
        seq,
        Rule.STATION_HAND_OUT_OF_STEP,
        Ruling.FLOOR,
        "HANDS SHOWN BUT THE HAND IS NOT OVER FOR THE STATION: CALL THE FLOOR. THE FLOOR DECIDES "
        "HOW THE HAND GOES ON",
    )


def run_it(hand: Hand, count: int, seq: int) -> None:
    """RUN_IT n: deal the rest of the board n times (004-GN r203-r211; 001-RR11 §14 r17
    "deal twice"): allowed when a player is all-in and no action is pending."""
    cards_out = any(role is not DealSlot.BURN for _, role, _ in hand.deal.street_log)
    if (
        hand.spec.family is not Family.FLOP
        or count < 2
        or hand.show.runs > 1
        or not rounds.round_skippable(hand)
        or hand.phase is not Phase.STREET
        or cards_out
        or hand.street == 0
    ):
        irregular.unexpected_key(hand, Key.RUN_IT, None, seq)
        return
    hand.show.runs = count
    hand.show.run_from = hand.street
    hand.show.shared_board = list(hand.deal.board)
    hand.prompt(seq, f"RUN IT {count} TIMES: DEAL BOARD 1", PromptCode.INFO)
    stub.rit_agreed(hand, seq)


def run_it_undoable(hand: Hand) -> bool:
    """Whether a RUN_IT can still be taken back: no card of the rest of the board is out yet (a
    burn is the same for one board or several). Running it more than once is an agreement of
    everyone in the pot (004-GN r203, r205); a key pressed without one is the dealer's slip."""
    return (
        hand.show.runs > 1
        and not hand.show.boards
        and hand.result is None
        and hand.phase is Phase.STREET
        and hand.street == hand.show.run_from
        and not any(role is not DealSlot.BURN for _, role, _ in hand.deal.street_log)
    )


def cancel_run_it(hand: Hand, seq: int) -> None:
    """CANCEL after RUN_IT: before a card of the rest is out the board is dealt once; after, the
    boards are being dealt and the dealer is told the run stands."""
    if not run_it_undoable(hand):
        runs = hand.show.runs
        hand.prompt(seq, f"RUN IT {runs} TIMES STANDS: BOARD CARDS ARE OUT", PromptCode.INFO)
        return
    hand.show.runs = 1
    hand.show.run_from = 0
    hand.show.shared_board = []
    hand.prompt(seq, "RUN IT CANCELLED: ONE BOARD", PromptCode.INFO)
