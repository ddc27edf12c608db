"""The bet-zone board's firmware: each seat's chip total (and chip list when the zone reader can
tell chips apart), reported once it has been stable, as numbered events. Pure logic over its zone
sensors (passed in), driven by `poll(now_ms)`; MicroPython firmware.

A zone reading must hold for STABLE_MS (the `stable_ms` argument) before it counts: chips are
stacked and slid into place, and the station wants the bet, not every chip on its way in. A
sensor that fails FAULT_AFTER reads in a row raises a SENSOR_FAULT for its seat.

A board fitted with a rake (drop) zone sensor (`rake`) reports it as zone 0 beside the seats
(capability CAP_RAKE_ZONE), with the same stability rule.
"""

import struct

from firmware_bridge import wire
from hardware.firmware.devcore import DeviceCore
from hardware.firmware.eventlog import EventLog

FIRMWARE_VERSION = (1, 0, 0)
LOG_CAPACITY = 256
STABLE_MS = 150
FAULT_AFTER = 3


class BetZoneFirmware:
    def __init__(
        self,
        serial: str,
        store: "Store",
        sensors: "list[ZoneSensor]",
        now_ms: int,
        reset_cause: int = 0,
        chip_list: bool = True,
        log_capacity: int = LOG_CAPACITY,
        version: int = wire.PROTOCOL_VERSION,
        stable_ms: int = STABLE_MS,
        rake: "ZoneSensor | None" = None,
    ) -> None:
        self.stable_ms = stable_ms
        self.log = EventLog(store, log_capacity)
        self.log.open()
        seats = len(sensors)
        # Zone ids in polling order: the seats 1..n, then the rake zone (0) when fitted.
        self.ids = list(range(1, seats + 1))
        self.sensors = list(sensors)
        caps = wire.CAP_BET_ZONES | wire.CAP_PERSISTENT_LOG
        if rake is not None:
            self.ids.append(wire.RAKE_ZONE)
            self.sensors.append(rake)
            caps |= wire.CAP_RAKE_ZONE
        if chip_list:
            caps |= wire.CAP_CHIP_LIST
        self.core = DeviceCore(
            wire.KIND_BET_ZONES,
            serial,
            FIRMWARE_VERSION,
            caps,
            seats,
            self.log,
            self._snapshot,
            self._command,
            version,
        )
        n = len(self.sensors)
        # Per zone (index into `ids`): the reading reported, the one waiting to be stable, since.
        self.committed: list[tuple[int, list[int] | None]] = [(0, None)] * n
        self._candidate: list[tuple[int, list[int] | None]] = [(0, None)] * n
        self._since_ms = [now_ms] * n
        self._errors = [0] * n
        self.faulted = [False] * n
        self.core.record(
            wire.E_BOOTED, wire.pack_booted(self.log.previous_boot_id, reset_cause), now_ms
        )

    def feed(self, data: bytes, now_ms: int) -> None:
        self.core.feed(data, now_ms)

    def poll(self, now_ms: int) -> None:
        for i in range(len(self.sensors)):
            self._poll_seat(i, now_ms)
        self.core.poll(now_ms)

    def take_frames(self) -> "list[bytes]":
        return self.core.take_frames()

    def _poll_seat(self, i: int, now_ms: int) -> None:
        seat = self.ids[i]
        try:
            amount, chips = self.sensors[i].read()
        except OSError:
            self._errors[i] += 1
            if self._errors[i] >= FAULT_AFTER and not self.faulted[i]:
                self.faulted[i] = True
                self._fault(seat, True, now_ms)
            return
        self._errors[i] = 0
        if self.faulted[i]:
            self.faulted[i] = False
            self._fault(seat, False, now_ms)
        reading = (amount, sorted(chips, reverse=True) if chips is not None else None)
        if reading != self._candidate[i]:
            self._candidate[i] = reading
            self._since_ms[i] = now_ms
            return
        if reading != self.committed[i] and now_ms - self._since_ms[i] >= self.stable_ms:
            self.committed[i] = reading
            self.core.record(wire.E_ZONE_TOTAL, wire.pack_zone(seat, amount, reading[1]), now_ms)

    def _fault(self, seat: int, active: bool, now_ms: int) -> None:
        body = wire.pack_fault(wire.S_BET_ZONE, seat, wire.F_NO_RESPONSE, active)
        self.core.record(wire.E_SENSOR_FAULT, body, now_ms)

    def _snapshot(self) -> "list[bytes]":
        flags = wire.ST_ZONE_FAULT if True in self.faulted else 0
        parts = [struct.pack(wire.FMT_SNAPSHOT_STATUS, flags, wire.CARDS_UNKNOWN, 0)]
        for i in range(len(self.committed)):
            amount, chips = self.committed[i]
            parts.append(wire.pack_zone(self.ids[i], amount, chips))
        return parts

    def _command(self, ftype: int, payload: bytes, now_ms: int) -> None:
        return None  # the board has no commands beyond the protocol's own


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from hardware.firmware.eventlog import Store

    class ZoneSensor(Protocol):
        def read(self) -> tuple[int, list[int] | None]: ...
