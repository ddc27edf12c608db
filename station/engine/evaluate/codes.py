"""Integer codes for cards and hand values, shared by the evaluators. Pure.

Every card has a *key*: three bits of rank count (one field per rank 2..A, bits 0-38) plus four bits
of suit count (one field per suit, bits 40-55). The sum of the keys of any set of cards therefore
holds the rank multiset and the suit counts at once, so the hot path of an evaluator is one sum
and one dictionary look-up. The joker's key is a single flag bit far above both fields.

A hand *value* is `category << 20` followed by up to five 4-bit ranks in reading order (the most
important first: the quad rank, then the kicker, ...). For high hands a larger value is a better
hand; low hands use the same layout with `LOW_TOP - value`, so their score is larger too.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from station.engine.cards import JOKER, STANDARD_DECK

RANK_FIELD: Final = 3  # bits per rank count (at most 4 cards of a rank, duplicates refused)
SUIT_SHIFT: Final = 40
RANK_MASK: Final = (1 << (13 * RANK_FIELD)) - 1
JOKER_FLAG: Final = 1 << 60
FIVE_SAME_SUIT_ADD: Final = 0x3333  # adding 3 to a 4-bit suit count sets bit 3 when it is >= 5
FIVE_SAME_SUIT_TEST: Final = 0x8888
CAT_SHIFT: Final = 20
LOW_TOP: Final = 1 << 24  # low score = LOW_TOP - value (values stay below 9 << 20)
LOW_RANK_BITS: Final = 0x3FFE  # bits 1..13: A(1), 2..K(13)
EIGHT_OR_BETTER_BITS: Final = 0x1FE  # bits 1..8: A-8
JOKER_LOW_FLAG: Final = 1 << 15


class Mode(IntEnum):
    """How five cards are ranked as a high hand (the 2-7 low ranks hands as high, then inverts)."""

    STANDARD = 0  # A-2-3-4-5 is the lowest straight
    SHORT_DECK = 1  # flush beats full house; A-6-7-8-9 is the lowest straight
    DEUCE_SEVEN = 2  # the ace is high only: A-2-3-4-5 is ace-high, not a straight


class Cat(IntEnum):
    """Poker hand categories in their standard order (the short deck swaps flush and full house)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8


# Category -> the number stored in the value, per mode.
CAT_CODE: Final[dict[Mode, tuple[int, ...]]] = {
    Mode.STANDARD: (0, 1, 2, 3, 4, 5, 6, 7, 8),
    Mode.DEUCE_SEVEN: (0, 1, 2, 3, 4, 5, 6, 7, 8),
    Mode.SHORT_DECK: (0, 1, 2, 3, 4, 6, 5, 7, 8),
}
CAT_OF_CODE: Final[dict[Mode, tuple[Cat, ...]]] = {
    mode: tuple(Cat(CAT_CODE[mode].index(code)) for code in range(len(Cat))) for mode in Mode
}


class LowCat(IntEnum):
    """Ace-to-five low categories (straights and flushes do not exist there); lower is better."""

    NO_PAIR = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    FULL_HOUSE = 4
    QUADS = 5


def _keys() -> tuple[int, ...]:
    keys = [
        (1 << (RANK_FIELD * (c.rank - 2))) | (1 << (SUIT_SHIFT + 4 * c.suit_rank))
        for c in STANDARD_DECK
    ]
    keys.append(JOKER_FLAG)
    return tuple(keys)


KEY: Final = _keys()  # by Card.index (52 = the joker)
RANK_KEY: Final = tuple(k & RANK_MASK for k in KEY)
LOW_BIT: Final = tuple([1 << c.low_rank for c in STANDARD_DECK] + [JOKER_LOW_FLAG])
assert JOKER.index == len(STANDARD_DECK)


def pack(cat: int, ranks: list[int] | tuple[int, ...]) -> int:
    """`cat << 20` then the ranks, four bits each, most important first, padded to five."""
    v = cat
    for r in ranks:
        v = (v << 4) | r
    return v << (4 * (5 - len(ranks)))


def unpack(value: int) -> tuple[int, list[int]]:
    """The category code and the five rank slots of a value (unused slots are 0)."""
    return value >> CAT_SHIFT, [(value >> s) & 0xF for s in (16, 12, 8, 4, 0)]


def low_ranks_desc(mask: int) -> list[int]:
    """The ranks of a low-rank bit mask, highest first (ace = 1)."""
    return [r for r in range(13, 0, -1) if mask >> r & 1]


def lowest_bits(mask: int, count: int) -> int:
    """Keep the `count` lowest set bits of `mask`."""
    while mask.bit_count() > count:
        mask ^= 1 << (mask.bit_length() - 1)
    return mask
