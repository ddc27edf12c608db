"""Showdown: who wins each pot, hi-lo halves, odd chips. Pure.

SHOW-CARDS-SPEAK: hands are read from the RFID-known cards; only hands still in contention (not
folded, not mucked) can win. CHIP-ODD-*: in button games odd chips go clockwise from the button;
in stud to the highest card by suit (low half: lowest), using all cards (RR/USPA) or the five
played (GN); in hi-lo the high half gets the odd chip of the split.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from station.engine.cards import Card
from station.engine.evaluate import HandKind, HandValue, evaluate
from station.engine.games import Family, GameSpec, HighEval, LowEval
from station.engine.positions import clockwise_after
from station.engine.pots import Pot, split
from station.engine.profiles import OddChipStud, Profile

HIGH_KIND = {
    HighEval.STANDARD: HandKind.HIGH,
    HighEval.OMAHA: HandKind.OMAHA_HIGH,
    HighEval.SHORT_DECK: HandKind.SHORT_DECK_HIGH,
    HighEval.MEXICAN: HandKind.MEXICAN_HIGH,
}
LOW_KIND = {
    LowEval.A5: HandKind.LOW_A5,
    LowEval.A5_8: HandKind.LOW_A5_8,
    LowEval.OMAHA_A5_8: HandKind.OMAHA_LOW_A5_8,
    LowEval.OMAHA_A5: HandKind.OMAHA_LOW_A5,
    LowEval.D27: HandKind.LOW_27,
    LowEval.BADUGI: HandKind.BADUGI,
}


@dataclass(frozen=True, slots=True)
class Award:
    pot: Pot
    won: Mapping[int, int]
    high: tuple[int, ...]  # winners of the high half (or of the whole pot)
    low: tuple[int, ...]  # winners of the low half
    # The halves of a hi-lo pot, each ("high" or "low", amount, seat -> chips), when both are won
    halves: tuple[tuple[str, int, Mapping[int, int]], ...] = ()


@dataclass(slots=True)
class Reader:
    """Reads every contender's hand once."""

    spec: GameSpec
    hands: Mapping[int, Sequence[Card]]  # seat -> all its cards (stud: down and up)
    board: Sequence[Card]
    _high: dict[int, HandValue | None]
    _low: dict[int, HandValue | None]
    # Ultimate Big O: the second board; each hand is read on whichever board is better for it
    board2: Sequence[Card] = ()
    # Mexican stud: seat -> its cards that play limited (an up joker), read apart
    limited: Mapping[int, Sequence[Card]] | None = None

    @staticmethod
    def of(
        spec: GameSpec,
        hands: Mapping[int, Sequence[Card]],
        board: Sequence[Card],
        board2: Sequence[Card] = (),
        limited: Mapping[int, Sequence[Card]] | None = None,
    ) -> Reader:
        return Reader(spec, hands, board, {}, {}, board2, limited)

    def high(self, seat: int) -> HandValue | None:
        if seat not in self._high:
            kind = HIGH_KIND.get(self.spec.high)
            self._high[seat] = None if kind is None else self._eval(kind, seat)
        return self._high[seat]

    def low(self, seat: int) -> HandValue | None:
        if seat not in self._low:
            kind = LOW_KIND.get(self.spec.low)
            self._low[seat] = None if kind is None else self._eval(kind, seat)
        return self._low[seat]

    def _eval(self, kind: HandKind, seat: int) -> HandValue | None:
        hole = self.hands.get(seat, ())
        try:
            if self.limited is not None:
                return evaluate(kind, hole, self.limited.get(seat, ()))
            value = evaluate(kind, hole, self.board)
            if not self.board2:
                return value
            other = evaluate(kind, hole, self.board2)
        except ValueError:
            return None  # a hand no evaluation accepts (reported as an incident elsewhere)
        if value is None or (other is not None and other.score > value.score):
            return other
        return value


def _best(seats: Sequence[int], values: Mapping[int, HandValue | None]) -> tuple[int, ...]:
    scored = [(v.score, s) for s in seats if (v := values.get(s)) is not None]
    if not scored:
        return ()
    top = max(score for score, _ in scored)
    return tuple(sorted(s for score, s in scored if score == top))


def _odd_chip_order(
    winners: Sequence[int],
    *,
    spec: GameSpec,
    profile: Profile,
    button: int | None,
    reader: Reader,
    low_half: bool,
) -> list[int]:
    """Winners in the order odd chips are handed out."""
    if spec.family is not Family.STUD:
        return clockwise_after(winners, button if button is not None else 0)
    # CHIP-ODD-STUD: highest card by suit (low half: lowest), RR all cards, GN the five played.
    five = profile.odd_chip_stud is OddChipStud.FIVE_CARDS
    want_low = low_half and not five

    def key(seat: int) -> tuple[int, int]:
        if five:
            value = reader.low(seat) if low_half else reader.high(seat)
            cards: Sequence[Card] = value.cards if value is not None else reader.hands[seat]
        else:
            cards = reader.hands.get(seat, ())
        if want_low:
            card = min(cards, key=lambda c: (c.low_rank, c.suit_rank))
            return (-card.low_rank, -card.suit_rank)
        card = max(cards, key=lambda c: (c.rank, c.suit_rank))
        return (card.rank, card.suit_rank)

    return sorted(winners, key=key, reverse=True)


def award_pots(
    pots: Sequence[Pot],
    contenders: set[int],
    reader: Reader,
    *,
    profile: Profile,
    button: int | None,
    unit: int = 1,
) -> list[Award]:
    spec = reader.spec
    out: list[Award] = []
    for pot in pots:
        seats = [s for s in pot.eligible if s in contenders] or list(pot.eligible)
        if len(seats) == 1:
            out.append(Award(pot, {seats[0]: pot.amount}, (seats[0],), ()))
            continue
        high = (
            _best(seats, {s: reader.high(s) for s in seats})
            if spec.high is not (HighEval.NONE)
            else ()
        )
        low = (
            _best(seats, {s: reader.low(s) for s in seats}) if spec.low is not LowEval.NONE else ()
        )
        won: dict[int, int] = {}
        halves: list[tuple[str, int, Mapping[int, int]]] = []
        if high and low:
            low_amount = pot.amount // unit // 2 * unit  # the high half gets the odd chip
            parts = [(high, pot.amount - low_amount, False), (low, low_amount, True)]
        elif high:
            parts = [(high, pot.amount, False)]
        elif low:
            parts = [(low, pot.amount, True)]
        else:
            parts = [(tuple(seats), pot.amount, False)]  # nobody can be read: split (floor)
        for winners, amount, is_low in parts:
            order = _odd_chip_order(
                winners, spec=spec, profile=profile, button=button, reader=reader, low_half=is_low
            )
            shares = split(amount, order, unit)
            for seat, chips in shares.items():
                won[seat] = won.get(seat, 0) + chips
            if high and low:
                halves.append(("low" if is_low else "high", amount, shares))
        out.append(Award(pot, won, high, low, tuple(halves)))
    return out
