"""Stud: who brings in, who acts first on later streets, open pairs. Pure.

STUD-BRINGIN: 7-stud and stud/8 bring in with the lowest up-card (ace high; suits clubs lowest),
razz with the highest (aces low, the king of spades highest). STUD-ACTION-LATER-STREETS: from 4th
street the best hand showing starts (razz: the lowest); ties go to the tied player who received
cards first, i.e. nearest the dealer's left. Straights and flushes showing do not count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from station.engine.cards import Card
from station.engine.games import BringIn, GameSpec, LowEval


def bring_in_seat(spec: GameSpec, up_cards: dict[int, Card]) -> int | None:
    """The seat that must bring in, from each seat's third-street up-card."""
    if not up_cards:
        return None
    if spec.bring_in is BringIn.HIGH_CARD:
        return max(up_cards, key=lambda s: (up_cards[s].low_rank, up_cards[s].suit_rank))
    return min(up_cards, key=lambda s: (up_cards[s].rank, up_cards[s].suit_rank))


def _high_showing(cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    counts = Counter(c.rank for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return tuple(n for _, n in groups), tuple(r for r, _ in groups)


def _low_showing(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Razz: fewer paired cards is better, then the highest card lowest; negated for max()."""
    counts = Counter(c.low_rank for c in cards)
    paired = sum(n - 1 for n in counts.values())
    ranks = sorted(counts, reverse=True)
    return (-paired, tuple(-r for r in ranks))


def first_to_act(
    spec: GameSpec, showing: Mapping[int, Sequence[Card]], order: Sequence[int]
) -> int:
    """The seat that acts first on 4th street and later; `order` is the deal order."""
    low = spec.low is LowEval.A5 and spec.bring_in is BringIn.HIGH_CARD  # razz
    best: int | None = None
    best_key: object = None
    for seat in order:
        if seat not in showing:
            continue
        key = _low_showing(showing[seat]) if low else _high_showing(showing[seat])
        if best is None or key > best_key:  # type: ignore[operator]
            best, best_key = seat, key
    return best if best is not None else order[0]


def has_open_pair(showing: Mapping[int, Sequence[Card]]) -> bool:
    """STUD-LIMITS-PER-STREET: a pair showing on 4th street allows the big bet (7-stud only)."""
    return any(len({c.rank for c in cards}) < len(cards) for cards in showing.values())
