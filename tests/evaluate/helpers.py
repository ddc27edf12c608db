"""Small helpers for the evaluator tests: parse cards, evaluate from text."""

from __future__ import annotations

import itertools

from station.engine.cards import parse_cards
from station.engine.evaluate import HandKind, HandValue, evaluate


def ev(kind: HandKind, hole: str, board: str = "") -> HandValue | None:
    return evaluate(kind, parse_cards(hole), parse_cards(board))


def score(kind: HandKind, hole: str, board: str = "") -> int:
    value = ev(kind, hole, board)
    assert value is not None, f"{hole} {board} makes no {kind} hand"
    return value.score


def better(kind: HandKind, a: str, b: str, board: str = "") -> bool:
    """Hand a beats hand b (on the same board)."""
    return score(kind, a, board) > score(kind, b, board)


def ranked(kind: HandKind, hands: list[str]) -> bool:
    """The hands are listed best first, strictly."""
    scores = [score(kind, h) for h in hands]
    return all(x > y for x, y in itertools.pairwise(scores))
