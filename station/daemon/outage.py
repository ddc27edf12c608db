"""A time the journal could not be written (a full disk, a write error): since when, why, and what
the station refused or could not record meanwhile, put on record once the journal takes rows
again. Pure (the caller gives the times and the events).

The record is a critical `storage_full` tilt: its `detail` says the span, the cause and how many
inputs were lost, and `refused` lists the first `MAX_LISTED` of them in words (a key and its seat,
a zone amount, "a card draw": never a card), so the floor can check the table against the
journal before the next hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from station.daemon.storage_fault import StorageFault
from station.engine.events import Draw, InputEvent, KeyPress, Puck, RakeZone, SeatSensor, Zone
from station.journal.codes import STATION_ACTOR, ActorRole, Code, TiltCode
from station.journal.rows import Entry

MAX_LISTED: Final = 50


def input_words(event: InputEvent) -> str:
    """An input in a few words, never a card's identity."""
    match event:
        case KeyPress(key=key, seat=seat):
            return f"key {key.value}" + (f" seat {seat}" if seat is not None else "")
        case Draw(face_up=up):
            return "a card draw (face up)" if up else "a card draw"
        case Zone(seat=seat, amount=amount):
            return f"seat {seat} zone {amount}"
        case RakeZone(amount=amount):
            return f"rake zone {amount}"
        case SeatSensor(seat=seat, occupied=occupied):
            return f"seat {seat} {'taken' if occupied else 'left'}"
        case Puck(seat=seat):
            return f"puck to seat {seat}"
        case _:
            return type(event).__name__.lower()


@dataclass
class Outage:
    """One span during which the journal could not be written."""

    fault: StorageFault
    since_utc: str
    count: int = 0  # inputs and commands not recorded
    refused: list[str] = field(default_factory=list)  # the first MAX_LISTED, in words, with times

    def note(self, what: str, utc: str) -> None:
        self.count += 1
        if len(self.refused) < MAX_LISTED:
            self.refused.append(f"{utc[11:19]} {what}" if what else utc[11:19])

    def detail(self) -> str:
        return (
            f"the journal could not be written from {self.since_utc} ({self.fault}); "
            f"{self.count} input(s) or command(s) meanwhile were not recorded: check the table "
            "against the journal before the next hand"
        )

    def entry(self) -> Entry:
        """The critical tilt that puts the outage on record."""
        more = self.count - len(self.refused)
        refused = [*self.refused, f"and {more} more"] if more > 0 else list(self.refused)
        payload = {"tilt": TiltCode.STORAGE_FULL.value, "detail": self.detail(), "refused": refused}
        return Entry(Code.TILT_RAISED, payload, STATION_ACTOR, ActorRole.STATION)
