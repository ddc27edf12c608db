"""Mexican poker (Mexican stud) hands: 41 cards, one joker, five cards each. Pure.

004-GN §IX "Mexican Poker" r248-r254: the 8s, 9s and 10s are out and one joker is in, so the ranks
run 2-3-4-5-6-7-J-Q-K-A and 7 and J are consecutive (5-6-7-J-Q is a straight, r253; 7-J-Q-K-A the
highest, A-2-3-4-5 the lowest). A flush beats a full house, and five of a kind is the highest hand
(r254). The joker is wild: dealt down it may be any card (r248; a joker the dealer exposes still
plays so, r251); dealt up (or shown by its owner) it is an ace, or any card that completes a
straight or a flush (r248). Hands with and without the joker are of equal value (r250): a tie is a
tie.

The score is `category << 20` then five 4-bit positions in the rank order above (2 = 1 ... A = 10),
the most important first; higher is better.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import product

from station.engine.cards import Card

ORDER: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 11, 12, 13, 14)  # ranks in play, lowest first
_POS = {r: i + 1 for i, r in enumerate(ORDER)}  # rank -> 1..10
_SUITS = "cdhs"


class MexCat(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FLUSH = 6  # beats a full house (r254)
    QUADS = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9


def _straight_top(positions: set[int]) -> int:
    """The top position of a five-card straight in `positions` (five distinct), or 0."""
    if len(positions) != 5:
        return 0
    if max(positions) - min(positions) == 4:
        return max(positions)
    if positions == {10, 1, 2, 3, 4}:  # A-2-3-4-5
        return 4
    return 0


def _pack(cat: MexCat, ranks: Sequence[int]) -> int:
    value = int(cat)
    for r in ranks[:5]:
        value = (value << 4) | r
    value <<= 4 * (5 - min(5, len(ranks)))
    return value


def _five(cards: Sequence[tuple[int, str]]) -> int:
    """Score of exactly five natural cards (rank, suit), repeats allowed (a joker's choice)."""
    pos = [_POS[r] for r, _ in cards]
    counts = Counter(pos)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    ranks = [p for p, _ in groups]
    flush = len({s for _, s in cards}) == 1
    top = _straight_top(set(pos))
    if shape[0] == 5:
        return _pack(MexCat.FIVE_OF_A_KIND, ranks)
    if top and flush:
        return _pack(MexCat.STRAIGHT_FLUSH, [top])
    if shape[0] == 4:
        return _pack(MexCat.QUADS, ranks)
    if flush:
        return _pack(MexCat.FLUSH, sorted(pos, reverse=True))
    if shape == (3, 2):
        return _pack(MexCat.FULL_HOUSE, ranks)
    if top:
        return _pack(MexCat.STRAIGHT, [top])
    if shape[0] == 3:
        return _pack(MexCat.TRIPS, ranks)
    if shape[:2] == (2, 2):
        return _pack(MexCat.TWO_PAIR, ranks)
    if shape[0] == 2:
        return _pack(MexCat.PAIR, ranks)
    return _pack(MexCat.HIGH_CARD, ranks)


def mexican_score(cards: Sequence[Card], *, wild: bool) -> int:
    """Best score of five cards, the joker (if any) fully wild (`wild`) or limited to an ace, a
    straight or a flush. Fewer than five cards are scored as they are (a partial hand)."""
    natural = [(c.rank, c.suit) for c in cards if not c.is_joker]
    jokers = len(cards) - len(natural)
    if not jokers:
        return _five(natural) if len(natural) == 5 else _partial(natural)
    best = -1
    choices = [(r, s) for r in ORDER for s in _SUITS]
    for pick in product(choices, repeat=jokers):
        hand = natural + list(pick)
        if len(hand) != 5:
            score = _partial(hand)
        else:
            score = _five(hand)
            if not wild and not _bug_allows(natural, list(pick), score):
                continue
        best = max(best, score)
    return best


def _bug_allows(natural: list[tuple[int, str]], pick: list[tuple[int, str]], score: int) -> bool:
    """An up joker plays as an ace, or as the card completing a straight or a flush (r248)."""
    if all(r == 14 for r, _ in pick):
        return True
    cat = MexCat(score >> 20)
    return cat in (MexCat.STRAIGHT, MexCat.FLUSH, MexCat.STRAIGHT_FLUSH)


def _partial(cards: Sequence[tuple[int, str]]) -> int:
    """Fewer than five cards: pairs and ranks only (for a hand folded short)."""
    counts = Counter(_POS[r] for r, _ in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    ranks = [p for p, _ in groups]
    cat = MexCat.HIGH_CARD
    if shape and shape[0] >= 4:
        cat = MexCat.QUADS
    elif shape and shape[0] == 3:
        cat = MexCat.TRIPS
    elif shape[:2] == (2, 2):
        cat = MexCat.TWO_PAIR
    elif shape and shape[0] == 2:
        cat = MexCat.PAIR
    return _pack(cat, ranks)


def showing_key(cards: Sequence[Card]) -> int:
    """The up-cards as a hand for who acts first (r249-r250): an up joker counts as an ace."""
    return _partial([(14 if c.is_joker else c.rank, c.suit or "s") for c in cards])
