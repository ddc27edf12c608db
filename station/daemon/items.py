"""What the adapters hand the core: the items of its one queue, as frozen records. Pure.

Every thread but the core's only ever *puts* one of these on the queue (`Inbox.put`); the core
takes them one at a time, in arrival order, and is the only one to act on them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import StrEnum
from queue import Empty, SimpleQueue
from typing import TYPE_CHECKING

from firmware_bridge import LinkStateChange, Message
from station.display.nav import Command
from station.display.pinpad import PadAccess
from station.engine.events import Setup

if TYPE_CHECKING:
    from station.fleet.forwarder import FleetAlarm
    from station.fleet.messages import Command as FleetCommand
    from station.journal.history import HistoryReport
    from station.journal.scrub import ScrubProgress


class Device(StrEnum):
    """The serial devices, by the name the journal's link rows use."""

    SHOE = "shoe"
    BETZONES = "betzones"


@dataclass(frozen=True, slots=True)
class LinkMessage:
    device: Device
    message: Message


@dataclass(frozen=True, slots=True)
class LinkChanged:
    device: Device
    change: LinkStateChange


@dataclass(frozen=True, slots=True)
class GpioEdges:
    """Raw GPIO edges are waiting in `TableInputs` (its notify callback)."""


@dataclass(frozen=True, slots=True)
class DisplayCommand:
    command: Command


@dataclass(eq=False)
class Reply:
    """A one-shot answer from the core to a thread waiting for it."""

    done: threading.Event = field(default_factory=threading.Event)
    ok: bool = False
    words: str = ""  # why not, in the few words the PIN pad shows ("" when ok)

    def answer(self, ok: bool, words: str = "") -> None:
        self.ok = ok
        self.words = words
        self.done.set()

    def wait(self, timeout_s: float) -> bool:
        return self.done.wait(timeout_s) and self.ok


@dataclass(frozen=True, slots=True)
class PinCheck:
    """The PIN pad (display thread) asks whether `pin` opens `role`'s screens, or (role dealer)
    signs `person` in as the table's dealer. The PIN lives in memory only: it is never logged
    or journaled."""

    role: PadAccess
    pin: str = field(repr=False)
    reply: Reply = field(compare=False)
    person: str | None = None  # the name picked on the dealer sign-in


@dataclass(frozen=True, slots=True)
class Reseat:
    """The floor seats the table anew (config change, or the demo's next hand)."""

    setup: Setup
    actor: str = "floor"


@dataclass(frozen=True, slots=True)
class HistoryChecked:
    """What the start took on trust was checked (by a child process: `history_runner`)."""

    report: HistoryReport


@dataclass(frozen=True, slots=True)
class ScrubProgressed:
    """The scrub says how far it is (and, with `done`, how it ended)."""

    progress: ScrubProgress


@dataclass(frozen=True, slots=True)
class FleetAlarmed:
    """The fleet forwarder found the central store ahead of this journal, or holding another
    history of it (rollback or rewrite): the core raises a critical tilt."""

    alarm: FleetAlarm


@dataclass(frozen=True, slots=True)
class FleetCommandReceived:
    """A command from the central store (the floor console), for the core to carry out and
    answer through the forwarder."""

    command: FleetCommand


@dataclass(frozen=True, slots=True)
class Stop:
    reason: str


Item = (
    LinkMessage
    | LinkChanged
    | GpioEdges
    | DisplayCommand
    | PinCheck
    | Reseat
    | HistoryChecked
    | ScrubProgressed
    | FleetAlarmed
    | FleetCommandReceived
    | Stop
)


class Inbox:
    """The core's queue. Thread-safe `put`; only the core calls `get`."""

    def __init__(self) -> None:
        self._queue: SimpleQueue[Item] = SimpleQueue()

    def put(self, item: Item) -> None:
        self._queue.put(item)

    def get(self, timeout_s: float | None) -> Item | None:
        try:
            if timeout_s is not None and timeout_s <= 0:
                return self._queue.get_nowait()
            return self._queue.get(timeout=timeout_s)
        except Empty:
            return None

    def empty(self) -> bool:
        return self._queue.empty()
