"""NXP PN532 RFID reader over its high-speed UART (HSU): read the UID of the tag at the shoe's
mouth. Driver over a `machine.UART`-like object; MicroPython firmware.

Frames (PN532 User Manual, section 6.2): 00 00 FF LEN LCS TFI PD... DCS 00, with LCS and DCS
making LEN and the data sum to zero; the reader first answers every command with the ACK frame
00 00 FF 00 FF 00. InListPassiveTarget (0x4A) for one ISO 14443A target gives the UID (4, 7 or
10 bytes for the NTAG/MIFARE inlays in casino cards). RFConfiguration limits passive-activation
retries to one, so a poll with no card returns at once instead of blocking the firmware loop.
Any timeout or bad checksum raises OSError; the shoe counts those as reader faults.
"""

_PREAMBLE = b"\x00\x00\xff"
_ACK = b"\x00\x00\xff\x00\xff\x00"
_TFI_OUT = 0xD4
_TFI_IN = 0xD5
CMD_SAM_CONFIGURATION = 0x14
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
# HSU wake-up: a long preamble of 0x55 followed by zeros (User Manual 7.2.11).
_WAKEUP = b"\x55\x55" + b"\x00" * 14


def frame(command: int, data: bytes = b"") -> bytes:
    body = bytes((_TFI_OUT, command)) + data
    n = len(body)
    return _PREAMBLE + bytes((n, (-n) & 0xFF)) + body + bytes(((-sum(body)) & 0xFF, 0))


class PN532:
    def __init__(self, uart: "UART") -> None:
        self._uart = uart
        self._awake = False

    def _read(self, n: int) -> bytes:
        data = self._uart.read(n)
        if data is None or len(data) != n:
            raise OSError(110, "pn532: timeout")
        return bytes(data)

    def _call(self, command: int, data: bytes = b"") -> bytes:
        if not self._awake:
            self._uart.write(_WAKEUP)
            self._awake = True
        self._uart.write(frame(command, data))
        if self._read(6) != _ACK:
            self._awake = False
            raise OSError(5, "pn532: no ACK")
        head = self._read(5)
        if head[:3] != _PREAMBLE or (head[3] + head[4]) & 0xFF:
            raise OSError(5, "pn532: bad frame header")
        n = head[3]
        rest = self._read(n + 2)
        body = rest[:n]
        if (sum(body) + rest[n]) & 0xFF or n < 2:
            raise OSError(5, "pn532: bad checksum")
        if body[0] != _TFI_IN or body[1] != command + 1:
            raise OSError(5, "pn532: unexpected response")
        return body[2:]

    def begin(self) -> None:
        """Normal mode, no SAM; one passive-activation retry (see the module note)."""
        self._call(CMD_SAM_CONFIGURATION, b"\x01\x14\x01")
        self._call(CMD_RF_CONFIGURATION, b"\x05\xff\x01\x01")

    def read_uid(self) -> "bytes | None":
        """The UID of the tag in the field, or None when there is none."""
        data = self._call(CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x00")
        if not data or data[0] == 0:
            return None
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID...
        if len(data) < 6 or len(data) < 6 + data[5]:
            raise OSError(5, "pn532: short target data")
        return data[6 : 6 + data[5]]

    def can_inventory(self) -> bool:
        return False  # one tag at a time: no deck scan with this reader

    def inventory(self) -> "list[bytes]":
        return []


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class UART(Protocol):
        def read(self, n: int) -> "bytes | None": ...
        def write(self, data: bytes) -> int | None: ...
