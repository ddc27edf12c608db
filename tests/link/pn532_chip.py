"""A PN532 stand-in for the firmware's driver tests: parses the host frames written to a
stand-in `machine.UART` and answers as the chip would (ACK, then the response frame)."""

from __future__ import annotations

ACK = b"\x00\x00\xff\x00\xff\x00"


def response_frame(body: bytes) -> bytes:
    n = len(body)
    return b"\x00\x00\xff" + bytes((n, (-n) & 0xFF)) + body + bytes(((-sum(body)) & 0xFF, 0))


class PN532Chip:
    def __init__(self) -> None:
        self.uid: bytes | None = None
        self.silent = False
        self.bad_checksum = False
        self.commands: list[int] = []

    def __call__(self, data: bytes) -> bytes:
        i = data.find(b"\x00\x00\xff")
        if i < 0:
            return b""  # the wake-up preamble
        n = data[i + 3]
        body = data[i + 5 : i + 5 + n]
        command = body[1]
        self.commands.append(command)
        if self.silent:
            return b""
        answer = bytes((0xD5, command + 1)) + self._answer(command)
        frame = response_frame(answer)
        if self.bad_checksum:
            frame = frame[:-2] + bytes(((frame[-2] + 1) & 0xFF, 0))
        return ACK + frame

    def _answer(self, command: int) -> bytes:
        if command == 0x4A:  # InListPassiveTarget
            if self.uid is None:
                return b"\x00"
            return bytes((1, 1, 0x00, 0x44, 0x00, len(self.uid))) + self.uid
        return b""
