"""Low-hand evaluators: ace-to-five (razz, A-5 lowball), 8 or better, Omaha 8 or better, 2-7. Pure.

Ace-to-five (001-RR11 §11 "Ace-to-Five Lowball"): the ace is the lowest card, straights and flushes
do not count, any hand without a pair beats any hand with one, A-A beats 2-2; a joker becomes the
lowest card not present in the hand (ibid. r1). With five different ranks among the cards the best
low is simply the five lowest ranks, a bit-mask operation; only hands that must play a pair fall
back to trying every five-card combination.

Eight or better (001-RR11 §7 r2, §10 intro): five cards of different ranks, eight or lower.

Deuce-to-seven (001-RR11 §11 "Deuce-to-Seven Lowball", 004-GN r279-r280): the worst conventional
hand wins; straights and flushes count, the ace is high only, so 5-4-3-2-A is ace-five high.

All functions return a value where LOWER IS BETTER (the public score inverts it) and the cards
that make the hand in reading order, or None when no (qualifying) hand exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from station.engine.cards import JOKER, Card
from station.engine.evaluate.codes import (
    EIGHT_OR_BETTER_BITS,
    JOKER_LOW_FLAG,
    LOW_BIT,
    LOW_RANK_BITS,
    LowCat,
    Mode,
    low_ranks_desc,
    lowest_bits,
    pack,
)
from station.engine.evaluate.high import JokerNotPlayedError, high_value, pick_five

Low = tuple[int, tuple[Card, ...]]

_SHAPES: dict[tuple[int, ...], LowCat] = {
    (1, 1, 1, 1, 1): LowCat.NO_PAIR,
    (2, 1, 1, 1): LowCat.PAIR,
    (2, 2, 1): LowCat.TWO_PAIR,
    (3, 1, 1): LowCat.TRIPS,
    (3, 2): LowCat.FULL_HOUSE,
    (4, 1): LowCat.QUADS,
}
_NO_PAIR: dict[
    int, tuple[int, tuple[int, ...]]
] = {}  # rank mask -> (value of its five lowest, ranks)


def _no_pair(mask: int) -> tuple[int, tuple[int, ...]]:
    """Value and ranks (highest first) of the five lowest ranks of a mask of at least five."""
    found = _NO_PAIR.get(mask)
    if found is None:
        ranks = low_ranks_desc(lowest_bits(mask, 5))
        found = _NO_PAIR[mask] = (pack(LowCat.NO_PAIR, ranks), tuple(ranks))
    return found


def _cards_for_ranks(
    cards: Sequence[Card], ranks: Sequence[int], joker_rank: int
) -> tuple[Card, ...]:
    by_rank = {c.low_rank: c for c in reversed(cards)}  # the first card of each rank wins
    return tuple(JOKER if r == joker_rank else by_rank[r] for r in ranks)


def _a5_five(five: Sequence[Card]) -> Low:
    """Value of exactly five cards ace-to-five, the joker as the lowest rank missing from them."""
    ranks = [c.low_rank for c in five if not c.is_joker]
    virtual: dict[int, int] = {}
    for i, c in enumerate(five):
        if c.is_joker:
            r = next(r for r in range(1, 14) if r not in ranks)
            ranks.append(r)
            virtual[i] = r
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    cat = _SHAPES[tuple(n for n, _ in groups)]
    value = pack(cat, [r for _, r in groups])
    order = sorted(
        range(5),
        key=lambda i: (counts[virtual.get(i, five[i].low_rank)], virtual.get(i, five[i].low_rank)),
        reverse=True,
    )
    return value, tuple(five[i] for i in order)


def a5_low(cards: Sequence[Card], *, eight_or_better: bool = False) -> Low | None:
    """Best ace-to-five low of any five of `cards`; with `eight_or_better` only 8-or-better lows."""
    if len(cards) < 5:
        return None
    m = 0
    for c in cards:
        m |= LOW_BIT[c.index]
    allowed = EIGHT_OR_BETTER_BITS if eight_or_better else LOW_RANK_BITS
    joker_bit = 0
    if m & JOKER_LOW_FLAG:
        free = ~m & allowed
        joker_bit = free & -free
    m = (m & allowed) | joker_bit
    if m.bit_count() >= 5:
        value, ranks = _no_pair(m)
        return value, _cards_for_ranks(cards, ranks, joker_bit.bit_length() - 1)
    if eight_or_better:
        return None  # fewer than five different ranks 8 or lower: no qualifying low
    best: Low | None = None
    for five in combinations(cards, 5):
        low = _a5_five(five)
        if best is None or low[0] < best[0]:
            best = low
    return best


def omaha_low8(hole: Sequence[Card], board: Sequence[Card]) -> Low | None:
    """Best 8-or-better low of exactly two hole and three board cards (001-RR11 §7 r2)."""
    if any(c.is_joker for c in hole) or any(c.is_joker for c in board):
        raise JokerNotPlayedError("Omaha does not play a joker")
    hole_low = [(LOW_BIT[c.index], c) for c in hole if c.low_rank <= 8]
    board_low = [(LOW_BIT[c.index], c) for c in board if c.low_rank <= 8]
    pairs = [(a | b, (ca, cb)) for (a, ca), (b, cb) in combinations(hole_low, 2) if a != b]
    trips = [
        (a | b | c, (ca, cb, cc))
        for (a, ca), (b, cb), (c, cc) in combinations(board_low, 3)
        if (a | b | c).bit_count() == 3
    ]
    best = 0
    best_cards: tuple[Card, ...] = ()
    for pm, pc in pairs:
        for tm, tc in trips:
            if not pm & tm and (not best or pm | tm < best):
                best, best_cards = pm | tm, pc + tc
    if not best:
        return None
    value, ranks = _no_pair(best)
    return value, _cards_for_ranks(best_cards, ranks, -1)


def omaha_low(hole: Sequence[Card], board: Sequence[Card]) -> Low | None:
    """Best ace-to-five low of exactly two hole and three board cards, with no qualifier (004-GN
    §VIII "Omaha High Low Regular": "no qualifier for low"). Five different ranks always beat a
    pair; only when no two and three of different ranks exist are paired lows compared."""
    if any(c.is_joker for c in hole) or any(c.is_joker for c in board):
        raise JokerNotPlayedError("Omaha does not play a joker")
    pairs = [
        (LOW_BIT[a.index] | LOW_BIT[b.index], (a, b))
        for a, b in combinations(hole, 2)
        if a.low_rank != b.low_rank
    ]
    trips = [
        (LOW_BIT[a.index] | LOW_BIT[b.index] | LOW_BIT[c.index], (a, b, c))
        for a, b, c in combinations(board, 3)
        if len({a.low_rank, b.low_rank, c.low_rank}) == 3
    ]
    best = 0
    best_cards: tuple[Card, ...] = ()
    for pm, pc in pairs:
        for tm, tc in trips:
            if not pm & tm and (not best or pm | tm < best):
                best, best_cards = pm | tm, pc + tc
    if best:
        value, ranks = _no_pair(best)
        return value, _cards_for_ranks(best_cards, ranks, -1)
    found: Low | None = None
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            low = _a5_five((*two, *three))
            if found is None or low[0] < found[0]:
                found = low
    return found


def d27_low(cards: Sequence[Card]) -> Low | None:
    """Best deuce-to-seven low of any five of `cards`."""
    if len(cards) < 5:
        return None
    if len(cards) == 5:
        v = high_value(cards, Mode.DEUCE_SEVEN)
        return v, pick_five(cards, v, Mode.DEUCE_SEVEN)
    best_v, best_five = min(
        ((high_value(five, Mode.DEUCE_SEVEN), five) for five in combinations(cards, 5)),
        key=lambda t: t[0],
    )
    return best_v, pick_five(best_five, best_v, Mode.DEUCE_SEVEN)
