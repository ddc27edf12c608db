"""Forged link frames against the host session and the real shoe firmware, joined in memory on a
fake clock: each forgery must be a link fault (counted, the link resynced) and every genuine
draw delivered or covered by a reported loss. Edge adapter (none: pure simulation), used by
`station bench tamper`'s hardening section; `tests/link/test_link_faults.py` holds the same
cases as unit tests and a property over random forgeries.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge import CardDrawn, EventsLost, LinkState, Session, wire
from firmware_bridge.status import LinkStateChange
from hardware.emulator.sim import ShoeMouth, Switch
from hardware.firmware.eventlog import MemoryStore, store_size
from hardware.firmware.shoe import ShoeFirmware

FORGED_TAG = b"\x04\xee\xee\xee\xee\xee\xee"


def _tag(i: int) -> bytes:
    return b"\x04" + i.to_bytes(6, "big")


class MemoryShoe:
    """The session and the shoe's firmware, bytes passed in memory, 1 ms a step."""

    def __init__(self) -> None:
        self.t = 100.0
        self.mouth = ShoeMouth()
        self.store = MemoryStore(store_size(256))
        self.firmware = ShoeFirmware(
            "SHOE-BENCH", self.store, self.mouth, self.mouth, Switch(True), Switch(True), 0, 1
        )
        self.session = Session(port="memory")
        self.delivered: list[object] = []
        self.session.connected(self.t)

    def ms(self) -> int:
        return round((self.t - 100.0) * 1000)

    def step(self) -> None:
        self.t += 0.001
        out = self.session.drain()
        self.delivered.extend(out.delivered)
        if out.data:
            self.firmware.feed(out.data, self.ms())
        if out.close_reason is not None:
            self.session.disconnected(self.t, out.close_reason)
            self.delivered.extend(self.session.drain().delivered)
            self.session.connected(self.t)
        self.firmware.poll(self.ms())
        data = b"".join(self.firmware.take_frames())
        if data:
            self.session.receive(data, self.t)
        self.session.poll(self.t)

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / 0.001)):
            self.step()

    def forge(self, ftype: int, payload: bytes) -> None:
        seq = self.firmware.core.expected
        frame = wire.encode_frame(wire.PROTOCOL_VERSION, seq, ftype, payload)
        self.session.receive(frame, self.t)

    def cursor(self) -> int:
        return self.session.stats().last_event_id or 0

    def draw(self, i: int) -> None:
        self.mouth.draw(_tag(i), False)


def _forged_draw(boot: int, event_id: int) -> tuple[int, bytes]:
    body = wire.pack_card(FORGED_TAG, False)
    return wire.E_CARD_DRAWN, wire.pack_event(boot, event_id, 1, body)


FORGERIES: dict[str, Callable[[MemoryShoe], None]] = {
    "EVENTS_LOST from the cursor to 0xFFFFFFFF": lambda s: s.forge(
        wire.T_EVENTS_LOST, struct.pack(wire.FMT_EVENTS_LOST, s.cursor() + 1, 0xFFFFFFFF)
    ),
    "EVENTS_LOST of the next three events": lambda s: s.forge(
        wire.T_EVENTS_LOST, struct.pack(wire.FMT_EVENTS_LOST, s.cursor() + 1, s.cursor() + 3)
    ),
    "CARD_DRAWN of another boot at cursor+1": lambda s: s.forge(
        *_forged_draw(boot=99, event_id=s.cursor() + 1)
    ),
    "CARD_DRAWN 500 ahead of the cursor": lambda s: s.forge(
        *_forged_draw(boot=1, event_id=s.cursor() + 500)
    ),
    "CARD_DRAWN in the right place (same boot, cursor+1)": lambda s: s.forge(
        *_forged_draw(boot=1, event_id=s.cursor() + 1)
    ),
}


@dataclass(frozen=True, slots=True)
class Result:
    faulted: bool  # the session counted a link fault and the link went down and up again
    vanished: tuple[int, ...]  # genuine draws neither delivered nor covered by a reported loss
    detail: str


def run_forgery(name: str, seed: int = 1, draws: int = 6) -> Result:
    shoe = MemoryShoe()
    for _ in range(500):
        shoe.step()
        if shoe.session.state == LinkState.UP:
            break
    for i in range(2):
        shoe.draw(i)
    shoe.run(0.1)
    FORGERIES[name](shoe)
    for i in range(2, draws):
        shoe.draw(i)
        shoe.run(0.02)
    shoe.run(1.5)
    tags = {m.tag for m in shoe.delivered if isinstance(m, CardDrawn)}
    losses = [m for m in shoe.delivered if isinstance(m, EventsLost)]
    ids = _device_ids(shoe)
    vanished = tuple(
        i
        for i in range(draws)
        if _tag(i).hex().upper() not in tags
        and not _covered(ids.get(_tag(i).hex().upper()), losses)
    )
    downs = [
        m.reason for m in shoe.delivered if isinstance(m, LinkStateChange) and "fault" in m.reason
    ]
    faulted = shoe.session.stats().link_faults > 0 and bool(downs)
    detail = downs[0] if downs else "no link fault"
    return Result(faulted and shoe.session.state == LinkState.UP, vanished, detail)


def _device_ids(shoe: MemoryShoe) -> dict[str, int]:
    log = shoe.firmware.core.log
    out = {}
    for event_id in range(log.first_held, log.next_id):
        rec = log.get(event_id)
        if rec is not None and rec[2] == wire.E_CARD_DRAWN:
            _, n = struct.unpack_from(wire.FMT_CARD, rec[3])
            out[rec[3][2 : 2 + n].hex().upper()] = event_id
    return out


def _covered(event_id: int | None, losses: list[EventsLost]) -> bool:
    if event_id is None:
        return False
    return any(
        m.first_event_id <= event_id and (m.last_event_id is None or event_id <= m.last_event_id)
        for m in losses
    )
