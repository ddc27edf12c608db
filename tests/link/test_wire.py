"""The shared wire definition: CRC, frame layout, the worked examples of PROTOCOL.md."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from firmware_bridge import Frame, FrameDecoder, Garbage, ProtocolError, wire
from firmware_bridge.codec import DecodeError
from firmware_bridge.messages import DeckScanPart, parse_event, parse_event_header, parse_zone

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md"


def test_crc_is_mcrf4xx_with_the_klipper_check_value() -> None:
    assert wire.crc16(b"123456789") == 0x6F91


def _doc_examples() -> list[bytes]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    section = text.split("## 5. Worked examples", 1)[1].split("## 6.", 1)[0]
    lines = re.findall(r"^    ((?:[0-9a-f]{2} )+[0-9a-f]{2})$", section, flags=re.M)
    return [bytes.fromhex(line) for line in lines]


def test_the_protocol_documents_examples_are_what_the_code_sends() -> None:
    identify = wire.encode_frame(1, 0, wire.T_IDENTIFY, struct.pack(wire.FMT_IDENTIFY, 1, 1, 1))
    caps = wire.CAP_CARD_READER | wire.CAP_FACE_SENSOR | wire.CAP_PERSISTENT_LOG
    identity = wire.encode_frame(
        1,
        1,
        wire.T_IDENTITY,
        wire.pack_identity(1, 1, wire.KIND_SHOE, (1, 0, 0), caps, 7, 1000, 256, 0, "SHOE-0001"),
    )
    card = wire.encode_frame(
        1,
        4,
        wire.E_CARD_DRAWN,
        wire.pack_event(7, 4711, 123456, wire.pack_card(bytes.fromhex("04A1B2C3D4E5F6"), True)),
    )
    ack = wire.encode_frame(1, 0, wire.T_ACK, struct.pack(">I", 4711))
    nak = wire.encode_frame(1, 4, wire.T_NAK)
    assert _doc_examples() == [identify, identity, card, ack, nak]


def test_the_documented_card_frame_decodes_to_the_documented_draw() -> None:
    card_frame = _doc_examples()[2]
    (frame,) = FrameDecoder().feed(card_frame, 0.0)
    assert isinstance(frame, Frame)
    assert (frame.version, frame.seq, frame.type_name) == (1, 4, "CARD_DRAWN")
    parsed = parse_event_header(frame.payload)
    assert parsed is not None
    header, body = parsed
    draw = parse_event(frame.type, header, body, at=5.0)
    assert draw is not None and not isinstance(draw, DeckScanPart)
    assert draw == type(draw)(
        tag="04A1B2C3D4E5F6", face_up=True, device_ticks=123456, boot_id=7, event_id=4711, at=5.0
    )


def test_frame_layout_and_limits() -> None:
    data = Frame(1, 3, wire.T_CLOCK_POLL, b"\x00\x07").encode()
    assert data[0] == data[-1] == 0x7E
    assert data[1] == len(data) - 1  # len counts len .. trailing sync
    assert data[2] == 0x13
    with pytest.raises(ProtocolError):
        Frame(1, 0, wire.T_ACK, bytes(wire.MAX_PAYLOAD + 1)).encode()
    assert len(Frame(1, 0, wire.T_ACK, bytes(wire.MAX_PAYLOAD)).encode()) == wire.MAX_FRAME_LEN + 1


@pytest.mark.parametrize(
    ("junk", "error"),
    [
        (b"\x01\x02", DecodeError.BAD_LENGTH),
        (b"\x09\x11\x00\x00\x00\x00\x00\x00\x00", DecodeError.NO_TRAILING_SYNC),
    ],
)
def test_garbage_before_a_frame_is_named_and_the_frame_survives(
    junk: bytes, error: DecodeError
) -> None:
    good = Frame(1, 0, wire.T_ACK).encode()
    items = FrameDecoder().feed(junk + good, 0.0)
    assert items[0] == Garbage(error, len(junk))
    assert items[1:] == [Frame(1, 0, wire.T_ACK)]


def test_a_crc_error_is_counted_as_one() -> None:
    bad = bytearray(Frame(1, 0, wire.T_CLOCK_POLL, b"\x00\x01").encode())
    bad[5] ^= 0x01
    decoder = FrameDecoder()
    items = decoder.feed(bytes(bad) + Frame(1, 0, wire.T_ACK).encode(), 0.0)
    assert [type(i) for i in items] == [Garbage, Frame]
    assert (decoder.crc_errors, decoder.resyncs) == (1, 1)


def test_a_lying_length_byte_cannot_hold_a_good_frame_back_on_an_idle_line() -> None:
    good = Frame(1, 0, wire.T_ACK).encode()
    decoder = FrameDecoder(stall_s=0.1)
    assert decoder.feed(b"\x7e\x7f" + good, 1.0) == []  # 0x7f claims a 127-byte frame
    assert decoder.expire(1.05) == []
    items = decoder.expire(1.1)
    assert items == [Garbage(DecodeError.STALLED, 1), Frame(1, 0, wire.T_ACK)]


def test_deck_scans_split_to_fit_one_event_each() -> None:
    tags = [bytes([4, 0, 0, 0, 0, 0, i]) for i in range(54)]
    bodies = wire.pack_deck_scans(9, tags)
    assert len(bodies) > 1
    assert all(len(b) <= wire.MAX_EVENT_BODY for b in bodies)
    header = parse_event_header(wire.pack_event(1, 1, 0, b""))
    assert header is not None
    parts = [parse_event(wire.E_DECK_SCAN, header[0], b, 0.0) for b in bodies]
    assert all(isinstance(p, DeckScanPart) for p in parts)
    got = [t for p in parts if isinstance(p, DeckScanPart) for t in p.tags]
    assert got == [t.hex().upper() for t in tags]


def test_zone_totals_carry_the_chip_list_as_denomination_counts() -> None:
    body = wire.pack_zone(6, 35, [5, 25, 5])
    zone = parse_zone(body)
    assert zone is not None
    assert (zone.seat, zone.amount, zone.chips) == (6, 35, (25, 5, 5))
    assert parse_zone(wire.pack_zone(2, 40, None)) == type(zone)(2, 40, None)
    # A chip list that does not add up to the amount is malformed, not believed.
    assert parse_zone(wire.pack_zone(6, 36, [5, 25, 5])) is None
