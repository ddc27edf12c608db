"""High-hand evaluators: best five of any cards, short deck, Omaha (two hole + three board). Pure.

The hot path sums the cards' keys (codes.py: one addition per card), looks the rank multiset up in a
memo and only when a suit holds five cards looks at that suit's ranks. The cards of the winning
five are picked afterwards, from the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from station.engine.cards import Card
from station.engine.evaluate.codes import (
    CAT_OF_CODE,
    FIVE_SAME_SUIT_ADD,
    FIVE_SAME_SUIT_TEST,
    JOKER_FLAG,
    KEY,
    RANK_KEY,
    RANK_MASK,
    SUIT_SHIFT,
    Cat,
    Mode,
    unpack,
)
from station.engine.evaluate.rankvalue import flush_value, nonflush_cache, nonflush_value

# How many cards of each listed rank a category uses (flushes and straights are handled apart).
_PATTERN: dict[Cat, tuple[int, ...]] = {
    Cat.QUADS: (4, 1),
    Cat.FULL_HOUSE: (3, 2),
    Cat.TRIPS: (3, 1, 1),
    Cat.TWO_PAIR: (2, 2, 1),
    Cat.PAIR: (2, 1, 1, 1),
    Cat.HIGH_CARD: (1, 1, 1, 1, 1),
}


class JokerNotPlayedError(ValueError):
    """A joker reached an evaluator of a game form that does not play one."""


def _flush_part(cards: Sequence[Card], suits: int, mode: Mode) -> int:
    best = 0
    for s in range(4):
        if (suits >> (4 * s)) & 0xF >= 5:
            rk = 0
            for c in cards:
                if c.suit_rank == s:
                    rk += RANK_KEY[c.index]
            best = max(best, flush_value(rk, mode))
    return best


def high_value(cards: Sequence[Card], mode: Mode = Mode.STANDARD) -> int:
    """The value of the best five of `cards` (at least five, no joker) as a high hand."""
    k = 0
    for c in cards:
        k += KEY[c.index]
    if k >= JOKER_FLAG:
        raise JokerNotPlayedError("this game form does not play a joker")
    cache = nonflush_cache(mode)
    rk = k & RANK_MASK
    v = cache.get(rk)
    if v is None:
        v = nonflush_value(rk, mode)
    suits = k >> SUIT_SHIFT
    if (suits + FIVE_SAME_SUIT_ADD) & FIVE_SAME_SUIT_TEST:
        fv = _flush_part(cards, suits, mode)
        v = max(v, fv)
    return v


def omaha_high_value(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best high hand of exactly two hole cards and three board cards, with its five cards."""
    if any(c.is_joker for c in hole) or any(c.is_joker for c in board):
        raise JokerNotPlayedError("Omaha does not play a joker")
    cache = nonflush_cache(Mode.STANDARD)
    pairs = [(KEY[a.index] + KEY[b.index], (a, b)) for a, b in combinations(hole, 2)]
    trips = [
        (KEY[a.index] + KEY[b.index] + KEY[c.index], (a, b, c))
        for a, b, c in combinations(board, 3)
    ]
    best = -1
    best_cards: tuple[Card, ...] = ()
    for pk, pc in pairs:
        for tk, tc in trips:
            k = pk + tk
            rk = k & RANK_MASK
            v = cache.get(rk)
            if v is None:
                v = nonflush_value(rk, Mode.STANDARD)
            if ((k >> SUIT_SHIFT) + FIVE_SAME_SUIT_ADD) & FIVE_SAME_SUIT_TEST:
                fv = flush_value(rk, Mode.STANDARD)  # five cards of one suit: all ranks distinct
                v = max(v, fv)
            if v > best:
                best, best_cards = v, pc + tc
    return best, best_cards


def straight_ranks(top: int, mode: Mode) -> list[int]:
    """The ranks of the straight with this top card, in reading order (the wheel's ace last)."""
    ranks = list(range(top, top - 5, -1))
    if (mode is Mode.STANDARD and top == 5) or (mode is Mode.SHORT_DECK and top == 9):
        ranks[-1] = 14
    return ranks


def pick_five(pool: Sequence[Card], value: int, mode: Mode) -> tuple[Card, ...]:
    """The five cards of `pool` that make `value`, in reading order (K-K-K-7-7, 9-8-7-6-5, ...)."""
    code, slots = unpack(value)
    cat = CAT_OF_CODE[mode][code]
    if cat in (Cat.STRAIGHT_FLUSH, Cat.FLUSH):
        ranks = straight_ranks(slots[0], mode) if cat is Cat.STRAIGHT_FLUSH else slots
        for suit in "cdhs":
            by_rank = {c.rank: c for c in pool if c.suit == suit}
            if all(r in by_rank for r in ranks):
                return tuple(by_rank[r] for r in ranks)
        raise AssertionError("flush cards not found")  # pragma: no cover
    counts: tuple[int, ...]
    if cat is Cat.STRAIGHT:
        ranks, counts = straight_ranks(slots[0], mode), (1, 1, 1, 1, 1)
    else:
        counts = _PATTERN[cat]
        ranks = slots[: len(counts)]
    out: list[Card] = []
    for r, n in zip(ranks, counts, strict=True):
        out.extend([c for c in pool if c.rank == r][:n])
    return tuple(out)
