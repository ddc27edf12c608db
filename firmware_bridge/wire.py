"""The wire protocol's shared definition: constants, CRC-16, frame encoder, incremental decoder,
payload layouts. Pure, and MicroPython-compatible.

This one file is imported by the host (`firmware_bridge`) and copied to the shoe and bet-zone
boards (`hardware/firmware/deploy.py` puts it at `/lib/firmware_bridge/wire.py` beside an empty
`__init__.py`, so `from firmware_bridge import wire` works on both). It therefore uses only what
MicroPython has: no dataclasses, enums or runtime `typing`, no f-strings, `struct` for every
multi-byte field. Annotations are plain builtins, which MicroPython parses and ignores.

The prose definition is `firmware_bridge/PROTOCOL.md`; a test checks that its worked examples
match this module byte for byte.
"""

import struct

# ---- framing ---------------------------------------------------------------------------------

SYNC = 0x7E
PROTOCOL_VERSION = 1
# Every version the host can speak. A device speaking another one is refused at the handshake.
SUPPORTED_VERSIONS = (1,)

# len counts from the len byte through the trailing sync: len, ver|seq, type, payload, crc(2), sync.
MIN_FRAME_LEN = 6
MAX_FRAME_LEN = 128
MAX_PAYLOAD = MAX_FRAME_LEN - MIN_FRAME_LEN
SEQ_MOD = 16
# Host commands in flight: fewer than half the sequence space, so an ack is never ambiguous.
COMMAND_WINDOW = 8
# Device events in flight beyond the host's last acknowledgement.
EVENT_WINDOW = 16

# ---- frame types -----------------------------------------------------------------------------
# Link control: never consume a command sequence number.
T_ACK = 0x00
T_NAK = 0x01
T_HELLO = 0x02
T_EVENTS_LOST = 0x03
# Host -> device commands (sequenced, acknowledged, retransmitted) and their responses.
T_IDENTIFY = 0x10
T_IDENTITY = 0x11
T_GET_SNAPSHOT = 0x12
T_SNAPSHOT = 0x13
T_REPLAY_SINCE = 0x14
T_REPLAY_START = 0x15
T_CLOCK_POLL = 0x16
T_CLOCK = 0x17
T_SCAN_DECK = 0x18
# Device -> host events: numbered, kept until acknowledged, retransmitted, replayed.
E_BOOTED = 0x20
E_CARD_DRAWN = 0x21
E_DECK_SCAN = 0x22
E_SHOE_STATUS = 0x23
E_ZONE_TOTAL = 0x24
E_SENSOR_FAULT = 0x25
EVENT_TYPES = (E_BOOTED, E_CARD_DRAWN, E_DECK_SCAN, E_SHOE_STATUS, E_ZONE_TOTAL, E_SENSOR_FAULT)

TYPE_NAMES = {
    T_ACK: "ACK",
    T_NAK: "NAK",
    T_HELLO: "HELLO",
    T_EVENTS_LOST: "EVENTS_LOST",
    T_IDENTIFY: "IDENTIFY",
    T_IDENTITY: "IDENTITY",
    T_GET_SNAPSHOT: "GET_SNAPSHOT",
    T_SNAPSHOT: "SNAPSHOT",
    T_REPLAY_SINCE: "REPLAY_SINCE",
    T_REPLAY_START: "REPLAY_START",
    T_CLOCK_POLL: "CLOCK_POLL",
    T_CLOCK: "CLOCK",
    T_SCAN_DECK: "SCAN_DECK",
    E_BOOTED: "BOOTED",
    E_CARD_DRAWN: "CARD_DRAWN",
    E_DECK_SCAN: "DECK_SCAN",
    E_SHOE_STATUS: "SHOE_STATUS",
    E_ZONE_TOTAL: "ZONE_TOTAL",
    E_SENSOR_FAULT: "SENSOR_FAULT",
}

# ---- identity --------------------------------------------------------------------------------
KIND_SHOE = 1
KIND_BET_ZONES = 2

CAP_CARD_READER = 0x0001
CAP_FACE_SENSOR = 0x0002
CAP_DECK_SCAN = 0x0004
CAP_BET_ZONES = 0x0008
CAP_CHIP_LIST = 0x0010
CAP_PERSISTENT_LOG = 0x0020
CAP_RAKE_ZONE = 0x0040  # the bet-zone board also reads the rake (drop) zone, as zone 0

RAKE_ZONE = 0  # ZONE_TOTAL `seat` 0: the rake (drop) zone; seats are 1..n

# ---- status flags (SHOE_STATUS and snapshot part 0) ------------------------------------------
ST_DECK_PRESENT = 0x0001
ST_LID_CLOSED = 0x0002
ST_READER_FAULT = 0x0004
ST_FACE_SENSOR_FAULT = 0x0008
ST_ZONE_FAULT = 0x0010
ST_STORE_FAULT = 0x0020

CARDS_UNKNOWN = 0xFF

# ---- sensors and faults (SENSOR_FAULT) -------------------------------------------------------
S_RFID_READER = 1
S_FACE_SENSOR = 2
S_DECK_SWITCH = 3
S_LID_SWITCH = 4
S_BET_ZONE = 5
S_EVENT_STORE = 6

F_NO_RESPONSE = 1
F_STUCK = 2
F_OUT_OF_RANGE = 3
F_WRITE_FAILED = 4

# ---- payload layouts (big-endian) ------------------------------------------------------------
# The IDENTITY and HELLO layouts are frozen for every protocol version (later versions may only
# append fields), so any host can read any device's version and refuse it by name.
FMT_IDENTIFY = ">IBB"  # nonce, lowest and highest protocol version the host speaks
FMT_IDENTITY = ">BIBBBBHIIHB"  # version, nonce, kind, fw major/minor/patch, caps, boot,
#                                tick_hz, log capacity, seats; then serial length + ASCII serial
FMT_HELLO = ">BI"  # version, boot id
FMT_ACK_HOST = ">I"  # host ACK/NAK: highest event id received in order
FMT_REPLAY_SINCE = ">BI"  # flags (bit 0: has cursor), event id
FMT_REPLAY_START = ">II"  # first event id held, next event id to be assigned
FMT_CLOCK_POLL = ">H"  # poll id
FMT_CLOCK = ">HI"  # poll id, device ticks
FMT_EVENTS_LOST = ">II"  # first and last event id that can no longer be sent
FMT_SNAPSHOT = ">BBI"  # part, parts, as-of event id
FMT_SNAPSHOT_STATUS = ">HBH"  # status flags, cards loaded (0xFF unknown), drawn since load
FMT_EVENT = ">III"  # boot id, event id, device ticks: the header of every event
FMT_BOOTED = ">IB"  # previous boot id, reset cause
FMT_CARD = ">BB"  # flags (bit 0 face up), tag length; then the tag bytes
FMT_DECK_SCAN = ">HBBB"  # scan id, part, parts, tag count; then (length, tag bytes) per tag
FMT_STATUS = ">H"  # status flags
FMT_ZONE = ">BIBB"  # seat, amount, flags (bit 0 chips known), pairs; then (denomination, count)
FMT_CHIPS = ">IH"
FMT_FAULT = ">BBBB"  # sensor, index (seat), fault, active

REPLAY_HAS_CURSOR = 0x01
CARD_FACE_UP = 0x01
ZONE_CHIPS_KNOWN = 0x01
EVENT_HEADER_LEN = 12
MAX_EVENT_BODY = 104  # so that header + body fit one frame and one event-log record
MAX_SERIAL_LEN = 24

# ---- decoder results -------------------------------------------------------------------------
OK = 0
ERR_LENGTH = 1
ERR_TRAILER = 2
ERR_CRC = 3
ERR_STALLED = 4


def _make_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x8408 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_CRC_TABLE = _make_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/MCRF4XX: reflected poly 0x1021 (0x8408), init 0xFFFF, no final XOR. Check 0x6F91."""
    table = _CRC_TABLE
    for b in data:
        crc = (crc >> 8) ^ table[(crc ^ b) & 0xFF]
    return crc


def encode_frame(version: int, seq: int, ftype: int, payload: bytes = b"") -> bytes:
    """One frame on the wire: sync, len, version<<4|seq, type, payload, CRC-16 (BE), sync."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload longer than " + str(MAX_PAYLOAD) + " bytes")
    if not 0 <= version < 16 or not 0 <= ftype < 256:
        raise ValueError("version or type out of range")
    body = bytes((len(payload) + MIN_FRAME_LEN, (version << 4) | (seq % SEQ_MOD), ftype)) + payload
    return b"\x7e" + body + struct.pack(">H", crc16(body)) + b"\x7e"


class Decoder:
    """Incremental frame decoder: bytes in, frames and errors out. Never raises on any input.

    `feed` and `expire` return items `(code, a, b, payload)`: for a good frame code is OK, `a` is
    the version<<4|seq byte and `b` the type; for an error code is one of ERR_* and `a` the number
    of bytes dropped. A bad candidate drops bytes up to the next sync and parsing starts again
    there (resynchronisation). `stall` is in the caller's unit of `now` (the host uses seconds,
    the firmware milliseconds): a partial frame that waited that long is given up, so that a
    garbage byte that looks like a long length cannot hold a good frame back while the line idles.
    """

    def __init__(self, stall: float) -> None:
        self._buf = b""
        self._stall = stall
        self._waiting_since = -1.0
        self._waiting = False
        self.frames = 0
        self.crc_errors = 0
        self.resyncs = 0
        self.dropped_bytes = 0

    def pending(self) -> int:
        return len(self._buf)

    def feed(self, data: bytes, now: float) -> list[tuple[int, int, int, bytes]]:
        if data:
            self._buf = self._buf + bytes(data)
        out: list[tuple[int, int, int, bytes]] = []
        self._parse(out, now)
        return out

    def expire(self, now: float) -> list[tuple[int, int, int, bytes]]:
        """Give up a partial frame that has waited `stall` or longer, then parse what follows."""
        out: list[tuple[int, int, int, bytes]] = []
        if self._waiting and now - self._waiting_since >= self._stall:
            self._waiting = False
            self._buf = self._resync(self._buf, 0, ERR_STALLED, out)
            self._parse(out, now)
        return out

    def _resync(
        self, buf: bytes, pos: int, code: int, out: list[tuple[int, int, int, bytes]]
    ) -> bytes:
        # Drop the bad candidate up to (not including) the next sync; the sync-skip that starts
        # the next parse then eats it. Klipper's rule, without its escape-free ambiguity fix:
        # every frame carries a leading sync, so a resync never swallows the next good frame.
        nxt = buf.find(b"\x7e", pos + 1)
        end = len(buf) if nxt < 0 else nxt
        dropped = end - pos
        self.resyncs += 1
        self.dropped_bytes += dropped
        if code == ERR_CRC:
            self.crc_errors += 1
        out.append((code, dropped, 0, b""))
        return buf[end:]

    def _parse(self, out: list[tuple[int, int, int, bytes]], now: float) -> None:
        buf = self._buf
        while True:
            pos = 0
            n = len(buf)
            while pos < n and buf[pos] == SYNC:
                pos += 1
            if pos >= n:
                buf = b""
                self._waiting = False
                break
            length = buf[pos]
            if length < MIN_FRAME_LEN or length > MAX_FRAME_LEN:
                buf = self._resync(buf, pos, ERR_LENGTH, out)
                self._waiting = False
                continue
            if n - pos < length:
                if pos:
                    buf = buf[pos:]
                if not self._waiting:
                    self._waiting = True
                    self._waiting_since = now
                break
            end = pos + length
            if buf[end - 1] != SYNC:
                buf = self._resync(buf, pos, ERR_TRAILER, out)
                self._waiting = False
                continue
            body = buf[pos : end - 3]
            if crc16(body) != (buf[end - 3] << 8) | buf[end - 2]:
                buf = self._resync(buf, pos, ERR_CRC, out)
                self._waiting = False
                continue
            self.frames += 1
            self._waiting = False
            out.append((OK, body[1], body[2], bytes(body[3:])))
            # Keep the trailing sync: it may double as the next frame's leading sync.
            buf = buf[end - 1 :]
        self._buf = buf


# ---- payload helpers shared by the firmware and the host tests -------------------------------


def pack_event(boot_id: int, event_id: int, ticks: int, body: bytes) -> bytes:
    return struct.pack(FMT_EVENT, boot_id, event_id, ticks & 0xFFFFFFFF) + body


def pack_booted(previous_boot_id: int, reset_cause: int) -> bytes:
    return struct.pack(FMT_BOOTED, previous_boot_id, reset_cause & 0xFF)


def pack_card(tag: bytes, face_up: bool) -> bytes:
    return struct.pack(FMT_CARD, CARD_FACE_UP if face_up else 0, len(tag)) + bytes(tag)


def pack_status(flags: int) -> bytes:
    return struct.pack(FMT_STATUS, flags)


def pack_fault(sensor: int, index: int, fault: int, active: bool) -> bytes:
    return struct.pack(FMT_FAULT, sensor, index, fault, 1 if active else 0)


def pack_zone(seat: int, amount: int, chips: list[int] | None) -> bytes:
    """A seat's zone total; chips (one denomination per chip) are sent as (denomination, count)."""
    if chips is None:
        return struct.pack(FMT_ZONE, seat, amount, 0, 0)
    counts: dict[int, int] = {}
    for c in chips:
        counts[c] = counts.get(c, 0) + 1
    denoms = sorted(counts, reverse=True)
    if struct.calcsize(FMT_ZONE) + len(denoms) * struct.calcsize(FMT_CHIPS) > MAX_EVENT_BODY:
        return struct.pack(FMT_ZONE, seat, amount, 0, 0)  # too many kinds: send the total only
    out = struct.pack(FMT_ZONE, seat, amount, ZONE_CHIPS_KNOWN, len(denoms))
    for d in denoms:
        out += struct.pack(FMT_CHIPS, d, counts[d])
    return out


def pack_deck_scans(scan_id: int, tags: list[bytes]) -> list[bytes]:
    """Split one deck scan into DECK_SCAN bodies that each fit MAX_EVENT_BODY."""
    groups: list[list[bytes]] = [[]]
    size = struct.calcsize(FMT_DECK_SCAN)
    for tag in tags:
        if size + 1 + len(tag) > MAX_EVENT_BODY and groups[-1]:
            groups.append([])
            size = struct.calcsize(FMT_DECK_SCAN)
        groups[-1].append(tag)
        size += 1 + len(tag)
    bodies = []
    for part, group in enumerate(groups):
        body = struct.pack(FMT_DECK_SCAN, scan_id & 0xFFFF, part, len(groups), len(group))
        for tag in group:
            body += bytes((len(tag),)) + bytes(tag)
        bodies.append(body)
    return bodies


def pack_identity(
    version: int,
    nonce: int,
    kind: int,
    firmware: tuple[int, int, int],
    caps: int,
    boot_id: int,
    tick_hz: int,
    log_capacity: int,
    seats: int,
    serial: str,
) -> bytes:
    sn = serial.encode()[:MAX_SERIAL_LEN]
    head = struct.pack(
        FMT_IDENTITY,
        version,
        nonce,
        kind,
        firmware[0],
        firmware[1],
        firmware[2],
        caps,
        boot_id,
        tick_hz,
        log_capacity,
        seats,
    )
    return head + bytes((len(sn),)) + sn
