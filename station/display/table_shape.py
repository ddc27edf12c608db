"""The table the dealer stands at: its shape and where each seat sits around the rail. Pure.

Positions are given as degrees around the rail, measured from the dealer (0) the way play goes
(clockwise seen from above: seat 1 on the dealer's left): 180 is across the table from the
dealer. The screen shows the table as the dealer sees it, the dealer at the bottom and the far
side at the top, so seat 1 is bottom left. On an oval (a stadium: two straight sides and round
ends, the usual poker table) a position is a share of the rail's length, so evenly spaced
positions sit evenly along the rail; on a round table it is an angle.

By default the table's seats (`[table] seats` in the config, 10 at most) are spread evenly, the
dealer taking one place: seats 1..N at 360 * i / (N + 1). The config may place any seat itself
(`[display.seat_positions]`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from station.display.model import Rect

TABLE_SEATS = 10  # the most seats a table has (the pin map's limit)


class TableKind(StrEnum):
    OVAL = "oval"  # straight sides, round ends
    ROUND = "round"  # an ellipse


@dataclass(frozen=True, slots=True)
class TableShape:
    kind: TableKind = TableKind.OVAL
    seats: int = TABLE_SEATS  # the seats the table has (for the default spacing)
    positions: Mapping[int, float] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= TABLE_SEATS:
            raise ValueError(f"a table has 2 to {TABLE_SEATS} seats, not {self.seats}")
        for seat, deg in self.positions.items():
            if not 0 < deg < 360:
                raise ValueError(f"seat {seat}: position {deg} is not between 0 and 360 degrees")

    def __hash__(self) -> int:  # a layout cache's key
        return hash((self.kind, self.seats, frozenset(self.positions.items())))

    def degrees(self, seat: int) -> float:
        """Where `seat` sits: degrees around the rail from the dealer."""
        given = self.positions.get(seat)
        if given is not None:
            return given
        count = max(self.seats, seat)
        return 360.0 * seat / (count + 1)

    def point(self, seat: int, rail: Rect) -> tuple[float, float]:
        """The seat's place on the rail drawn through `rail` (its bounding box)."""
        return rail_point(self.kind, rail, self.degrees(seat) / 360.0)


DEFAULT_TABLE = TableShape()


def table_for(seats: Iterable[int], kind: TableKind = TableKind.OVAL) -> TableShape:
    """A table with as many places as the highest seat number in use (at least two): what a
    session's own seats say when no config describes the table."""
    return TableShape(kind, min(TABLE_SEATS, max(2, *seats, 2)))


def rail_point(kind: TableKind, rail: Rect, share: float) -> tuple[float, float]:
    """The point a `share` (0..1) of the way round the rail from the dealer (bottom centre),
    going the way play goes (towards the left of the screen first)."""
    cx, cy = rail.x + rail.w / 2, rail.y + rail.h / 2
    share %= 1.0
    if kind is TableKind.ROUND:
        a = 2 * math.pi * share
        return cx - rail.w / 2 * math.sin(a), cy + rail.h / 2 * math.cos(a)
    r = min(rail.w, rail.h) / 2
    straight = max(0.0, rail.w - 2 * r)
    total = 2 * straight + 2 * math.pi * r
    d = share * total
    half = straight / 2
    left_x, right_x = cx - half, cx + half
    # bottom, from the dealer to the left end
    if d <= half:
        return cx - d, cy + r
    d -= half
    arc = math.pi * r
    if d <= arc:  # the left end, bottom to top
        a = d / r
        return left_x - r * math.sin(a), cy + r * math.cos(a)
    d -= arc
    if d <= straight:  # the far side, left to right
        return left_x + d, cy - r
    d -= straight
    if d <= arc:  # the right end, top to bottom
        a = d / r
        return right_x + r * math.sin(a), cy - r * math.cos(a)
    d -= arc
    return right_x - d, cy + r


def inward(kind: TableKind, rail: Rect, x: float, y: float) -> tuple[float, float]:
    """The unit vector from a point on the rail towards the felt (where the bets go)."""
    cx, cy = rail.x + rail.w / 2, rail.y + rail.h / 2
    if kind is TableKind.OVAL:
        r = min(rail.w, rail.h) / 2
        half = max(0.0, rail.w - 2 * r) / 2
        if cx - half <= x <= cx + half:  # on a straight side
            return 0.0, (1.0 if y < cy else -1.0)
        cx = cx - half if x < cx else cx + half  # the centre of that round end
    dx, dy = cx - x, cy - y
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n
