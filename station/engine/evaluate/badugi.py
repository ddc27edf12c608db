"""Badugi evaluator. Pure.

004-GN r290-r291: a badugi is four cards of different suits and ranks, the best being A-2-3-4 of
four suits; with no four-card badugi at the showdown the best three-, two- or one-card badugi wins
(aces are low). More cards always beat fewer; among hands of the same size the one whose highest
card is lower wins, then the next card, and so on.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from station.engine.cards import Card
from station.engine.evaluate.codes import LOW_BIT, low_ranks_desc
from station.engine.evaluate.high import JokerNotPlayedError

BADUGI_SIZE_SHIFT = 20
BADUGI_RANKS = 0xFFFF


def badugi_score(size: int, mask: int) -> int:
    """Score of a badugi of `size` cards with rank mask `mask`: more cards first, then lower."""
    packed = 0
    for r in low_ranks_desc(mask):
        packed = (packed << 4) | r
    return (size << BADUGI_SIZE_SHIFT) | (BADUGI_RANKS - packed)


def badugi(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """Best badugi of `cards` (score, higher is better; cards, highest rank first), None if none."""
    if any(c.is_joker for c in cards):
        raise JokerNotPlayedError("badugi does not play a joker")
    for size in range(min(4, len(cards)), 0, -1):
        best_mask = 0
        best: tuple[Card, ...] = ()
        for combo in combinations(cards, size):
            suits = 0
            ranks = 0
            for c in combo:
                suits |= 1 << c.suit_rank
                ranks |= LOW_BIT[c.index]
            # Distinct ranks: comparing the masks compares the highest card first.
            if (
                suits.bit_count() == size
                and ranks.bit_count() == size
                and (not best_mask or ranks < best_mask)
            ):
                best_mask, best = ranks, combo
        if best:
            ordered = tuple(sorted(best, key=lambda c: c.low_rank, reverse=True))
            return badugi_score(size, best_mask), ordered
    return None
