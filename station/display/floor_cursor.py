"""Where the floor is in the review: part of the navigation state. Pure.

Its own module, so that the floor's screens (`floor_view`) and the pages of its screen keys
(`floor_keys`) both use it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FloorCursor:
    """Where the floor is in the review (part of the navigation state)."""

    page: str = "incidents"  # incidents, incident, ruling, hands, recall, or a floor_keys page
    incident: int = 0
    hand: int = 0
    step: int = 0
    top: int = 0  # first visible row of the current list
    seat: int | None = None  # the seat a screen key is for (FORFEIT)
    digits: str = ""  # the amount typed on a screen key's number pad
