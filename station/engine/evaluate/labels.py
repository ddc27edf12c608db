"""Human text for an evaluated hand ("Full house, kings full of sevens", "8-6-4-3-2 low"). Pure.

The text is derived from the kind and the score alone, so a journal that stores only the score
can print the same words later.
"""

from __future__ import annotations

from station.engine.evaluate.badugi import BADUGI_RANKS, BADUGI_SIZE_SHIFT
from station.engine.evaluate.codes import CAT_OF_CODE, LOW_TOP, Cat, LowCat, Mode, unpack
from station.engine.evaluate.joker import FIVE_ACES_CODE
from station.engine.evaluate.kinds import HandKind
from station.engine.evaluate.mexican import MexCat

_WORD = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip
_SYMBOL = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}

_LOW_PATTERN: dict[LowCat, tuple[int, ...]] = {
    LowCat.NO_PAIR: (1, 1, 1, 1, 1),
    LowCat.PAIR: (2, 1, 1, 1),
    LowCat.TWO_PAIR: (2, 2, 1),
    LowCat.TRIPS: (3, 1, 1),
    LowCat.FULL_HOUSE: (3, 2),
    LowCat.QUADS: (4, 1),
}


def _plural(rank: int) -> str:
    word = _WORD[rank]
    return word + ("es" if word == "six" else "s")


def _symbols(ranks: list[int]) -> str:
    return "-".join(_SYMBOL.get(r, str(r)) for r in ranks)


def _expand(ranks: list[int], pattern: tuple[int, ...]) -> list[int]:
    out: list[int] = []
    for r, n in zip(ranks, pattern, strict=False):
        out.extend([r] * n)
    return out


def _high_text(value: int, mode: Mode) -> str:
    code, r = unpack(value)
    cat = CAT_OF_CODE[mode][code]
    match cat:
        case Cat.STRAIGHT_FLUSH:
            return "Royal flush" if r[0] == 14 else f"Straight flush, {_WORD[r[0]]} high"
        case Cat.QUADS:
            return f"Four of a kind, {_plural(r[0])}"
        case Cat.FULL_HOUSE:
            return f"Full house, {_plural(r[0])} full of {_plural(r[1])}"
        case Cat.FLUSH:
            return f"Flush, {_symbols(r)}"
        case Cat.STRAIGHT:
            return f"Straight, {_WORD[r[0]]} high"
        case Cat.TRIPS:
            return f"Three of a kind, {_plural(r[0])}"
        case Cat.TWO_PAIR:
            return f"Two pair, {_plural(r[0])} and {_plural(r[1])}"
        case Cat.PAIR:
            return f"Pair of {_plural(r[0])}"
        case _:
            return f"High card, {_WORD[r[0]]}"


def _a5_text(value: int) -> str:
    code, r = unpack(value)
    cat = LowCat(code)
    cards = _symbols(_expand(r, _LOW_PATTERN[cat]))
    match cat:
        case LowCat.NO_PAIR:
            return f"{cards} low"
        case LowCat.PAIR:
            return f"Pair of {_plural(r[0])} ({cards})"
        case LowCat.TWO_PAIR:
            return f"Two pair, {_plural(r[0])} and {_plural(r[1])} ({cards})"
        case LowCat.TRIPS:
            return f"Three of a kind, {_plural(r[0])} ({cards})"
        case LowCat.FULL_HOUSE:
            return f"Full house, {_plural(r[0])} full of {_plural(r[1])} ({cards})"
        case _:
            return f"Four of a kind, {_plural(r[0])} ({cards})"


def _d27_text(value: int) -> str:
    code, r = unpack(value)
    cat = CAT_OF_CODE[Mode.DEUCE_SEVEN][code]
    if cat is Cat.HIGH_CARD:
        return f"{_symbols(r)} low"
    return _high_text(value, Mode.DEUCE_SEVEN)


def _badugi_text(score: int) -> str:
    size = score >> BADUGI_SIZE_SHIFT
    packed = BADUGI_RANKS - (score & BADUGI_RANKS)
    ranks = [(packed >> (4 * i)) & 0xF for i in range(size - 1, -1, -1)]
    return f"{size}-card badugi {_symbols(ranks)}"


def _badugi_high_text(score: int) -> str:
    size = score >> BADUGI_SIZE_SHIFT
    packed = score & BADUGI_RANKS
    ranks = [(packed >> (4 * i)) & 0xF for i in range(3, 3 - size, -1)]
    return f"{size}-card high badugi {_symbols(ranks)}"


_MEX_WORD = {1: "2", 2: "3", 3: "4", 4: "5", 5: "6", 6: "7", 7: "J", 8: "Q", 9: "K", 10: "A"}


def mexican_text(score: int) -> str:
    """Mexican poker: the category and its cards by rank (004-GN r253-r254)."""
    cat = MexCat(score >> 20)
    ranks = [(score >> (16 - 4 * i)) & 0xF for i in range(5)]
    shown = "-".join(_MEX_WORD[r] for r in ranks if r)
    name = cat.name.replace("_", " ").capitalize()
    return f"{name} ({shown})"


def describe(kind: HandKind, score: int) -> str:
    """The human text of a hand of this kind with this score."""
    match kind:
        case HandKind.HIGH | HandKind.OMAHA_HIGH | HandKind.HIGH_NINES:
            return _high_text(score, Mode.STANDARD)
        case HandKind.HIGH_JOKER:
            if score >> 20 == FIVE_ACES_CODE:
                return "Five aces"
            return _high_text(score, Mode.STANDARD)
        case HandKind.BADUGI_ACE_HIGH:
            return _badugi_text(score)
        case HandKind.BADUGI_HIGH:
            return _badugi_high_text(score)
        case HandKind.FORTY_NINE:
            return f"{score} points"
        case HandKind.SHORT_DECK_HIGH:
            return _high_text(score, Mode.SHORT_DECK)
        case HandKind.LOW_A5 | HandKind.LOW_A5_8 | HandKind.OMAHA_LOW_A5_8 | HandKind.OMAHA_LOW_A5:
            return _a5_text(LOW_TOP - score)
        case HandKind.LOW_27:
            return _d27_text(LOW_TOP - score)
        case HandKind.BADUGI:
            return _badugi_text(score)
        case HandKind.MEXICAN_HIGH:
            return mexican_text(score)


def _top_two(ranks: list[int]) -> str:
    return "-".join(_SYMBOL.get(r, str(r)) for r in ranks[:2])


def _announce_high(value: int, mode: Mode) -> str:
    code, r = unpack(value)
    match CAT_OF_CODE[mode][code]:
        case Cat.FLUSH:
            return f"Flush, {_WORD[r[0]]} high"
        case Cat.HIGH_CARD:
            return f"{_WORD[r[0]]} high"
        case _:
            return _high_text(value, mode)


def announce(kind: HandKind, score: int) -> str:
    """A winning hand as the dealer announces it, in capitals: "FLUSH, ACE HIGH", "TWO PAIR,
    KINGS AND SEVENS", "FULL HOUSE, TENS FULL OF FOURS"; a low by its two highest cards, "LOW
    8-6" (the rest of the hand is on the cards tabled)."""
    match kind:
        case HandKind.HIGH | HandKind.OMAHA_HIGH:
            text = _announce_high(score, Mode.STANDARD)
        case HandKind.SHORT_DECK_HIGH:
            text = _announce_high(score, Mode.SHORT_DECK)
        case HandKind.LOW_A5 | HandKind.LOW_A5_8 | HandKind.OMAHA_LOW_A5_8 | HandKind.OMAHA_LOW_A5:
            code, r = unpack(LOW_TOP - score)
            if LowCat(code) is LowCat.NO_PAIR:
                text = f"Low {_top_two(r)}"
            else:
                text = _a5_text(LOW_TOP - score)
        case HandKind.LOW_27:
            code, r = unpack(LOW_TOP - score)
            if CAT_OF_CODE[Mode.DEUCE_SEVEN][code] is Cat.HIGH_CARD:
                text = f"Low {_top_two(r)}"
            else:
                text = _high_text(LOW_TOP - score, Mode.DEUCE_SEVEN)
        case _:
            text = describe(kind, score)
    return text.upper()
