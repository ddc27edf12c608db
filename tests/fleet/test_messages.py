"""The fleet's MQTT payloads: what goes out comes back the same; anything malformed is a
MessageError (dropped and logged by the receiver), never a crash."""

from __future__ import annotations

import pytest

from station.fleet.messages import (
    Ack,
    Command,
    Hello,
    MessageError,
    Reply,
    ReplyStatus,
    Status,
    Verdict,
    decode_rows,
    encode_rows,
)
from tests.fleet.test_chain import chain


def test_rows_round_trip_with_their_hashes_intact() -> None:
    rows = chain(3)
    back = decode_rows(encode_rows(rows))
    assert back == rows
    assert all(r.computed_hash() == r.hash for r in back)


def test_the_other_messages_round_trip() -> None:
    assert Hello.decode(Hello(7, "a" * 64, "boot").encode()) == Hello(7, "a" * 64, "boot")
    ack = Ack(Verdict.FORK, 5, "b" * 64, 3, "seq 3 differs", hello=True)
    assert Ack.decode(ack.encode()) == ack
    status = Status(True, 10, 8, 2, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z")
    assert Status.decode(status.encode()) == status
    cmd = Command(4, "rule", {"incident": 12, "text": "dead hand"})
    assert Command.decode(cmd.encode()) == cmd
    reply = Reply(4, ReplyStatus.DONE, 77, "")
    assert Reply.decode(reply.encode()) == reply


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xff\xfe",
        b"[]",
        b'{"v": 2, "rows": []}',
        b'{"v": 1, "rows": []}',
        b'{"v": 1, "rows": [[1, 2]]}',
        b'{"v": 1, "rows": [[1, "T01", "b", "u", 1, 1, 0, "c", "a", "r", null, "{}", "x", "y"]]}',
        b'{"v": 1, "rows": [[0, "T01", "b", "u", 1, 1, 0, "c", "a", "r", null, "{}", "'
        + b"0" * 64
        + b'", "'
        + b"0" * 64
        + b'"]]}',
        b'{"v": 1, "rows": [[1, "T\\u0000", "b", "u", 1, 1, 0, "c", "a", "r", null, "{}", "'
        + b"0" * 64
        + b'", "'
        + b"0" * 64
        + b'"]]}',
        b"[" * 100_000,
    ],
)
def test_malformed_rows_are_refused(payload: bytes) -> None:
    with pytest.raises(MessageError):
        decode_rows(payload)


@pytest.mark.parametrize(
    "payload",
    [
        b'{"v":1}',
        b'{"v":1,"verdict":"maybe","head_seq":1,"head_hash":"x"}',
        b'{"v":1,"verdict":"ok","head_seq":-1,"head_hash":"x"}',
    ],
)
def test_malformed_acks_are_refused(payload: bytes) -> None:
    with pytest.raises(MessageError):
        Ack.decode(payload)
