"""Names of the dealer panel's buttons, the table's outputs and the catalog's keys, as data. Pure.

`CATALOG_KEYS`, `SCREEN_KEYS` and `STATION_KEYS` together are a copy of the values of
`station.engine.events.Key` (hardware must not import `station`; a test in `tests/inputs` checks
the lists stay equal): the panel has a button for every catalog key; the screen keys are entered
on the touch screen (the tournament director's chip race, the floor's forfeit of a void hand's
refund, a player who showed his cards during a tournament deal) and have no button; the station
keys are recorded by the station itself (a tournament's moves between tables). The panel has a
few buttons beyond the catalog: one seat key per seat (`SEAT_1` … `SEAT_10`, which double as
digits) and the verbal short-cuts `CALL` and `RAISE`; see `PANEL.md`.
"""

from __future__ import annotations

import re
from enum import StrEnum

MAX_SEATS = 10

CATALOG_KEYS: tuple[str, ...] = (
    "NEW_HAND",
    "FOLD",
    "CHECK",
    "VERBAL",
    "ALLIN",
    "EXPOSED",
    "FLASH",
    "BOXED",
    "MISDEAL",
    "STUB_RESHUFFLE",
    "DRAW",
    "DISCARD",
    "STRADDLE",
    "KILL",
    "TABLED",
    "MUCK",
    "RUN_IT",
    "CLOCK",
    "TIME",
    "FLOOR",
    "CONFIRM",
    "CANCEL",
    "ELIMINATE",
    "BURN_SELECT",
    "CHOP",
    "SEAT_CHANGE",
    "DECK_CHECK",
)

# Keys entered on the touch screen, not the panel (no pin).
SCREEN_KEYS: tuple[str, ...] = ("CHIP_RACE", "FORFEIT", "SHOWN")

# Keys the station records itself (a tournament's moves confirmed by the seat sensors).
STATION_KEYS: tuple[str, ...] = ("MOVE_OUT", "MOVE_IN")

# Panel buttons that are not catalog keys: they produce a catalog key (VERBAL) with an action.
VERBAL_SHORTCUTS: tuple[str, ...] = ("CALL", "RAISE")

# Keys that act on a seat: the selected seat, or (seat None) the seat the engine has to act.
SEAT_KEYS: frozenset[str] = frozenset(
    {
        "FOLD",
        "CHECK",
        "VERBAL",
        "ALLIN",
        "EXPOSED",
        "FLASH",
        "DRAW",
        "DISCARD",
        "STRADDLE",
        "KILL",
        "TABLED",
        "MUCK",
        "CLOCK",
        "TIME",
        "SEAT_CHANGE",
        "CALL",
        "RAISE",
    }
)

_SEAT_BUTTON = re.compile(r"SEAT_([1-9][0-9]?)\Z")


def seat_button(seat: int) -> str:
    return f"SEAT_{seat}"


def seat_of_button(name: str) -> int | None:
    """`SEAT_7` -> 7; anything else -> None."""
    m = _SEAT_BUTTON.match(name)
    return int(m.group(1)) if m else None


ZERO_BUTTON = seat_button(MAX_SEATS)  # SEAT_10 is also the digit 0


def panel_buttons(seats: int) -> tuple[str, ...]:
    """Every button a panel for `seats` seats has, in a stable order. A smaller table keeps
    `SEAT_10` as its 0 key (DRAW 0 is standing pat)."""
    seat_keys = tuple(seat_button(s) for s in range(1, seats + 1))
    if ZERO_BUTTON not in seat_keys:
        seat_keys += (ZERO_BUTTON,)
    return CATALOG_KEYS + VERBAL_SHORTCUTS + seat_keys


class Output(StrEnum):
    """The table's signalling outputs (pin-map `[outputs]` names)."""

    LED_ATTENTION = "LED_ATTENTION"
    LED_STOP = "LED_STOP"
    LED_FLOOR = "LED_FLOOR"
    BUZZER = "BUZZER"


class Group(StrEnum):
    """The pin-map sections that hold inputs; the values are the section names."""

    KEYS = "keys"
    PUCK = "puck"
    OCCUPANCY = "occupancy"
