"""Device events in order, exactly once: one device's event cursor, duplicate and gap handling,
reported losses, and deck-scan assembly. Pure.

Event ids are 32-bit, assigned by the device and persisted with its event log, so they keep
increasing across reboots; the idempotency key handed to the station is (boot id, event id). The
stream accepts only the event right after its cursor: an older id is a duplicate (a
retransmission or a replay: dropped, acknowledged again), a newer one means something was missed
(dropped, one NAK per gap) and waits for the device's go-back-N resend.

A frame that contradicts the session is a link fault (`fault` says what; the session counts it,
takes the link down and connects again, and the replay from the cursor resyncs), never a reason
to drop a later draw in silence:

- an event more than `EVENT_WINDOW` ahead of the cursor (the device never sends that far ahead);
- an event of a boot newer than the device identified with (a boot without a new IDENTITY), or of
  an older boot than the event before it (boots only go forward);
- a loss (EVENTS_LOST) reaching further beyond the newest id the device has shown than it could
  have made since (`LOSS_REACH`);
- an event the device said it had lost: the loss was false, so the cursor goes back to before
  it and the replay delivers the events after all (the loss stays on record, overstated);
- an event with an id already delivered but different contents: one of the two was not the
  device's; the id is reported lost (`LossReason.CONFLICT`), so the station records that a draw
  may be missing rather than dropping it unseen.

A frame that fits the cursor cannot be told from the device's own, so after a link fault the
replay starts not at the cursor but before the oldest delivered event still remembered
(`replay_from`): the device resends its own versions of what this line delivered, and each is
compared with what was delivered. A forged event taken before the fault (the genuine one with
its id still to come) is so found and reported as a conflict, instead of the genuine event being
skipped by a replay that starts after its id. A conflict already reported (the same id, the same
other contents) is not reported, nor faulted, again.
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
# How far beyond the newest event id the device has shown an EVENTS_LOST may reach: a device
# logs at most a few events a second and the link is declared down after 1.5 s of silence.
LOSS_REACH = 65536
RECENT = 64  # delivered events remembered (by id) to tell a duplicate from a conflicting one


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
        self.fault: str | None = None  # a contradiction found by the last call (the session's)
        self.boot: int | None = None  # the boot the device identified with
        self._last_boot: int | None = None  # the boot of the last event delivered
        self._horizon = cursor  # the newest event id the device has shown to exist
        # The losses accepted on this connection (consecutive ones merged into one span).
        self._lost: list[tuple[int, int]] = []
        self._recent: dict[int, bytes] = {}  # delivered events: id -> type and payload
        self._conflicts: dict[int, bytes] = {}  # id -> the other contents, once reported
        self._recheck = False  # a link fault: the next replay starts before `_recent`
        self._conn_first: int | None = None  # the first event delivered since REPLAY_START
        self._suspect_from: int | None = None  # events from here came on a line that faulted
        self._gap_nak_at: float | None = None
        self._scans = ScanAssembler()

    def identified(self, boot_id: int) -> None:
        """A new IDENTITY: the device's boot from now on; a new connection's losses."""
        self.boot = boot_id
        self._lost = []

    def replay_from(self) -> int | None:
        """The id the next replay starts after: the cursor; after a link fault, the id before
        the oldest delivered event still remembered, so that the device resends what this line
        delivered and each is compared (see the module's docstring)."""
        if self._recheck and self._recent and self.cursor is not None:
            return min(min(self._recent) - 1, self.cursor)
        return self.cursor

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
        self._horizon = max(self._horizon or 0, next_id - 1)
        if self.cursor is None:
            self.cursor = first_held - 1
            self._recheck = False
            return [], False
        delivered = max(self._recent, default=None)  # the newest event actually delivered
        suspect = self._suspect_from
        if self.cursor >= next_id and delivered is not None and delivered < next_id:
            # Our cursor is past the device's log only by a loss it reported (EVENTS_LOST moves
            # the cursor): the device holds every event we were given and events since, so the
            # loss was overstated (a false report, or a forged one). Back to the newest event
            # delivered, and the replay brings what the device made after it: the loss stays
            # reported, overstated, never the other way round.
            self.cursor = max(delivered, first_held - 1)
            return [], True
        if (
            self.cursor >= next_id
            and delivered is not None
            and suspect is not None
            and first_held <= suspect <= next_id
        ):
            # The device holds every event up to where a line that then faulted started
            # delivering, but not all it delivered: those ids (from `next_id`) were not the
            # device's. Each is reported lost (conflict) and the device's own events with those
            # ids, when it makes them, are delivered.
            lost = self._lost_report(next_id, delivered, LossReason.CONFLICT, now)
            self.cursor = next_id - 1
            self._suspect_from = None
            return lost, True
        if self.cursor >= next_id:
            # The device's log is behind what we already have: it was wiped or replaced. What
            # it held beyond our cursor is gone; start again from what it holds now.
            lost = self._lost_report(self.cursor + 1, None, LossReason.LOG_RESET, now)
            self.cursor = first_held - 1
            self._recent.clear()  # another log's ids: nothing to compare its events with
            self._conflicts.clear()
            self._recheck = False
            self._suspect_from = None
            return lost, True
        self._recheck = False
        self._conn_first = None
        self._suspect_from = None  # the replay (after a fault, from before it) compares them
        return [], False

    def on_event(
        self, ftype: int, payload: bytes, at_of: Callable[[EventHeader], float | None], now: float
    ) -> list[Message]:
        parsed = parse_event_header(payload)
        if parsed is None:
            self.counters.malformed += 1
            return []
        header, body = parsed
        event_id, boot = header.event_id, header.boot_id
        cursor = self.cursor
        if cursor is not None and event_id > cursor + wire.EVENT_WINDOW:
            return self._contradiction(
                f"event {event_id} is more than {wire.EVENT_WINDOW} ahead of the cursor "
                f"{cursor}: the device never sends that far ahead"
            )
        verdict = self.classify(event_id)
        if verdict == Verdict.DUPLICATE:
            return self._duplicate(event_id, bytes([ftype]) + payload, now)
        if verdict == Verdict.GAP:
            self._gap(now)
            return []
        if self.boot is not None and boot > self.boot:
            return self._contradiction(
                f"event {event_id} of boot {boot}, but the device identified as boot "
                f"{self.boot} (a boot without a new IDENTITY)"
            )
        if self._last_boot is not None and boot < self._last_boot:
            return self._contradiction(
                f"event {event_id} of boot {boot} after an event of boot {self._last_boot}"
            )
        if self._recent.get(event_id) == bytes([ftype]) + payload:
            # Delivered before the cursor went back (a false loss): the same event, resent.
            self.cursor = event_id
            self.counters.duplicates += 1
            self.ack_due = True
            return []
        at = at_of(header)
        message = parse_event(ftype, header, body, now if at is None else at)
        self.cursor = event_id
        if self._conn_first is None:
            self._conn_first = event_id
        self._last_boot = boot
        self._horizon = max(self._horizon or 0, event_id)
        self._remember(event_id, bytes([ftype]) + payload)
        self._gap_nak_at = None
        self.ack_due = True
        if message is None:
            # A frame with a good CRC that does not parse: a firmware bug. Never silent.
            self.counters.malformed += 1
            return self._lost_report(event_id, event_id, LossReason.MALFORMED, now)
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
        newest = max(self._horizon or 0, cursor)
        if last > newest + LOSS_REACH:
            return self._contradiction(
                f"a loss of events {first}..{last}, but the newest event the device has shown "
                f"is {newest}: it cannot have made (and lost) that many since"
            )
        self.cursor = last
        if self._lost and first == self._lost[-1][1] + 1:
            self._lost[-1] = (self._lost[-1][0], last)  # stacked reports: one span
        else:
            self._lost.append((first, last))
        self._horizon = max(newest, last)
        self._gap_nak_at = None
        self.ack_due = True
        return self._lost_report(first, last, LossReason.OVERWRITTEN, now)

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

    def _duplicate(self, event_id: int, contents: bytes, now: float) -> list[Message]:
        lost = next((span for span in self._lost if span[0] <= event_id <= span[1]), None)
        if lost is not None:
            # The device holds an event it said it had lost: the loss was not the device's.
            # Back to before it: the replay after the resync delivers what follows (an event
            # delivered since, resent, is recognised and not delivered again: `on_event`).
            self.cursor = lost[0] - 1
            self._lost = [span for span in self._lost if span[1] < lost[0]]
            self._contradiction(
                f"event {event_id} arrived after a report that events {lost[0]}..{lost[1]} "
                "were lost (the report was false)"
            )
            return []
        known = self._recent.get(event_id)
        if known is not None and known != contents and self._conflicts.get(event_id) != contents:
            self._conflicts[event_id] = contents
            self._contradiction(
                f"event {event_id} arrived again with other contents: one of the two was not "
                "the device's"
            )
            return self._lost_report(event_id, event_id, LossReason.CONFLICT, now)
        self.counters.duplicates += 1
        self.ack_due = True
        return []

    def _remember(self, event_id: int, contents: bytes) -> None:
        self._recent[event_id] = contents
        if len(self._recent) > 2 * RECENT:
            for old in sorted(self._recent)[:-RECENT]:
                del self._recent[old]
                self._conflicts.pop(old, None)

    def _contradiction(self, why: str) -> list[Message]:
        """A link fault: the session counts it and resyncs; the frame is not taken."""
        if self.fault is None:
            self.fault = why
        self._recheck = True
        first = self._conn_first
        if first is not None:
            self._suspect_from = (
                first if self._suspect_from is None else min(self._suspect_from, first)
            )
        return []

    def _lost_report(
        self, first: int, last: int | None, reason: LossReason, now: float
    ) -> list[Message]:
        out: list[Message] = list(self._scans.flush())
        self.counters.events_lost += 1 if last is None else last - first + 1
        out.append(EventsLost(first, last, reason, now))
        return out
