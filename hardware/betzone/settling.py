"""Bet-zone settling: raw per-seat chip totals in, one settled amount per placement out. Pure.

The bet-zone board reports each seat's chip total whenever it reads it (the shoe-link issue
carries the messages; the daemon feeds them here with their `at`). A player stacks chips one at
a time, the dealer pushes a collection, a sensor misreads for one sample: only the first two are
bets. Rules, per seat:

- A new total *settles* once readings have stayed at it for `settle_s` (default 0.4 s): five chips
  placed over 800 ms give one `ZoneSettled`, not five. A drop to 0 that stays is settled like any
  other total (a collection to the pot, or a withdrawal: the engine tells them apart from the
  state of the hand); `ZoneSettled.change` says whether chips were added, reduced or cleared.
- Readings that leave the settled total and come back to it before `settle_s` are a `ZoneGlitch`
  (a spike above or a dropout below), reported, never a bet.
- Readings that keep changing for `unstable_s` without settling are reported once as `ZoneUnstable`.
- Nonsense (a seat out of range, a negative or non-integer total, chips that do not add up to
  the total) is a `ZoneFault`; the reading is dropped, nothing raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class ZoneChange(StrEnum):
    FIRST = "first"  # the first total seen for the seat since start
    ADDED = "added"
    REDUCED = "reduced"
    CLEARED = "cleared"  # down to 0: collected to the pot or withdrawn


class GlitchKind(StrEnum):
    SPIKE = "spike"  # readings above the settled total, then back
    DROPOUT = "dropout"  # readings below it (often 0), then back
    WOBBLE = "wobble"  # both


@dataclass(frozen=True, slots=True)
class ZoneSettled:
    """The seat's zone total settled at `amount` (engine event `Zone(seat, amount, chips)`)."""

    seat: int
    amount: int
    previous: int | None
    change: ZoneChange
    chips: tuple[int, ...] | None
    at: float


@dataclass(frozen=True, slots=True)
class ZoneGlitch:
    seat: int
    settled: int | None
    kind: GlitchKind
    seen: tuple[int, ...]  # the distinct readings of the excursion, in first-seen order
    samples: int
    at: float


@dataclass(frozen=True, slots=True)
class ZoneUnstable:
    seat: int
    settled: int | None
    readings: tuple[int, ...]  # the distinct readings since it last settled (up to 8)
    since_at: float
    at: float


@dataclass(frozen=True, slots=True)
class ZoneFault:
    seat: object
    amount: object
    reason: str
    at: float


ZoneEvent = ZoneSettled | ZoneGlitch | ZoneUnstable | ZoneFault


@dataclass(slots=True)
class _Seat:
    settled: int | None = None
    candidate: int | None = None  # the reading being watched, when it differs from `settled`
    candidate_since: float = 0.0
    chips: tuple[int, ...] | None = None
    excursion: list[int] = field(default_factory=list)
    samples: int = 0
    unsettled_since: float | None = None
    unstable_reported: bool = False


class ZoneSettler:
    def __init__(self, seats: int = 10, *, settle_s: float = 0.4, unstable_s: float = 3.0) -> None:
        if settle_s <= 0 or unstable_s <= settle_s:
            raise ValueError("need 0 < settle_s < unstable_s")
        self.seats = seats
        self.settle_s = settle_s
        self.unstable_s = unstable_s
        # The seats 1..n and zone 0, the rake (drop) zone of a board that has one (CAP_RAKE_ZONE).
        self._seats = {seat: _Seat() for seat in range(seats + 1)}
        self.glitches = 0
        self.faults = 0

    def settled(self, seat: int) -> int | None:
        return self._seats[seat].settled

    def deadline(self) -> float | None:
        times: list[float] = []
        for s in self._seats.values():
            if s.candidate is not None:
                times.append(s.candidate_since + self.settle_s)
            if s.unsettled_since is not None and not s.unstable_reported:
                times.append(s.unsettled_since + self.unstable_s)
        return min(times) if times else None

    def reading(
        self, seat: object, amount: object, at: float, chips: Sequence[int] | None = None
    ) -> list[ZoneEvent]:
        """One raw reading from the board. Returns what it settles, and anything due before it."""
        fault = self._check(seat, amount, chips)
        out: list[ZoneEvent] = list(self.advance(at))
        if fault is not None:
            self.faults += 1
            out.append(ZoneFault(seat, amount, fault, at))
            return out
        assert isinstance(seat, int)
        assert isinstance(amount, int)
        s = self._seats[seat]
        s.chips = tuple(chips) if chips is not None else None
        if amount == s.candidate:
            s.samples += 1
            return out
        if amount == s.settled:
            if s.candidate is not None:  # back where it was before it could settle
                out.append(self._glitch(seat, s, at))
            return out
        if s.candidate is None and s.unsettled_since is None:
            s.unsettled_since = at
        s.candidate, s.candidate_since = amount, at
        s.samples += 1
        if amount not in s.excursion:
            s.excursion.append(amount)
        return out

    def advance(self, now: float) -> list[ZoneEvent]:
        due: list[ZoneEvent] = []
        for seat, s in self._seats.items():
            if s.candidate is not None and now >= s.candidate_since + self.settle_s:
                due.append(self._settle(seat, s, s.candidate_since + self.settle_s))
            elif (
                s.unsettled_since is not None
                and not s.unstable_reported
                and now >= s.unsettled_since + self.unstable_s
            ):
                s.unstable_reported = True
                readings = tuple(s.excursion[:8])
                due.append(
                    ZoneUnstable(
                        seat,
                        s.settled,
                        readings,
                        s.unsettled_since,
                        s.unsettled_since + self.unstable_s,
                    )
                )
        return sorted(due, key=lambda e: e.at)

    def _check(self, seat: object, amount: object, chips: Sequence[int] | None) -> str | None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= self.seats:
            return f"seat is not 1-{self.seats} (or 0, the rake zone)"
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            return "amount is not a whole number of chips >= 0"
        if chips is not None:
            if any(not isinstance(c, int) or isinstance(c, bool) or c <= 0 for c in chips):
                return "a chip denomination is not a positive whole number"
            if sum(chips) != amount:
                return f"chips add up to {sum(chips)}, not {amount}"
        return None

    def _settle(self, seat: int, s: _Seat, at: float) -> ZoneSettled:
        assert s.candidate is not None
        previous, amount = s.settled, s.candidate
        if previous is None:
            change = ZoneChange.FIRST
        elif amount == 0:
            change = ZoneChange.CLEARED
        elif amount > previous:
            change = ZoneChange.ADDED
        else:
            change = ZoneChange.REDUCED
        s.settled, s.candidate = amount, None
        self._reset(s)
        return ZoneSettled(seat, amount, previous, change, s.chips, at)

    def _glitch(self, seat: int, s: _Seat, at: float) -> ZoneGlitch:
        settled = s.settled if s.settled is not None else 0
        above = any(v > settled for v in s.excursion)
        below = any(v < settled for v in s.excursion)
        kind = (
            GlitchKind.WOBBLE
            if above and below
            else GlitchKind.SPIKE
            if above
            else GlitchKind.DROPOUT
        )
        glitch = ZoneGlitch(seat, s.settled, kind, tuple(s.excursion), s.samples, at)
        self.glitches += 1
        s.candidate = None
        self._reset(s)
        return glitch

    @staticmethod
    def _reset(s: _Seat) -> None:
        s.excursion.clear()
        s.samples = 0
        s.unsettled_since = None
        s.unstable_reported = False
