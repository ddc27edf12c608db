"""Link counters and the ring of the last frames: the moving parts behind `LinkStats`. Pure."""

from __future__ import annotations

import struct
from collections import deque
from dataclasses import dataclass, field

from firmware_bridge import wire
from firmware_bridge.codec import Frame
from firmware_bridge.status import Direction, FrameRecord

FRAME_RING = 200


@dataclass(slots=True)
class Counters:
    bytes_rx: int = 0
    bytes_tx: int = 0
    frames_rx: int = 0
    frames_tx: int = 0
    malformed: int = 0
    naks_rx: int = 0
    naks_tx: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    events_delivered: int = 0
    events_lost: int = 0
    connects: int = 0
    open_failures: int = 0
    link_faults: int = 0  # frames that contradicted the session (each a resync)
    versions_seen: set[int] = field(default_factory=set)


class FrameRing:
    """The last `FRAME_RING` frames each way, for the technician. A frame's detail names its
    event id but never its payload: a CARD_DRAWN would show a hole card."""

    def __init__(self, size: int = FRAME_RING) -> None:
        self._ring: deque[FrameRecord] = deque(maxlen=size)

    def rx(self, frame: Frame, now: float) -> None:
        self._add(
            now, Direction.RX, frame.type, frame.seq, len(frame.payload) + 7, _rx_detail(frame)
        )

    def tx(self, data: bytes, now: float) -> None:
        body = data.lstrip(b"\x7e")
        if len(body) >= 3:
            self._add(now, Direction.TX, body[2], body[1] & 0x0F, len(data), _tx_detail(body))

    def records(self) -> tuple[FrameRecord, ...]:
        return tuple(self._ring)

    def _add(
        self, now: float, direction: Direction, ftype: int, seq: int, length: int, detail: str
    ) -> None:
        name = wire.TYPE_NAMES.get(ftype, f"0x{ftype:02X}")
        self._ring.append(FrameRecord(now, direction, name, seq, length, detail))


def _rx_detail(f: Frame) -> str:
    if f.type in wire.EVENT_TYPES and len(f.payload) >= wire.EVENT_HEADER_LEN:
        boot, event_id, _ = struct.unpack_from(wire.FMT_EVENT, f.payload)
        return f"event {event_id} boot {boot}"
    if f.type in (wire.T_EVENTS_LOST, wire.T_REPLAY_START, wire.T_CLOCK, wire.T_HELLO):
        return f.payload.hex()
    return ""


def _tx_detail(body: bytes) -> str:
    # body: len, ver|seq, type, payload..., crc, sync
    if body[2] in (wire.T_ACK, wire.T_NAK) and len(body) == 10:
        (cursor,) = struct.unpack_from(wire.FMT_ACK_HOST, body, 3)
        return f"up to event {cursor}"
    return ""
