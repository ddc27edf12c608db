"""The card shoe's firmware: a draw is a new tag at the mouth, its face from the optical sensor,
deck and lid switches, deck scan on load, reader and sensor faults, all as numbered events. Pure
logic over its peripherals (passed in), driven by `poll(now_ms)`; MicroPython firmware.

A tag stays in the reader's field for several polls while the card slides out, so a draw is a
UID different from the last one counted; the same UID counts again only after the field has
been empty for CLEAR_POLLS polls, and never right after a reboot (the last drawn UID is read
back from the event log), so a card sitting at the mouth during a reboot is not counted twice.
"""

import struct

from firmware_bridge import wire
from hardware.firmware.devcore import DeviceCore
from hardware.firmware.eventlog import EventLog
from hardware.firmware.sensors import DebouncedSwitch, FaceSensor

FIRMWARE_VERSION = (1, 0, 0)
LOG_CAPACITY = 256
CLEAR_POLLS = 3
READER_FAULT_AFTER = 3


class ShoeFirmware:
    def __init__(
        self,
        serial: str,
        store: "Store",
        reader: "Reader",
        face_adc: "ADC",
        deck_pin: "Pin",
        lid_pin: "Pin",
        now_ms: int,
        reset_cause: int = 0,
        log_capacity: int = LOG_CAPACITY,
        version: int = wire.PROTOCOL_VERSION,
    ) -> None:
        self.log = EventLog(store, log_capacity)
        self.log.open()
        self.reader = reader
        self.face = FaceSensor(face_adc)
        self.deck = DebouncedSwitch(deck_pin, now_ms)
        self.lid = DebouncedSwitch(lid_pin, now_ms)
        caps = wire.CAP_CARD_READER | wire.CAP_FACE_SENSOR | wire.CAP_PERSISTENT_LOG
        if reader.can_inventory():
            caps |= wire.CAP_DECK_SCAN
        self.core = DeviceCore(
            wire.KIND_SHOE,
            serial,
            FIRMWARE_VERSION,
            caps,
            0,
            self.log,
            self._snapshot,
            self._command,
            version,
        )
        self.reader_fault = False
        self.reader_errors = 0
        self.face_fault = False
        self.store_fault = False
        self.cards_loaded = wire.CARDS_UNKNOWN
        self.drawn_since_load = 0
        self.scan_id = 0
        self._absent_polls = CLEAR_POLLS
        last = self.log.last_of(wire.E_CARD_DRAWN, 64)
        self.last_uid = last[2:] if last else None
        self.core.record(
            wire.E_BOOTED, wire.pack_booted(self.log.previous_boot_id, reset_cause), now_ms
        )
        self._record_status(now_ms)

    # ---- the board loop's calls ---------------------------------------------------------------

    def feed(self, data: bytes, now_ms: int) -> None:
        self.core.feed(data, now_ms)

    def poll(self, now_ms: int) -> None:
        deck_changed = self.deck.update(now_ms)
        lid_changed = self.lid.update(now_ms)
        if deck_changed or lid_changed:
            self._record_status(now_ms)
            if deck_changed and self.deck.active:
                self._deck_loaded(now_ms)
        self._read_tag(now_ms)
        self._check_store(now_ms)
        self.core.poll(now_ms)

    def take_frames(self) -> "list[bytes]":
        return self.core.take_frames()

    # ---- logic ----------------------------------------------------------------------------------

    def _status_flags(self) -> int:
        flags = 0
        if self.deck.active:
            flags |= wire.ST_DECK_PRESENT
        if self.lid.active:
            flags |= wire.ST_LID_CLOSED
        if self.reader_fault:
            flags |= wire.ST_READER_FAULT
        if self.face_fault:
            flags |= wire.ST_FACE_SENSOR_FAULT
        if self.store_fault:
            flags |= wire.ST_STORE_FAULT
        return flags

    def _record_status(self, now_ms: int) -> None:
        self.core.record(wire.E_SHOE_STATUS, wire.pack_status(self._status_flags()), now_ms)

    def _read_tag(self, now_ms: int) -> None:
        try:
            uid = self.reader.read_uid()
        except OSError:
            self.reader_errors += 1
            if self.reader_errors >= READER_FAULT_AFTER and not self.reader_fault:
                self.reader_fault = True
                self._fault(wire.S_RFID_READER, 0, wire.F_NO_RESPONSE, True, now_ms)
            return
        self.reader_errors = 0
        if self.reader_fault:
            self.reader_fault = False
            self._fault(wire.S_RFID_READER, 0, wire.F_NO_RESPONSE, False, now_ms)
        if uid is None:
            self._absent_polls += 1
            if self._absent_polls >= CLEAR_POLLS:
                self.last_uid = None
            return
        self._absent_polls = 0
        if uid == self.last_uid:
            return  # the same card still passing the antenna
        self.last_uid = bytes(uid)
        face_up = self.face.sample()
        if self.face.faulted != self.face_fault:
            self.face_fault = self.face.faulted
            self._fault(wire.S_FACE_SENSOR, 0, wire.F_OUT_OF_RANGE, self.face_fault, now_ms)
        self.drawn_since_load += 1
        self.core.record(wire.E_CARD_DRAWN, wire.pack_card(bytes(uid), face_up), now_ms)

    def _deck_loaded(self, now_ms: int) -> None:
        self.drawn_since_load = 0
        self.last_uid = None
        if self.reader.can_inventory():
            self._scan(now_ms)

    def _scan(self, now_ms: int) -> None:
        try:
            tags = self.reader.inventory()
        except OSError:
            self._fault(wire.S_RFID_READER, 0, wire.F_NO_RESPONSE, True, now_ms)
            return
        self.scan_id = (self.scan_id + 1) & 0xFFFF
        self.cards_loaded = min(len(tags), 0xFE)
        for body in wire.pack_deck_scans(self.scan_id, tags):
            self.core.record(wire.E_DECK_SCAN, body, now_ms)

    def _check_store(self, now_ms: int) -> None:
        failed = self.log.write_failures > 0
        if failed != self.store_fault:
            self.store_fault = failed
            self._fault(wire.S_EVENT_STORE, 0, wire.F_WRITE_FAILED, failed, now_ms)
            self._record_status(now_ms)

    def _fault(self, sensor: int, index: int, fault: int, active: bool, now_ms: int) -> None:
        self.core.record(wire.E_SENSOR_FAULT, wire.pack_fault(sensor, index, fault, active), now_ms)

    # ---- callbacks from the protocol core -------------------------------------------------------

    def _snapshot(self) -> "list[bytes]":
        return [
            struct.pack(
                wire.FMT_SNAPSHOT_STATUS,
                self._status_flags(),
                self.cards_loaded,
                self.drawn_since_load & 0xFFFF,
            )
        ]

    def _command(self, ftype: int, payload: bytes, now_ms: int) -> None:
        if ftype == wire.T_SCAN_DECK and self.reader.can_inventory():
            self._scan(now_ms)


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from hardware.firmware.eventlog import Store
    from hardware.firmware.sensors import ADC, Pin

    class Reader(Protocol):
        def read_uid(self) -> bytes | None: ...
        def can_inventory(self) -> bool: ...
        def inventory(self) -> list[bytes]: ...
