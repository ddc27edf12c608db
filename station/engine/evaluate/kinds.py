"""Hand kinds: the ways of ranking poker hands. Pure.

`HandKind` names one way of ranking poker hands (catalog §2 "Hand rankings" and LOWBALL-HAND-RANKS);
a game form uses one kind for its high half and at most one for its low half. `HandValue.score`
is an integer where HIGHER IS ALWAYS BETTER, also for low hands, and comparable only within one
kind: two hands of the same kind with the same score tie exactly (cards speak, suits never split a
pot).
"""

from __future__ import annotations

from enum import StrEnum


class HandKind(StrEnum):
    """A hand-ranking rule. The values are stable strings (journal, JSON output)."""

    HIGH = "high"  # best five of any cards (hold'em, stud)
    SHORT_DECK_HIGH = "short_deck_high"  # flush beats full house, A-6-7-8-9 straight (GN r359-r360)
    OMAHA_HIGH = "omaha_high"  # exactly two hole + three board
    LOW_A5 = "low_a5"  # ace-to-five: straights/flushes ignored; a joker is the lowest missing card
    LOW_A5_8 = "low_a5_8"  # ace-to-five, only five different ranks 8 or lower qualify
    OMAHA_LOW_A5_8 = "omaha_low_a5_8"  # two hole + three board, 8 or better
    OMAHA_LOW_A5 = "omaha_low_a5"  # two hole + three board, ace-to-five, no qualifier (GN)
    LOW_27 = "low_27"  # deuce-to-seven: straights and flushes count, ace high only
    BADUGI = "badugi"  # four cards of different suits and ranks; else the best 3-, 2-, 1-card
    HIGH_JOKER = "high_joker"  # draw high: the joker only as an ace or to complete a straight/flush
    HIGH_NINES = "high_nines"  # Archie: a high hand qualifies with a pair of nines or better
    BADUGI_ACE_HIGH = "badugi_ace_high"  # Baduci: badugi with the ace as the highest rank
    BADUGI_HIGH = "badugi_high"  # different suits, the highest cards win (Drawmaha badugi high)
    FORTY_NINE = "forty_nine"  # Drawmaha 49: five cards adding up closest to 49
    MEXICAN_HIGH = "mexican_high"  # 41 cards, joker wild (down) or limited (up) (GN r248-r254)
