"""Deck audit: the dealer runs the whole deck through the shoe between hands. Pure.

DECK-MISSING-CARDS (001-RR11 §3 "Irregularities" r10; 004-GN §VI r116): a card missing from the
deck does not invalidate the hands already played; the deck should be changed. DECK-EXTRA-CARD-
IN-DECK (004-GN glossary "DEFECTIVE DECK"): a deck with more cards than the game uses (a second
copy of a card, a joker in a game without one, a 2-5 in short deck) is defective and replaced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from station.engine.cards import JOKER, SHORT_DECK, STANDARD_DECK, Card
from station.engine.games import GameSpec
from station.engine.profiles import Profile


def joker_in_use(spec: GameSpec, profile: Profile) -> bool:
    """Whether the game's deck holds the joker: A-5 lowball as the profile says (D60); a game
    whose deck is built with one (draw high, Mexican stud's 41 cards) always."""
    return spec.uses_joker(profile.joker_in_use_a5)


def game_deck(spec: GameSpec, profile: Profile) -> tuple[Card, ...]:
    """The cards of the deck the game is dealt from."""
    base = SHORT_DECK if spec.short_deck else STANDARD_DECK
    if spec.no_ranks:
        base = tuple(c for c in base if c.rank not in spec.no_ranks)
    return (*base, JOKER) if joker_in_use(spec, profile) else base


@dataclass(frozen=True, slots=True)
class Audit:
    missing: tuple[Card, ...]
    extra: tuple[Card, ...]  # cards that do not belong, and second copies

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra


def audit(scanned: Iterable[Card], deck: Iterable[Card]) -> Audit:
    want = list(deck)
    have = Counter(scanned)
    missing = tuple(c for c in want if have[c] == 0)
    allowed = set(want)
    extra: list[Card] = []
    for card, n in sorted(have.items(), key=lambda cn: cn[0].index):
        extra.extend([card] * (n - 1 if card in allowed else n))
    return Audit(missing, tuple(extra))
