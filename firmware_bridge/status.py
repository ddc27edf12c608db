"""What the daemon and the diagnostics screen see of a link: its state, its counters and its
last frames, as frozen records. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.messages import DeviceIdentity


class LinkState(StrEnum):
    DOWN = "down"
    UP = "up"
    REFUSED = "refused"  # a device answered, but the station cannot use it (see `reason`)


@dataclass(frozen=True, slots=True)
class LinkStateChange:
    """Link up, link down or device refused; `reason` is a sentence for the technician."""

    state: LinkState
    at: float
    reason: str
    port: str
    identity: DeviceIdentity | None


class Direction(StrEnum):
    RX = "rx"
    TX = "tx"


@dataclass(frozen=True, slots=True)
class FrameRecord:
    """One frame in the ring of last frames. `detail` never shows a card's tag: the diagnostics
    screen must not reveal hole cards."""

    at: float
    direction: Direction
    type_name: str
    seq: int
    length: int
    detail: str


@dataclass(frozen=True, slots=True)
class LinkStats:
    """A snapshot of one link's counters for the diagnostics screen (all since the link object
    was created; `rtt_s`/`rto_s` are the current estimates, None before the first sample)."""

    port: str
    state: LinkState
    reason: str
    identity: DeviceIdentity | None
    bytes_rx: int
    bytes_tx: int
    frames_rx: int
    frames_tx: int
    crc_errors: int
    resyncs: int
    dropped_bytes: int
    malformed: int
    naks_rx: int
    naks_tx: int
    retransmits: int
    duplicates: int
    out_of_order: int
    events_delivered: int
    events_lost: int
    connects: int
    reconnects: int
    open_failures: int
    rtt_s: float | None
    rto_s: float
    versions_seen: tuple[int, ...]
    last_event_id: int | None
    last_frames: tuple[FrameRecord, ...]
    link_faults: int = 0  # frames that contradicted the session: each took the link down
