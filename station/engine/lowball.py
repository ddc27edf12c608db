"""Limit ace-to-five lowball betting rules: no check-raise, the sevens rule. Pure.

001-RR11 §11 "Ace-to-Five Lowball" r2: "In limit play, check-raise is not permitted (unless the
players are alerted that it is allowed)" (LOWBALL-CHECK-RAISE; GN permits it, catalog D58).

r4: "In limit play, the 'sevens rule' is assumed to be in use ... If you check a seven or better
and it is the best hand, all action after the draw is void, and you cannot win any money on any
subsequent bets. You are still eligible to win whatever existed in the pot before the draw if you
have the best hand." (LOWBALL-SEVENS-RULE; profile switch `sevens_rule`, catalog D59.) The rule
is applied to single-draw A-5; the all-in exceptions of the same rule are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence

from station.engine.cards import Card
from station.engine.decisions import Ruling
from station.engine.games import Family, LowEval, Structure
from station.engine.hand import Hand
from station.engine.rule_ids import Rule
from station.engine.showdown import Reader


def _limit_a5(hand: Hand) -> bool:
    spec = hand.spec
    return (
        spec.family is Family.DRAW
        and spec.low is LowEval.A5
        and spec.structure is Structure.FIXED_LIMIT
    )


def check_raise(hand: Hand, seat: int, total: int, seq: int) -> int:
    """LOWBALL-CHECK-RAISE: a raise by a seat that checked earlier in the round. Returns the
    wager that stands: the call when a check-raise is not permitted, otherwise `total`."""
    rnd = hand.bets.round
    if (
        rnd is None
        or not _limit_a5(hand)
        or hand.profile.a5_limit_check_raise
        or (hand.street, seat) not in hand.conduct.checks
        or rnd.max_bet <= 0
        or total <= rnd.max_bet
    ):
        return total
    call = rnd.max_bet
    hand.incident(
        seq,
        Rule.LOWBALL_CHECK_RAISE,
        Ruling.CORRECT_BET,
        f"SEAT {seat} CHECKED: CHECK-RAISE IS NOT PERMITTED. ONLY A CALL OF {call} STANDS, "
        f"TAKE BACK {total - call}",
        seat=seat,
    )
    return call


def seven_or_better(cards: Sequence[Card]) -> bool:
    """Five cards of different ranks, the highest a seven or lower (ace low; a joker is the
    lowest rank missing, 001-RR11 §11 A-5 r1)."""
    if len(cards) != 5:
        return False
    ranks = [c.low_rank for c in cards if not c.is_joker]
    if len(set(ranks)) != len(ranks):
        return False
    for _ in range(5 - len(ranks)):
        ranks.append(next(r for r in range(1, 14) if r not in ranks))
    return max(ranks) <= 7


def sevens_rule(hand: Hand, contenders: set[int], seq: int) -> dict[int, int]:
    """LOWBALL-SEVENS-RULE at the showdown: when a seat that checked a seven or better after the
    draw has the best hand, the chips each seat put in after the draw go back to it. Returns
    those chips per seat (empty when the rule does not apply)."""
    pre = hand.conduct.predraw
    if (
        not _limit_a5(hand)
        or hand.spec.draws != 1
        or not hand.profile.sevens_rule
        or pre is None
        or len(contenders) < 2
    ):
        return {}
    hands = hand.hands_for_showdown()
    checked = [
        s for s in contenders if (1, s) in hand.conduct.checks and seven_or_better(hands.get(s, []))
    ]
    if not checked:
        return {}
    reader = Reader.of(hand.spec, hands, hand.deal.board)
    scores = {s: v.score for s in contenders if (v := reader.low(s)) is not None}
    if not scores:
        return {}
    top = max(scores.values())
    offender = next((s for s in sorted(checked) if scores.get(s) == top), None)
    if offender is None:
        return {}
    after = {s: c - pre.get(s, 0) for s, c in hand.chips.committed.items() if c > pre.get(s, 0)}
    if not after:
        return {}
    hand.incident(
        seq,
        Rule.LOWBALL_SEVENS_RULE,
        Ruling.CORRECT_BET,
        f"SEVENS RULE: SEAT {offender} CHECKED A SEVEN OR BETTER AND HAS THE BEST HAND. ACTION "
        "AFTER THE DRAW IS VOID: THOSE BETS GO BACK; SEAT "
        f"{offender} WINS ONLY THE POT BEFORE THE DRAW",
        seat=offender,
    )
    return after
