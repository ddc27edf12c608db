"""An emulated device: the firmware running in a thread behind a pty, with line faults, unplug
and replug, and firmware reboots. Edge adapter; the base of the emulated shoe and board.

Everything the firmware and its simulated world touch belongs to the device thread. Other
threads act through `call()` (runs a function on that thread) and read `status()`, a frozen
snapshot published after every loop; `wait_until()` waits on it with a timeout.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import Protocol

from hardware.emulator.faults import FaultCounts, FaultInjector, FaultPlan
from hardware.emulator.pty_port import PtyPort
from hardware.firmware.devcore import DeviceCore
from hardware.firmware.eventlog import MemoryStore, store_size

IDLE_WAIT_S = 0.005
SPLIT_PAUSE_S = 0.0005
WDT_RESET = 3
# Firmware counters that add up over reboots in the status.
_TOTALS = ("retransmits", "frames_tx", "naks_rx", "naks_tx", "crc_errors", "resyncs")


class Firmware(Protocol):
    core: DeviceCore

    def feed(self, data: bytes, now_ms: int) -> None: ...
    def poll(self, now_ms: int) -> None: ...
    def take_frames(self) -> list[bytes]: ...


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """The emulated device now. `recorded` is the last event id in its log, `acked` the host's
    cursor as the device knows it; the retransmission and frame counts add up over reboots."""

    plugged: bool
    running: bool
    boot_id: int
    recorded: int
    acked: int
    synced: bool
    retransmits: int
    frames_tx: int
    naks_rx: int
    naks_tx: int
    crc_errors: int
    resyncs: int
    pending_input: int
    inputs_taken: int
    faults: dict[str, int]

    @property
    def backlog(self) -> int:
        return self.recorded - self.acked


class EmulatedDevice:
    def __init__(
        self,
        link_path: Path,
        *,
        faults: FaultPlan | None = None,
        seed: int = 0,
        log_capacity: int = 256,
        clock: Callable[[], float] = time.monotonic,
        name: str = "device",
    ) -> None:
        self.path = link_path
        self.plan = faults or FaultPlan()
        self.log_capacity = log_capacity
        self.store = MemoryStore(store_size(log_capacity))  # the flash: survives reboots
        self._clock = clock
        self._name = name
        self._pty = PtyPort(link_path)
        self._injector = FaultInjector(self.plan, random.Random(seed))
        self._calls: SimpleQueue[Callable[[], None]] = SimpleQueue()
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread: threading.Thread | None = None
        self._firmware: Firmware | None = None
        self._boot_at = 0.0
        self._dark_until: float | None = None
        self._replug_at: float | None = None
        self._timers: list[tuple[float, Callable[[], None]]] = []
        self._totals = dict.fromkeys(_TOTALS, 0)
        self._status = self._snapshot()
        # A measuring probe (station bench latency): called on the device thread with each frame
        # and the clock just before its first byte is written to the pty. None: no probe.
        self.on_frame_sent: Callable[[bytes, float], None] | None = None

    # ---- subclass hooks -------------------------------------------------------------------------

    def _make_firmware(self, now_ms: int, reset_cause: int) -> Firmware:
        raise NotImplementedError

    def _pending_input(self) -> int:
        """How much the simulated world holds that the firmware has not sensed yet."""
        return 0

    def _inputs_taken(self) -> int:
        """How many inputs (draws, say) the firmware has sensed since the emulator started."""
        return 0

    def _busy(self) -> bool:
        """True when the firmware should run again at once (no idle wait)."""
        return self._firmware is not None and self._pending_input() > 0

    def _after_poll(self, now: float) -> None:
        """Scheduled faults and the like, on the device thread after each firmware poll."""

    # ---- other threads' side ------------------------------------------------------------------

    def start(self) -> None:
        self._pty.plug()
        self._boot(self._clock(), 1)
        self._thread = threading.Thread(
            target=self._run, name=f"emulated-{self._name}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(5.0)
        self._pty.unplug()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> EmulatedDevice:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def call(self, fn: Callable[[], None]) -> None:
        """Run `fn` on the device thread (at its next loop)."""
        self._calls.put(fn)
        self._wake()

    def unplug(self, duration_s: float | None = None) -> None:
        """Pull the cable; plug it back after `duration_s` (never, if None: call `replug`)."""
        self.call(lambda: self._unplug(duration_s))

    def replug(self) -> None:
        self.call(self._replug)

    def reboot(self, dark_s: float = 0.05) -> None:
        """Restart the firmware; it is silent for `dark_s`, then boots from its flash."""
        self.call(lambda: self._reboot(dark_s))

    def status(self) -> DeviceStatus:
        with self._cond:
            return self._status

    def wait_until(self, predicate: Callable[[DeviceStatus], bool], timeout_s: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self._status), timeout_s)

    # ---- the device thread --------------------------------------------------------------------

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    def _now_ms(self, now: float) -> int:
        return int((now - self._boot_at) * 1000)

    def _boot(self, now: float, reset_cause: int) -> None:
        self._boot_at = now
        self._firmware = self._make_firmware(0, reset_cause)

    def _unplug(self, duration_s: float | None) -> None:
        self._injector.counts.unplug += 1
        self._pty.unplug()
        self._replug_at = None if duration_s is None else self._clock() + duration_s

    def _replug(self) -> None:
        self._replug_at = None
        self._pty.plug()

    def _reboot(self, dark_s: float) -> None:
        self._injector.counts.reboot += 1
        self._fold_totals()
        self._firmware = None
        self._dark_until = self._clock() + dark_s

    def _fold_totals(self) -> None:
        fw = self._firmware
        if fw is not None:
            for key in _TOTALS:
                self._totals[key] += getattr(fw.core, key)

    def after(self, delay_s: float, fn: Callable[[], None]) -> None:
        """On the device thread: run `fn` `delay_s` from now."""
        self._timers.append((self._clock() + delay_s, fn))

    def _run(self) -> None:
        while not self._stop.is_set():
            self._run_calls()
            now = self._clock()
            self._run_timers(now)
            fds = [self._wake_r]
            if self._pty.plugged:
                fds.append(self._pty.master)
            timeout = 0.0 if self._busy() else IDLE_WAIT_S
            ready, _, _ = select.select(fds, [], [], timeout)
            if self._wake_r in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake_r, 4096)
            data = self._pty.read() if self._pty.master in ready else b""
            now = self._clock()
            fw = self._firmware
            if fw is not None:
                ms = self._now_ms(now)
                if data:
                    fw.feed(self._injector.incoming(data), ms)
                fw.poll(ms)
                self._send(fw.take_frames())
            self._after_poll(now)
            self._publish()

    def _run_calls(self) -> None:
        while True:
            try:
                fn = self._calls.get_nowait()
            except Empty:
                return
            fn()

    def _run_timers(self, now: float) -> None:
        if self._replug_at is not None and now >= self._replug_at:
            self._replug()
        if self._dark_until is not None and now >= self._dark_until:
            self._dark_until = None
            self._boot(now, WDT_RESET)
        due = [t for t in self._timers if t[0] <= now]
        if due:
            self._timers = [t for t in self._timers if t[0] > now]
            for _, fn in due:
                fn()

    def _send(self, frames: list[bytes]) -> None:
        if not self._pty.plugged:
            return  # the cable is out: the frames go nowhere (the firmware retransmits)
        probe = self.on_frame_sent
        for frame in frames:
            sent_at = self._clock()
            chunks = self._injector.outgoing(frame)
            for i, chunk in enumerate(chunks):
                if i == 1:
                    time.sleep(SPLIT_PAUSE_S)  # let the host read the first piece on its own
                self._pty.write(chunk)
            if probe is not None:
                probe(frame, sent_at)

    def _snapshot(self) -> DeviceStatus:
        fw = self._firmware
        core = fw.core if fw is not None else None
        t = self._totals
        live = {key: t[key] + (getattr(core, key) if core else 0) for key in _TOTALS}
        return DeviceStatus(
            plugged=self._pty.plugged,
            running=fw is not None,
            boot_id=core.log.boot_id if core else 0,
            recorded=core.log.next_id - 1 if core else 0,
            acked=core.acked if core else 0,
            synced=core.synced if core else False,
            retransmits=live["retransmits"],
            frames_tx=live["frames_tx"],
            naks_rx=live["naks_rx"],
            naks_tx=live["naks_tx"],
            crc_errors=live["crc_errors"],
            resyncs=live["resyncs"],
            pending_input=self._pending_input(),
            inputs_taken=self._inputs_taken(),
            faults=self._injector.counts.as_dict(),
        )

    def _publish(self) -> None:
        status = self._snapshot()
        with self._cond:
            self._status = status
            self._cond.notify_all()

    @property
    def counts(self) -> FaultCounts:
        return self._injector.counts
