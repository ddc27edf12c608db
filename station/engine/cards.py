"""Cards, decks and the deck registry (RFID tag -> card). Pure.

A `Card` is interned: `Card.parse("Ah") is Card.parse("Ah")`, so identity and equality agree and
cards are cheap dictionary keys. The joker is a card with rank 0 and no suit.

Suit order (for bring-in, odd chips and button draws, never for splitting pots) is
clubs < diamonds < hearts < spades (catalog SUIT-RANKING).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"  # ascending suit rank: clubs, diamonds, hearts, spades
JOKER_CODE: Final = "JOKER"


class CardError(ValueError):
    """A card code that names no card."""


_BY_CODE: dict[str, Card] = {}  # every card there is, by its code


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card. `rank` is 2..14 (ace high), 0 for the joker; `suit` is one of "cdhs".

    Interned: building (or unpickling) a card that exists gives the existing one, so equality is
    identity and the hash is the object's own (the engine looks cards up on every draw)."""

    code: str
    rank: int
    suit: str
    index: int  # 0..51 for the standard deck (rank-major), 52 for the joker

    def __new__(cls, code: str, rank: int, suit: str, index: int) -> Card:
        known = _BY_CODE.get(code)
        return known if known is not None else object.__new__(cls)

    def __reduce__(self) -> tuple[type[Card], tuple[str, int, str, int]]:
        return (Card, (self.code, self.rank, self.suit, self.index))

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def suit_rank(self) -> int:
        """0 (clubs) .. 3 (spades); -1 for the joker."""
        return SUITS.find(self.suit) if self.suit else -1

    @property
    def low_rank(self) -> int:
        """Rank with the ace counted as one (lowball, razz)."""
        return 1 if self.rank == 14 else self.rank

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse "Ah", "td", "10h" or "JOKER"; raise CardError otherwise."""
        card = _BY_CODE.get(text)
        if card is not None:
            return card
        norm = text.strip()
        if norm.upper() == JOKER_CODE:
            return JOKER
        if len(norm) == 3 and norm[:2] == "10":
            norm = "T" + norm[2]
        if len(norm) != 2:
            raise CardError(f"not a card: {text!r} (expected rank+suit such as 'Ah', or 'JOKER')")
        rank_ch, suit_ch = norm[0].upper(), norm[1].lower()
        card = _BY_CODE.get(rank_ch + suit_ch)
        if card is None:
            raise CardError(f"not a card: {text!r} (expected rank+suit such as 'Ah', or 'JOKER')")
        return card


def _build_cards() -> tuple[tuple[Card, ...], Card]:
    cards: list[Card] = []
    for r_i, r_ch in enumerate(RANKS):
        for s_ch in SUITS:
            code = r_ch + s_ch
            card = Card(code=code, rank=r_i + 2, suit=s_ch, index=len(cards))
            _BY_CODE[code] = card
            cards.append(card)
    joker = Card(code=JOKER_CODE, rank=0, suit="", index=52)
    _BY_CODE[JOKER_CODE] = joker
    return tuple(cards), joker


STANDARD_DECK, JOKER = _build_cards()
SHORT_DECK: Final = tuple(c for c in STANDARD_DECK if c.rank >= 6)  # 36 cards, 2-5 removed


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a run of card codes, with or without separators: "AhKd", "Ah Kd", "Ah,Kd"."""
    compact = text.replace(",", "").replace(" ", "")
    out: list[Card] = []
    i = 0
    while i < len(compact):
        if compact[i : i + 5].upper() == JOKER_CODE:
            out.append(JOKER)
            i += 5
            continue
        out.append(Card.parse(compact[i : i + 2]))
        i += 2
    return tuple(out)


# --- deck registry -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TagInfo:
    """What the registry knows about one RFID tag."""

    tag: str
    card: Card
    deck_id: str
    back: str


@dataclass(frozen=True, slots=True)
class RegisteredDeck:
    """One enrolled physical deck: its id, back colour and tag -> card map."""

    deck_id: str
    back: str
    tags: Mapping[str, Card]

    def cards(self) -> tuple[Card, ...]:
        return tuple(self.tags.values())


def normalise_tag(tag: str) -> str:
    """Tags are compared as upper-case hex without separators ("04:a1:b2" -> "04A1B2")."""
    return tag.replace(":", "").replace("-", "").replace(" ", "").upper()


@dataclass(frozen=True, slots=True)
class DeckRegistry:
    """All enrolled decks. Several may be registered (two back colours are common)."""

    decks: tuple[RegisteredDeck, ...] = ()
    _index: dict[str, TagInfo] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for deck in self.decks:
            for tag, card in deck.tags.items():
                key = normalise_tag(tag)
                if key in self._index:
                    other = self._index[key]
                    raise ValueError(
                        f"tag {key} is enrolled twice: deck {other.deck_id} ({other.card}) "
                        f"and deck {deck.deck_id} ({card})"
                    )
                self._index[key] = TagInfo(key, card, deck.deck_id, deck.back)

    def __reduce__(self) -> tuple[type[DeckRegistry], tuple[tuple[RegisteredDeck, ...]]]:
        return (DeckRegistry, (self.decks,))  # the index is built again from the decks

    def lookup(self, tag: str) -> TagInfo | None:
        """The card behind a tag, or None for a tag no enrolled deck knows."""
        return self._index.get(normalise_tag(tag))

    def deck(self, deck_id: str) -> RegisteredDeck | None:
        for deck in self.decks:
            if deck.deck_id == deck_id:
                return deck
        return None

    def backs(self) -> tuple[str, ...]:
        return tuple(d.back for d in self.decks)

    def __len__(self) -> int:
        return len(self._index)


def synthetic_tag(deck_id: str, card: Card, copy: int = 0) -> str:
    """A stable 7-byte tag id for emulated decks (the form of an NTAG213 UID)."""
    digest = hashlib.sha256(f"{deck_id}:{card.code}:{copy}".encode()).hexdigest()
    return ("04" + digest[:12]).upper()


def synthetic_deck(
    deck_id: str, back: str, cards: Iterable[Card] = STANDARD_DECK, jokers: int = 2
) -> RegisteredDeck:
    """An emulated deck whose tags are derived from (deck id, card): the demo and tests use it."""
    tags: dict[str, Card] = {synthetic_tag(deck_id, c): c for c in cards}
    for n in range(jokers):
        tags[synthetic_tag(deck_id, JOKER, n)] = JOKER
    return RegisteredDeck(deck_id=deck_id, back=back, tags=tags)


@cache
def default_registry() -> DeckRegistry:
    """The embedded default: one blue-backed and one red-backed emulated deck, two jokers each.
    Built once: a registry is immutable."""
    return DeckRegistry((synthetic_deck("blue-1", "blue"), synthetic_deck("red-1", "red")))
