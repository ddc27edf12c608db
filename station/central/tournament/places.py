"""The finishing order: each player out takes the lowest place still open; players out on the same
hand are placed by the chips they started it with; hand-for-hand makes a round's hands at every
table one hand. And the payouts by place, tied places sharing their prizes. Pure.

- Out on the same hand: the one who started it with more chips finishes higher; equal chips
  tie (001-RR11 §15 r35: equal prize money, the best hand on that deal gets any indivisible
  award; 002-RRPG §15 r35; 003-RR5 §15 r35; 000-USPA §3.3.2.29).
- Hand-for-hand: the round's hands are one hand across tables, so the round's players out are
  placed together by their starting chips. TDA 2024 RP-8 instead ties players out in the same
  hand-for-hand hand at different tables: here, each table's players out are ranked by their
  starting chips, and the players of the same rank at different tables tie (a table's lowest
  with the other tables' lowest, and so on).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True, slots=True)
class Out:
    """A player out: where, in which hand, with what he started it, and which group of
    simultaneous eliminations he belongs to (`group`: the hand at one table, or a
    hand-for-hand round), `order`: when the group happened (groups are placed in this order)."""

    player: str
    table: str
    seat: int
    hand: int
    start_stack: int
    group: str
    order: int


@dataclass(frozen=True, slots=True)
class Placed:
    player: str
    place: int  # the best place of the range the player shares (== last when not tied)
    last: int
    out: Out | None  # None: the winner

    @property
    def tied(self) -> bool:
        return self.place != self.last

    def label(self) -> str:
        return f"{self.place}" if not self.tied else f"{self.place}-{self.last}"


def _tiers(outs: Sequence[Out], tie_across_tables: bool) -> list[list[Out]]:
    """A group's players from the lowest place to the highest, players tied in one tier."""
    if tie_across_tables and len({o.table for o in outs}) > 1:
        ranks: dict[int, list[Out]] = {}
        for _, at_table in groupby(sorted(outs, key=lambda o: o.table), key=lambda o: o.table):
            ranked = sorted(at_table, key=lambda o: o.start_stack)
            for i, (_, same) in enumerate(groupby(ranked, key=lambda o: o.start_stack)):
                ranks.setdefault(i, []).extend(same)
        return [ranks[i] for i in sorted(ranks)]
    ranked = sorted(outs, key=lambda o: o.start_stack)
    return [list(same) for _, same in groupby(ranked, key=lambda o: o.start_stack)]


def finishing_order(
    entrants: int, outs: Sequence[Out], *, tie_across_tables: bool = False, winner: str = ""
) -> list[Placed]:
    """Every player out with his place, the first out last; `winner` (the one player left)
    first with place 1 once the field is down to him."""
    left = entrants
    placed: list[Placed] = []
    groups: dict[str, list[Out]] = {}
    for o in sorted(outs, key=lambda o: (o.order, o.group)):
        groups.setdefault(o.group, []).append(o)
    for members in groups.values():
        for tier in _tiers(members, tie_across_tables):
            best = left - len(tier) + 1
            placed += [Placed(o.player, best, left, o) for o in sorted(tier, key=_by_player)]
            left -= len(tier)
    if winner and left == 1:
        placed.append(Placed(winner, 1, 1, None))
    placed.sort(key=lambda p: (p.place, p.player))
    return placed


def _by_player(o: Out) -> str:
    return o.player


@dataclass(frozen=True, slots=True)
class Prize:
    place: str  # "3" or "3-4" (tied)
    player: str
    amount: int  # this player's share
    odd: int = 0  # of a shared prize, what does not divide evenly (the floor awards it)


def payouts(placed: Sequence[Placed], prizes: Sequence[int]) -> list[Prize]:
    """Each placed player's prize: `prizes[0]` for 1st, ... ; players tied for places p..q
    share the prizes of p..q equally (001-RR11 §15 r35), the indivisible rest shown as `odd`
    (RR11: it goes to the best hand on that deal, which the floor decides)."""
    out: list[Prize] = []
    by_range: Mapping[tuple[int, int], list[Placed]] = _ranges(placed)
    for (first, last), members in by_range.items():
        pool = sum(prizes[i - 1] for i in range(first, last + 1) if i <= len(prizes))
        if pool == 0:
            continue
        share, odd = divmod(pool, len(members))
        for p in members:
            out.append(Prize(p.label(), p.player, share, odd))
    out.sort(key=lambda p: (int(p.place.split("-")[0]), p.player))
    return out


def _ranges(placed: Sequence[Placed]) -> dict[tuple[int, int], list[Placed]]:
    out: dict[tuple[int, int], list[Placed]] = {}
    for p in placed:
        out.setdefault((p.place, p.last), []).append(p)
    return out
