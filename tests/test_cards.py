"""Cards, decks and the deck registry."""

from __future__ import annotations

import pytest

from station.engine.cards import (
    JOKER,
    SHORT_DECK,
    STANDARD_DECK,
    Card,
    CardError,
    DeckRegistry,
    RegisteredDeck,
    default_registry,
    parse_cards,
    synthetic_tag,
)


def test_standard_deck_has_52_distinct_cards() -> None:
    assert len(STANDARD_DECK) == 52
    assert len({c.code for c in STANDARD_DECK}) == 52
    assert [c.index for c in STANDARD_DECK] == list(range(52))


def test_short_deck_removes_two_to_five() -> None:
    assert len(SHORT_DECK) == 36
    assert min(c.rank for c in SHORT_DECK) == 6


@pytest.mark.parametrize("text", ["Ah", "ah", "AH", "aH"])
def test_parse_is_case_insensitive_and_interned(text: str) -> None:
    assert Card.parse(text) is Card.parse("Ah")


def test_ten_may_be_written_two_ways() -> None:
    assert Card.parse("10d") is Card.parse("Td")


def test_joker() -> None:
    assert Card.parse("joker") is JOKER
    assert JOKER.is_joker and JOKER.suit_rank == -1


@pytest.mark.parametrize("bad", ["", "A", "1h", "Ax", "Ahh", "11c", "??"])
def test_bad_codes_are_refused_with_the_text(bad: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        Card.parse(bad)


def test_suit_order_is_clubs_diamonds_hearts_spades() -> None:
    # Catalog SUIT-RANKING: spades > hearts > diamonds > clubs.
    assert [Card.parse(f"2{s}").suit_rank for s in "cdhs"] == [0, 1, 2, 3]


def test_parse_cards_runs() -> None:
    assert [c.code for c in parse_cards("AhKd JOKER 2c")] == ["Ah", "Kd", "JOKER", "2c"]


def test_default_registry_resolves_tags_of_two_backs() -> None:
    reg = default_registry()
    assert len(reg) == 2 * 54
    blue = reg.lookup(synthetic_tag("blue-1", Card.parse("7h")))
    red = reg.lookup(synthetic_tag("red-1", Card.parse("7h")))
    assert blue is not None and red is not None
    assert (blue.card, blue.back) == (Card.parse("7h"), "blue")
    assert (red.card, red.back) == (Card.parse("7h"), "red")


def test_tags_are_normalised() -> None:
    deck = RegisteredDeck("d", "blue", {"04a1b2c3": Card.parse("As")})
    reg = DeckRegistry((deck,))
    info = reg.lookup("04:A1:B2:C3")
    assert info is not None and info.card is Card.parse("As")


def test_unknown_tag_is_none() -> None:
    assert default_registry().lookup("DEADBEEF") is None


def test_a_tag_enrolled_twice_is_refused() -> None:
    a = RegisteredDeck("a", "blue", {"01": Card.parse("As")})
    b = RegisteredDeck("b", "red", {"01": Card.parse("Ks")})
    with pytest.raises(ValueError, match="enrolled twice"):
        DeckRegistry((a, b))
