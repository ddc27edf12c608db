"""Pin factories per pin-map chip: MockFactory for tests and demos, lgpio on the Pi. Edge adapter.

A pin map has the Pi's header (chip `header`) and may have MCP23017 expanders, each of which the
kernel driver turns into a gpiochip of its own; lgpio opens one gpiochip per factory, so each chip
gets its own factory. On the Pi 5 only lgpio works (hardware.md section 3); the header factory
lets gpiozero pick the chip (4 or 0, fixed in 2.0.1.post3); expanders are found through sysfs by
their I2C bus and address, so kernel renumbering cannot move them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.inputs.exc import PinBackendError
from hardware.inputs.gpio import PinFactory
from hardware.inputs.pinmap import HEADER, Chip, ChipType, PinMap


class ExpanderMockPin(MockPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock MCP23017 line. MockFactory models the Pi's header, where GPIO2/3 carry fixed
    pull-ups; an expander's lines have none, so the line info's pull is cleared."""

    def __init__(self, factory: Any, info: Any, **kwargs: Any) -> None:
        super().__init__(factory, info._replace(pull=""), **kwargs)


def mock_factories(pinmap: PinMap) -> dict[str, PinFactory]:
    """One fresh MockFactory per chip of the pin map (no global state, no fallback warning)."""
    return {
        chip.name: MockFactory()
        if chip.type is ChipType.HEADER
        else MockFactory(pin_class=ExpanderMockPin)
        for chip in pinmap.chips
    }


def lgpio_factories(pinmap: PinMap, *, sysfs: Path = Path("/sys")) -> dict[str, PinFactory]:
    """LGPIOFactory instances for the real table. Needs the `lgpio` package (`.[pi]` extra)."""
    try:
        lgpio_pins = importlib.import_module("gpiozero.pins.lgpio")
    except ImportError as exc:
        raise PinBackendError(f"the lgpio back end is not installed: {exc}") from exc
    factories: dict[str, PinFactory] = {}
    try:
        for chip in pinmap.chips:
            if chip.type is ChipType.HEADER:
                factories[chip.name] = lgpio_pins.LGPIOFactory()
            else:
                factories[chip.name] = lgpio_pins.LGPIOFactory(chip=resolve_gpiochip(chip, sysfs))
    except BaseException:
        close_factories(factories)
        raise
    return factories


def resolve_gpiochip(chip: Chip, sysfs: Path = Path("/sys")) -> int:
    """The gpiochip number the kernel gave an I2C expander.

    Found as `/sys/bus/i2c/devices/<bus>-00<addr>/gpiochipN` (the gpio device is a child of the
    I2C client), so it does not depend on probe order.
    """
    if chip.name == HEADER or chip.i2c_bus is None or chip.address is None:
        raise PinBackendError(f"chips.{chip.name}: not an I2C expander")
    device = sysfs / "bus" / "i2c" / "devices" / f"{chip.i2c_bus}-{chip.address:04x}"
    numbers = sorted(
        int(m.group(1))
        for entry in (device.iterdir() if device.is_dir() else ())
        if (m := re.fullmatch(r"gpiochip(\d+)", entry.name))
    )
    if len(numbers) != 1:
        found = "none" if not numbers else ", ".join(map(str, numbers))
        raise PinBackendError(
            f"chips.{chip.name}: no single gpiochip under {device} (found {found}); is the "
            f"mcp23017 overlay for address {chip.address:#04x} loaded?"
        )
    return numbers[0]


def close_factories(factories: Mapping[str, PinFactory]) -> None:
    for factory in factories.values():
        factory.close()
