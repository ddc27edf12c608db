"""Which hand kinds a game form is judged by (its high half and its low half). Pure."""

from __future__ import annotations

from typing import Final

from station.engine.evaluate.kinds import HandKind
from station.engine.games import GameSpec, HighEval, LowEval

_HIGH: Final = {
    HighEval.STANDARD: HandKind.HIGH,
    HighEval.OMAHA: HandKind.OMAHA_HIGH,
    HighEval.SHORT_DECK: HandKind.SHORT_DECK_HIGH,
    HighEval.JOKER: HandKind.HIGH_JOKER,
    HighEval.NINES: HandKind.HIGH_NINES,
    HighEval.MEXICAN: HandKind.MEXICAN_HIGH,
}
_LOW: Final = {
    LowEval.A5: HandKind.LOW_A5,
    LowEval.A5_8: HandKind.LOW_A5_8,
    LowEval.OMAHA_A5_8: HandKind.OMAHA_LOW_A5_8,
    LowEval.OMAHA_A5: HandKind.OMAHA_LOW_A5,
    LowEval.D27: HandKind.LOW_27,
    LowEval.BADUGI: HandKind.BADUGI,
}


def hand_kinds(spec: GameSpec) -> tuple[HandKind | None, HandKind | None]:
    """(high kind, low kind) of a game form; None for a half the game does not play.

    A game with both is split (catalog CHIP-ODD-HILO); a low kind alone wins the whole pot
    (razz, lowball, badugi). The games with a `GameSpec.second` half (Drawmaha, Baduci, ...)
    name all their halves in `showdown.halves`.
    """
    return _HIGH.get(spec.high), _LOW.get(spec.low)
