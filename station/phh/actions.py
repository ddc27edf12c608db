"""The PHH action grammar: "d dh p1 AcKd", "p2 cbr 300", "p3 sm -", ... Pure.

Grammar (PHH standard, `actions` field): `d dh pN CARDS` deal hole cards, `d db CARDS` deal board
cards, `pN pb` post the bring-in, `pN f` fold, `pN cc` check or call, `pN cbr X` complete, bet or
raise to X, `pN sd [CARDS]` stand pat or discard, `pN sm [CARDS|-]` show (a bare `sm` mucks), and
an optional `# commentary` after any action. `??` is an unknown card.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction

from station.engine.cards import Card, CardError


class Act(StrEnum):
    DEAL_HOLE = "dh"
    DEAL_BOARD = "db"
    BRING_IN = "pb"
    FOLD = "f"
    CHECK_CALL = "cc"
    BET_RAISE = "cbr"
    DISCARD = "sd"
    SHOW = "sm"


class ActionError(ValueError):
    """An action string that does not follow the PHH grammar."""


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed action. `cards` holds None for each unknown card (`??`)."""

    act: Act
    player: int | None  # 1-based; None for board deals
    cards: tuple[Card | None, ...] = ()
    amount: Fraction | None = None
    muck: bool = False  # `pN sm` with no cards: the hand is mucked
    text: str = ""


def parse_cards(text: str) -> tuple[Card | None, ...]:
    """`"AcKd"` -> (Ac, Kd); `"????"` -> (None, None)."""
    if len(text) % 2:
        raise ActionError(f"cards {text!r}: two characters per card expected")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        if chunk == "??":
            out.append(None)
            continue
        try:
            out.append(Card.parse(chunk))
        except CardError:
            raise ActionError(f"cards {text!r}: {chunk!r} is not a card") from None
    return tuple(out)


def parse_amount(text: str) -> Fraction:
    """A PHH amount ("300", "10112.5") as an exact fraction."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ActionError(f"{text!r} is not an amount") from None
    if not value.is_finite() or value < 0:
        raise ActionError(f"{text!r} is not an amount")
    return Fraction(value)


def _player(word: str) -> int:
    number = word[1:]
    if word[:1] != "p" or not (number.isascii() and number.isdecimal()) or int(number) < 1:
        raise ActionError(f"{word!r} is not a player (p1, p2, ...)")
    return int(word[1:])


def parse_action(text: str) -> Action | None:
    """Parse one action string; None for an empty action or a bare comment."""
    words = text.split("#", 1)[0].split()
    match words:
        case []:
            return None
        case ["d", "db", cards]:
            return Action(Act.DEAL_BOARD, None, parse_cards(cards), text=text)
        case ["d", "dh", player, cards]:
            return Action(Act.DEAL_HOLE, _player(player), parse_cards(cards), text=text)
        case [player, "pb"]:
            return Action(Act.BRING_IN, _player(player), text=text)
        case [player, "f"]:
            return Action(Act.FOLD, _player(player), text=text)
        case [player, "cc"]:
            return Action(Act.CHECK_CALL, _player(player), text=text)
        case [player, "cbr", amount]:
            return Action(Act.BET_RAISE, _player(player), amount=parse_amount(amount), text=text)
        case [player, "sd"]:
            return Action(Act.DISCARD, _player(player), text=text)
        case [player, "sd", cards]:
            return Action(Act.DISCARD, _player(player), parse_cards(cards), text=text)
        case [player, "sm"]:
            return Action(Act.SHOW, _player(player), muck=True, text=text)
        case [player, "sm", "-"]:
            return Action(Act.SHOW, _player(player), text=text)
        case [player, "sm", cards]:
            return Action(Act.SHOW, _player(player), parse_cards(cards), text=text)
    raise ActionError(f"{text!r} is not a PHH action")
