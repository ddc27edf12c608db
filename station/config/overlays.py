"""The Raspberry Pi boot settings a pin map needs (`/boot/firmware/config.txt` lines), derived
from the pin map itself. Pure.

- every MCP23017 expander is a Linux gpiochip of its own once its overlay is loaded:
  `dtoverlay=mcp23017,addr=0x20,gpiopin=4` (`gpiopin`: the header pin wired to its INT output;
  `noints` when it has none), on I2C1, which `dtparam=i2c_arm=on` turns on;
- header pins 7-11 taken by inputs need SPI off (`dtparam=spi=off`), and 14-15 the UART off
  (`enable_uart=0`, and no `console=serial0,...` in `cmdline.txt`).

`station config overlays` prints them; `systemd/install.sh` writes them into config.txt between
two marker lines (replacing what an earlier install wrote there).
"""

from __future__ import annotations

from typing import Final

from hardware.inputs.pinmap import ChipType, PinMap

BEGIN: Final = "# >>> dealer-station: the pin map's overlays (written by systemd/install.sh)"
END: Final = "# <<< dealer-station"
SPI_PINS: Final = frozenset(range(7, 12))
UART_PINS: Final = frozenset({14, 15})


def header_pins(pinmap: PinMap) -> set[int]:
    used = {line.pin for line in pinmap.inputs if pinmap.chip(line.chip).type is ChipType.HEADER}
    used |= {o.pin for o in pinmap.outputs if pinmap.chip(o.chip).type is ChipType.HEADER}
    used |= {c.interrupt for c in pinmap.chips if c.interrupt is not None}
    return used


def boot_config_lines(pinmap: PinMap) -> list[str]:
    """The config.txt lines (without the markers). config.txt takes comments only on lines of
    their own, so each reason comes on the line before its setting."""
    lines = [
        f"# pin map {pinmap.source}: revision {pinmap.revision}",
        "[all]",  # whatever [filter] section came before, these apply to every Pi
    ]
    expanders = [c for c in pinmap.chips if c.type is ChipType.MCP23017]
    used = header_pins(pinmap)
    if expanders:
        lines += ["# I2C1 for the GPIO expanders", "dtparam=i2c_arm=on"]
    if used & SPI_PINS:
        lines += [f"# header pins {_pins(used & SPI_PINS)} are inputs: SPI off", "dtparam=spi=off"]
    if used & UART_PINS:
        lines += [
            f"# header pins {_pins(used & UART_PINS)} are inputs: the UART off (and no "
            "console=serial0,... in cmdline.txt)",
            "enable_uart=0",
        ]
    for chip in expanders:
        assert chip.address is not None
        where = f"gpiopin={chip.interrupt}" if chip.interrupt is not None else "noints"
        if chip.i2c_bus not in (None, 1):
            lines.append(f"# {chip.name} is on I2C bus {chip.i2c_bus}: give the overlay its bus")
        lines.append(f"dtoverlay=mcp23017,addr={chip.address:#04x},{where}")
    return lines


def _pins(pins: set[int]) -> str:
    return ", ".join(str(p) for p in sorted(pins))
