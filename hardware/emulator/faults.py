"""Fault injection for the emulated devices: what can go wrong on a serial line and with a
device, as a plan, and the injector that applies it to the bytes. Pure given its RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from enum import StrEnum


class Fault(StrEnum):
    GARBAGE = "garbage"  # a burst of random bytes, between or inside frames
    BITFLIP = "bitflip"  # one bit of a frame inverted
    DROP = "drop"  # a whole frame lost
    DUPLICATE = "duplicate"  # a frame delivered twice
    SPLIT = "split"  # a frame written in pieces, so the host reads partial frames
    UNPLUG = "unplug"  # the pty closed; a new one opened later under the same stable name
    REBOOT = "reboot"  # the firmware restarts (state lost but for its flash)


ALL_FAULTS = frozenset(Fault)


def parse_faults(text: str) -> frozenset[Fault]:
    """`all`, `none` or a comma list of fault names; ValueError naming the valid ones."""
    text = text.strip().lower()
    if text == "all":
        return ALL_FAULTS
    if text in ("none", ""):
        return frozenset()
    out = set()
    for raw in text.split(","):
        name = raw.strip()
        try:
            out.add(Fault(name))
        except ValueError:
            valid = ", ".join(f.value for f in Fault)
            raise ValueError(f"unknown fault {name!r}; choose all, none or from: {valid}") from None
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class FaultPlan:
    """Which faults, how often. Line faults hit each frame (device -> host) or each read chunk
    (host -> device) with probability `rate`; unplug and reboot come every so many draws."""

    faults: frozenset[Fault] = frozenset()
    rate: float = 0.01
    split_rate: float = 0.2
    unplug_every_draws: int = 1500
    unplug_s: float = 0.3
    reboot_every_draws: int = 2300
    reboot_s: float = 0.05

    def has(self, fault: Fault) -> bool:
        return fault in self.faults


@dataclass(slots=True)
class FaultCounts:
    garbage: int = 0
    bitflip: int = 0
    drop: int = 0
    duplicate: int = 0
    split: int = 0
    unplug: int = 0
    reboot: int = 0
    garbage_to_device: int = 0
    bitflip_to_device: int = 0
    drop_to_device: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class FaultInjector:
    """Applies a plan's line faults to the bytes going each way."""

    def __init__(self, plan: FaultPlan, rng: random.Random) -> None:
        self.plan = plan
        self._rng = rng
        self.counts = FaultCounts()

    def _hit(self, fault: Fault, rate: float | None = None) -> bool:
        return self.plan.has(fault) and self._rng.random() < (
            self.plan.rate if rate is None else rate
        )

    def _garbage(self) -> bytes:
        n = self._rng.randint(1, 24)
        # Line noise is often sync-like: give 0x7E a fair chance to appear.
        return bytes(
            0x7E if self._rng.random() < 0.1 else self._rng.randrange(256) for _ in range(n)
        )

    def _flip(self, data: bytes) -> bytes:
        buf = bytearray(data)
        i = self._rng.randrange(len(buf))
        buf[i] ^= 1 << self._rng.randrange(8)
        return bytes(buf)

    def outgoing(self, frame: bytes) -> list[bytes]:
        """One device frame -> the chunks to write (none if dropped)."""
        c = self.counts
        if self._hit(Fault.DROP):
            c.drop += 1
            return []
        data = frame
        if self._hit(Fault.BITFLIP):
            c.bitflip += 1
            data = self._flip(data)
        if self._hit(Fault.GARBAGE):
            c.garbage += 1
            at = self._rng.choice((0, self._rng.randrange(len(data) + 1)))
            data = data[:at] + self._garbage() + data[at:]
        if self._hit(Fault.DUPLICATE):
            c.duplicate += 1
            data = data + data
        if len(data) > 2 and self._hit(Fault.SPLIT, self.plan.split_rate):
            c.split += 1
            cuts = sorted(self._rng.sample(range(1, len(data)), min(3, len(data) - 1)))
            return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        return [data]

    def incoming(self, data: bytes) -> bytes:
        """One chunk the host wrote -> what the firmware receives."""
        c = self.counts
        if not data:
            return data
        if self._hit(Fault.DROP):
            c.drop_to_device += 1
            return b""
        if self._hit(Fault.BITFLIP):
            c.bitflip_to_device += 1
            data = self._flip(data)
        if self._hit(Fault.GARBAGE):
            c.garbage_to_device += 1
            data = self._garbage() + data
        return data
