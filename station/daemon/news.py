"""What the core tells its observers after each commit, and what it needs of a link. Pure
records (the demo's dealer and live log, and the tests, watch these).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from firmware_bridge import LinkStats
from hardware.inputs.events import PanelStatus
from station.daemon.items import Device
from station.engine.decisions import Decision
from station.engine.events import InputEvent
from station.engine.snapshot import TableSnapshot


class LinkPort(Protocol):
    """What the core needs of a `firmware_bridge.DeviceLink`."""

    @property
    def alive(self) -> bool: ...
    def stats(self) -> LinkStats: ...
    def request_deck_scan(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Recorded:
    """One input as committed, for observers (the demo's dealer and live log, tests)."""

    seq: int
    event: InputEvent
    actor: str
    decisions: tuple[Decision, ...]
    snapshot: TableSnapshot


@dataclass(frozen=True, slots=True)
class LinkNews:
    device: Device
    up: bool
    reason: str


@dataclass(frozen=True, slots=True)
class OpsNews:
    """An operational row was journaled (CALL FLOOR cleared, a login, a tilt): the state now."""

    snapshot: TableSnapshot
    blocked: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PanelNews:
    """What the key panel holds (a selected seat, an entry in progress)."""

    status: PanelStatus


News = Recorded | LinkNews | OpsNews | PanelNews
Observer = Callable[[News], None]
