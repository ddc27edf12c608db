"""The emulated card shoe: the real shoe firmware, a simulated mouth, deck and lid, behind a
pty under a stable name, with scheduled unplugs and reboots when the fault plan asks. Edge
adapter.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from firmware_bridge import wire
from hardware.emulator.device import EmulatedDevice, Firmware
from hardware.emulator.faults import Fault, FaultPlan
from hardware.emulator.sim import ShoeMouth, Switch
from hardware.firmware.shoe import ShoeFirmware

DECK_SWAP_S = 0.05


class EmulatedShoe(EmulatedDevice):
    """`draw()` a tag through the mouth; `load_deck()`; `unplug()`/`replug()`/`reboot()`.

    `version` lets a test build a shoe that speaks another protocol version."""

    def __init__(
        self,
        link_path: Path,
        *,
        serial: str = "SHOE-0001",
        faults: FaultPlan | None = None,
        seed: int = 0,
        version: int = wire.PROTOCOL_VERSION,
        log_capacity: int = 256,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.serial = serial
        self.version = version
        self.mouth = ShoeMouth()
        self.deck_switch = Switch(closed=True)
        self.lid_switch = Switch(closed=True)
        self._next_unplug = 0
        self._next_reboot = 0
        self._requested = 0
        self._draw_lock = threading.Lock()
        super().__init__(
            link_path,
            faults=faults,
            seed=seed,
            log_capacity=log_capacity,
            clock=clock,
            name=f"shoe-{serial}",
        )
        self._next_unplug = self.plan.unplug_every_draws
        self._next_reboot = self.plan.reboot_every_draws

    def _make_firmware(self, now_ms: int, reset_cause: int) -> Firmware:
        return ShoeFirmware(
            self.serial,
            self.store,
            self.mouth,
            self.mouth,
            self.deck_switch,
            self.lid_switch,
            now_ms,
            reset_cause,
            self.log_capacity,
            self.version,
        )

    def _pending_input(self) -> int:
        return self.mouth.waiting

    def _inputs_taken(self) -> int:
        return self.mouth.presented

    def _after_poll(self, now: float) -> None:
        drawn = self.mouth.presented
        plan = self.plan
        if plan.has(Fault.UNPLUG) and drawn >= self._next_unplug:
            self._next_unplug = drawn + plan.unplug_every_draws
            if self._pty.plugged:
                self._unplug(plan.unplug_s)
        if plan.has(Fault.REBOOT) and drawn >= self._next_reboot:
            self._next_reboot = drawn + plan.reboot_every_draws
            if self._firmware is not None:
                self._reboot(plan.reboot_s)

    # ---- the dealer's and the technician's hands ------------------------------------------------

    def draw(self, tag: bytes, face_up: bool = False) -> None:
        """One card through the mouth (the firmware senses it within a few polls)."""
        with self._draw_lock:
            self._requested += 1
        self.call(lambda: self.mouth.draw(tag, face_up))

    def wait_for_room(self, max_backlog: int, timeout_s: float) -> bool:
        """Block the caller (the emulated dealer) until fewer than `max_backlog` draws are
        unread by the firmware or unacknowledged by the host: a dealer cannot outpace a link
        that is up, and while it is down a hand's worth of draws piles up at most."""
        with self._draw_lock:
            requested = self._requested
        return self.wait_until(
            lambda s: requested - s.inputs_taken + s.backlog < max_backlog, timeout_s
        )

    def load_deck(self, tags: list[bytes]) -> None:
        """Take the deck out, put this one in (the shoe scans it once the switch settles)."""

        def swap() -> None:
            self.deck_switch.closed = False
            self.mouth.deck = list(tags)
            self.after(DECK_SWAP_S, lambda: setattr(self.deck_switch, "closed", True))

        self.call(swap)

    def set_lid(self, closed: bool) -> None:
        self.call(lambda: setattr(self.lid_switch, "closed", closed))

    def fail_reader(self, failing: bool) -> None:
        self.call(lambda: setattr(self.mouth, "reader_failing", failing))
