"""Test harness: the host session and a device's real firmware joined by an in-memory line on a
fake clock, with the emulator's fault injector on the line. Pure (no threads, no ptys)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge import (
    CardDrawn,
    DeviceKind,
    LinkState,
    LinkStateChange,
    Message,
    Session,
    wire,
)
from hardware.emulator.device import Firmware
from hardware.emulator.faults import Fault, FaultInjector, FaultPlan
from hardware.emulator.sim import ShoeMouth, Switch, Zone
from hardware.firmware.eventlog import MemoryStore, store_size
from hardware.firmware.shoe import ShoeFirmware
from hardware.firmware.zones import BetZoneFirmware


def tag(i: int) -> bytes:
    return b"\x04" + i.to_bytes(6, "big")


def tag_hex(i: int) -> str:
    return tag(i).hex().upper()


@dataclass
class MemoryLink:
    """`step()` moves the fake clock by `dt` and runs one round: host -> device bytes, firmware
    poll, device -> host bytes, host poll."""

    make_firmware: Callable[[MemoryStore, int, int], Firmware]
    plan: FaultPlan = field(default_factory=FaultPlan)
    seed: int = 0
    expect: DeviceKind | None = None
    resume: dict[str, int] | None = None
    t: float = 100.0
    log_capacity: int = 256

    def __post_init__(self) -> None:
        self.store = MemoryStore(store_size(self.log_capacity))
        self.session = Session(port="memory", expect=self.expect, resume=self.resume)
        self.injector = FaultInjector(self.plan, random.Random(self.seed))
        self.delivered: list[Message | LinkStateChange] = []
        self.plugged = True
        self._boot(1)
        self.session.connected(self.t)

    def _boot(self, cause: int) -> None:
        self.boot_at = self.t
        self.firmware: Firmware | None = self.make_firmware(self.store, 0, cause)

    def ms(self) -> int:
        return round((self.t - self.boot_at) * 1000)

    def step(self, dt: float = 0.001) -> None:
        self.t += dt
        out = self.session.drain()
        self.delivered.extend(out.delivered)
        fw = self.firmware
        if fw is not None and out.data and self.plugged:
            fw.feed(self.injector.incoming(out.data), self.ms())
        if out.close_reason is not None and self.plugged:
            # The link closes and reopens the port (its backoff is not modelled here).
            self.session.disconnected(self.t, out.close_reason)
            self.delivered.extend(self.session.drain().delivered)
            if self.session.state != LinkState.REFUSED:
                self.session.connected(self.t)
        if fw is not None:
            fw.poll(self.ms())
            frames = fw.take_frames()
            if self.plugged:
                data = b"".join(c for f in frames for c in self.injector.outgoing(f))
                if data:
                    self.session.receive(data, self.t)
        self.session.poll(self.t)

    def run(self, seconds: float, dt: float = 0.001) -> None:
        for _ in range(round(seconds / dt)):
            self.step(dt)

    def run_until(self, done: Callable[[], bool], max_s: float, dt: float = 0.001) -> bool:
        for _ in range(round(max_s / dt)):
            if done():
                return True
            self.step(dt)
        return done()

    def unplug(self) -> None:
        self.plugged = False
        self.session.disconnected(self.t, "unplugged")
        self.delivered.extend(self.session.drain().delivered)

    def replug(self) -> None:
        self.plugged = True
        self.session.connected(self.t)

    def reboot(self, dark_s: float = 0.05) -> None:
        self.firmware = None
        self.run(dark_s)
        self._boot(3)

    # ---- views --------------------------------------------------------------------------------

    def messages(self, kind: type | None = None) -> list[Message]:
        return [
            m
            for m in self.delivered
            if not isinstance(m, LinkStateChange) and (kind is None or isinstance(m, kind))
        ]

    def cards(self) -> list[CardDrawn]:
        return [m for m in self.delivered if isinstance(m, CardDrawn)]

    def states(self) -> list[LinkState]:
        return [m.state for m in self.delivered if isinstance(m, LinkStateChange)]

    @property
    def up(self) -> bool:
        return self.session.state == LinkState.UP


def shoe_link(
    plan: FaultPlan | None = None, seed: int = 0, version: int = wire.PROTOCOL_VERSION, **kw: object
) -> tuple[MemoryLink, ShoeMouth]:
    mouth = ShoeMouth()
    deck, lid = Switch(closed=True), Switch(closed=True)

    def make(store: MemoryStore, now_ms: int, cause: int) -> Firmware:
        return ShoeFirmware(
            "SHOE-0001", store, mouth, mouth, deck, lid, now_ms, cause, 256, version
        )

    link = MemoryLink(make, plan or FaultPlan(), seed, **kw)  # type: ignore[arg-type]
    link.deck, link.lid = deck, lid  # type: ignore[attr-defined]
    return link, mouth


def zones_link(seats: int = 4) -> tuple[MemoryLink, list[Zone]]:
    zones = [Zone() for _ in range(seats)]

    def make(store: MemoryStore, now_ms: int, cause: int) -> Firmware:
        return BetZoneFirmware("ZONES-0001", store, zones, now_ms, cause)

    return MemoryLink(make), zones


def all_line_faults(rate: float) -> FaultPlan:
    line = frozenset({Fault.GARBAGE, Fault.BITFLIP, Fault.DROP, Fault.DUPLICATE, Fault.SPLIT})
    return FaultPlan(faults=line, rate=rate, split_rate=0.3)
