"""Hand evaluation for every game form: `evaluate(kind, hole, board) -> HandValue | None`. Pure.

One entry point for the engine (showdowns, hi-lo splits, the display's hand reading). The kinds
and their rulebook sources:

- HIGH, OMAHA_HIGH: standard rankings (000-USPA §3.1.1); Omaha uses exactly two hole cards and
  three board cards (001-RR11 §6).
- SHORT_DECK_HIGH: 36-card deck, flush beats full house, A-6-7-8-9 is a straight (004-GN r359-r360).
- LOW_A5, LOW_A5_8, OMAHA_LOW_A5_8: ace-to-five, straights and flushes ignored, A-A beats 2-2, a
  joker is the lowest card not in the hand (001-RR11 §11 "Ace-to-Five Lowball"); the 8-or-better
  qualifier is five different ranks 8 or lower (001-RR11 §7 r2, §10 intro).
- LOW_27: deuce-to-seven, straights and flushes count, ace high only (001-RR11 §11; 004-GN r279).
- OMAHA_LOW_A5: ace-to-five from two hole and three board cards, no qualifier (004-GN §VIII
  "Omaha High Low Regular").
- BADUGI: 004-GN r290-r291.
- HIGH_JOKER: draw high with the joker as an ace or to complete a straight or flush, five aces
  the best hand (001-RR11 §12 "The Joker"; `joker`).
- HIGH_NINES, BADUGI_ACE_HIGH, BADUGI_HIGH, FORTY_NINE: Archie's high, Baduci's badugi, badugi
  high and Drawmaha's 49 (004-GN §VIII, §X, §XI; `split_forms`).
- MEXICAN_HIGH: 41 cards, the joker wild when dealt down, an ace or a straight/flush card when up;
  a flush beats a full house, five of a kind is the highest hand (004-GN r248-r254); `board`
  holds a joker that plays limited.

`HandValue.score` is higher-is-better for every kind; equal scores tie exactly. `score()` gives the
same number without building a `HandValue`, for hot loops. Evaluation raises `ValueError` only for
inputs no table can produce in a valid hand: the same card twice, or a joker in a form without one
(the engine reports those as incidents before any showdown).

Speed (CPython 3.11 on the 2-core development VM, `benchmarks/crosscheck_evaluators.py --speed`):
HIGH on 2+5 cards 5.6 µs per `evaluate` (1.1 µs per `score`), OMAHA_HIGH on 4+5 cards 22 µs, the
low kinds 3-10 µs, badugi 15 µs. Importing costs about 12 ms: the memo tables fill lazily, one
entry per rank multiset on first sight (a miss adds about 6 µs).
"""

from __future__ import annotations

from collections.abc import Sequence

from station.engine.cards import Card
from station.engine.evaluate.badugi import badugi
from station.engine.evaluate.codes import LOW_TOP, Mode
from station.engine.evaluate.forms import hand_kinds
from station.engine.evaluate.high import (
    JokerNotPlayedError,
    high_value,
    omaha_high_value,
    pick_five,
)
from station.engine.evaluate.joker import joker_high_cards, joker_high_value
from station.engine.evaluate.kinds import HandKind
from station.engine.evaluate.low import a5_low, d27_low, omaha_low, omaha_low8
from station.engine.evaluate.mexican import mexican_score
from station.engine.evaluate.split_forms import (
    archie_high,
    badugi_ace_high,
    badugi_high,
    forty_nine,
)
from station.engine.evaluate.value import HandValue

__all__ = [
    "DuplicateCardError",
    "HandKind",
    "HandValue",
    "JokerNotPlayedError",
    "evaluate",
    "hand_kinds",
    "score",
]


class DuplicateCardError(ValueError):
    """The same card appears twice among the cards to evaluate."""


def _check_distinct(cards: Sequence[Card]) -> None:
    if len({c.index for c in cards}) != len(cards):
        seen: set[Card] = set()
        dup = next(c for c in cards if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        raise DuplicateCardError(f"the card {dup} appears twice")


def evaluate(kind: HandKind, hole: Sequence[Card], board: Sequence[Card] = ()) -> HandValue | None:
    """The best hand of `kind` from `hole` and `board` cards.

    None when no qualifying hand exists (no 8-or-better low, too few cards: fewer than five for a
    poker hand, fewer than two hole or three board cards in Omaha, no card at all in badugi).
    """
    cards = [*hole, *board]
    _check_distinct(cards)
    match kind:
        case HandKind.HIGH | HandKind.SHORT_DECK_HIGH:
            if len(cards) < 5:
                return None
            mode = Mode.STANDARD if kind is HandKind.HIGH else Mode.SHORT_DECK
            v = high_value(cards, mode)
            return HandValue(kind, v, pick_five(cards, v, mode))
        case HandKind.OMAHA_HIGH:
            if len(hole) < 2 or len(board) < 3:
                return None
            v, five = omaha_high_value(hole, board)
            return HandValue(kind, v, pick_five(five, v, Mode.STANDARD))
        case HandKind.LOW_A5 | HandKind.LOW_A5_8:
            low = a5_low(cards, eight_or_better=kind is HandKind.LOW_A5_8)
        case HandKind.OMAHA_LOW_A5_8:
            low = omaha_low8(hole, board) if len(hole) >= 2 and len(board) >= 3 else None
        case HandKind.OMAHA_LOW_A5:
            low = omaha_low(hole, board) if len(hole) >= 2 and len(board) >= 3 else None
        case HandKind.MEXICAN_HIGH:
            # `board` holds a joker that plays limited (dealt up or shown by its owner).
            if not cards:
                return None
            wild = not any(c.is_joker for c in board)
            return HandValue(kind, mexican_score(cards, wild=wild), tuple(cards))
        case HandKind.LOW_27:
            low = d27_low(cards)
        case HandKind.BADUGI | HandKind.BADUGI_ACE_HIGH | HandKind.BADUGI_HIGH:
            pick = {
                HandKind.BADUGI: badugi,
                HandKind.BADUGI_ACE_HIGH: badugi_ace_high,
                HandKind.BADUGI_HIGH: badugi_high,
            }[kind]
            found = pick(cards)
            return None if found is None else HandValue(kind, found[0], found[1])
        case HandKind.FORTY_NINE:
            found = forty_nine(cards)
            return None if found is None else HandValue(kind, found[0], found[1])
        case HandKind.HIGH_JOKER:
            if len(cards) < 5:
                return None
            v = joker_high_value(cards)
            return HandValue(kind, v, joker_high_cards(cards, v))
        case HandKind.HIGH_NINES:
            if len(cards) < 5:
                return None
            q = archie_high(cards)
            return None if q is None else HandValue(kind, q, pick_five(cards, q, Mode.STANDARD))
    if low is None:
        return None
    return HandValue(kind, LOW_TOP - low[0], low[1])


def score(kind: HandKind, hole: Sequence[Card], board: Sequence[Card] = ()) -> int | None:
    """`evaluate(kind, hole, board).score` without building the HandValue (no duplicate check)."""
    if kind is HandKind.HIGH or kind is HandKind.SHORT_DECK_HIGH:
        cards = [*hole, *board]
        if len(cards) < 5:
            return None
        return high_value(cards, Mode.STANDARD if kind is HandKind.HIGH else Mode.SHORT_DECK)
    if kind is HandKind.OMAHA_HIGH:
        if len(hole) < 2 or len(board) < 3:
            return None
        return omaha_high_value(hole, board)[0]
    value = evaluate(kind, hole, board)
    return None if value is None else value.score
