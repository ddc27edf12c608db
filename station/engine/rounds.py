"""Betting rounds of a hand: opening one, closing it, and going on to the next street. Pure.

A round opens once its cards are out: the order of action (preflop after the last forced bet,
stud from the bring-in or the best board, later rounds left of the button), the blinds and
straddles posted into it, the bring-in prompt. After every action it is checked: one player left
ends the hand; a complete round is collected and the next street (or the showdown) follows.
DEAD-ABSENT / TOURN-ABSENT: a player away from his seat is killed at the end of the deal or when
the action reaches him, as the profile says.
"""

from __future__ import annotations

from collections import deque

from station.engine import (
    deal_plan,
    discard_round,
    draw_round,
    irregular,
    openers,
    settlement,
    stud,
)
from station.engine.betting import BettingRound
from station.engine.decisions import Action, ActionKind, PromptCode, Ruling
from station.engine.games import Family, Structure
from station.engine.hand import Hand
from station.engine.hand_state import Closing
from station.engine.profiles import AbsentKill
from station.engine.recovery import Expect
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, Steps, TellNotReopened


def check_blinds(hand: Hand, seq: int) -> None:
    """BLIND-POSITIONS: in a two-blind game the seats due for the blinds must have posted."""
    layout, st = hand.layout, hand.terms.stakes
    if layout is None or not st.sb or not st.bb:
        return
    for seat, amount, name in (
        (layout.small_blind, st.sb, "SMALL BLIND"),
        (layout.big_blind, st.bb, "BIG BLIND"),
    ):
        if seat is not None and seat in hand.seats and seat not in hand.chips.posts:
            ante = hand.chips.dead.get(seat, 0)
            stack = hand.terms.start_stacks.get(seat)
            short = stack is not None and st.bb_ante and stack < amount + st.bb_ante
            if name == "BIG BLIND" and ante and short:
                # BLIND-SHORT-BIG-BLIND (TDA-2024 RP-11): a short big blind's chips go to the
                # blind first, the big-blind ante takes what is left; the dealer took the ante
                # first and left too little for the blind.
                hand.incident(
                    seq,
                    Rule.BLIND_SHORT_BIG_BLIND,
                    Ruling.CORRECT_BET,
                    f"SEAT {seat} ANTE {ante} TAKEN BEFORE THE BIG BLIND: THE BIG BLIND "
                    f"({amount}) COMES FIRST, THE ANTE FROM WHAT IS LEFT",
                    seat=seat,
                )
                continue
            hand.incident(
                seq,
                Rule.BLIND_POSITIONS,
                Ruling.CORRECT_BET,
                f"SEAT {seat} MUST POST THE {name} ({amount}) BEFORE THE DEAL",
                seat=seat,
            )


def open_round(hand: Hand, seq: int) -> Steps:
    """Start betting round `hand.street` (its cards are out)."""
    hand.phase = Phase.BETTING
    hand.bets.closing = None
    street = hand.street
    size = hand.bet_size(street)
    live = hand.in_hand()
    hand.bets.last_kind = {}
    hand.chips.chips_due = {}
    hand.bets.raise_motion = {}
    for s in live:
        seat = hand.seats[s]
        seat.bet, seat.acted, seat.level, seat.full_seen = 0, False, 0, 0
    pot = sum(hand.chips.committed.values()) + sum(hand.chips.dead.values()) + hand.terms.carry
    kill = hand.terms.kill_post
    stud_kill = hand.spec.family is Family.STUD and street == 0 and kill is not None
    if hand.spec.family is Family.STUD and street == 0 and not stud_kill:
        stud.open_third_street(hand)
    if stud_kill and kill is not None:
        # KILL-POTS (004-GN r189): "If there is a kill in a stud game, there will be no bring
        # in and action starts left of the kill."
        i = hand.dealt.index(kill[0])
        ring = hand.dealt[i + 1 :] + hand.dealt[: i + 1]
        order = [s for s in ring if s in live]
    elif hand.spec.family is Family.STUD:
        order = _stud_order(hand, street)
    elif street == 0 and not hand.spec.bomb:
        assert hand.layout is not None
        order = [s for s in hand.layout.preflop_order(_last_forced(hand)) if s in live]
        if hand.terms.straddle is not None and hand.terms.straddle == hand.layout.button:
            # BLIND-STRADDLE (GN r160): with a button straddle the action begins under the
            # gun and the button acts last.
            order = [s for s in order if s != hand.terms.straddle] + [hand.terms.straddle]
    else:
        assert hand.layout is not None
        order = openers.order_after_draw(hand, hand.layout.postflop_order(live))
    rnd = BettingRound(
        seats=[hand.seats[s] for s in order],
        structure=hand.spec.structure,
        profile=hand.profile,
        bet_size=size,
        pot_before=pot,
        raise_cap=hand.raise_cap(),
        min_raise=size,
    )
    hand.bets.round = rnd
    if street == 0 and hand.spec.family is not Family.STUD and not hand.spec.bomb:
        _post_blinds(hand, rnd)
    if stud_kill and kill is not None and kill[0] in rnd:
        rnd.post(kill[0], kill[1])
        rnd.max_bet, rnd.opened = kill[1], True
        hand.chips.posts_booked = True
        _zone_for_round(hand, kill[0])
        hand.prompt(
            seq,
            f"KILL POT: NO BRING-IN. SEAT {kill[0]} KILLED FOR {kill[1]}; SEAT {order[0]} ACTS "
            "FIRST",
            PromptCode.ACTION,
        )
    elif street == 0 and hand.spec.family is Family.STUD:
        _announce_bring_in(hand, seq)
    elif hand.spec.family is Family.STUD:
        stud.announce_street(hand, seq)  # STUD-DEALER-ANNOUNCEMENTS
    if street == 0 and _absent_policy(hand) is AbsentKill.DEAL_END:
        for gone in sorted(hand.bets.absent & set(live)):
            _kill_absent(hand, gone, seq)
    return after_action(hand, seq)


def _absent_policy(hand: Hand) -> AbsentKill:
    p = hand.profile
    if p.tournament:
        return p.absent_kill_tournament
    if hand.spec.family is Family.STUD and p.absent_kill_cash is AbsentKill.NEVER:
        # DEAD-ABSENT, stud (001-RR11 §8 r8): "the hand will be killed when the betting
        # reaches your seat".
        return AbsentKill.TURN
    return p.absent_kill_cash


def _kill_absent(hand: Hand, seat: int, seq: int) -> None:
    """DEAD-ABSENT / TOURN-ABSENT: the absent player's hand is dead; his forced bets stay in
    the pot and the action goes on as if he had folded."""
    rule = Rule.TOURN_ABSENT if hand.profile.tournament else Rule.DEAD_ABSENT
    hand.incident(
        seq,
        rule,
        Ruling.DEAD_HAND,
        f"SEAT {seat} IS NOT AT THE TABLE: HAND DEAD, KILL IT",
        seat=seat,
    )
    hand.bets.absent.discard(seat)
    hand.seats[seat].folded = True
    hand.deal.slots = deque(slot for slot in hand.deal.slots if slot.seat != seat)
    hand.out.append(Action(hand.number, seq, seat, ActionKind.FOLD, hand.seats[seat].bet))


def _last_forced(hand: Hand) -> int | None:
    """The last seat of the run of forced bets after the button (small blind, big blind,
    straddles; a single-blind game has just one): the first round starts after it. Past
    the big blind only a post of at least twice the one before is a straddle: a returning
    player's big blind or a kill acts in turn (BLIND-MISSED, KILL-POTS)."""
    assert hand.layout is not None
    order = list(hand.layout.deal_order)
    if len(order) == 2:
        return hand.layout.big_blind  # heads-up: the button (small blind) acts first
    if hand.terms.straddle is not None and hand.terms.straddle != hand.layout.button:
        return hand.terms.straddle
    last, before, past_bb = None, 0, False
    killer = hand.terms.kill_post[0] if hand.terms.kill_post is not None else None
    for s in order:
        amount = hand.chips.posts.get(s, 0)
        if amount <= 0 or s == killer or (past_bb and amount < 2 * before):
            break
        last, before = s, amount
        past_bb = past_bb or s == hand.layout.big_blind
    if last is not None:
        return last
    if hand.layout.big_blind in hand.chips.posts:
        return hand.layout.big_blind  # a dead small blind: the big blind is still posted
    return order[-1]  # a button blind, or no blinds: action starts left of the button


def _post_blinds(hand: Hand, rnd: BettingRound) -> None:
    bb = hand.terms.stakes.bb or 0
    top = 0
    for s, amount in hand.chips.posts.items():
        if s in rnd:
            rnd.post(s, amount)
            top = max(top, amount)
            _zone_for_round(hand, s)
    rnd.max_bet = max(top, bb if hand.chips.posts else 0)
    hand.chips.posts_booked = True
    rnd.opened = rnd.max_bet > 0
    if hand.terms.straddle is not None and hand.terms.straddle in rnd and rnd.raise_cap is not None:
        rnd.raises += 1  # BLIND-STRADDLE (GN r125): a limit straddle counts for the cap
    if hand.spec.structure is not Structure.FIXED_LIMIT:
        # A straddle sets a new minimum bring-in: the next raise adds at least that much.
        rnd.min_raise = max(bb, rnd.max_bet)
        if (
            hand.spec.structure is Structure.POT_LIMIT
            and hand.profile.pl_sb_counts_as_bb
            and hand.layout is not None
            and hand.layout.small_blind in hand.chips.posts
        ):
            rnd.pl_blind_bonus = max(0, bb - hand.chips.posts[hand.layout.small_blind])


def _zone_for_round(hand: Hand, seat: int) -> None:
    """Align the physical offset so the zone shows offset + booked bet."""
    hand.chips.offset[seat] = hand.chips.zone.get(seat, 0) - hand.seats[seat].bet


def _stud_order(hand: Hand, street: int) -> list[int]:
    live = hand.in_hand()
    start = stud.round_starter(hand, street, live)
    i = hand.dealt.index(start)
    ring = hand.dealt[i:] + hand.dealt[:i]
    return [s for s in ring if s in live]


def _announce_bring_in(hand: Hand, seq: int) -> None:
    text = stud.bring_in_prompt(hand)
    if text is not None:
        hand.prompt(seq, text, PromptCode.ACTION)


def after_action(hand: Hand, seq: int) -> Steps:
    """Close the round if it is complete; end the hand if one player is left. When the action
    reaches a seat that acted out of turn, his held action follows (BET-OUT-OF-TURN)."""
    rnd = hand.bets.round
    if rnd is None or hand.phase is not Phase.BETTING:
        return NOTHING
    hand.alerts.progress += 1
    if hand.faults.holder is not None:
        irregular.irregular_card_acted_on(hand, seq)
    if hand.one_left():
        settlement.collect(hand)
        settlement.end(hand, seq)
        return NOTHING
    if hand.bring_in_pending():
        return NOTHING
    complete = rnd.complete()
    if not complete and hand.bets.absent and _absent_policy(hand) is AbsentKill.TURN:
        while (seat := rnd.to_act()) is not None and seat in hand.bets.absent:
            _kill_absent(hand, seat, seq)  # USPA §3.3.2.12: absent when his turn comes
        if hand.one_left():
            settlement.collect(hand)
            settlement.end(hand, seq)
            return NOTHING
        complete = rnd.complete()
    if not complete:
        if hand.conduct.pending:
            held = irregular.apply_pending_oot(hand, seq)
            if held:
                return (*held, TellNotReopened(seq))
        _tell_not_reopened(hand, rnd, seq)
        return NOTHING
    # The round is booked: chips of a declared wager that the zone has not shown yet go in
    # with the rest (the zone then reads them as this street's chips, not a new bet).
    closing = _closing(hand, rnd)
    hand.chips.chips_due.clear()
    if openers.passed_out(hand, seq):
        settlement.pass_out(hand, seq)
        return NOTHING
    settlement.collect(hand)
    irregular.round_complete(hand, seq)
    _next_street(hand, seq)
    if closing is not None and hand.result is None and hand.repair.recovery is None:
        closing.progress = hand.alerts.progress
        hand.bets.closing = closing
    return NOTHING


def _closing(hand: Hand, rnd: BettingRound) -> Closing | None:
    """What closing `rnd` is about to change, kept so a verbal declaration just after the last
    chips can reopen it (`reopen`); None when the close cannot be undone simply (an action held
    out of turn, a recovery under way, a run of several boards)."""
    if hand.conduct.pending or hand.repair.recovery is not None or hand.show.runs > 1:
        return None
    return Closing(
        round=rnd,
        street=hand.street,
        bets={s.seat: s.bet for s in rnd.seats},
        pusher=hand.bets.pusher,
        last_aggressor=hand.bets.last_aggressor,
        chips_due=dict(hand.chips.chips_due),
        street_log=list(hand.deal.street_log),
        skip_next_burn=hand.repair.skip_next_burn,
        extra_burns=hand.repair.extra_burns,
        predraw=None if hand.conduct.predraw is None else dict(hand.conduct.predraw),
    )


def reopen(hand: Hand, seat: int) -> bool:
    """BET-VERBAL-BINDING (001-RR11 §3 r9): the seat's chips closed the round, and before any
    card or other action he says what he meant (a raise, say): the declaration takes precedence,
    so the round is open again as it was just after his chips (the street's cards, or the
    showdown, are called back). True when it was reopened."""
    c = hand.bets.closing
    hand.bets.closing = None
    if (
        c is None
        or hand.result is not None
        or c.progress != hand.alerts.progress
        or c.round.last_actor != seat
        or hand.repair.recovery is not None
    ):
        return False
    hand.street = c.street
    hand.phase = Phase.BETTING
    hand.bets.round = c.round
    for s, bet in c.bets.items():
        hand.seats[s].bet = bet
        hand.chips.committed[s] -= bet
        hand.chips.offset[s] = hand.chips.offset.get(s, 0) - bet
    hand.bets.pusher, hand.bets.last_aggressor = c.pusher, c.last_aggressor
    hand.chips.chips_due = dict(c.chips_due)
    hand.deal.slots.clear()
    hand.deal.street_log = c.street_log
    hand.repair.skip_next_burn, hand.repair.extra_burns = c.skip_next_burn, c.extra_burns
    hand.conduct.predraw = c.predraw
    hand.draws.pending = []
    return True


def tell_not_reopened(hand: Hand, seq: int) -> None:
    """BET-INFO-RIGHTS (001-RR11 §2 "Decision-Making" r9): before he acts a player is entitled
    to know whether a wager is big enough to reopen the betting; the station says it when it is
    not, as the action reaches him."""
    rnd = hand.bets.round
    if rnd is not None and hand.phase is Phase.BETTING and not rnd.complete():
        _tell_not_reopened(hand, rnd, seq)


def _tell_not_reopened(hand: Hand, rnd: BettingRound, seq: int) -> None:
    """`tell_not_reopened` for the round in progress, known to be incomplete."""
    seat = rnd.next_to_act()
    if seat is None or not rnd.not_reopened(seat):
        return
    told = (hand.street, seat, rnd.max_bet)
    if told in hand.bets.info_told:
        return
    hand.bets.info_told.add(told)
    hand.prompt(
        seq,
        f"SEAT {seat}: CALL {rnd.to_call(seat)} OR FOLD - THE BETTING WAS NOT REOPENED",
        PromptCode.ACTION,
    )


def _next_street(hand: Hand, seq: int) -> None:
    """The round is complete: the next board of a run, the next street, or the showdown."""
    if hand.street >= hand.spec.rounds - 1:
        if len(hand.show.boards) + 1 < hand.show.runs:
            # RIT (004-GN r204): the next board is dealt the same way, from the same street.
            hand.show.boards.append(list(hand.deal.board))
            hand.deal.board = list(hand.show.shared_board)
            hand.street = hand.show.run_from - 1
            hand.prompt(seq, f"BOARD {len(hand.show.boards) + 1}:", PromptCode.INFO)
        else:
            settlement.showdown(hand, seq)
            return
    hand.street += 1
    if hand.spec.family is Family.STUD:
        stud.check_shortage(hand, seq)  # STUD-CARD-SHORTAGE: counted before the street
    rec = hand.repair.recovery
    if rec is not None and rec.current is not None and rec.current.expect is Expect.RESHUFFLE:
        hand.phase = Phase.STREET
        hand.repair.awaiting_reshuffle = True
        hand.prompt(seq, "RESHUFFLE THE STUB, THEN PRESS STUB RESHUFFLE", PromptCode.RECOVERY)
        return
    deal_street(hand, seq)


def deal_street(hand: Hand, seq: int) -> None:
    """The betting closed and another street is due: plan its cards (a draw round in draw
    games) and tell the dealer."""
    if hand.spec.family is Family.DRAW or (
        hand.spec.draw_after and hand.street == hand.spec.draw_after + 1
    ):
        draw_round.open_draw(hand, seq)  # Drawmaha: the draw, then the turn and the draw cards
        return
    hand.phase = Phase.STREET
    deal_plan.plan_street(hand, hand.street)
    first = discard_round.open_discards(hand) if discard_round.due_now(hand) else ""
    hand.prompt(seq, first + deal_plan.street_prompt(hand, hand.street), PromptCode.BURN_AND_DEAL)


def open_short_deal(hand: Hand, seq: int) -> Steps:
    """MISDEAL-WRONG-CARD-COUNT: action began with the last starting card still due. The
    first betting round opens; the card keeps its slot and goes to its seat when drawn."""
    hand.street = 0
    return open_round(hand, seq)


def street_dealt(hand: Hand, seq: int) -> Steps:
    """The street's cards are out (after a correction): open its betting round."""
    hand.deal.slots.clear()
    irregular.street_cards_done(hand)
    return open_round(hand, seq)


def resume_after_reshuffle(hand: Hand, seq: int) -> Steps:
    """STUB_RESHUFFLE done: deal the street the recovery was holding back (or go on with the
    cards already expected: a stub that ran out in the middle of a street or a draw)."""
    if hand.repair.awaiting_reshuffle:
        hand.repair.awaiting_reshuffle = False
        if hand.phase is Phase.DRAWING:
            return draw_round.plan_draws(hand, seq)
        if not hand.deal.slots:
            deal_street(hand, seq)
    return NOTHING


def live_players(hand: Hand) -> int:
    """Players still in the hand who are not all-in."""
    return sum(1 for s in hand.in_hand() if not hand.seats[s].allin)


def round_skippable(hand: Hand) -> bool:
    """No betting is possible: at most one player can still act."""
    return live_players(hand) <= 1
