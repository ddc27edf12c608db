"""From adapter records to engine events, and from table state to LEDs and status. Pure.

- a card drawn (`firmware_bridge.CardDrawn`) -> `Draw(tag=..., face_up=...)`: the engine resolves
  the tag through the deck registry, so the journal keeps what the shoe really read;
- a settled bet-zone total (`hardware.betzone.ZoneSettled`) -> `Zone`, or `RakeZone` for the
  board's zone 0 (the rake or drop zone);
- panel and sensor events (`hardware.inputs.events`) -> `KeyPress`, `Puck`, `SeatSensor`;
- the device provenance of an input row: `shoe:SHOE-0001:4711` (device, serial, event id) in the
  journal's actor column, so that a restarted daemon resumes each device's event log right after
  the last event it journaled (exactly once across restarts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from firmware_bridge import CardDrawn, wire
from hardware.betzone.settling import ZoneSettled
from hardware.inputs.events import KeyPressed, PanelMode, PanelStatus, PuckMoved, SeatChanged
from hardware.inputs.signals import Signal
from station.daemon.items import Device
from station.engine.events import (
    Draw,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    VerbalAction,
    Zone,
    key_label,
)
from station.engine.snapshot import Phase, TableSnapshot

# Showdown keys without a selected seat act on the seat whose turn it is to show.
_TO_ACT_KEYS = frozenset({Key.TABLED, Key.MUCK})


def draw_event(message: CardDrawn) -> Draw:
    return Draw(None, face_up=message.face_up, tag=message.tag)


def zone_event(settled: ZoneSettled) -> Zone | RakeZone:
    if settled.seat == wire.RAKE_ZONE:
        return RakeZone(settled.amount, settled.chips)
    return Zone(settled.seat, settled.amount, settled.chips)


def key_event(pressed: KeyPressed, snapshot: TableSnapshot) -> KeyPress:
    key = Key(pressed.key)
    seat = pressed.seat
    if seat is None and key in _TO_ACT_KEYS:
        seat = snapshot.to_act
    action = VerbalAction(pressed.action) if pressed.action is not None else None
    return KeyPress(key, seat, pressed.count, action, pressed.amount, to_seat=pressed.to_seat)


def panel_entry(status: PanelStatus) -> str:
    """What the dealer key panel is in the middle of, in the words the display shows ("" when
    nothing): the seat key pressed, an entry waiting for its next key (PANEL.md rule 3)."""
    return _entry(status)[0]


def panel_entry_short(status: PanelStatus) -> str:
    """The same in fewer words, for a small panel's status strip."""
    return _entry(status)[1]


def _entry(status: PanelStatus) -> tuple[str, str]:
    seat = f"SEAT {status.selected} " if status.selected is not None else ""
    short = f"S{status.selected} " if status.selected is not None else ""
    key = key_label(status.pending) if status.pending else ""
    match status.mode:
        case PanelMode.IDLE:  # a seat key waits for the key it goes with: say so
            if status.selected is None:
                return "", ""
            return f"SEAT {status.selected} SELECTED", f"S{status.selected} SELECTED"
        case PanelMode.VERBAL:
            return f"{seat}VERBAL {status.digits}".strip(), f"{short}V {status.digits}".strip()
        case PanelMode.COUNT:
            return f"{seat}{key}: HOW MANY?", f"{short}{key}?"
        case PanelMode.SEAT_FROM:
            return "SEAT CHANGE: FROM SEAT?", "FROM?"
        case PanelMode.SEAT_TO:
            return "SEAT CHANGE: TO SEAT?", "TO?"
        case PanelMode.ARMED:
            return f"{key}: CONFIRM?", f"{key}?"
    assert_never(status.mode)


def sensor_event(event: PuckMoved | SeatChanged) -> Puck | SeatSensor:
    if isinstance(event, PuckMoved):
        return Puck(event.seat)
    return SeatSensor(event.seat, event.occupied)


# --- device provenance ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Provenance:
    device: Device
    serial: str
    event_id: int

    @property
    def actor(self) -> str:
        return f"{self.device.value}:{self.serial}:{self.event_id}"


def parse_actor(actor: str) -> Provenance | None:
    """The provenance in a journal row's actor, or None (a person, the panel, the station)."""
    parts = actor.split(":")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    try:
        device = Device(parts[0])
    except ValueError:
        return None
    return Provenance(device, parts[1], int(parts[2]))


# --- outputs ----------------------------------------------------------------------------------


def wanted_signals(snapshot: TableSnapshot, attention: bool) -> frozenset[Signal]:
    """The repeating LED patterns the table state asks for: STOP while a STOP is open, CALL
    FLOOR while it is held, ATTENTION for a link down, an open tilt or a recovery in progress."""
    out: set[Signal] = set()
    if snapshot.stop is not None:
        out.add(Signal.STOP)
    if snapshot.floor_call:
        out.add(Signal.CALL_FLOOR)
    if attention or snapshot.recovery is not None or snapshot.phase is Phase.MISDEAL:
        out.add(Signal.ATTENTION)
    return frozenset(out)


def status_line(
    snapshot: TableSnapshot, links: dict[Device, bool | None], blocked: tuple[str, ...]
) -> str:
    """The one line `systemctl status` shows (sd_notify STATUS=)."""
    parts = [f"hand {snapshot.hand} {snapshot.phase.value}"]
    for device, up in links.items():
        parts.append(f"{device.value} {'up' if up else 'down' if up is False else 'connecting'}")
    if snapshot.stop is not None:
        parts.append("STOP")
    if blocked:
        parts.append("blocked: " + ", ".join(blocked))
    return "; ".join(parts)
