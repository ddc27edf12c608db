"""The device's event log: numbered events kept in non-volatile storage until the host has them,
so that neither an unplugged cable nor a reboot mid-hand loses a card. Pure logic over a store;
MicroPython firmware.

Layout of the store: two header copies (boot counter, written alternately so a torn write leaves
the other), then `capacity` fixed-size record slots; event N lives in slot N % capacity. Each
record carries its own CRC, so a record torn by a power cut is simply absent on the next boot.
Event ids keep increasing across boots (the next id is one more than the highest record found),
which lets the host order and deduplicate with one number; every record also keeps the boot id
it was made in. The log does not remember acknowledgements: the host states its cursor in
REPLAY_SINCE after every connect, so a write per acknowledgement is not needed.

On the board the store is `FileStore` on the flash filesystem (littlefs wear-levels it); the
emulator and the tests use `MemoryStore`, which survives an emulated reboot like flash does.
"""

import struct

from firmware_bridge import wire

RECORD_SIZE = 128
HEADER_SIZE = 32
_HEADERS = 2 * HEADER_SIZE
_REC_MAGIC = 0xE7
_FMT_REC = ">BBBBIII"  # magic, type, body length, reserved, boot id, event id, ticks
_REC_HEAD = 16
_HDR_MAGIC = b"DSEL"
_FMT_HDR = ">4sBI"  # magic, layout version, boot counter
_HDR_LEN = 9


def store_size(capacity: int) -> int:
    return _HEADERS + capacity * RECORD_SIZE


class MemoryStore:
    """A store in RAM: the emulator keeps it across an emulated reboot, as flash would be."""

    def __init__(self, size: int) -> None:
        self.data = bytearray(b"\xff" * size)
        self.fail_writes = False  # tests: a flash that refuses writes

    def read(self, offset: int, n: int) -> bytes:
        return bytes(self.data[offset : offset + n])

    def write(self, offset: int, data: bytes) -> None:
        if self.fail_writes:
            raise OSError(5, "store write failed")
        self.data[offset : offset + len(data)] = data


class FileStore:
    """A store in one file of the board's flash filesystem, created full-size on first use.

    The file is opened for each access and closed at once: nothing stays buffered in RAM, and a
    power cut finds a closed file."""

    def __init__(self, path: str, size: int) -> None:
        self._path = path
        try:
            with open(path, "rb") as f:
                present = len(f.read(size))
        except OSError:
            present = 0
        if present < size:
            with open(path, "ab") as f:
                left = size - present
                while left > 0:
                    f.write(b"\xff" * min(256, left))
                    left -= 256

    def read(self, offset: int, n: int) -> bytes:
        with open(self._path, "rb") as f:
            f.seek(offset)
            return bytes(f.read(n) or b"")

    def write(self, offset: int, data: bytes) -> None:
        with open(self._path, "r+b") as f:
            f.seek(offset)
            f.write(data)


class EventLog:
    """Append events, read them back by id; `open()` once per boot."""

    def __init__(self, store: "Store", capacity: int) -> None:
        self.store = store
        self.capacity = capacity
        self.boot_id = 0
        self.previous_boot_id = 0
        self.next_id = 1
        self.first_held = 1
        self.write_failures = 0
        # Records the store refused to take (flash fault): kept in RAM so they are still sent.
        self._ram: dict[int, bytes] = {}

    def open(self) -> int:
        """Count this boot, find the records that survived; returns the new boot id."""
        best = 0
        for copy in range(2):
            raw = self.store.read(copy * HEADER_SIZE, _HDR_LEN + 2)
            if len(raw) == _HDR_LEN + 2 and wire.crc16(raw[:_HDR_LEN]) == (raw[9] << 8) | raw[10]:
                magic, _layout, boot = struct.unpack(_FMT_HDR, raw[:_HDR_LEN])
                if magic == _HDR_MAGIC and boot > best:
                    best = boot
        self.previous_boot_id = best
        self.boot_id = best + 1
        head = struct.pack(_FMT_HDR, _HDR_MAGIC, 1, self.boot_id)
        try:
            self.store.write(
                (self.boot_id % 2) * HEADER_SIZE, head + struct.pack(">H", wire.crc16(head))
            )
        except OSError:
            self.write_failures += 1
        found = {}
        top = 0
        for slot in range(self.capacity):
            rec = self._read_slot(slot)
            if rec is not None:
                event_id = rec[1]
                if event_id % self.capacity == slot:
                    found[event_id] = True
                    top = max(top, event_id)
        self.next_id = top + 1
        first = top if top else 1
        while first - 1 >= 1 and (first - 1) in found and top - (first - 1) < self.capacity:
            first -= 1
        self.first_held = first
        return self.boot_id

    def _read_slot(self, slot: int) -> "tuple[int, int, int, int, bytes] | None":
        raw = self.store.read(_HEADERS + slot * RECORD_SIZE, RECORD_SIZE)
        return _parse(raw)

    def append(self, ticks: int, etype: int, body: bytes) -> int:
        """Persist one event (before it is ever sent) and return its id."""
        if len(body) > wire.MAX_EVENT_BODY:
            raise ValueError("event body too long")
        event_id = self.next_id
        head = struct.pack(
            _FMT_REC, _REC_MAGIC, etype, len(body), 0, self.boot_id, event_id, ticks & 0xFFFFFFFF
        )
        rec = head + body
        rec = rec + struct.pack(">H", wire.crc16(rec))
        slot = event_id % self.capacity
        self._ram.pop(event_id - self.capacity, None)
        try:
            self.store.write(_HEADERS + slot * RECORD_SIZE, rec)
        except OSError:
            self.write_failures += 1
            self._ram[event_id] = rec
        self.next_id = event_id + 1
        if self.next_id - self.first_held > self.capacity:
            self.first_held = self.next_id - self.capacity
        return event_id

    def get(self, event_id: int) -> "tuple[int, int, int, bytes] | None":
        """(boot id, ticks, type, body) of a held event; None if overwritten or unreadable."""
        if event_id < self.first_held or event_id >= self.next_id:
            return None
        raw = self._ram.get(event_id)
        rec = _parse(raw) if raw is not None else self._read_slot(event_id % self.capacity)
        if rec is None or rec[1] != event_id:
            return None
        return rec[0], rec[2], rec[3], rec[4]

    def last_of(self, etype: int, depth: int) -> "bytes | None":
        """The body of the newest held event of `etype` among the last `depth` events."""
        event_id = self.next_id - 1
        while event_id >= self.first_held and depth > 0:
            rec = self.get(event_id)
            if rec is not None and rec[2] == etype:
                return rec[3]
            event_id -= 1
            depth -= 1
        return None


def _parse(raw: bytes) -> "tuple[int, int, int, int, bytes] | None":
    """(boot id, event id, ticks, type, body) of a valid record."""
    if len(raw) < _REC_HEAD + 2 or raw[0] != _REC_MAGIC:
        return None
    _magic, etype, n, _r, boot, event_id, ticks = struct.unpack(_FMT_REC, raw[:_REC_HEAD])
    end = _REC_HEAD + n
    if n > wire.MAX_EVENT_BODY or len(raw) < end + 2:
        return None
    if wire.crc16(raw[:end]) != (raw[end] << 8) | raw[end + 1]:
        return None
    return boot, event_id, ticks, etype, bytes(raw[_REC_HEAD:end])


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class Store(Protocol):
        def read(self, offset: int, n: int) -> bytes: ...
        def write(self, offset: int, data: bytes) -> None: ...
