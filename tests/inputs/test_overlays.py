"""`station config overlays`: the Raspberry Pi boot settings the pin map needs, derived from the
pin map (rev-a.toml's header: "dtparam=i2c_arm=on and the three mcp23017 overlays", SPI off for
pins 7-11, the serial console off for 14-15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.cli import main


def test_the_revision_a_map_needs_i2c_three_expanders_and_spi_and_uart_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["config", "overlays"]) == 0
    lines = capsys.readouterr().out.splitlines()
    settings = [line for line in lines if not line.startswith("#")]
    assert settings == [
        "[all]",
        "dtparam=i2c_arm=on",
        "dtparam=spi=off",
        "enable_uart=0",
        "dtoverlay=mcp23017,addr=0x20,gpiopin=4",
        "dtoverlay=mcp23017,addr=0x21,gpiopin=5",
        "dtoverlay=mcp23017,addr=0x22,gpiopin=6",
    ]
    assert lines[0].startswith("# >>> dealer-station") and lines[-1] == "# <<< dealer-station"


def test_the_pin_map_can_be_named_and_a_missing_one_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rev_a = Path(__file__).resolve().parents[2] / "hardware" / "pinmaps" / "rev-a.toml"
    assert main(["config", "overlays", "--pinmap", str(rev_a)]) == 0
    capsys.readouterr()
    assert main(["config", "overlays", "--pinmap", str(tmp_path / "none.toml")]) == 2
    assert "none.toml" in capsys.readouterr().err
