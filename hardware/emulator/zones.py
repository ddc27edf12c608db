"""The emulated bet-zone board: the real board firmware over simulated zones, behind a pty
under a stable name. Edge adapter.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from firmware_bridge import wire
from hardware.emulator.device import EmulatedDevice, Firmware
from hardware.emulator.faults import FaultPlan
from hardware.emulator.sim import Zone
from hardware.firmware.zones import STABLE_MS, BetZoneFirmware


class EmulatedBetZones(EmulatedDevice):
    """`set_chips(seat, [25, 5, 5])` puts chips in a seat's zone;
    with `rake_zone`, `set_rake([1, 1])` the dealer's drop zone (reported as zone 0).
    `stable_ms`: how long a reading must hold before the firmware reports it."""

    def __init__(
        self,
        link_path: Path,
        *,
        seats: int = 10,
        serial: str = "ZONES-0001",
        chips_known: bool = True,
        faults: FaultPlan | None = None,
        seed: int = 0,
        version: int = wire.PROTOCOL_VERSION,
        clock: Callable[[], float] = time.monotonic,
        stable_ms: int = STABLE_MS,
        rake_zone: bool = False,
    ) -> None:
        self.serial = serial
        self.stable_ms = stable_ms
        self.version = version
        self.chips_known = chips_known
        self.zones = [Zone(chips_known) for _ in range(seats)]
        self.rake = Zone(chips_known) if rake_zone else None  # the dealer's drop zone (zone 0)
        super().__init__(link_path, faults=faults, seed=seed, clock=clock, name=f"zones-{serial}")

    def _make_firmware(self, now_ms: int, reset_cause: int) -> Firmware:
        return BetZoneFirmware(
            self.serial,
            self.store,
            list(self.zones),
            now_ms,
            reset_cause,
            self.chips_known,
            self.log_capacity,
            self.version,
            self.stable_ms,
            self.rake,
        )

    def set_chips(self, seat: int, chips: list[int]) -> None:
        self.call(lambda: setattr(self.zones[seat - 1], "chips", list(chips)))

    def set_rake(self, chips: list[int]) -> None:
        """The dealer sets chips aside in the rake zone (or drops them: `[]`)."""
        rake = self.rake
        if rake is None:
            raise ValueError("this emulated board has no rake zone")
        self.call(lambda: setattr(rake, "chips", list(chips)))
