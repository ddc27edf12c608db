"""The dealer key panel's logic: button presses in, complete dealer entries out. Pure.

The layout and the reasoning are in `PANEL.md`. In short: a key that acts on a seat acts on the
seat to act (`seat=None`, resolved by the engine) unless a seat key was pressed first; seat keys
double as digits while an entry waits for a number; VERBAL, DRAW, DISCARD, RUN_IT, SEAT_CHANGE
and MISDEAL are two-step entries; CANCEL backs out one level, a long CANCEL clears everything;
FLOOR always goes through at once, whatever is pending.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.inputs.events import (
    KeyPressed,
    PanelMode,
    PanelRejected,
    PanelStatus,
    RejectReason,
)
from hardware.inputs.names import SEAT_KEYS, seat_of_button

PanelEvent = KeyPressed | PanelStatus | PanelRejected

# In VERBAL mode these buttons name the declared action (`VerbalAction` values).
VERBAL_ACTIONS = {
    "FOLD": "fold",
    "CHECK": "check",
    "CALL": "call",
    "RAISE": "raise",
    "ALLIN": "allin",
}
COUNT_RANGES = {"DRAW": (0, 5), "DISCARD": (0, 5), "RUN_IT": (1, 3)}
COUNT_KEYS_WITH_SEAT = frozenset({"DRAW", "DISCARD"})
MAX_DIGITS = 6


@dataclass(frozen=True, slots=True)
class _State:
    selected: int | None = None
    mode: PanelMode = PanelMode.IDLE
    pending: str | None = None
    seat: int | None = None  # the seat the pending entry acts on (None: seat to act)
    digits: str = ""


class Panel:
    """Feed it `press(button, long, at)`; call `advance(now)` for the timeouts."""

    def __init__(
        self, seats: int, *, selection_timeout_s: float = 5.0, entry_timeout_s: float = 5.0
    ) -> None:
        self.seats = seats
        self.selection_timeout_s = selection_timeout_s
        self.entry_timeout_s = entry_timeout_s
        self._state = _State()
        self._selected_at = 0.0
        self._entry_at = 0.0

    @property
    def selected(self) -> int | None:
        return self._state.selected

    @property
    def mode(self) -> PanelMode:
        return self._state.mode

    def deadline(self) -> float | None:
        times = []
        if self._state.selected is not None:
            times.append(self._selected_at + self.selection_timeout_s)
        if self._state.mode is not PanelMode.IDLE:
            times.append(self._entry_at + self.entry_timeout_s)
        return min(times) if times else None

    def advance(self, now: float) -> list[PanelEvent]:
        out: list[PanelEvent] = []
        s = self._state
        if s.mode is not PanelMode.IDLE and now >= self._entry_at + self.entry_timeout_s:
            at = self._entry_at + self.entry_timeout_s
            out.append(PanelRejected(None, RejectReason.TIMED_OUT, at))
            out.extend(self._set(_State(selected=s.selected), at))
        s = self._state
        if s.selected is not None and now >= self._selected_at + self.selection_timeout_s:
            out.extend(
                self._set(
                    _State(mode=s.mode, pending=s.pending, seat=s.seat, digits=s.digits),
                    self._selected_at + self.selection_timeout_s,
                )
            )
        return out

    def press(self, button: str, long: bool, at: float) -> list[PanelEvent]:
        out = self.advance(at)
        s = self._state
        if button == "FLOOR":  # urgent: never blocked, never disturbs an entry
            out.append(KeyPressed("FLOOR", at, seat=None, long=long))
            return out
        if button == "CANCEL":
            out.extend(self._cancel(long, at))
            return out
        seat = seat_of_button(button)
        match s.mode:
            case PanelMode.IDLE:
                out.extend(self._idle(button, seat, long, at))
            case PanelMode.VERBAL:
                out.extend(self._verbal(button, seat, long, at))
            case PanelMode.COUNT:
                out.extend(self._count(button, seat, long, at))
            case PanelMode.SEAT_FROM | PanelMode.SEAT_TO:
                out.extend(self._seat_change(button, seat, long, at))
            case PanelMode.ARMED:
                out.extend(self._armed(button, long, at))
        return out

    # -- states ------------------------------------------------------------------------------

    def _set(self, state: _State, at: float) -> list[PanelEvent]:
        old, self._state = self._state, state
        if state.selected is not None and state.selected != old.selected:
            self._selected_at = at
        if state.mode is not PanelMode.IDLE and (state != old):
            self._entry_at = at
        if state == old:
            return []
        return [PanelStatus(state.selected, state.mode, state.pending, state.digits, at)]

    def _cancel(self, long: bool, at: float) -> list[PanelEvent]:
        s = self._state
        if long:
            return self._set(_State(), at)
        if s.mode is not PanelMode.IDLE:
            return self._set(_State(selected=s.selected), at)
        if s.selected is not None:
            return self._set(_State(), at)
        return [KeyPressed("CANCEL", at, long=False)]

    def _emit(
        self,
        key: str,
        at: float,
        long: bool,
        *,
        seat: int | None = None,
        action: str | None = None,
        amount: int | None = None,
    ) -> list[PanelEvent]:
        """Emit an entry and return to idle; the selection is used up when the key took it.
        The panel's new state goes out before the key, so that nothing shows the entry still
        pending ("MISDEAL: CONFIRM?") beside what the key has done (a MISDEAL ruled)."""
        keep = self._state.selected if key not in SEAT_KEYS else None
        press = KeyPressed(key, at, seat=seat, action=action, amount=amount, long=long)
        return [*self._set(_State(selected=keep), at), press]

    def _idle(self, button: str, seat: int | None, long: bool, at: float) -> list[PanelEvent]:
        s = self._state
        if seat is not None and seat > self.seats:  # the 0 key of a smaller table
            return [PanelRejected(button, RejectReason.OUT_OF_RANGE, at)]
        if seat is not None:  # select, or deselect when pressed again
            return self._set(_State(selected=None if s.selected == seat else seat), at)
        if button in ("CALL", "RAISE"):
            return self._emit("VERBAL", at, long, seat=s.selected, action=VERBAL_ACTIONS[button])
        if button == "VERBAL":
            return self._set(_State(mode=PanelMode.VERBAL, pending=button, seat=s.selected), at)
        if button in COUNT_RANGES:
            target = s.selected if button in COUNT_KEYS_WITH_SEAT else None
            keep = None if button in COUNT_KEYS_WITH_SEAT else s.selected
            return self._set(
                _State(selected=keep, mode=PanelMode.COUNT, pending=button, seat=target), at
            )
        if button == "SEAT_CHANGE":
            mode = PanelMode.SEAT_FROM if s.selected is None else PanelMode.SEAT_TO
            return self._set(_State(mode=mode, pending=button, seat=s.selected), at)
        if button == "MISDEAL":
            return self._set(_State(selected=s.selected, mode=PanelMode.ARMED, pending=button), at)
        if button in SEAT_KEYS:
            return self._emit(button, at, long, seat=s.selected)
        return self._emit(button, at, long)  # a table key: no seat, the selection stays

    def _verbal(self, button: str, seat: int | None, long: bool, at: float) -> list[PanelEvent]:
        s = self._state
        if seat is not None:
            if len(s.digits) >= MAX_DIGITS:
                return [PanelRejected(button, RejectReason.TOO_MANY_DIGITS, at)]
            return self._set(
                _State(
                    mode=s.mode, pending=s.pending, seat=s.seat, digits=s.digits + str(seat % 10)
                ),
                at,
            )
        action = VERBAL_ACTIONS.get(button)
        if action is None:
            return [PanelRejected(button, RejectReason.NOT_NOW, at)]
        amount = int(s.digits) if s.digits else None
        if amount is not None and action not in ("raise", "allin"):
            return [PanelRejected(button, RejectReason.NOT_NOW, at)]  # an amount needs RAISE
        return self._emit("VERBAL", at, long, seat=s.seat, action=action, amount=amount)

    def _count(self, button: str, seat: int | None, long: bool, at: float) -> list[PanelEvent]:
        s = self._state
        assert s.pending is not None
        if seat is None:
            return [PanelRejected(button, RejectReason.NOT_NOW, at)]
        low, high = COUNT_RANGES[s.pending]
        count = seat % 10
        if not low <= count <= high:
            return [PanelRejected(button, RejectReason.OUT_OF_RANGE, at)]
        press = KeyPressed(s.pending, at, seat=s.seat, count=count, long=long)
        return [*self._set(_State(selected=s.selected), at), press]

    def _seat_change(
        self, button: str, seat: int | None, long: bool, at: float
    ) -> list[PanelEvent]:
        s = self._state
        if seat is None:
            return [PanelRejected(button, RejectReason.NOT_NOW, at)]
        if seat > self.seats:
            return [PanelRejected(button, RejectReason.OUT_OF_RANGE, at)]
        if s.mode is PanelMode.SEAT_FROM:
            return self._set(_State(mode=PanelMode.SEAT_TO, pending=s.pending, seat=seat), at)
        if seat == s.seat:
            return [PanelRejected(button, RejectReason.OUT_OF_RANGE, at)]
        press = KeyPressed("SEAT_CHANGE", at, seat=s.seat, to_seat=seat, long=long)
        return [*self._set(_State(), at), press]

    def _armed(self, button: str, long: bool, at: float) -> list[PanelEvent]:
        s = self._state
        if button != "CONFIRM":
            return [PanelRejected(button, RejectReason.NOT_NOW, at)]
        assert s.pending is not None
        press = KeyPressed(s.pending, at, long=long)
        return [*self._set(_State(selected=s.selected), at), press]  # idle first, as `_emit`
