"""Wagers from the bet zones: a zone reading becomes a bet, call or raise, or a correction. Pure.

Bets are bet-zone amounts (the zone shows the chips of earlier streets still in front plus the
bet of this round); checks and folds are keys (`actions`). A zone reading is checked against
the round before it is booked: chips out of turn or out of a betting round, withdrawn chips, a
string raise after a call (BET-STRING-RAISE), a second motion after "raise" with no amount in a
big-bet tournament (TOURN-STRING-BET), chips smaller than the smallest chip of the forced bets
(BET-SMALLEST-CHIP).
"""

from __future__ import annotations

from typing import NamedTuple

from station.engine import burn_errors, deal_errors, irregular, lowball, openers, rounds, stud
from station.engine.betting import BettingRound, Correction, Wager, WagerKind
from station.engine.decisions import Action, ActionKind, Ruling
from station.engine.events import KeyPress, VerbalAction
from station.engine.games import Family, Structure
from station.engine.hand import Hand
from station.engine.hand_state import LastWager
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, ShortDeal, Steps, Then, then


def on_zone(hand: Hand, seat: int, amount: int, chips: tuple[int, ...] | None, seq: int) -> Steps:
    """A bet-zone reading during the hand (with denominations, when the sensor reports them)."""
    hand.chips.zone[seat] = amount
    if hand.phase is Phase.MISDEAL:
        return NOTHING  # chips going back to their owners before the redeal
    deal_errors.settle_face_up(hand, seq)
    s = hand.seats[seat]
    base = hand.chips.offset.get(seat, 0)
    booked = s.bet if hand.bets.round is not None and seat in hand.bets.round else 0
    due = hand.chips.chips_due.get(seat)
    if due is not None:
        if amount < base + due:
            return NOTHING  # a declared or corrected wager whose chips are still coming in
        del hand.chips.chips_due[seat]
    if amount == base + booked:
        return NOTHING
    if amount < base + booked:
        if amount >= booked:
            hand.chips.offset[seat] = amount - booked  # the dealer collecting earlier streets
            return NOTHING
        hand.chips.offset[seat] = 0
        irregular.withdrawal(hand, seat, amount, booked, seq)
        return NOTHING
    total = amount - base
    rnd = hand.bets.round
    if (
        rnd is not None
        and hand.phase is Phase.BETTING
        and seat in hand.conduct.verbal_calls
        and hand.bets.last_kind.get(seat) is ActionKind.CALL
        and (rnd.last_actor == seat or due is not None)
        and total > booked
    ):
        # BET-VERBAL-BINDING: "call" said in turn is binding and takes precedence over the
        # chips (001-RR11 §3 r9, §14 NL r8): the call stands, the excess goes back. One
        # motion with a declaration is not a string raise.
        hand.chips.chips_due.pop(seat, None)
        hand.incident(
            seq,
            Rule.BET_VERBAL_BINDING,
            Ruling.CORRECT_BET,
            f"SEAT {seat} SAID CALL: THE CALL OF {booked} STANDS. TAKE BACK {total - booked}",
            seat=seat,
        )
        return NOTHING
    if (
        rnd is not None
        and hand.phase is Phase.BETTING
        and rnd.last_actor == seat
        and hand.bets.last_kind.get(seat) is ActionKind.CALL
        and seat not in hand.bets.declared_raise
        and total > booked
    ):
        # BET-STRING-RAISE: chips added in a second motion after a call, with no raise
        # declared: only the call stands (001-RR11 §3 r14).
        hand.chips.chips_due.pop(seat, None)
        hand.incident(
            seq,
            Rule.BET_STRING_RAISE,
            Ruling.CORRECT_BET,
            f"STRING RAISE: ONLY SEAT {seat}'S CALL OF {booked} STANDS. TAKE BACK {total - booked}",
            seat=seat,
        )
        return NOTHING
    reading = _Reading(seat, total, base, booked, rnd, chips, seq)
    if hand.phase is Phase.DEALING and hand.bets.round is None:
        if not deal_errors.short_deal(hand, seq):
            return NOTHING
        return (ShortDeal(seq), Then(lambda: _during_a_street(hand, reading)))
    return _during_a_street(hand, reading)


class _Reading(NamedTuple):
    """A zone reading on its way to a wager: its seat, the chips beyond the earlier streets'
    (`total`), those earlier chips, the bet already booked, and the round it was read in."""

    seat: int
    total: int
    base: int
    booked: int
    round: BettingRound | None
    chips: tuple[int, ...] | None
    seq: int


def _during_a_street(hand: Hand, r: _Reading) -> Steps:
    if hand.phase is Phase.STREET:
        # Chips while a street's cards are still due: the dealer may not have burned.
        fixed = burn_errors.missing_burn(hand, r.seq) if hand.deal.slots else None
        if fixed:
            return (*fixed, Then(lambda: _after_a_burn_error(hand, r, handled=True)))
        return _after_a_burn_error(hand, r, handled=fixed is not None)
    return _in_the_round(hand, r)


def _after_a_burn_error(hand: Hand, r: _Reading, *, handled: bool) -> Steps:
    if not hand.betting():
        if not handled:
            irregular.chips_out_of_round(hand, r.seat, r.total, r.seq)
        return NOTHING
    return _in_the_round(hand, r)


def _in_the_round(hand: Hand, r: _Reading) -> Steps:
    """The reading is a wager of the round in progress, unless the rules say otherwise."""
    seat, total, seq, rnd = r.seat, r.total, r.seq, r.round
    if hand.phase is not Phase.BETTING or hand.bets.round is None or hand.seats[seat].folded:
        irregular.chips_out_of_round(hand, seat, total, seq)
        return NOTHING
    if seat in hand.bets.declared_raise and rnd is not None and _tournament_string(hand, seat):
        if seat not in hand.bets.raise_motion:
            if total <= rnd.max_bet:
                hand.bets.raise_motion[seat] = total  # the one motion did not make the raise
                return NOTHING
        else:
            return _string_bet(hand, seat, total, r.base, seq)
    if seat in hand.bets.declared_raise and rnd is not None and total <= rnd.max_bet:
        return NOTHING  # "raise" declared: the chips may come in several moves (001-RR11 §14 r6)
    chips = r.chips
    if chips and hand.terms.min_chip:
        total = _smallest_chip(hand, seat, total, r.booked, chips, seq)
        if total <= r.booked:
            return NOTHING
    return wager(hand, seat, total, seq, single_chip=chips is not None and len(chips) == 1)


def _tournament_string(hand: Hand, seat: int) -> bool:
    """TOURN-STRING-BET: in a big-bet tournament 'raise' without an amount allows one motion."""
    return hand.profile.tournament and hand.spec.structure is not Structure.FIXED_LIMIT


def _string_bet(hand: Hand, seat: int, total: int, base: int, seq: int) -> Steps:
    """TOURN-STRING-BET (001-RR11 §15 r24): a second motion after 'raise' with no amount is
    a string bet: the declared raise stands at its minimum, the rest goes back."""
    rnd = hand.bets.round
    assert rnd is not None
    hand.bets.raise_motion.pop(seat, None)
    hand.bets.declared_raise.discard(seat)
    target = min(total, rnd.max_bet + rnd.min_raise_size())
    hand.incident(
        seq,
        Rule.TOURN_STRING_BET,
        Ruling.CORRECT_BET,
        f"STRING BET: 'RAISE' WITHOUT AN AMOUNT IS ONE MOTION. SEAT {seat} RAISES TO "
        f"{target}, TAKE BACK {total - target}",
        seat=seat,
    )
    hand.chips.offset[seat] = base + total - target
    return wager(hand, seat, target, seq)


def _smallest_chip(
    hand: Hand, seat: int, total: int, booked: int, chips: tuple[int, ...], seq: int
) -> int:
    """BET-SMALLEST-CHIP: chips smaller than the smallest chip of the forced bets do not
    play, even in quantity (GN: they play for face value all-in). Returns what plays."""
    floor = hand.terms.min_chip or 0
    small = sum(c for c in chips if c < floor)
    stack = hand.seats[seat].stack
    allin = stack is not None and total >= stack + booked
    if not small or (allin and hand.profile.small_chips_play_allin):
        return total
    plays = total - small
    hand.chips.offset[seat] = hand.chips.offset.get(seat, 0) + small
    hand.incident(
        seq,
        Rule.BET_SMALLEST_CHIP,
        Ruling.CORRECT_BET,
        f"CHIPS SMALLER THAN {floor} DO NOT PLAY: SEAT {seat} WAGERS {plays}, TAKE BACK {small}",
        seat=seat,
    )
    return plays


def wager(hand: Hand, seat: int, total: int, seq: int, *, single_chip: bool = False) -> Steps:
    """The seat puts its bet for this round at `total`: booked, or corrected."""
    rnd = hand.bets.round
    assert rnd is not None
    if hand.bring_in_pending():
        brought = stud.bring_in(hand, seat, total, seq)
        if brought is not None:
            return brought
    to_act = rnd.to_act()
    if seat != to_act:
        owed = settle_owed(hand, seat, seq)
        if owed is not None:
            return then(owed, lambda: _after_owed(hand, seat, total, seq, single_chip))
        irregular.out_of_turn_wager(hand, seat, total, to_act, seq)
        return NOTHING
    total = lowball.check_raise(hand, seat, total, seq)
    if hand.spec.family is Family.STUD:
        stud.open_pair_wager(hand, total)  # STUD-LIMITS-PER-STREET: open pair, big bet
    allin = seat in hand.bets.allin_pending
    declared = seat in hand.bets.declared_raise
    before = LastWager(
        rnd.mark(seat),
        rnd,
        hand.street,
        hand.bets.last_kind.get(seat),
        hand.conduct.calls,
        hand.bets.voluntary_actions,
        hand.bets.chip_actions,
        hand.chips.chips_due.get(seat),
        allin,
        declared,
    )
    result = rnd.wager(seat, total, allin=allin, single_chip=single_chip, declared_raise=declared)
    hand.bets.declared_raise.discard(seat)
    if isinstance(result, Correction):
        # BET-UNDERSIZED-CORRECTION: a short call. The chips released bind him to the call
        # (001-RR11 §3 r13): it is booked when the next player acts (`settle_owed`).
        hand.conduct.short_calls[seat] = (result.required, total)
        hand.incident(seq, result.rule, Ruling.CORRECT_BET, result.text, seat=seat)
        return NOTHING
    hand.conduct.short_calls.pop(seat, None)
    return then(_booked(hand, seat, result, seq), lambda: _remember(hand, seat, rnd, before))


def _after_owed(hand: Hand, seat: int, total: int, seq: int, single_chip: bool) -> Steps:
    """The seat's wager once the wager owed before it is booked: his turn now, or not."""
    if hand.betting() and hand.bets.round is not None:
        return wager(hand, seat, total, seq, single_chip=single_chip)
    if hand.result is None:
        irregular.chips_out_of_round(hand, seat, total, seq)  # that closed the round
    return NOTHING


def _remember(hand: Hand, seat: int, rnd: BettingRound, before: LastWager) -> Steps:
    """Keep the wager for a verbal declaration just after it, while nobody acted after him."""
    last = rnd.last_actor == seat and hand.betting() and hand.bets.round is rnd
    closed = hand.bets.closing
    if closed is not None and closed.round is rnd and rnd.last_actor == seat:
        last = True  # his chips closed the round: a declaration now may still reopen it
    hand.conduct.last_wager = before if last else None
    return NOTHING


def settle_owed(hand: Hand, actor: int, seq: int) -> Steps | None:
    """Another player acts while the seat to act still owes the wager he is bound to: his
    action is over once the next player acts. "Raise" said with too few chips is brought up
    to a minimum raise (BET-VERBAL-BINDING, BET-UNDERSIZED-CORRECTION: 001-RR11 §3 r9, r16;
    §14 NL r11); short chips for a call are a call, to be made good (§3 r13). None when no
    wager was booked; otherwise what follows the one booked, after which the caller takes
    `actor`'s action afresh."""
    rnd = hand.bets.round
    if rnd is None or not hand.betting():
        return None
    owner = rnd.to_act()
    if owner is None or owner == actor:
        return None
    if owner in hand.bets.declared_raise:
        hand.bets.raise_motion.pop(owner, None)
        rng = rnd.raise_range(owner)
        target = rng[0] if rng is not None else rnd.max_bet
        if rng is not None:
            hand.incident(
                seq,
                Rule.BET_UNDERSIZED_CORRECTION,
                Ruling.CORRECT_BET,
                f"SEAT {owner} SAID RAISE: HIS RAISE IS {target}. BRING IT UP TO {target}",
                seat=owner,
            )
        return wager(hand, owner, target, seq)
    short = hand.conduct.short_calls.pop(owner, None)
    if short is None:
        return None
    required, put = short
    if hand.spec.structure is not Structure.FIXED_LIMIT and 5 * (put - rnd.seat(owner).bet) < 4 * (
        required - rnd.seat(owner).bet
    ):
        # BET-NL-GROSS-MISUNDERSTANDING (001-RR11 §14 NL r12): a "call" may be ruled not
        # binding when the player obviously misunderstood the amount; the rule of thumb
        # protects nobody who put in 80% or more. Less than that: the floor decides.
        hand.alerts.floor_call = True
        hand.incident(
            seq,
            Rule.BET_NL_GROSS_MISUNDERSTANDING,
            Ruling.FLOOR,
            f"SEAT {owner} PUT IN {put} TO CALL {required}: FLOOR DECIDES WHETHER HE IS BOUND TO "
            "THE CALL",
            seat=owner,
        )
        return None
    return wager(hand, owner, required, seq)


def verbal_after_chips(hand: Hand, seat: int, k: KeyPress, seq: int) -> Steps | None:
    """BET-VERBAL-BINDING (001-RR11 §3 r9: a verbal statement in turn "takes precedence over a
    differing physical action"): the declaration comes just after the seat's chips, before
    anyone acted after him. A declaration the chips agree with changes nothing; a different
    one takes the wager back and books what he said. None when it is not handled here."""
    last = hand.conduct.last_wager
    if (
        last is not None
        and last.seat == seat
        and not hand.betting()
        and hand.bets.closing is not None
        and hand.bets.closing.round is last.round
    ):
        if _declaration_differs(hand, last, seat, k):
            rounds.reopen(hand, seat)  # his chips closed the round; what he said comes first
        elif k.action in _WAGERS:
            return NOTHING  # his chips that closed the round did what he said: nothing changes
    rnd = hand.bets.round
    if (
        last is None
        or last.seat != seat
        or rnd is None
        or last.round is not rnd
        or not hand.betting()
        or rnd.last_actor != seat
        or rnd.seat(seat).folded
    ):
        return None
    booked = hand.bets.last_kind.get(seat)
    chips = rnd.seat(seat).bet
    match k.action:
        case VerbalAction.CALL:
            if booked is ActionKind.CALL:
                hand.conduct.verbal_calls.add(seat)
                return NOTHING
            _take_back(hand, last)
            call = max(rnd.max_bet, rnd.seat(seat).bet)
            hand.incident(
                seq,
                Rule.BET_VERBAL_BINDING,
                Ruling.CORRECT_BET,
                f"SEAT {seat} SAID CALL: HE CALLS {call}. TAKE BACK {chips - call}",
                seat=seat,
            )
            hand.conduct.verbal_calls.add(seat)
            return wager(hand, seat, call, seq)
        case VerbalAction.BET | VerbalAction.RAISE | VerbalAction.COMPLETE:
            raised = booked in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)
            if raised and k.amount in (None, chips):
                return NOTHING
            _take_back(hand, last)
            hand.bets.declared_raise.add(seat)
            rng = rnd.raise_range(seat)
            target = k.amount if k.amount is not None else (rng[0] if rng else rnd.max_bet)
            if k.amount is None and rng is not None:
                hand.incident(
                    seq,
                    Rule.BET_UNDERSIZED_CORRECTION,
                    Ruling.CORRECT_BET,
                    f"SEAT {seat} SAID RAISE: HIS RAISE IS {target}. BRING IT UP TO {target}",
                    seat=seat,
                )
            elif k.amount is not None and k.amount != chips:
                hand.incident(
                    seq,
                    Rule.BET_VERBAL_BINDING,
                    Ruling.CORRECT_BET,
                    f"SEAT {seat} SAID {k.amount}: THE WAGER IS CORRECTED TO {k.amount}",
                    seat=seat,
                )
            return wager(hand, seat, target, seq)
        case VerbalAction.ALLIN:
            stack = rnd.seat(seat).stack
            if rnd.seat(seat).allin or stack is None:
                # untracked stacks: the ALLIN mark, as before
                return NOTHING if stack is not None else None
            _take_back(hand, last)
            whole = rnd.seat(seat).bet + (rnd.seat(seat).stack or 0)
            hand.incident(
                seq,
                Rule.BET_VERBAL_BINDING,
                Ruling.CORRECT_BET,
                f"SEAT {seat} SAID ALL IN: THE WAGER IS HIS WHOLE STACK, {whole}",
                seat=seat,
            )
            return wager(hand, seat, whole, seq)
        case _:
            return None


_WAGERS = frozenset(
    {VerbalAction.BET, VerbalAction.RAISE, VerbalAction.COMPLETE, VerbalAction.ALLIN}
)


def _declaration_differs(hand: Hand, last: LastWager, seat: int, k: KeyPress) -> bool:
    """Whether a declaration said just after the chips that closed the round asks for more than
    they did (a call that closed it, then "raise" or "all in"): only then is it reopened."""
    if last.seat != seat:
        return False
    booked = hand.bets.last_kind.get(last.seat)
    match k.action:
        case VerbalAction.BET | VerbalAction.RAISE | VerbalAction.COMPLETE:
            chips = hand.bets.closing.bets.get(last.seat, 0) if hand.bets.closing else 0
            raised = booked in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)
            return not (raised and k.amount in (None, chips))
        case VerbalAction.ALLIN:
            stack = last.round.seat(last.seat).stack
            return stack is not None and stack > 0
        case _:
            return False


def _take_back(hand: Hand, last: LastWager) -> None:
    """Undo the seat's last wager (see `verbal_after_chips`)."""
    seat = last.seat
    last.round.restore(last.mark)
    if last.kind is None:
        hand.bets.last_kind.pop(seat, None)
    else:
        hand.bets.last_kind[seat] = last.kind
    hand.conduct.calls = last.calls
    hand.bets.voluntary_actions = last.voluntary
    hand.bets.chip_actions = last.chip_actions
    if last.due is None:
        hand.chips.chips_due.pop(seat, None)
    else:
        hand.chips.chips_due[seat] = last.due
    if last.allin:
        hand.bets.allin_pending.add(seat)
    if last.declared:
        hand.bets.declared_raise.add(seat)
    hand.conduct.last_wager = None


def _booked(hand: Hand, seat: int, w: Wager, seq: int) -> Steps:
    if w.correction is not None:
        hand.incident(seq, w.correction.rule, Ruling.CORRECT_BET, w.correction.text, seat=seat)
    kind = {
        WagerKind.BET: ActionKind.BET,
        WagerKind.RAISE: ActionKind.RAISE,
        WagerKind.CALL: ActionKind.CALL,
        WagerKind.COMPLETE: ActionKind.COMPLETE,
        WagerKind.BRING_IN: ActionKind.BRING_IN,
    }[w.kind]
    hand.bets.allin_pending.discard(seat)
    if kind is ActionKind.CALL:
        hand.conduct.calls += 1
    stud.bet_made(hand)  # DEAL-STUD-ORDER: a bet kills hands folded without a wager
    hand.bets.last_kind[seat] = kind
    physical = hand.chips.zone.get(seat, 0) - hand.chips.offset.get(seat, 0)
    if physical < w.total:
        hand.chips.chips_due[seat] = w.total  # the zone has not caught up with the wager yet
    hand.out.append(Action(hand.number, seq, seat, kind, w.total, w.allin))
    openers.note_open(hand, seat, kind)  # DRAW-OPENER
    count_action(hand, chips=True)
    return rounds.after_action(hand, seq)


def count_action(hand: Hand, *, chips: bool) -> None:
    """Count a first-round action for the misdeal cutoff (MISDEAL-CUTOFF-*)."""
    if hand.street == 0:
        hand.bets.voluntary_actions += 1
        if chips:
            hand.bets.chip_actions += 1
