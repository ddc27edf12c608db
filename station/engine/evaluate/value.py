"""The value of an evaluated hand: kind, score (higher is better) and the cards. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from station.engine.cards import Card
from station.engine.evaluate.kinds import HandKind
from station.engine.evaluate.labels import describe


@dataclass(frozen=True, slots=True)
class HandValue:
    """An evaluated hand: its kind, its score (higher is better) and the cards that make it.

    Scores compare only within one kind; equal scores tie exactly.
    """

    kind: HandKind
    score: int
    cards: tuple[Card, ...]  # five for poker hands, 1-4 for badugi, in reading order

    def label(self) -> str:
        """Human text, e.g. "Full house, kings full of sevens", "8-6-4-3-2 low"."""
        return describe(self.kind, self.score)
