"""Debounced switches and the optical face sensor of the shoe. Pure logic over `machine.Pin` /
`machine.ADC`-like objects (anything with `value()` / `read_u16()`); MicroPython firmware.
"""

SWITCH_STABLE_MS = 20
# The card's face (white) reflects far more than its back (printed, dark): one threshold on the
# 16-bit reflectance reading splits them. A reading at either rail means a broken or unplugged
# sensor, not a card.
FACE_THRESHOLD = 32768
FACE_RAIL_LOW = 256
FACE_RAIL_HIGH = 65279


class DebouncedSwitch:
    """A switch to ground with a pull-up: `active` once the level has been low for `stable_ms`."""

    def __init__(
        self, pin: "Pin", now_ms: int, active_low: bool = True, stable_ms: int = SWITCH_STABLE_MS
    ) -> None:
        self._pin = pin
        self._active_low = active_low
        self._stable_ms = stable_ms
        self.active = self._raw()
        self._candidate = self.active
        self._since_ms = now_ms

    def _raw(self) -> bool:
        level = self._pin.value()
        return level == 0 if self._active_low else level == 1

    def update(self, now_ms: int) -> bool:
        """Sample the pin; True when the debounced state changed."""
        raw = self._raw()
        if raw != self._candidate:
            self._candidate = raw
            self._since_ms = now_ms
            return False
        if raw != self.active and now_ms - self._since_ms >= self._stable_ms:
            self.active = raw
            return True
        return False


class FaceSensor:
    """Reflectance at the shoe's mouth, sampled when a tag is read."""

    def __init__(self, adc: "ADC", threshold: int = FACE_THRESHOLD) -> None:
        self._adc = adc
        self._threshold = threshold
        self.faulted = False

    def sample(self) -> bool:
        """True if the card at the mouth shows its face; sets `faulted` for a rail reading."""
        level = self._adc.read_u16()
        self.faulted = level <= FACE_RAIL_LOW or level >= FACE_RAIL_HIGH
        return level >= self._threshold


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class Pin(Protocol):
        def value(self) -> int: ...

    class ADC(Protocol):
        def read_u16(self) -> int: ...
