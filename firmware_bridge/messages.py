"""What the shoe and bet-zone board tell the station, as frozen records, and the payload parsers
that build them. Pure.

Parsers never raise on a payload: a frame that passed its CRC but does not parse (a firmware bug)
gives None, and the session counts it as malformed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge import wire


class DeviceKind(StrEnum):
    SHOE = "shoe"
    BET_ZONES = "bet_zones"


class Capability(StrEnum):
    CARD_READER = "card_reader"
    FACE_SENSOR = "face_sensor"
    DECK_SCAN = "deck_scan"
    BET_ZONES = "bet_zones"
    CHIP_LIST = "chip_list"
    PERSISTENT_LOG = "persistent_log"


class Sensor(StrEnum):
    RFID_READER = "rfid_reader"
    FACE_SENSOR = "face_sensor"
    DECK_SWITCH = "deck_switch"
    LID_SWITCH = "lid_switch"
    BET_ZONE = "bet_zone"
    EVENT_STORE = "event_store"
    UNKNOWN = "unknown"


class Fault(StrEnum):
    NO_RESPONSE = "no_response"
    STUCK = "stuck"
    OUT_OF_RANGE = "out_of_range"
    WRITE_FAILED = "write_failed"
    UNKNOWN = "unknown"


class LossReason(StrEnum):
    OVERWRITTEN = "overwritten"  # the device's event buffer wrapped over unacknowledged events
    LOG_RESET = "log_reset"  # the device's event log restarted (wiped or replaced)
    MALFORMED = "malformed"  # the event arrived intact but could not be read (firmware bug)
    CONFLICT = "conflict"  # two different events arrived with this id: one was not the device's


_KINDS = {wire.KIND_SHOE: DeviceKind.SHOE, wire.KIND_BET_ZONES: DeviceKind.BET_ZONES}
_CAPS = {
    wire.CAP_CARD_READER: Capability.CARD_READER,
    wire.CAP_FACE_SENSOR: Capability.FACE_SENSOR,
    wire.CAP_DECK_SCAN: Capability.DECK_SCAN,
    wire.CAP_BET_ZONES: Capability.BET_ZONES,
    wire.CAP_CHIP_LIST: Capability.CHIP_LIST,
    wire.CAP_PERSISTENT_LOG: Capability.PERSISTENT_LOG,
}
_SENSORS = {
    wire.S_RFID_READER: Sensor.RFID_READER,
    wire.S_FACE_SENSOR: Sensor.FACE_SENSOR,
    wire.S_DECK_SWITCH: Sensor.DECK_SWITCH,
    wire.S_LID_SWITCH: Sensor.LID_SWITCH,
    wire.S_BET_ZONE: Sensor.BET_ZONE,
    wire.S_EVENT_STORE: Sensor.EVENT_STORE,
}
_FAULTS = {
    wire.F_NO_RESPONSE: Fault.NO_RESPONSE,
    wire.F_STUCK: Fault.STUCK,
    wire.F_OUT_OF_RANGE: Fault.OUT_OF_RANGE,
    wire.F_WRITE_FAILED: Fault.WRITE_FAILED,
}


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """The device's answer to IDENTIFY. `boot_id` is its boot counter (one more every boot)."""

    kind: DeviceKind
    protocol_version: int
    firmware_version: str
    serial: str
    boot_id: int
    capabilities: frozenset[Capability]
    tick_hz: int
    log_capacity: int
    seats: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card left the shoe. `tag` is the RFID UID in upper-case hex; `at` is the host monotonic
    time of the draw, estimated from the device clock (the receive time when it cannot be)."""

    tag: str
    face_up: bool
    device_ticks: int
    boot_id: int
    event_id: int
    at: float


@dataclass(frozen=True, slots=True)
class DeckScan:
    """The tags the shoe read when a deck was loaded. It may span several events: `event_id` is
    the last one's (the resume point), `first_event_id` the first one's. `complete` is False when
    a part never arrived (the device lost it), and then `tags` holds what did."""

    tags: tuple[str, ...]
    scan_id: int
    complete: bool
    device_ticks: int
    boot_id: int
    event_id: int
    first_event_id: int
    at: float


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    deck_present: bool
    lid_closed: bool
    reader_fault: bool
    face_sensor_fault: bool
    device_ticks: int
    boot_id: int
    event_id: int
    at: float


@dataclass(frozen=True, slots=True)
class BetZoneTotals:
    """A seat's chip total in its betting zone now; `chips` lists one denomination per chip,
    largest first, when the sensor can tell them apart (None when it cannot)."""

    seat: int
    amount: int
    chips: tuple[int, ...] | None
    device_ticks: int
    boot_id: int
    event_id: int
    at: float


@dataclass(frozen=True, slots=True)
class SensorFault:
    """A sensor fault raised (`active`) or cleared. `index` is the seat for bet-zone sensors."""

    sensor: Sensor
    index: int
    fault: Fault
    active: bool
    device_ticks: int
    boot_id: int
    event_id: int
    at: float


@dataclass(frozen=True, slots=True)
class DeviceRebooted:
    """The device booted (`boot_id`, the one after `previous_boot_id`). It arrives in order with
    the other events, so a reboot mid-hand shows exactly which draws came before it."""

    previous_boot_id: int
    reset_cause: int
    device_ticks: int
    boot_id: int
    event_id: int
    at: float


@dataclass(frozen=True, slots=True)
class EventsLost:
    """Events the device can no longer deliver. Never expected in service; reported, never
    silent. `last_event_id` is None when the count is unknown (the device's log restarted)."""

    first_event_id: int
    last_event_id: int | None
    reason: LossReason
    at: float


@dataclass(frozen=True, slots=True)
class ZoneReading:
    seat: int
    amount: int
    chips: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The device's state on (re)connect, as of event `as_of_event_id`: events with a higher id
    happened after it. Sent before the replay of missed events."""

    identity: DeviceIdentity
    deck_present: bool
    lid_closed: bool
    reader_fault: bool
    face_sensor_fault: bool
    zone_fault: bool
    cards_loaded: int | None
    drawn_since_load: int
    zones: tuple[ZoneReading, ...]
    as_of_event_id: int
    at: float


DeviceEvent = CardDrawn | DeckScan | ShoeStatus | BetZoneTotals | SensorFault | DeviceRebooted
Message = DeviceEvent | EventsLost | Snapshot


# ---- parsing ---------------------------------------------------------------------------------


def tag_hex(tag: bytes) -> str:
    return tag.hex().upper()


def parse_identity(payload: bytes) -> tuple[int, DeviceIdentity | None]:
    """(nonce, identity). The identity is None when the payload is malformed or names an unknown
    kind of device; the nonce is -1 when even the frozen prefix is missing."""
    size = struct.calcsize(wire.FMT_IDENTITY)
    if len(payload) < size + 1:
        return -1, None
    (ver, nonce, kind, major, minor, patch, caps, boot, hz, cap, seats) = struct.unpack_from(
        wire.FMT_IDENTITY, payload
    )
    sn_len = payload[size]
    serial_bytes = payload[size + 1 : size + 1 + sn_len]
    if len(serial_bytes) != sn_len or kind not in _KINDS:
        return nonce, None
    identity = DeviceIdentity(
        kind=_KINDS[kind],
        protocol_version=ver,
        firmware_version=f"{major}.{minor}.{patch}",
        serial=serial_bytes.decode("ascii", "replace"),
        boot_id=boot,
        capabilities=frozenset(c for bit, c in _CAPS.items() if caps & bit),
        tick_hz=hz,
        log_capacity=cap,
        seats=seats,
    )
    return nonce, identity


@dataclass(frozen=True, slots=True)
class EventHeader:
    boot_id: int
    event_id: int
    device_ticks: int


@dataclass(frozen=True, slots=True)
class DeckScanPart:
    """One DECK_SCAN event; the session assembles the parts into a `DeckScan`."""

    header: EventHeader
    scan_id: int
    part: int
    parts: int
    tags: tuple[str, ...]
    at: float


def parse_event_header(payload: bytes) -> tuple[EventHeader, bytes] | None:
    if len(payload) < wire.EVENT_HEADER_LEN:
        return None
    boot, event_id, ticks = struct.unpack_from(wire.FMT_EVENT, payload)
    return EventHeader(boot, event_id, ticks), payload[wire.EVENT_HEADER_LEN :]


def _tags(body: bytes, offset: int, count: int) -> tuple[str, ...] | None:
    tags: list[str] = []
    for _ in range(count):
        if offset >= len(body):
            return None
        n = body[offset]
        tag = body[offset + 1 : offset + 1 + n]
        if len(tag) != n or n == 0:
            return None
        tags.append(tag_hex(tag))
        offset += 1 + n
    return tuple(tags) if offset == len(body) else None


def parse_zone(body: bytes) -> ZoneReading | None:
    size = struct.calcsize(wire.FMT_ZONE)
    if len(body) < size:
        return None
    seat, amount, flags, pairs = struct.unpack_from(wire.FMT_ZONE, body)
    pair = struct.calcsize(wire.FMT_CHIPS)
    if len(body) != size + pairs * pair:
        return None
    chips: tuple[int, ...] | None = None
    if flags & wire.ZONE_CHIPS_KNOWN:
        out: list[int] = []
        for i in range(pairs):
            denom, count = struct.unpack_from(wire.FMT_CHIPS, body, size + i * pair)
            out.extend([denom] * count)
        if sum(out) != amount:
            return None
        chips = tuple(sorted(out, reverse=True))
    return ZoneReading(seat=seat, amount=amount, chips=chips)


def parse_event(
    etype: int, header: EventHeader, body: bytes, at: float
) -> DeviceEvent | DeckScanPart | None:
    """One event body -> its record (a `DeckScanPart` for a deck-scan part); None if malformed."""
    h = header
    try:
        if etype == wire.E_CARD_DRAWN:
            flags, n = struct.unpack_from(wire.FMT_CARD, body)
            tag = body[2 : 2 + n]
            if n == 0 or len(body) != 2 + n:
                return None
            return CardDrawn(
                tag_hex(tag),
                bool(flags & wire.CARD_FACE_UP),
                device_ticks=h.device_ticks,
                boot_id=h.boot_id,
                event_id=h.event_id,
                at=at,
            )
        if etype == wire.E_DECK_SCAN:
            scan_id, part, parts, count = struct.unpack_from(wire.FMT_DECK_SCAN, body)
            tags = _tags(body, struct.calcsize(wire.FMT_DECK_SCAN), count)
            if tags is None or part >= parts:
                return None
            return DeckScanPart(header, scan_id, part, parts, tags, at)
        if etype == wire.E_SHOE_STATUS:
            if len(body) != struct.calcsize(wire.FMT_STATUS):
                return None
            (flags,) = struct.unpack(wire.FMT_STATUS, body)
            return ShoeStatus(
                deck_present=bool(flags & wire.ST_DECK_PRESENT),
                lid_closed=bool(flags & wire.ST_LID_CLOSED),
                reader_fault=bool(flags & wire.ST_READER_FAULT),
                face_sensor_fault=bool(flags & wire.ST_FACE_SENSOR_FAULT),
                device_ticks=h.device_ticks,
                boot_id=h.boot_id,
                event_id=h.event_id,
                at=at,
            )
        if etype == wire.E_ZONE_TOTAL:
            zone = parse_zone(body)
            if zone is None:
                return None
            return BetZoneTotals(
                zone.seat,
                zone.amount,
                zone.chips,
                device_ticks=h.device_ticks,
                boot_id=h.boot_id,
                event_id=h.event_id,
                at=at,
            )
        if etype == wire.E_SENSOR_FAULT:
            if len(body) != struct.calcsize(wire.FMT_FAULT):
                return None
            sensor, index, fault, active = struct.unpack(wire.FMT_FAULT, body)
            return SensorFault(
                _SENSORS.get(sensor, Sensor.UNKNOWN),
                index,
                _FAULTS.get(fault, Fault.UNKNOWN),
                bool(active),
                device_ticks=h.device_ticks,
                boot_id=h.boot_id,
                event_id=h.event_id,
                at=at,
            )
        if etype == wire.E_BOOTED:
            if len(body) != struct.calcsize(wire.FMT_BOOTED):
                return None
            previous, cause = struct.unpack(wire.FMT_BOOTED, body)
            return DeviceRebooted(
                previous,
                cause,
                device_ticks=h.device_ticks,
                boot_id=h.boot_id,
                event_id=h.event_id,
                at=at,
            )
    except struct.error:
        return None
    return None


@dataclass(frozen=True, slots=True)
class SnapshotStatus:
    flags: int
    cards_loaded: int | None
    drawn_since_load: int


def parse_snapshot_part(payload: bytes) -> tuple[int, int, int, bytes] | None:
    """(part, parts, as-of event id, body) of one SNAPSHOT frame."""
    size = struct.calcsize(wire.FMT_SNAPSHOT)
    if len(payload) < size:
        return None
    part, parts, as_of = struct.unpack_from(wire.FMT_SNAPSHOT, payload)
    if part >= parts:
        return None
    return part, parts, as_of, payload[size:]


def parse_snapshot_status(body: bytes) -> SnapshotStatus | None:
    if len(body) != struct.calcsize(wire.FMT_SNAPSHOT_STATUS):
        return None
    flags, cards, drawn = struct.unpack(wire.FMT_SNAPSHOT_STATUS, body)
    return SnapshotStatus(flags, None if cards == wire.CARDS_UNKNOWN else cards, drawn)


def build_snapshot(
    identity: DeviceIdentity,
    status: SnapshotStatus,
    zones: tuple[ZoneReading, ...],
    as_of: int,
    at: float,
) -> Snapshot:
    f = status.flags
    return Snapshot(
        identity=identity,
        deck_present=bool(f & wire.ST_DECK_PRESENT),
        lid_closed=bool(f & wire.ST_LID_CLOSED),
        reader_fault=bool(f & wire.ST_READER_FAULT),
        face_sensor_fault=bool(f & wire.ST_FACE_SENSOR_FAULT),
        zone_fault=bool(f & wire.ST_ZONE_FAULT),
        cards_loaded=status.cards_loaded,
        drawn_since_load=status.drawn_since_load,
        zones=zones,
        as_of_event_id=as_of,
        at=at,
    )
