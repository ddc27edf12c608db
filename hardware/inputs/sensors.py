"""Button-puck and seat-occupancy logic over debounced sensor levels. Pure.

Flicker tolerance comes from the `Debouncer` in front (a seat sensor must hold a new level for
`seat_stable_ms`, 3 s on revision A, so a player leaning back is not leaving). Here:

- `PuckTracker`: one sensor per seat; exactly one active -> `PuckMoved` (only when the seat
  differs from the last one reported); none active is the puck in transit (nothing to say); two
  or more active -> `PuckConflict` once per distinct set, never a guess.
- `SeatTracker`: a stable level per seat -> `SeatChanged`.
"""

from __future__ import annotations

from collections.abc import Mapping

from hardware.inputs.events import PuckConflict, PuckMoved, SeatChanged


class PuckTracker:
    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.active: set[int] = set()
        self.reported: int | None = None
        self._conflict: tuple[int, ...] | None = None

    def start(self, levels: Mapping[int, bool], at: float) -> list[PuckMoved | PuckConflict]:
        self.active = {seat for seat, on in levels.items() if on}
        return self._judge(at)

    def update(self, seat: int, active: bool, at: float) -> list[PuckMoved | PuckConflict]:
        if active:
            self.active.add(seat)
        else:
            self.active.discard(seat)
        return self._judge(at)

    def _judge(self, at: float) -> list[PuckMoved | PuckConflict]:
        if len(self.active) >= 2:
            seats = tuple(sorted(self.active))
            if seats == self._conflict:
                return []
            self._conflict = seats
            return [PuckConflict(seats, at)]
        if len(self.active) == 1:
            (seat,) = self.active
            was_conflict, self._conflict = self._conflict, None
            if seat != self.reported or was_conflict is not None:
                self.reported = seat
                return [PuckMoved(seat, at)]
        return []


class SeatTracker:
    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.occupied: dict[int, bool] = {}

    def start(self, levels: Mapping[int, bool], at: float) -> list[SeatChanged]:
        self.occupied = dict(levels)
        return [SeatChanged(seat, on, at) for seat, on in sorted(levels.items())]

    def update(self, seat: int, occupied: bool, at: float) -> list[SeatChanged]:
        if self.occupied.get(seat) == occupied:
            return []
        self.occupied[seat] = occupied
        return [SeatChanged(seat, occupied, at)]
