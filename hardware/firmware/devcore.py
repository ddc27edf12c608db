"""The device side of the link, shared by the shoe and the bet-zone board: answers commands,
sends events from the event log until the host acknowledges them, NAKs damaged input. Pure
(takes `now_ms`, returns frames to write); MicroPython firmware.

Rules (firmware_bridge/PROTOCOL.md is the full text):
- After boot the device sends HELLO and answers every command but IDENTIFY with HELLO.
- IDENTIFY with a new nonce starts a host session: the next command number expected is the
  IDENTIFY's plus one, and no event is sent until REPLAY_SINCE says where the host's cursor is.
- Commands are taken strictly in sequence; a repeat is re-acknowledged, a jump is NAKed once.
- Every frame sent carries the next command number expected (a cumulative acknowledgement).
- Events are sent in id order, at most EVENT_WINDOW beyond the host's cursor; when the cursor
  does not move for `rto_ms` (doubling to 1 s), or the host NAKs, sending goes back to the
  first unacknowledged event (go-back-N).
"""

import struct

from firmware_bridge import wire

STALL_MS = 30
RTO_MIN_MS = 60
# A repeated NAK for the same cursor rewinds again only after this long: about the time a full
# window of events takes at 115200 baud (16 x 28 bytes), so a resend is not cut short.
NAK_REWIND_MS = 40
RTO_MAX_MS = 1000
HELLO_EVERY_MS = 100
TICK_HZ = 1000


class DeviceCore:
    def __init__(
        self,
        kind: int,
        serial: str,
        firmware: "tuple[int, int, int]",
        caps: int,
        seats: int,
        log: "EventLog",
        snapshot: "Callable[[], list[bytes]]",
        command: "Callable[[int, bytes, int], None]",
        version: int = wire.PROTOCOL_VERSION,
    ) -> None:
        self.kind = kind
        self.serial = serial
        self.firmware = firmware
        self.caps = caps
        self.seats = seats
        self.log = log
        self.version = version
        self._snapshot = snapshot
        self._command = command
        self._decoder = wire.Decoder(STALL_MS)
        self._out: list[bytes] = []
        self.expected = 0
        self.nonce = -1  # no host session yet
        self.synced = False
        self.acked = 0
        self.next_send = 1
        self.high_water = 0
        self.rto_ms = RTO_MIN_MS
        self._timer_ms = 0
        self._last_rewind_ms = -RTO_MAX_MS
        self._nak_cursor = -1
        self._last_hello_ms = -HELLO_EVERY_MS
        self._in_burst = False
        self._seq_nakked = False
        self.retransmits = 0
        self.naks_rx = 0
        self.naks_tx = 0
        self.frames_rx = 0
        self.frames_tx = 0
        self._emit(wire.T_HELLO, struct.pack(wire.FMT_HELLO, version, log.boot_id))

    @property
    def crc_errors(self) -> int:
        return self._decoder.crc_errors

    @property
    def resyncs(self) -> int:
        return self._decoder.resyncs

    def take_frames(self) -> "list[bytes]":
        out = self._out
        self._out = []
        return out

    def record(self, etype: int, body: bytes, now_ms: int) -> int:
        """Log a new event (persisted before it is ever sent) and send it if the window allows."""
        event_id = self.log.append(now_ms, etype, body)
        self._pump(now_ms)
        return event_id

    def feed(self, data: bytes, now_ms: int) -> None:
        for item in self._decoder.feed(data, now_ms):
            self._on_item(item, now_ms)

    def poll(self, now_ms: int) -> None:
        for item in self._decoder.expire(now_ms):
            self._on_item(item, now_ms)
        self._pump(now_ms)

    # ---- input --------------------------------------------------------------------------------

    def _on_item(self, item: "tuple[int, int, int, bytes]", now_ms: int) -> None:
        code, verseq, ftype, payload = item
        if code != wire.OK:
            if not self._in_burst:
                self._in_burst = True
                self.naks_tx += 1
                self._emit(wire.T_NAK, b"")
            return
        self._in_burst = False
        self.frames_rx += 1
        seq = verseq & 0x0F
        if ftype == wire.T_IDENTIFY and len(payload) >= 4:
            # Answered in any protocol version (the IDENTITY layout is frozen), so that a host
            # of another version can name ours when it refuses us.
            nonce = struct.unpack_from(">I", payload)[0]
            if nonce != self.nonce:
                self.nonce = nonce
                self.expected = (seq + 1) % wire.SEQ_MOD
                self.synced = False
                self._seq_nakked = False
                self._identity()
                return
        if verseq >> 4 != self.version:
            return
        if ftype in (wire.T_ACK, wire.T_NAK):
            if self.synced and len(payload) == 4:
                cursor = struct.unpack(wire.FMT_ACK_HOST, payload)[0]
                self._acked_to(cursor, now_ms)
                if ftype == wire.T_NAK:
                    self.naks_rx += 1
                    # A second NAK for the same cursor right after a rewind is about the same
                    # loss: the resend is still on its way.
                    if cursor != self._nak_cursor or now_ms - self._last_rewind_ms >= NAK_REWIND_MS:
                        self._nak_cursor = cursor
                        self._rewind(now_ms)
            return
        if self.nonce < 0:
            if now_ms - self._last_hello_ms >= HELLO_EVERY_MS:
                self._last_hello_ms = now_ms
                self._emit(
                    wire.T_HELLO, struct.pack(wire.FMT_HELLO, self.version, self.log.boot_id)
                )
            return
        ahead = (seq - self.expected) % wire.SEQ_MOD
        if ahead:
            if ahead >= wire.SEQ_MOD // 2:
                self._emit(wire.T_ACK, b"")  # a repeat: acknowledge again
            elif not self._seq_nakked:
                self._seq_nakked = True  # one went missing: ask once for a resend
                self.naks_tx += 1
                self._emit(wire.T_NAK, b"")
            return
        self._seq_nakked = False
        self.expected = (self.expected + 1) % wire.SEQ_MOD
        if not self._dispatch(ftype, payload, now_ms):
            self._emit(wire.T_ACK, b"")

    def _dispatch(self, ftype: int, payload: bytes, now_ms: int) -> bool:
        """Run one in-sequence command; True if a response frame (which acknowledges) was sent."""
        if ftype == wire.T_IDENTIFY:
            self._identity()
            return True
        if ftype == wire.T_GET_SNAPSHOT:
            parts = self._snapshot()
            as_of = self.log.next_id - 1
            for i in range(len(parts)):
                head = struct.pack(wire.FMT_SNAPSHOT, i, len(parts), as_of)
                self._emit(wire.T_SNAPSHOT, head + parts[i])
            return True
        if ftype == wire.T_REPLAY_SINCE and len(payload) == 5:
            flags, cursor = struct.unpack(wire.FMT_REPLAY_SINCE, payload)
            log = self.log
            if flags & wire.REPLAY_HAS_CURSOR and cursor < log.next_id:
                self.acked = cursor
            else:
                self.acked = log.first_held - 1
            self.synced = True
            self.next_send = self.acked + 1
            self.rto_ms = RTO_MIN_MS
            self._timer_ms = now_ms
            self._emit(
                wire.T_REPLAY_START, struct.pack(wire.FMT_REPLAY_START, log.first_held, log.next_id)
            )
            self._pump(now_ms)
            return True
        if ftype == wire.T_CLOCK_POLL and len(payload) == 2:
            poll_id = struct.unpack(wire.FMT_CLOCK_POLL, payload)[0]
            self._emit(wire.T_CLOCK, struct.pack(wire.FMT_CLOCK, poll_id, now_ms & 0xFFFFFFFF))
            return True
        self._command(ftype, payload, now_ms)
        return False

    def _identity(self) -> None:
        log = self.log
        self._emit(
            wire.T_IDENTITY,
            wire.pack_identity(
                self.version,
                self.nonce,
                self.kind,
                self.firmware,
                self.caps,
                log.boot_id,
                TICK_HZ,
                log.capacity,
                self.seats,
                self.serial,
            ),
        )

    def _acked_to(self, cursor: int, now_ms: int) -> None:
        if self.acked < cursor < self.log.next_id:
            self.acked = cursor
            self.rto_ms = RTO_MIN_MS
            self._timer_ms = now_ms
            if self.next_send <= cursor:
                self.next_send = cursor + 1

    def _rewind(self, now_ms: int) -> None:
        self._last_rewind_ms = now_ms
        self._timer_ms = now_ms
        self.next_send = self.acked + 1

    # ---- output -------------------------------------------------------------------------------

    def _pump(self, now_ms: int) -> None:
        if not self.synced:
            return
        log = self.log
        if self.next_send - 1 > self.acked and now_ms - self._timer_ms >= self.rto_ms:
            self.rto_ms = min(self.rto_ms * 2, RTO_MAX_MS)
            self._rewind(now_ms)
        while self.next_send < log.next_id and self.next_send - self.acked <= wire.EVENT_WINDOW:
            event_id = self.next_send
            if event_id == self.acked + 1:
                self._timer_ms = now_ms
            if event_id < log.first_held:
                # The log wrapped over events the host never acknowledged: say so, in order.
                last = log.first_held - 1
                self._emit(wire.T_EVENTS_LOST, struct.pack(wire.FMT_EVENTS_LOST, event_id, last))
                self.next_send = log.first_held
                continue
            rec = log.get(event_id)
            if rec is None:
                self._emit(
                    wire.T_EVENTS_LOST, struct.pack(wire.FMT_EVENTS_LOST, event_id, event_id)
                )
            else:
                boot, ticks, etype, body = rec
                self._emit(etype, wire.pack_event(boot, event_id, ticks, body))
            if event_id <= self.high_water:
                self.retransmits += 1
            else:
                self.high_water = event_id
            self.next_send = event_id + 1

    def _emit(self, ftype: int, payload: bytes) -> None:
        self.frames_tx += 1
        self._out.append(wire.encode_frame(self.version, self.expected, ftype, payload))


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from hardware.firmware.eventlog import EventLog
