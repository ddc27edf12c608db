"""Host -> device commands: window, cumulative acks, adaptive timeout, go-back-N. Fake clock."""

from __future__ import annotations

import pytest

from firmware_bridge import FrameDecoder, wire
from firmware_bridge.codec import Frame
from firmware_bridge.retransmit import INITIAL_RTO_S, MAX_RTO_S, MIN_RTO_S, CommandChannel


def _seqs(frames: list[bytes]) -> list[int]:
    items = FrameDecoder().feed(b"".join(frames), 0.0)
    return [i.seq for i in items if isinstance(i, Frame)]


def test_at_most_eight_commands_are_in_flight_and_acks_release_the_rest() -> None:
    ch = CommandChannel()
    sent = [f for i in range(12) for f in ch.send(wire.T_CLOCK_POLL, bytes(2), 0.0)]
    assert _seqs(sent) == list(range(8))
    assert (ch.in_flight, ch.queued) == (8, 4)
    # The device expects 3 next: 0, 1 and 2 arrived, so three more may go.
    assert _seqs(ch.on_ack(3, 0.01)) == [8, 9, 10]
    assert ch.on_ack(3, 0.02) == []  # the same ack again changes nothing
    assert ch.on_ack(14, 0.03) == []  # a nibble outside the window is stale: ignored


def test_the_timeout_adapts_to_the_measured_round_trip() -> None:
    ch = CommandChannel()
    assert ch.rto_s == INITIAL_RTO_S
    now = 0.0
    for _ in range(20):
        ch.send(wire.T_CLOCK_POLL, bytes(2), now)
        now += 0.004
        ch.on_ack((ch._next_seq) % 16, now)
        now += 0.1
    assert ch.srtt_s == pytest.approx(0.004, rel=0.05)
    assert ch.rto_s == MIN_RTO_S  # 4 ms round trips: clamped to the 25 ms floor


def test_a_timeout_resends_everything_in_flight_and_doubles() -> None:
    ch = CommandChannel()
    ch.send(wire.T_IDENTIFY, bytes(6), 0.0)
    ch.send(wire.T_GET_SNAPSHOT, b"", 0.0)
    assert ch.poll(INITIAL_RTO_S - 0.001) == []
    again = ch.poll(INITIAL_RTO_S)
    assert _seqs(again) == [0, 1]
    assert again[0].startswith(b"\x7e\x7e")  # an extra sync in front of the batch
    assert ch.rto_s == 2 * INITIAL_RTO_S
    assert ch.retransmits == 2
    for i in range(1, 10):
        ch.poll(10.0 * i)
    assert ch.rto_s == MAX_RTO_S


def test_no_round_trip_sample_from_a_retransmitted_command() -> None:
    ch = CommandChannel()
    ch.send(wire.T_IDENTIFY, bytes(6), 0.0)
    ch.poll(INITIAL_RTO_S)  # resent
    ch.on_ack(1, INITIAL_RTO_S + 0.001)
    assert ch.srtt_s is None  # Karn: which copy was acknowledged is unknown


def test_a_nak_resends_at_once_but_not_what_was_just_sent() -> None:
    ch = CommandChannel()
    ch.send(wire.T_GET_SNAPSHOT, b"", 0.0)
    assert ch.on_nak(0.001) == []
    assert _seqs(ch.on_nak(0.05)) == [0]
