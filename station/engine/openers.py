"""Draw high's opener: who acts first after the draw, and openers in jacks-or-better. Pure.

DRAW-OPENER (001-RR11 §12 intro): "Action after the draw starts with the opener, or next player
proceeding clockwise if the opener has folded." The opener is the first player to bet before the
draw (draw high is played with an ante and no blinds).

JACKS-OR-BETTER (the catalog's rule from the private-game and USPA rulebooks; 001-RR11 §12 intro:
"others require the opener to have a pair of jacks or better"): "Any player who has legally
declared the pot opened must prove openers in order to win the pot." The station reads the
opener's five cards when he opens, so at the showdown it knows whether he had openers: without
them his hand cannot win and the best other hand takes the pot. "If no player opens the pot, the
button moves forward and each player must ante again" (r1): the hand ends with the antes in the
pot for the next deal (`passed_out`); how many deals the antes go on is the dealer's (the ante
limit the rule mentions is not kept by the station).
"""

from __future__ import annotations

from station.engine.cards import Card
from station.engine.decisions import ActionKind, Ruling
from station.engine.evaluate import HandKind, evaluate
from station.engine.evaluate.codes import CAT_CODE, Cat, Mode, unpack
from station.engine.games import Family, HighEval
from station.engine.hand import Hand
from station.engine.positions import clockwise_after
from station.engine.rule_ids import Rule

_PAIR = CAT_CODE[Mode.STANDARD][Cat.PAIR]


def _draw_high(hand: Hand) -> bool:
    return hand.spec.family is Family.DRAW and hand.spec.high is HighEval.JOKER


def note_open(hand: Hand, seat: int, kind: ActionKind) -> None:
    """A wager was booked: the first bet before the draw opens the pot."""
    if (
        kind is ActionKind.BET
        and hand.street == 0
        and hand.draws.opener is None
        and _draw_high(hand)
    ):
        hand.draws.opener = seat
        hand.draws.opener_cards = tuple(c for c, _ in hand.deal.cards.get(seat, ()))


def order_after_draw(hand: Hand, order: list[int]) -> list[int]:
    """DRAW-OPENER: the round after the draw starts with the opener, or the next player
    clockwise when he has folded."""
    opener = hand.draws.opener
    if not _draw_high(hand) or opener is None or hand.street == 0 or not order:
        return order
    return clockwise_after(order, (opener - 2) % 10 + 1)


def has_openers(cards: tuple[Card, ...], pair: int) -> bool:
    """A pair of `pair` (11 = jacks) or better among five cards (the joker only as an ace)."""
    value = evaluate(HandKind.HIGH_JOKER, cards)
    if value is None:
        return False
    code, ranks = unpack(value.score)
    return code > _PAIR or (code == _PAIR and ranks[0] >= pair)


def false_opener(hand: Hand, contenders: set[int], seq: int) -> set[int]:
    """JACKS-OR-BETTER at the showdown: the contenders less an opener who cannot prove
    openers (when another hand is left to win the pot)."""
    need, opener = hand.spec.openers, hand.draws.opener
    if not need or opener is None or opener not in contenders or len(contenders) < 2:
        return contenders
    if has_openers(hand.draws.opener_cards, need):
        return contenders
    cards = " ".join(c.code for c in hand.draws.opener_cards)
    hand.incident(
        seq,
        Rule.JACKS_OR_BETTER,
        Ruling.DEAD_HAND,
        f"SEAT {opener} OPENED WITHOUT JACKS OR BETTER ({cards}): HE CANNOT PROVE OPENERS, "
        "HIS HAND CANNOT WIN THE POT",
        seat=opener,
    )
    return contenders - {opener}


def passed_out(hand: Hand, seq: int) -> bool:
    """JACKS-OR-BETTER r1: the betting before the draw is over and nobody opened. Says so (the
    antes stay in the pot, everyone antes again) and returns True; the caller ends the hand."""
    rnd = hand.bets.round
    if not hand.spec.openers or hand.street != 0 or rnd is None or rnd.max_bet > 0:
        return False
    antes = sum(hand.chips.dead.values()) + hand.terms.carry
    hand.incident(
        seq,
        Rule.JACKS_OR_BETTER,
        Ruling.WARNING,
        f"NOBODY OPENED: THE ANTES ({antes}) STAY IN THE POT. MOVE THE BUTTON, EVERYONE "
        "ANTES AGAIN",
    )
    return True
