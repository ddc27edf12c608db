"""Serial fuzzing of the shoe link, beyond the frame decoder's own properties
(tests/link/test_codec_properties.py): the message parsers behind the CRC, the host session and
the device firmware fed anything, and a line a fuzzer garbles that still loses, repeats or
reorders no draw. Property: nothing raises (garbage is counted, never an exception), nothing
hangs (pytest-timeout), nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import Frame, LinkState, Session, wire
from firmware_bridge.messages import (
    EventHeader,
    parse_event,
    parse_event_header,
    parse_identity,
    parse_snapshot_part,
    parse_snapshot_status,
    parse_zone,
)
from hardware.emulator.sim import ShoeMouth, Switch
from hardware.firmware.eventlog import MemoryStore, store_size
from hardware.firmware.shoe import ShoeFirmware
from tests.fuzz.budget import budget, hang_guard
from tests.link.harness import shoe_link, tag, tag_hex

FUZZ = budget(150)
SLOW_FUZZ = budget(60)

any_type = st.one_of(st.sampled_from(sorted(wire.TYPE_NAMES)), st.integers(0, 255))
frames = st.builds(
    Frame,
    version=st.sampled_from(sorted(wire.SUPPORTED_VERSIONS)),
    seq=st.integers(0, 15),
    type=any_type,
    payload=st.binary(max_size=wire.MAX_PAYLOAD),
)


# --- the parsers behind the CRC: a frame that checks out but makes no sense -------------------


@hang_guard(20)
@FUZZ
@given(st.sampled_from(wire.EVENT_TYPES), st.binary(max_size=wire.MAX_PAYLOAD))
def test_every_event_parser_answers_none_or_a_record(etype: int, payload: bytes) -> None:
    header = EventHeader(1, 1, 0)
    parse_event(etype, header, payload, 0.0)  # None or a record: never raises
    parsed = parse_event_header(payload)
    if len(payload) >= wire.EVENT_HEADER_LEN:
        assert parsed is not None and parsed[1] == payload[wire.EVENT_HEADER_LEN :]
    else:
        assert parsed is None


@hang_guard(20)
@FUZZ
@given(st.binary(max_size=wire.MAX_PAYLOAD))
def test_identity_snapshot_and_zone_parsers_never_raise(payload: bytes) -> None:
    nonce, _identity = parse_identity(payload)
    assert nonce == -1 or 0 <= nonce < 2**32
    parse_snapshot_part(payload)
    parse_snapshot_status(payload)
    zone = parse_zone(payload)
    if zone is not None and zone.chips is not None:
        assert sum(zone.chips) == zone.amount  # a chip list that does not add up is refused


# --- the host session: anything on the line, in any phase ---------------------------------------


def _linked_session() -> tuple[Session, float]:
    link, _mouth = shoe_link()
    assert link.run_until(lambda: link.up, 5.0)
    return link.session, link.t


@hang_guard(30)
@SLOW_FUZZ
@given(
    st.lists(
        st.one_of(frames.map(Frame.encode), st.binary(max_size=64)),
        max_size=30,
    ),
    st.booleans(),
)
def test_the_session_takes_any_frames_and_bytes_in_any_phase(
    items: list[bytes], linked: bool
) -> None:
    if linked:
        session, t = _linked_session()
    else:
        session, t = Session(port="fuzz"), 100.0
        session.connected(t)
    for data in items:
        t += 0.003
        session.receive(data, t)
        session.poll(t)
        out = session.drain()
        assert all(isinstance(b, int) for b in out.data)
    assert session.stats().bytes_rx >= sum(len(d) for d in items)
    assert session.state in (LinkState.UP, LinkState.DOWN, LinkState.REFUSED)


# --- the device firmware: anything from the host ------------------------------------------------


@hang_guard(20)
@FUZZ
@given(st.lists(st.one_of(frames.map(Frame.encode), st.binary(max_size=64)), max_size=20))
def test_the_shoe_firmware_takes_anything_from_the_host(items: list[bytes]) -> None:
    mouth = ShoeMouth()
    store = MemoryStore(store_size(64))
    fw = ShoeFirmware("SHOE-FUZZ", store, mouth, mouth, Switch(True), Switch(True), 0, 1, 64)
    now = 0
    for i, data in enumerate(items):
        now += 7
        if i % 3 == 0:
            mouth.draw(tag(i), face_up=False)
        fw.feed(data, now)
        fw.poll(now)
        for frame in fw.take_frames():
            assert frame[0] == 0x7E and frame[-1] == 0x7E  # it still speaks framed bytes


# --- nothing lost: a fuzzer garbles the line, every draw still arrives once, in order ----------


@dataclass
class ScriptedLine:
    """The line between the firmware and the host, garbled as the script says: before or in
    the middle of a frame, bytes of garbage (which may look like a sync and a length)."""

    script: list[tuple[int, bytes]]  # (where in the frame, garbage)
    _i: int = field(default=0, init=False)

    def _next(self) -> tuple[int, bytes] | None:
        if self._i >= len(self.script):
            return None
        self._i += 1
        return self.script[self._i - 1]

    def outgoing(self, frame: bytes) -> list[bytes]:
        step = self._next()
        if step is None or not step[1]:
            return [frame]
        cut = step[0] % (len(frame) + 1)
        return [frame[:cut] + step[1] + frame[cut:]]

    def incoming(self, data: bytes) -> bytes:
        return data


# Plain noise, or a sync and a length byte that promise a frame (the decoder waits for it).
junk = st.binary(min_size=0, max_size=24) | st.builds(
    lambda length, rest: bytes((wire.SYNC, length)) + rest,
    st.integers(0, 255),
    st.binary(max_size=6),
)


@hang_guard(60)
@SLOW_FUZZ
@given(
    st.lists(st.tuples(st.integers(0, 200), junk), max_size=80),
    st.integers(1, 25),
)
def test_draws_survive_any_garbage_the_line_adds(script: list[tuple[int, bytes]], n: int) -> None:
    link, mouth = shoe_link()
    assert link.run_until(lambda: link.up, 5.0)
    line = ScriptedLine(script)
    link.injector = line  # type: ignore[assignment]
    for i in range(n):
        mouth.draw(tag(i), face_up=i % 2 == 1)
        link.run(0.004)
    assert link.run_until(lambda: len(link.cards()) >= n, 30.0), (len(link.cards()), n)
    link.run(0.3)
    cards = link.cards()
    assert [c.tag for c in cards] == [tag_hex(i) for i in range(n)]
    assert [c.face_up for c in cards] == [i % 2 == 1 for i in range(n)]
    assert [c.event_id for c in cards] == sorted({c.event_id for c in cards})
