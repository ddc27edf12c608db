"""Best-five values from a rank multiset and from one suit's ranks, memoised. Pure.

`nonflush_value(rank_key, mode)` ranks the best five cards of any size of hand ignoring suits
(quads, full house, straight, trips, two pair, pair, high card); `flush_value(rank_key, mode)`
ranks the best five cards of one suit (straight flush or flush). An evaluator takes the larger of
the two when a suit holds five cards. Both are memoised on the rank key: there are at most a few
tens of thousands of keys, each computed once on first sight, so importing costs nothing and the
steady state is one dictionary look-up.
"""

from __future__ import annotations

from typing import Final

from station.engine.evaluate.codes import CAT_CODE, RANK_FIELD, Cat, Mode, pack

_RANKS_DESC: Final = tuple(range(14, 1, -1))
_NONFLUSH: Final[dict[Mode, dict[int, int]]] = {m: {} for m in Mode}
_FLUSH: Final[dict[Mode, dict[int, int]]] = {m: {} for m in Mode}


def straight_top(mask: int, mode: Mode) -> int:
    """The top rank of the highest straight in a rank mask (bit r = rank r, 2..14); 0 if none."""
    if mask >> 14 & 1:
        if mode is Mode.STANDARD:
            mask |= 1 << 1  # the ace also plays low: 5-4-3-2-A
        elif mode is Mode.SHORT_DECK:
            mask |= 1 << 5  # GN r359: 9-8-7-6-A is a straight
    for top in range(14, 4, -1):
        if (mask >> (top - 4)) & 0x1F == 0x1F:
            return top
    return 0


def _groups(rank_key: int) -> list[tuple[int, int]]:
    """(count, rank) for every rank present, most cards first, then highest rank first."""
    groups = []
    for r in _RANKS_DESC:
        c = (rank_key >> (RANK_FIELD * (r - 2))) & 7
        if c:
            groups.append((c, r))
    groups.sort(reverse=True)
    return groups


def _compute_nonflush(rank_key: int, mode: Mode) -> int:
    code = CAT_CODE[mode]
    groups = _groups(rank_key)
    c0, r0 = groups[0]
    if c0 >= 4:
        kicker = max((r for _, r in groups[1:]), default=0)
        return pack(code[Cat.QUADS], [r0, kicker] if kicker else [r0])
    if c0 == 3:
        pairs = [r for c, r in groups[1:] if c >= 2]
        if pairs:
            return pack(code[Cat.FULL_HOUSE], [r0, max(pairs)])
    mask = 0
    for _, r in groups:
        mask |= 1 << r
    top = straight_top(mask, mode)
    if top:
        return pack(code[Cat.STRAIGHT], [top])
    if c0 == 3:
        kickers = sorted((r for _, r in groups[1:]), reverse=True)[:2]
        return pack(code[Cat.TRIPS], [r0, *kickers])
    if c0 == 2 and len(groups) > 1 and groups[1][0] == 2:
        r1 = groups[1][1]
        kicker = max((r for _, r in groups[2:]), default=0)
        return pack(code[Cat.TWO_PAIR], [r0, r1, kicker] if kicker else [r0, r1])
    if c0 == 2:
        kickers = sorted((r for _, r in groups[1:]), reverse=True)[:3]
        return pack(code[Cat.PAIR], [r0, *kickers])
    return pack(code[Cat.HIGH_CARD], [r for _, r in groups[:5]])


def _compute_flush(rank_key: int, mode: Mode) -> int:
    code = CAT_CODE[mode]
    mask = 0
    for r in _RANKS_DESC:
        if (rank_key >> (RANK_FIELD * (r - 2))) & 7:
            mask |= 1 << r
    top = straight_top(mask, mode)
    if top:
        return pack(code[Cat.STRAIGHT_FLUSH], [top])
    return pack(code[Cat.FLUSH], [r for r in _RANKS_DESC if mask >> r & 1][:5])


def nonflush_value(rank_key: int, mode: Mode) -> int:
    """Value of the best five cards of a rank multiset, suits ignored (needs five cards)."""
    cache = _NONFLUSH[mode]
    v = cache.get(rank_key)
    if v is None:
        v = cache[rank_key] = _compute_nonflush(rank_key, mode)
    return v


def flush_value(rank_key: int, mode: Mode) -> int:
    """Value of the best five cards of one suit (at least five distinct ranks)."""
    cache = _FLUSH[mode]
    v = cache.get(rank_key)
    if v is None:
        v = cache[rank_key] = _compute_flush(rank_key, mode)
    return v


def nonflush_cache(mode: Mode) -> dict[int, int]:
    """The memo itself, for evaluators that inline the look-up on their hot path."""
    return _NONFLUSH[mode]
