"""Frames as typed records over the shared wire codec: encode, and decode incrementally. Pure.

`firmware_bridge.wire` holds the one implementation (it also runs on the boards); this module
gives the host frozen records and `StrEnum` codes for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge import wire
from firmware_bridge.exc import ProtocolError

# A partial frame that has waited this long is abandoned (see wire.Decoder): a 128-byte frame
# takes 11 ms at 115200 baud, far less over USB.
STALL_S = 0.03


class DecodeError(StrEnum):
    """Why a run of bytes was dropped on the way to the next sync."""

    BAD_LENGTH = "bad_length"
    NO_TRAILING_SYNC = "no_trailing_sync"
    CRC_MISMATCH = "crc_mismatch"
    STALLED = "stalled"


_ERRORS = {
    wire.ERR_LENGTH: DecodeError.BAD_LENGTH,
    wire.ERR_TRAILER: DecodeError.NO_TRAILING_SYNC,
    wire.ERR_CRC: DecodeError.CRC_MISMATCH,
    wire.ERR_STALLED: DecodeError.STALLED,
}


@dataclass(frozen=True, slots=True)
class Frame:
    """One valid frame. `version` is the sender's protocol version (any value is decoded, so the
    session can name a foreign version); `type` is a `wire.T_*`/`wire.E_*` code."""

    version: int
    seq: int
    type: int
    payload: bytes = b""

    def encode(self) -> bytes:
        try:
            return wire.encode_frame(self.version, self.seq, self.type, self.payload)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from exc

    @property
    def type_name(self) -> str:
        return wire.TYPE_NAMES.get(self.type, f"0x{self.type:02X}")


@dataclass(frozen=True, slots=True)
class Garbage:
    """Bytes dropped while resynchronising, and why."""

    error: DecodeError
    dropped: int


def encode(frame: Frame) -> bytes:
    return frame.encode()


class FrameDecoder:
    """Bytes in any chunking -> `Frame`s and `Garbage` in stream order. Never raises on input.

    `now` is monotonic seconds; call `expire(now)` when the line is idle so that a partial frame
    started by a garbage byte is given up after `STALL_S`.
    """

    def __init__(self, stall_s: float = STALL_S) -> None:
        self._wire = wire.Decoder(stall_s)

    def feed(self, data: bytes, now: float) -> list[Frame | Garbage]:
        return self._convert(self._wire.feed(data, now))

    def expire(self, now: float) -> list[Frame | Garbage]:
        return self._convert(self._wire.expire(now))

    @property
    def pending(self) -> int:
        return self._wire.pending()

    @property
    def crc_errors(self) -> int:
        return self._wire.crc_errors

    @property
    def resyncs(self) -> int:
        return self._wire.resyncs

    @property
    def dropped_bytes(self) -> int:
        return self._wire.dropped_bytes

    @staticmethod
    def _convert(items: list[tuple[int, int, int, bytes]]) -> list[Frame | Garbage]:
        out: list[Frame | Garbage] = []
        for code, a, b, payload in items:
            if code == wire.OK:
                out.append(Frame(version=a >> 4, seq=a & 0x0F, type=b, payload=payload))
            else:
                out.append(Garbage(error=_ERRORS[code], dropped=a))
        return out
