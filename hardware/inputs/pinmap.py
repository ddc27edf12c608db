"""The pin map of one table revision, as a typed model. Pure.

A pin map is data (`hardware/pinmaps/rev-a.toml` is the embedded default): which GPIO chip and line
each dealer key, puck sensor, seat sensor, LED and the buzzer use, with pull, polarity and timing.
`hardware.inputs.pinmap_load` reads and validates the TOML; the format is documented in
`rev-a.toml` itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hardware.inputs.names import Group, Output

HEADER = "header"  # the chip name of the Pi's own 40-pin header (BCM numbering)


class ChipType(StrEnum):
    HEADER = "header"
    MCP23017 = "mcp23017"  # I2C expander, kernel driver pinctrl-mcp23s08 (a gpiochip of its own)


class Pull(StrEnum):
    UP = "up"
    DOWN = "down"
    NONE = "none"


class Active(StrEnum):
    LOW = "low"
    HIGH = "high"


@dataclass(frozen=True, slots=True)
class Chip:
    """A GPIO chip: the header, or an I2C expander with its bus, address and interrupt pin."""

    name: str
    type: ChipType
    i2c_bus: int | None = None
    address: int | None = None
    interrupt: int | None = None  # header BCM pin wired to the expander's INT output

    @property
    def lines(self) -> int:
        return 28 if self.type is ChipType.HEADER else 16


@dataclass(frozen=True, slots=True)
class InputLine:
    """One input: a panel button, a puck sensor or a seat-occupancy sensor."""

    group: Group
    name: str  # button name (`FOLD`, `SEAT_3`) or seat number as text (`3`)
    chip: str
    pin: int
    pull: Pull
    active: Active
    debounce_s: float
    hold_s: float | None = None  # keys only: a hold this long is a long press

    @property
    def path(self) -> str:
        """The dotted key of this input in the pin map, used in every message (`keys.FOLD`)."""
        return f"{self.group.value}.{self.name}"

    @property
    def seat(self) -> int | None:
        return int(self.name) if self.group is not Group.KEYS else None

    @property
    def where(self) -> str:
        return pin_label(self.chip, self.pin)


@dataclass(frozen=True, slots=True)
class OutputLine:
    name: Output
    chip: str
    pin: int
    active: Active

    @property
    def path(self) -> str:
        return f"outputs.{self.name.value}"


@dataclass(frozen=True, slots=True)
class Timing:
    """Timers shared by the whole table; a per-input `debounce_ms` overrides the first three."""

    key_debounce_s: float = 0.020
    puck_stable_s: float = 0.250
    seat_stable_s: float = 3.0  # a player leaning back is not leaving the seat
    readback_s: float = 1.0
    selection_timeout_s: float = 5.0
    entry_timeout_s: float = 5.0
    stuck_s: float = 10.0


@dataclass(frozen=True, slots=True)
class PinMap:
    source: str  # the file it came from, for messages
    revision: str
    seats: int
    description: str
    chips: tuple[Chip, ...]
    keys: tuple[InputLine, ...]
    puck: tuple[InputLine, ...]
    occupancy: tuple[InputLine, ...]
    outputs: tuple[OutputLine, ...]
    timing: Timing

    @property
    def inputs(self) -> tuple[InputLine, ...]:
        return self.keys + self.puck + self.occupancy

    def chip(self, name: str) -> Chip:
        for chip in self.chips:
            if chip.name == name:
                return chip
        raise KeyError(name)

    def input(self, path: str) -> InputLine:
        for line in self.inputs:
            if line.path == path:
                return line
        raise KeyError(path)

    def summary(self) -> str:
        return (
            f"revision {self.revision}, {self.seats} seats: {len(self.keys)} keys, "
            f"{len(self.puck)} puck sensors, {len(self.occupancy)} seat sensors, "
            f"{len(self.outputs)} outputs on {len(self.chips)} chips"
        )


def pin_label(chip: str, pin: int) -> str:
    """`17` on the header, `x1:3` on an expander: how messages name a pin."""
    return str(pin) if chip == HEADER else f"{chip}:{pin}"
