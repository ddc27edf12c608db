"""What the table-input layer reports: small frozen records, one per thing that happened. Pure.

The daemon translates the first four into engine events (`station.engine.events`); the rest are
for the display and the diagnostics screen:

- `KeyPressed(key, seat, count, action, amount, to_seat)` -> `KeyPress(Key(key), seat, count,
  VerbalAction(action) if action else None, amount, to_seat=to_seat)`. `seat=None` means the seat
  to act (for EXPOSED, TABLED, MUCK: the seat the engine is dealing or showing to); the engine or
  the daemon resolves it from the snapshot. `long` is for the log only.
- `PuckMoved(seat)` -> `Puck(seat)`; `SeatChanged(seat, occupied)` -> `SeatSensor(seat, occupied)`.
- `hardware.betzone.ZoneSettled(seat, amount, chips)` -> `Zone(seat, amount, chips)`.
- `PanelStatus` (what the panel holds) and `PanelRejected` (play the reject beep): display.
- `PuckConflict`, `InputStuck`, `LevelMismatch`: diagnostics and the attention LED; never a crash.

Every record carries `at`, monotonic seconds from the injected clock, when it was recognised.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class KeyPressed:
    """A complete dealer entry: a catalog key with what it needs. `key` is a
    `station.engine.events.Key` value; `action` a `VerbalAction` value."""

    key: str
    at: float
    seat: int | None = None
    count: int | None = None
    action: str | None = None
    amount: int | None = None
    to_seat: int | None = None
    long: bool = False


@dataclass(frozen=True, slots=True)
class PuckMoved:
    """The dealer button now sits at `seat` (exactly one puck sensor active)."""

    seat: int
    at: float


@dataclass(frozen=True, slots=True)
class PuckConflict:
    """More than one puck sensor is active at once: a sensor fault or a second puck."""

    seats: tuple[int, ...]
    at: float


@dataclass(frozen=True, slots=True)
class SeatChanged:
    seat: int
    occupied: bool
    at: float


class PanelMode(StrEnum):
    """What the panel is waiting for (shown on the display so the dealer knows)."""

    IDLE = "idle"
    VERBAL = "verbal"  # an action key (FOLD CHECK CALL RAISE ALLIN), digits before it = amount
    COUNT = "count"  # a digit for DRAW/DISCARD (0-5) or RUN_IT (1-3)
    SEAT_FROM = "seat_from"  # SEAT_CHANGE: the seat the player leaves
    SEAT_TO = "seat_to"  # SEAT_CHANGE: the seat the player takes
    ARMED = "armed"  # MISDEAL pressed: CONFIRM to declare it


@dataclass(frozen=True, slots=True)
class PanelStatus:
    """The panel's pending state changed: the selected seat and any entry in progress."""

    selected: int | None
    mode: PanelMode
    pending: str | None  # the key being entered (VERBAL, DRAW, MISDEAL, ...)
    digits: str
    at: float


class RejectReason(StrEnum):
    NOT_NOW = "not_now"  # a key that does not fit the entry in progress
    OUT_OF_RANGE = "out_of_range"  # a count or seat the key cannot take
    TOO_MANY_DIGITS = "too_many_digits"
    TIMED_OUT = "timed_out"  # an entry left unfinished


@dataclass(frozen=True, slots=True)
class PanelRejected:
    """A press the panel could not use (the daemon plays the reject beep)."""

    button: str | None
    reason: RejectReason
    at: float


@dataclass(frozen=True, slots=True)
class InputStuck:
    """An input has been active for longer than `stuck_ms` (something resting on a key)."""

    input: str  # pin-map path, e.g. `keys.FOLD`
    since_at: float
    at: float


@dataclass(frozen=True, slots=True)
class LevelMismatch:
    """The periodic read-back found a level different from the one the edges told us: an edge was
    lost. The believed level is corrected (and debounced again) from the read-back."""

    input: str
    believed: bool
    actual: bool
    at: float


TableInputEvent = (
    KeyPressed
    | PuckMoved
    | PuckConflict
    | SeatChanged
    | PanelStatus
    | PanelRejected
    | InputStuck
    | LevelMismatch
)
