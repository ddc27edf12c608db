"""Evaluators of the split games' other halves: Archie's high, badugi with the ace high, badugi
high, and Drawmaha's "49". Pure.

- Archie (004-GN §X "Archie"): "the high hand of a pair of 9's or better wins half the pot";
  a hand below a pair of nines has no high (r286-r288 say who takes the pot then).
- Baduci (004-GN r300): "the best Badugi hand excluding the Ace since the Ace is considered as a
  high card in Baduci": a badugi where the ace is the highest rank (best 2-3-4-5 rainbow).
- Badugi high (004-GN §XI intro, a Drawmaha form): "This game can also be played in a high
  variation. The best hand being As, Ah, Ad, Ac. Straights and flushes have no value." The
  rulebook names only the best hand: four cards of four suits, ranks may repeat (its best hand is
  four aces). House practice, following badugi r291: more cards beat fewer, then the higher
  cards win, compared from the highest down, the ace high.
- 49 (004-GN §VIII "Drawmaha"): "value of 49 or closest to win half the pot. Face cards (K,Q,J)
  have zero value. Aces has a value of 1 and all other cards have face value. The best hand for
  49 is 10,10,10,10,9." No five cards add up to more than 49, so the higher total is closer.

Scores are higher-is-better; badugi scores keep the size in bits 20 and up like `badugi`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from station.engine.cards import Card
from station.engine.evaluate.badugi import BADUGI_RANKS, BADUGI_SIZE_SHIFT
from station.engine.evaluate.codes import CAT_CODE, Cat, Mode, unpack
from station.engine.evaluate.high import JokerNotPlayedError, high_value

_PAIR = CAT_CODE[Mode.STANDARD][Cat.PAIR]


def archie_high(cards: Sequence[Card]) -> int | None:
    """The high value of the best five of `cards` if it is a pair of nines or better, else None."""
    v = high_value(cards, Mode.STANDARD)
    code, ranks = unpack(v)
    if code > _PAIR or (code == _PAIR and ranks[0] >= 9):
        return v
    return None


def _no_joker(cards: Sequence[Card], form: str) -> None:
    if any(c.is_joker for c in cards):
        raise JokerNotPlayedError(f"{form} does not play a joker")


def badugi_ace_high(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """Best badugi with the ace as the highest rank (Baduci): different suits and ranks, more
    cards first, then the lower highest card, the next, and so on."""
    _no_joker(cards, "badugi")
    for size in range(min(4, len(cards)), 0, -1):
        best: tuple[int, ...] | None = None
        best_cards: tuple[Card, ...] = ()
        for combo in combinations(cards, size):
            if len({c.suit for c in combo}) != size or len({c.rank for c in combo}) != size:
                continue
            ranks = tuple(sorted((c.rank for c in combo), reverse=True))
            if best is None or ranks < best:
                best, best_cards = ranks, combo
        if best is not None:
            packed = 0
            for r in best:
                packed = (packed << 4) | r
            ordered = tuple(sorted(best_cards, key=lambda c: c.rank, reverse=True))
            return (size << BADUGI_SIZE_SHIFT) | (BADUGI_RANKS - packed), ordered
    return None


def badugi_high(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """Best high badugi: cards of different suits (ranks may repeat), more cards first, then the
    higher cards from the highest down, the ace high."""
    _no_joker(cards, "badugi")
    for size in range(min(4, len(cards)), 0, -1):
        best: tuple[int, ...] | None = None
        best_cards: tuple[Card, ...] = ()
        for combo in combinations(cards, size):
            if len({c.suit for c in combo}) != size:
                continue
            ranks = tuple(sorted((c.rank for c in combo), reverse=True))
            if best is None or ranks > best:
                best, best_cards = ranks, combo
        if best is not None:
            packed = 0
            for r in best:
                packed = (packed << 4) | r
            packed <<= 4 * (4 - size)
            ordered = tuple(sorted(best_cards, key=lambda c: c.rank, reverse=True))
            return (size << BADUGI_SIZE_SHIFT) | packed, ordered
    return None


def forty_nine_points(card: Card) -> int:
    """A card's count in 49: ace 1, two to ten their face value, jack, queen and king nothing."""
    if card.rank == 14:
        return 1
    return card.rank if card.rank <= 10 else 0


def forty_nine(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """The highest total of five of `cards` (closest to 49), None with fewer than five."""
    _no_joker(cards, "49")
    if len(cards) < 5:
        return None
    five = tuple(sorted(cards, key=forty_nine_points, reverse=True)[:5])
    return sum(forty_nine_points(c) for c in five), five
