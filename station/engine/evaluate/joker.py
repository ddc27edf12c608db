"""Draw high with the joker (the "bug"): an ace, or a card that completes a straight or flush. Pure.

001-RR11 §12 "The Joker": "2. The joker may be used only as an ace, or to complete a straight,
flush, or straight flush. (Thus it is not a completely wild card.) 3. If the joker is used to make
a flush, it will be the highest card of the flush not present in the hand. 4. Five aces is the
best possible hand (four aces and joker)."

So the joker never pairs a king: K-K-joker is a pair of kings with an ace kicker, and A-joker is a
pair of aces. The value is the best of: the joker as an extra ace (pairs, trips, quads, five
aces, and the straights an ace makes), the joker as any rank that makes a straight, and the joker
as a missing card of a suit that holds every other card of the five (flush, straight flush).
Five aces rank above a royal flush (category code 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from station.engine.cards import Card
from station.engine.evaluate.codes import CAT_CODE, RANK_FIELD, RANK_KEY, Cat, Mode, pack
from station.engine.evaluate.high import high_value, pick_five
from station.engine.evaluate.rankvalue import flush_value, nonflush_value

FIVE_ACES_CODE = 9  # above the straight flush (8)
_ACE_KEY = 1 << (RANK_FIELD * (14 - 2))
_STRAIGHT = CAT_CODE[Mode.STANDARD][Cat.STRAIGHT]


def _rank_key(rank: int) -> int:
    return 1 << (RANK_FIELD * (rank - 2))


def _five_with_joker(four: Sequence[Card]) -> int:
    """The value of four natural cards and the joker, by the rules above."""
    rk = 0
    for c in four:
        rk += RANK_KEY[c.index]
    if rk & (7 << (RANK_FIELD * 12)) == 4 * _ACE_KEY:
        return pack(FIVE_ACES_CODE, [14])
    best = nonflush_value(rk + _ACE_KEY, Mode.STANDARD)  # the joker as an ace
    present = {c.rank for c in four}
    if len(present) == 4:
        for r in range(2, 14):  # the joker completing a straight (the ace is done above)
            if r not in present:
                v = nonflush_value(rk + _rank_key(r), Mode.STANDARD)
                if v >> 20 == _STRAIGHT:
                    best = max(best, v)
        suits = {c.suit for c in four}
        if len(suits) == 1:
            # Flush: the highest card of the suit not present; a straight flush if a missing
            # rank completes one.
            for r in range(14, 1, -1):
                if r not in present:
                    best = max(best, flush_value(rk + _rank_key(r), Mode.STANDARD))
    return best


def joker_high_value(cards: Sequence[Card]) -> int:
    """Value of the best five of `cards` (at least five, at most one joker) in draw high."""
    jokers = [c for c in cards if c.is_joker]
    natural = [c for c in cards if not c.is_joker]
    if not jokers:
        return high_value(natural, Mode.STANDARD)
    best = high_value(natural, Mode.STANDARD) if len(natural) >= 5 else -1
    for four in combinations(natural, 4):
        best = max(best, _five_with_joker(four))
    return best


def joker_high_cards(cards: Sequence[Card], value: int) -> tuple[Card, ...]:
    """The five cards that make `value`, in reading order; the joker last when it plays."""
    natural = [c for c in cards if not c.is_joker]
    if len(natural) == len(cards):
        return pick_five(cards, value, Mode.STANDARD)
    if len(natural) >= 5 and high_value(natural, Mode.STANDARD) == value:
        return pick_five(natural, value, Mode.STANDARD)
    joker = next(c for c in cards if c.is_joker)
    for four in combinations(natural, 4):
        if _five_with_joker(four) == value:
            ordered = sorted(four, key=lambda c: c.rank, reverse=True)
            return (*ordered, joker)
    raise AssertionError("joker hand not found")  # pragma: no cover
