"""Property tests of the frame decoder: it never raises, never accepts a damaged frame, and gives
back exactly the frames sent under any chunking of the stream."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import Frame, FrameDecoder, Garbage, wire

frames = st.builds(
    Frame,
    version=st.integers(0, 15),
    seq=st.integers(0, 15),
    type=st.integers(0, 255),
    payload=st.binary(max_size=wire.MAX_PAYLOAD),
)


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


def _decode_all(chunks: list[bytes]) -> list[Frame | Garbage]:
    decoder = FrameDecoder(stall_s=1.0)
    out: list[Frame | Garbage] = []
    now = 0.0
    for chunk in chunks:
        out.extend(decoder.feed(chunk, now))
    # Let any partial candidate expire so what it held back is parsed too.
    for _ in range(len(b"".join(chunks)) + 2):
        now += 1.0
        more = decoder.expire(now)
        out.extend(more)
        if decoder.pending == 0:
            break
    return out


@given(st.binary(max_size=2000), st.lists(st.integers(0, 4000), max_size=20))
@settings(max_examples=300)
def test_the_decoder_never_raises_on_arbitrary_bytes(data: bytes, cuts: list[int]) -> None:
    items = _decode_all(_chunks(data, cuts))
    dropped = sum(i.dropped for i in items if isinstance(i, Garbage))
    used = sum(len(i.encode()) - 1 for i in items if isinstance(i, Frame))
    # Every byte is accounted for: in a frame, dropped, or a sync byte skipped.
    assert dropped + used <= len(data)


@given(st.lists(frames, max_size=12), st.lists(st.integers(0, 10_000), max_size=30))
def test_frames_round_trip_under_any_chunking(sent: list[Frame], cuts: list[int]) -> None:
    stream = b"".join(f.encode() for f in sent)
    assert _decode_all(_chunks(stream, cuts)) == sent


@given(
    st.lists(frames, min_size=1, max_size=6),
    st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=6),
    st.lists(st.integers(0, 10_000), max_size=20),
)
def test_garbage_between_frames_costs_no_frame(
    sent: list[Frame], junk: list[bytes], cuts: list[int]
) -> None:
    stream = b"".join(j + f.encode() for f, j in zip(sent, junk * len(sent), strict=False))
    got = [i for i in _decode_all(_chunks(stream, cuts)) if isinstance(i, Frame)]
    assert got == sent


@given(frames, st.data())
def test_a_frame_damaged_by_up_to_three_bit_flips_is_never_accepted(
    frame: Frame, data: st.DataObject
) -> None:
    raw = bytearray(frame.encode())
    # Flip bits inside the CRC-covered part and the CRC itself (len .. crc); CRC-16/MCRF4XX has
    # Hamming distance 4 at these lengths, so 1-3 flips are always detected.
    positions = data.draw(
        st.lists(st.integers(8, (len(raw) - 1) * 8 - 1), min_size=1, max_size=3, unique=True)
    )
    for bit in positions:
        raw[bit // 8] ^= 1 << (bit % 8)
    got = [i for i in _decode_all([bytes(raw)]) if isinstance(i, Frame)]
    assert frame not in got
    # Whatever else might be carved out of the damaged bytes is not a frame that was sent.
    assert all(g.encode() != frame.encode() for g in got)


@given(frames, st.integers(0, 7))
def test_a_damaged_frame_before_a_good_one_costs_only_itself(frame: Frame, bit: int) -> None:
    bad = bytearray(frame.encode())
    bad[len(bad) // 2] ^= 1 << bit
    good = Frame(1, 2, wire.T_CLOCK, b"\x00\x01\x00\x00\x00\x10")
    got = [i for i in _decode_all([bytes(bad) + good.encode()]) if isinstance(i, Frame)]
    assert got[-1:] == [good]
    assert frame not in got[:-1] or bytes(bad) == frame.encode()
