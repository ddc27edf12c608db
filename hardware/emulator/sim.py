"""The physical world the emulated firmware senses: cards passing the shoe's mouth, the face
sensor's reflectance, switches, chips in the betting zones. Simulation (no I/O); the emulator's
thread owns these objects, so nothing here is locked.
"""

from __future__ import annotations

from collections import deque

FACE_UP_LEVEL = 60000
FACE_DOWN_LEVEL = 9000


class ShoeMouth:
    """The reader's field and the face sensor at the shoe's mouth.

    A drawn card stays in the field for `dwell_polls` reader polls (the firmware must count it
    once), then the field is empty for `gap_polls`. It is the firmware's RFID reader (`read_uid`,
    `inventory`) and the face sensor's ADC (`read_u16`) at once.
    """

    def __init__(self, dwell_polls: int = 2, gap_polls: int = 1) -> None:
        self._dwell = dwell_polls
        self._gap = gap_polls
        self._queue: deque[tuple[bytes, bool]] = deque()
        self._current: tuple[bytes, bool] | None = None
        self._left = 0
        self._gap_left = 0
        self._face_level = FACE_DOWN_LEVEL
        self.deck: list[bytes] = []
        self.reader_failing = False
        self.face_failing = False
        self.presented = 0

    @property
    def waiting(self) -> int:
        """Cards the dealer has drawn that have not left the mouth yet."""
        return len(self._queue) + (1 if self._current is not None else 0)

    def draw(self, tag: bytes, face_up: bool) -> None:
        self._queue.append((tag, face_up))

    def read_uid(self) -> bytes | None:
        if self.reader_failing:
            raise OSError(110, "emulated reader: no response")
        if self._current is None:
            if self._gap_left > 0:
                self._gap_left -= 1
                return None
            if not self._queue:
                return None
            self._current = self._queue.popleft()
            self._left = self._dwell
            self._face_level = FACE_UP_LEVEL if self._current[1] else FACE_DOWN_LEVEL
        tag = self._current[0]
        self._left -= 1
        if self._left <= 0:
            self._current = None
            self._gap_left = self._gap
            self.presented += 1
        return tag

    def read_u16(self) -> int:
        return 0 if self.face_failing else self._face_level

    def can_inventory(self) -> bool:
        return True

    def inventory(self) -> list[bytes]:
        if self.reader_failing:
            raise OSError(110, "emulated reader: no response")
        return list(self.deck)


class Switch:
    """A switch to ground read through a pull-up: `closed` reads as level 0."""

    def __init__(self, closed: bool = False) -> None:
        self.closed = closed

    def value(self) -> int:
        return 0 if self.closed else 1


class Zone:
    """One seat's betting zone: the chips in it (denominations), or a sensor that fails."""

    def __init__(self, chips_known: bool = True) -> None:
        self.chips: list[int] = []
        self.chips_known = chips_known
        self.failing = False

    def read(self) -> tuple[int, list[int] | None]:
        if self.failing:
            raise OSError(110, "emulated zone sensor: no response")
        return sum(self.chips), (list(self.chips) if self.chips_known else None)
