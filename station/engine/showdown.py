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
from station.engine.games import Family, GameSpec, HighEval, LowEval, Second, SplitOdd
from station.engine.positions import clockwise_after
from station.engine.pots import Pot, split
from station.engine.profiles import OddChipStud, Profile

HIGH_KIND = {
    HighEval.STANDARD: HandKind.HIGH,
    HighEval.OMAHA: HandKind.OMAHA_HIGH,
    HighEval.SHORT_DECK: HandKind.SHORT_DECK_HIGH,
    HighEval.JOKER: HandKind.HIGH_JOKER,
    HighEval.NINES: HandKind.HIGH_NINES,
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
SECOND_KIND = {
    Second.BADUGI: HandKind.BADUGI,
    Second.BADUGI_ACE_HIGH: HandKind.BADUGI_ACE_HIGH,
    Second.D27: HandKind.LOW_27,
    Second.HIGH: HandKind.HIGH,
    Second.A5: HandKind.LOW_A5,
    Second.BADUGI_HIGH: HandKind.BADUGI_HIGH,
    Second.FORTY_NINE: HandKind.FORTY_NINE,
}
# Halves whose odd chip between tied hands goes as in a low game (the lowest card by suit).
_LOW_LIKE = frozenset({HandKind.BADUGI, HandKind.BADUGI_ACE_HIGH, HandKind.LOW_27, HandKind.LOW_A5})


@dataclass(frozen=True, slots=True)
class Award:
    pot: Pot
    won: Mapping[int, int]
    high: tuple[int, ...]  # winners of the high half (or of the whole pot)
    low: tuple[int, ...]  # winners of the low half
    # The halves of a hi-lo pot, each ("high" or "low", amount, seat -> chips), when both are won
    halves: tuple[tuple[str, int, Mapping[int, int]], ...] = ()


def halves(spec: GameSpec) -> tuple[HandKind, ...]:
    """The hand kinds a pot of this game is judged by, in order: the first takes the odd chip of
    the split unless the game gives it by position (`SplitOdd`)."""
    out: list[HandKind] = []
    if spec.high is not HighEval.NONE:
        out.append(HIGH_KIND[spec.high])
    if spec.low is not LowEval.NONE:
        out.append(LOW_KIND[spec.low])
    if spec.second is not Second.NONE:
        out.append(SECOND_KIND[spec.second])
    return tuple(out)


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

    def second(self, seat: int) -> HandValue | None:
        """The other half (`Second`): Drawmaha's draw hand is read from the hole cards alone."""
        kind = SECOND_KIND.get(self.spec.second)
        if kind is None:
            return None
        if not self.spec.draw_after:
            return self._eval(kind, seat)
        try:
            return evaluate(kind, self.hands.get(seat, ()), ())
        except ValueError:
            return None

    def half(self, kind: HandKind, seat: int) -> HandValue | None:
        """The value of `seat`'s hand for the half judged by `kind`."""
        if self.spec.high is not HighEval.NONE and kind is HIGH_KIND[self.spec.high]:
            return self.high(seat)
        if self.spec.low is not LowEval.NONE and kind is LOW_KIND[self.spec.low]:
            return self.low(seat)
        return self.second(seat)

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
    kind: HandKind | None = None,
) -> list[int]:
    """Winners in the order odd chips are handed out."""
    if spec.family is not Family.STUD:
        return clockwise_after(winners, button if button is not None else 0)
    # CHIP-ODD-STUD: highest card by suit (low half: lowest), RR all cards, GN the five played.
    five = profile.odd_chip_stud is OddChipStud.FIVE_CARDS
    want_low = low_half and not five

    def key(seat: int) -> tuple[int, int]:
        if five:
            if kind is not None:
                value = reader.half(kind, seat)
            else:
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
    if spec.second is not Second.NONE:
        return [_split_award(p, contenders, reader, profile, button, unit) for p in pots]
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
        hi_lo: list[tuple[str, int, Mapping[int, int]]] = []
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
                hi_lo.append(("low" if is_low else "high", amount, shares))
        out.append(Award(pot, won, high, low, tuple(hi_lo)))
    return out


DRAW_PART = "draw_"


def part_name(spec: GameSpec, kind: HandKind) -> str:
    """The name of a part of a pot split two ways other than high and low (`hand_end` splits):
    the hand kind it was judged by (`low_27`, `badugi`, `omaha_high`), Drawmaha's draw half
    with `draw_` before it (`draw_high`, `draw_forty_nine`): read from the hole cards alone."""
    if spec.draw_after and spec.second is not Second.NONE and kind is SECOND_KIND[spec.second]:
        return DRAW_PART + kind.value
    return kind.value


def part_kind(name: str) -> HandKind:
    """The hand kind a part named by `part_name` was judged by."""
    return HandKind(name.removeprefix(DRAW_PART))


def _split_award(
    pot: Pot,
    contenders: set[int],
    reader: Reader,
    profile: Profile,
    button: int | None,
    unit: int,
) -> Award:
    """A pot of a game whose halves are two lows or a high and a draw hand (`Second`): each
    half to its best hand. The odd chip of the split goes to the first half (Razzdugi's razz,
    004-GN r324) or by position from the button (low-low splits, 004-GN r148; Drawmaha)."""
    spec = reader.spec
    seats = [s for s in pot.eligible if s in contenders] or list(pot.eligible)
    first_kind, second_kind = halves(spec)
    if len(seats) == 1:
        return Award(pot, {seats[0]: pot.amount}, (seats[0],), (seats[0],))
    first = _best(seats, {s: reader.half(first_kind, s) for s in seats})
    second = _best(seats, {s: reader.half(second_kind, s) for s in seats})
    if not first or not second:
        kind = first_kind if first else second_kind
        winners = first or second or tuple(seats)
        parts = [(kind, winners, pot.amount)]
    else:
        half = pot.amount // unit // 2 * unit
        odd_first = True
        if spec.split_odd is SplitOdd.POSITION and pot.amount - 2 * half:
            ring = clockwise_after({*first, *second}, button if button is not None else 0)
            odd_first = ring[0] in first
        big, small = pot.amount - half, half
        parts = [
            (first_kind, first, big if odd_first else small),
            (second_kind, second, small if odd_first else big),
        ]
    won: dict[int, int] = {}
    shares: list[tuple[str, int, Mapping[int, int]]] = []
    for kind, winners, amount in parts:
        order = _odd_chip_order(
            winners,
            spec=spec,
            profile=profile,
            button=button,
            reader=reader,
            low_half=kind in _LOW_LIKE,
            kind=kind,
        )
        got = split(amount, order, unit)
        shares.append((part_name(spec, kind), amount, got))
        for seat, chips in got.items():
            won[seat] = won.get(seat, 0) + chips
    return Award(pot, won, first, second, tuple(shares))
