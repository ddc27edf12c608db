"""Device events in order, exactly once: one device's event cursor, duplicate and gap handling,
reported losses, and deck-scan assembly. Pure.

Event ids are 32-bit, assigned by the device and persisted with its event log, so they keep
increasing across reboots; the idempotency key handed to the station is (boot id, event id). The
stream accepts only the event right after its cursor: an older id is a duplicate (a
retransmission or a replay: dropped, acknowledged again), a newer one means something was missed
(dropped, one NAK per gap) and waits for the device's go-back-N resend.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from enum import StrEnum

from firmware_bridge import wire
from firmware_bridge.counters import Counters
from firmware_bridge.messages import (
    DeckScan,
    DeckScanPart,
    EventHeader,
    EventsLost,
    LossReason,
    Message,
    parse_event,
    parse_event_header,
)

NAK_REPEAT_S = 0.05


class Verdict(StrEnum):
    NEW = "new"
    DUPLICATE = "duplicate"
    GAP = "gap"


class ScanAssembler:
    """DECK_SCAN parts (consecutive events) -> one `DeckScan` when the last part arrives."""

    def __init__(self) -> None:
        self._parts: list[DeckScanPart] = []

    def add(self, part: DeckScanPart) -> list[DeckScan]:
        out: list[DeckScan] = []
        if self._parts:
            last = self._parts[-1]
            follows = (
                part.scan_id == last.scan_id
                and part.header.boot_id == last.header.boot_id
                and part.part == last.part + 1
                and part.parts == last.parts
            )
            if not follows:
                out.extend(self.flush())
        self._parts.append(part)
        if part.part == part.parts - 1:
            first = self._parts[0]
            complete = first.part == 0 and len(self._parts) == part.parts
            out.append(self._scan(complete))
            self._parts = []
        return out

    def flush(self) -> list[DeckScan]:
        """Give up the scan in progress (a part was lost): report what arrived, incomplete."""
        if not self._parts:
            return []
        scan = self._scan(False)
        self._parts = []
        return [scan]

    def _scan(self, complete: bool) -> DeckScan:
        first, last = self._parts[0], self._parts[-1]
        return DeckScan(
            tags=tuple(t for p in self._parts for t in p.tags),
            scan_id=first.scan_id,
            complete=complete,
            device_ticks=first.header.device_ticks,
            boot_id=last.header.boot_id,
            event_id=last.header.event_id,
            first_event_id=first.header.event_id,
            at=first.at,
        )


class EventStream:
    """The events of one device (by serial number). `cursor` is the last event id handed to the
    station, None until the first replay says where the device's log starts. After each call,
    `ack_due` / `nak_due` say what the host should tell the device."""

    def __init__(self, counters: Counters, cursor: int | None = None) -> None:
        self.cursor = cursor
        self.counters = counters
        self.ack_due = False
        self.nak_due = False
        self._gap_nak_at: float | None = None
        self._scans = ScanAssembler()

    def classify(self, event_id: int) -> Verdict:
        if self.cursor is None:
            return Verdict.GAP
        if event_id <= self.cursor:
            return Verdict.DUPLICATE
        if event_id == self.cursor + 1:
            return Verdict.NEW
        return Verdict.GAP

    def replay_started(
        self, first_held: int, next_id: int, now: float
    ) -> tuple[list[Message], bool]:
        """REPLAY_START: (messages, whether to send REPLAY_SINCE again with the new cursor)."""
        self.ack_due = True
        if self.cursor is None:
            self.cursor = first_held - 1
            return [], False
        if self.cursor >= next_id:
            # The device's log is behind what we already have: it was wiped or replaced. What
            # it held beyond our cursor is gone; start again from what it holds now.
            lost = self._lost(self.cursor + 1, None, LossReason.LOG_RESET, now)
            self.cursor = first_held - 1
            return lost, True
        return [], False

    def on_event(
        self, ftype: int, payload: bytes, at_of: Callable[[EventHeader], float | None], now: float
    ) -> list[Message]:
        parsed = parse_event_header(payload)
        if parsed is None:
            self.counters.malformed += 1
            return []
        header, body = parsed
        verdict = self.classify(header.event_id)
        if verdict == Verdict.DUPLICATE:
            self.counters.duplicates += 1
            self.ack_due = True
            return []
        if verdict == Verdict.GAP:
            self._gap(now)
            return []
        at = at_of(header)
        message = parse_event(ftype, header, body, now if at is None else at)
        self.cursor = header.event_id
        self._gap_nak_at = None
        self.ack_due = True
        if message is None:
            # A frame with a good CRC that does not parse: a firmware bug. Never silent.
            self.counters.malformed += 1
            return self._lost(header.event_id, header.event_id, LossReason.MALFORMED, now)
        self.counters.events_delivered += 1
        if isinstance(message, DeckScanPart):
            return list(self._scans.add(message))
        return [message]

    def on_events_lost(self, payload: bytes, now: float) -> list[Message]:
        if len(payload) != 8:
            self.counters.malformed += 1
            return []
        first, last = struct.unpack(wire.FMT_EVENTS_LOST, payload)
        cursor = self.cursor
        if cursor is None or last < first:
            self.counters.malformed += 1
            return []
        if last <= cursor:
            self.ack_due = True
            return []
        if first != cursor + 1:
            self._gap(now)
            return []
        self.cursor = last
        self._gap_nak_at = None
        self.ack_due = True
        return self._lost(first, last, LossReason.OVERWRITTEN, now)

    def next_deadline(self) -> float | None:
        """When `poll` may NAK an open gap again; None when no gap is open."""
        return None if self._gap_nak_at is None else self._gap_nak_at + NAK_REPEAT_S

    def poll(self, now: float) -> None:
        """A gap still open NAK_REPEAT_S after its NAK: ask again (the NAK or the resend was
        lost, and with the device's window full nothing else would reveal it)."""
        if self._gap_nak_at is not None and now - self._gap_nak_at >= NAK_REPEAT_S:
            self._gap_nak_at = now
            self.nak_due = True

    def _gap(self, now: float) -> None:
        # One NAK per gap; again only if the gap is still open after NAK_REPEAT_S (the NAK or
        # the resend was lost too), which beats waiting for the device's timeout.
        self.counters.out_of_order += 1
        if self._gap_nak_at is None or now - self._gap_nak_at >= NAK_REPEAT_S:
            self._gap_nak_at = now
            self.nak_due = True

    def _lost(self, first: int, last: int | None, reason: LossReason, now: float) -> list[Message]:
        out: list[Message] = list(self._scans.flush())
        self.counters.events_lost += 1 if last is None else last - first + 1
        out.append(EventsLost(first, last, reason, now))
        return out
