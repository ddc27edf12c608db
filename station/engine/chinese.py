"""Chinese poker settlement: rows compared player against player, units x stake. Pure.

004-GN §XII. These games have no pot: each player sets thirteen cards into a front (three), a
middle (five) and a back (five), and every pair of players settles in units.

- Scoring (r341): "Participants compare each of their three sub-hands (front, middle, and back) to
  each of the other participants. One point is awarded to the participant who wins each
  comparison. If a participant wins all three against another participant, he is awarded three
  extra points for the scoop." A tied row scores nothing (house practice).
- Fouls (r342): "A hand is considered fouled if the front is a higher ranking poker hand than the
  middle or the middle is higher ranking than the back. A fouled hand is considered scooped
  against a non-fouled hand." Two fouled hands settle nothing (house practice).
- Royalties (r343): only in non-fouled hands, and not cancelled by a higher royalty of the
  opponent: each player is paid his royalties by every opponent (the table of r343; the 2-7
  middle of r353 has its own). Classic Chinese poker and Chinese draw poker play no royalties
  (the rulebook gives none; house practice).
- The 2-7 middle (r353): the middle is a deuce-to-seven low; "10-high is the 'best' hand that
  doesn't foul": any J, Q, K, A, pair, straight or flush in the middle is a foul; the back must
  beat the front; the lower middle wins the middle row.
- Points at risk (r339): "the participant may only lose a total number of points equal to the
  number of points that this participant began the hand with ... if a participant loses points in
  the first comparison, the participant can only receive a payoff no larger than the number of
  points that the participant has to begin the next comparison ... If a participant wins points,
  these points will not receive action in subsequent comparisons". Comparisons go from the button
  clockwise: the button against each opponent, then the next player against those after him.

The front is a three-card hand: three of a kind, a pair or high card (no straights or flushes,
common practice). Taiwanese poker (r347-r350) and Fantasyland dealing are not settled here: see
docs/CHINESE-POKER.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from station.engine.cards import Card
from station.engine.evaluate.codes import CAT_CODE, Cat, Mode, unpack
from station.engine.evaluate.high import high_value
from station.engine.evaluate.low import d27_low

_SC = CAT_CODE[Mode.STANDARD]


class Scoring(StrEnum):
    CLASSIC = "classic"  # Chinese poker, Chinese draw poker: rows and the scoop, no royalties
    OPEN_FACE = "open_face"  # OFC, turbo and pineapple: r343 royalties
    MIDDLE_27 = "middle_27"  # pineapple OFC with the 2-7 middle (r353)


@dataclass(frozen=True, slots=True)
class Setting:
    """One player's thirteen cards as set: front three, middle five, back five."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    def complete(self) -> bool:
        cards = (*self.front, *self.middle, *self.back)
        return (
            len(self.front) == 3
            and len(self.middle) == 5
            and len(self.back) == 5
            and len(set(cards)) == 13
        )


def front_value(cards: Sequence[Card]) -> int:
    """Three cards on the five-card scale: trips, a pair or high card (ranks packed alike)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    cat = {3: _SC[Cat.TRIPS], 2: _SC[Cat.PAIR]}.get(groups[0][0], _SC[Cat.HIGH_CARD])
    v = cat
    for _, r in groups:
        v = (v << 4) | r
    return v << (4 * (5 - len(groups)))


def _high(cards: Sequence[Card]) -> int:
    return high_value(cards, Mode.STANDARD)


def _middle_27(cards: Sequence[Card]) -> int | None:
    """The 2-7 middle's value (lower is better), None when it fouls: a pair or worse, a
    straight or flush, or a jack or higher (r353)."""
    low = d27_low(cards)
    if low is None:
        return None
    code, ranks = unpack(low[0])
    if code != _SC[Cat.HIGH_CARD] or ranks[0] > 10:
        return None
    return low[0]


def fouled(s: Setting, scoring: Scoring) -> bool:
    """r342 (and r353 for the 2-7 middle): a wrong card count, or rows out of order."""
    if not s.complete():
        return True  # r342: "more than or less than the exact number of cards ... is fouled"
    if scoring is Scoring.MIDDLE_27:
        return _middle_27(s.middle) is None or front_value(s.front) > _high(s.back)
    return front_value(s.front) > _high(s.middle) or _high(s.middle) > _high(s.back)


_TOP_PAIR_FROM = 6  # r343: 66 is 1 point, up to AA 9
_MIDDLE = {Cat.TRIPS: 2, Cat.STRAIGHT: 4, Cat.FLUSH: 8, Cat.FULL_HOUSE: 12, Cat.QUADS: 20}
_BACK = {Cat.STRAIGHT: 2, Cat.FLUSH: 4, Cat.FULL_HOUSE: 6, Cat.QUADS: 10}
_CAT = {code: cat for cat, code in zip(Cat, _SC, strict=True)}


def _five_royalty(value: int, table: Mapping[Cat, int], sf: int, royal: int) -> int:
    code, ranks = unpack(value)
    cat = _CAT[code]
    if cat is Cat.STRAIGHT_FLUSH:
        return royal if ranks[0] == 14 else sf
    return table.get(cat, 0)


def royalties(s: Setting, scoring: Scoring) -> int:
    """r343 (r353 for the 2-7 middle): the setting's bonus points; 0 when fouled or classic."""
    if scoring is Scoring.CLASSIC or fouled(s, scoring):
        return 0
    code, ranks = unpack(front_value(s.front))
    top = 0
    if code == _SC[Cat.TRIPS]:
        top = 10 + ranks[0] - 2  # 222 10 points ... AAA 22
    elif code == _SC[Cat.PAIR] and ranks[0] >= _TOP_PAIR_FROM:
        top = ranks[0] - _TOP_PAIR_FROM + 1  # 66 1 ... AA 9
    if scoring is Scoring.MIDDLE_27:
        mid_value = _middle_27(s.middle)
        assert mid_value is not None
        high_card = unpack(mid_value)[1][0]
        middle = (
            8
            if sorted(c.rank for c in s.middle) == [2, 3, 4, 5, 7]
            else {10: 0, 9: 1, 8: 2, 7: 4}.get(high_card, 0)
        )
    else:
        middle = _five_royalty(_high(s.middle), _MIDDLE, 30, 50)
    back = _five_royalty(_high(s.back), _BACK, 15, 25)
    return top + middle + back


def _row_results(a: Setting, b: Setting, scoring: Scoring) -> list[int]:
    """+1 / -1 / 0 for a against b, front, middle, back."""
    out = [_cmp(front_value(a.front), front_value(b.front))]
    if scoring is Scoring.MIDDLE_27:
        ma, mb = _middle_27(a.middle), _middle_27(b.middle)
        assert ma is not None
        assert mb is not None
        out.append(_cmp(mb, ma))  # the lower 2-7 wins
    else:
        out.append(_cmp(_high(a.middle), _high(b.middle)))
    out.append(_cmp(_high(a.back), _high(b.back)))
    return out


def _cmp(x: int, y: int) -> int:
    return (x > y) - (x < y)


def units(a: Setting, b: Setting, scoring: Scoring) -> int:
    """What b owes a in units (negative: a owes b), rows, scoop and royalties."""
    fa, fb = fouled(a, scoring), fouled(b, scoring)
    if fa and fb:
        return 0
    if fa or fb:
        rows = -6 if fa else 6  # a foul is scooped: three rows and the three-point scoop
    else:
        results = _row_results(a, b, scoring)
        rows = sum(results)
        if abs(rows) == 3:
            rows *= 2  # r341: three extra points for the scoop
    return rows + royalties(a, scoring) - royalties(b, scoring)


@dataclass(frozen=True, slots=True)
class Exchange:
    payer: int
    payee: int
    units: int


def settle(
    settings: Mapping[int, Setting],
    order: Sequence[int],
    scoring: Scoring,
    points: Mapping[int, int] | None = None,
) -> list[Exchange]:
    """Every comparison in the order of r339 (`order` starts with the button, then clockwise):
    what each pair exchanges, capped by the points each player has at risk when `points` (his
    points at the start of the hand) is given."""
    at_risk = dict(points) if points is not None else None
    out: list[Exchange] = []
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            u = units(settings[a], settings[b], scoring)
            if u == 0:
                continue
            payer, payee, owed = (b, a, u) if u > 0 else (a, b, -u)
            if at_risk is not None:
                owed = min(owed, at_risk[payer], at_risk[payee])
                at_risk[payer] -= owed
            if owed:
                out.append(Exchange(payer, payee, owed))
    return out


def net(exchanges: Sequence[Exchange], stake: int = 1) -> dict[int, int]:
    """Each player's result in chips: units x stake."""
    out: dict[int, int] = {}
    for e in exchanges:
        out[e.payee] = out.get(e.payee, 0) + e.units * stake
        out[e.payer] = out.get(e.payer, 0) - e.units * stake
    return out


def stays_in_fantasyland(s: Setting, scoring: Scoring) -> bool:
    """r345 e (r353 for the 2-7 middle): quads or better in the back, a full house or better in
    the middle (a perfect low in the 2-7 middle), or trips in front, without fouling."""
    if fouled(s, scoring):
        return False
    if unpack(front_value(s.front))[0] == _SC[Cat.TRIPS]:
        return True
    if _CAT[unpack(_high(s.back))[0]] in (Cat.QUADS, Cat.STRAIGHT_FLUSH):
        return True
    if scoring is Scoring.MIDDLE_27:
        return sorted(c.rank for c in s.middle) == [2, 3, 4, 5, 7]
    return _CAT[unpack(_high(s.middle))[0]] in (Cat.FULL_HOUSE, Cat.QUADS, Cat.STRAIGHT_FLUSH)
