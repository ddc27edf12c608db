"""The emulated panel (scripted and keyboard) and the pin factories per chip."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import (
    InputEmulator,
    ScriptedLevel,
    ScriptedPress,
    bounce_burst,
    parse_script,
)
from hardware.inputs.events import KeyPressed, PuckMoved
from hardware.inputs.exc import EmulatorError, PinBackendError
from hardware.inputs.factories import close_factories, lgpio_factories, resolve_gpiochip
from hardware.inputs.keyboard import KeyboardPanel, button_for_char
from hardware.inputs.pinmap import Chip, ChipType
from hardware.inputs.pinmap_load import default_pinmap
from tests.inputs.conftest import Rig


def test_a_bounce_burst_chatters_and_settles_at_the_new_level() -> None:
    burst = bounce_burst(1.0, True)
    assert burst[0] == (1.0, True)
    assert burst[-1][1] is True
    assert len(burst) >= 5
    assert all(b[0] < a[0] for b, a in itertools.pairwise(burst))


def test_a_scripted_hand_comes_out_as_dealer_entries(rig: Rig) -> None:
    t0 = rig.clock.now
    rig.emu.schedule(
        [
            ScriptedLevel(t0, "puck.3", True),
            ScriptedPress(t0 + 0.5, "NEW_HAND"),
            ScriptedPress(t0 + 2.0, "FOLD"),
            ScriptedPress(t0 + 3.0, "SEAT_6"),
            ScriptedPress(t0 + 3.4, "CHECK"),
            ScriptedPress(t0 + 4.0, "VERBAL"),
            ScriptedPress(t0 + 4.3, "SEAT_2"),
            ScriptedPress(t0 + 4.5, "SEAT_10"),
            ScriptedPress(t0 + 4.8, "RAISE"),
            ScriptedPress(t0 + 6.0, "MISDEAL"),
            ScriptedPress(t0 + 6.5, "CONFIRM"),
        ]
    )
    events = rig.run_until(t0 + 10.0)
    entries = [(e.key, e.seat, e.action, e.amount) for e in events if isinstance(e, KeyPressed)]
    assert entries == [
        ("NEW_HAND", None, None, None),
        ("FOLD", None, None, None),
        ("CHECK", 6, None, None),
        ("VERBAL", None, "raise", 20),
        ("MISDEAL", None, None, None),
    ]
    assert [e.seat for e in events if isinstance(e, PuckMoved)] == [3]


def test_random_bounce_with_a_seed_still_gives_one_press_per_key(
    make_rig: Callable[..., Rig],
) -> None:
    rig = make_rig()
    emu = InputEmulator(rig.table.pinmap, rig.factories, seed=7)
    t0 = rig.clock.now
    for i in range(20):
        emu.press("FOLD", t0 + i * 0.3)
    emu.run_until(t0 + 7.0, rig.clock.set)
    assert len([e for e in rig.table.poll() if isinstance(e, KeyPressed)]) == 20


def test_a_script_naming_an_unknown_key_is_refused(rig: Rig) -> None:
    with pytest.raises(EmulatorError, match="no key 'FOLDD'"):
        rig.emu.press("FOLDD", rig.clock.now)


def test_script_text_is_parsed() -> None:
    assert parse_script(["# a comment", "0.5 FOLD", "", "2 CANCEL 0.9  # hold"]) == [
        ScriptedPress(0.5, "FOLD"),
        ScriptedPress(2.0, "CANCEL", 0.9),
    ]
    with pytest.raises(EmulatorError, match="line 1"):
        parse_script(["soon FOLD"])


def test_typed_characters_map_to_panel_buttons() -> None:
    assert button_for_char("f") == ("FOLD", 0.08)
    assert button_for_char("X") == ("CANCEL", 1.2)  # capital: held
    assert button_for_char("0") == ("SEAT_10", 0.08)
    assert button_for_char("#") is None


def test_the_keyboard_panel_prints_entries() -> None:
    clock = FakeClock(10.0)
    out = io.StringIO()
    panel = KeyboardPanel(default_pinmap(), out, clock)
    try:
        for ch in "7f#":
            assert panel.typed(ch) is (ch != "#")
            for _ in range(30):  # the loop wakes at every deadline; here every 10 ms
                clock.advance(0.01)
                panel.step()
    finally:
        panel.close()
    lines = out.getvalue().splitlines()
    assert any("KeyPressed" in line and "key=FOLD seat=7" in line for line in lines)


def test_the_gpiochip_of_an_expander_is_found_by_bus_and_address(tmp_path: Path) -> None:
    (tmp_path / "bus/i2c/devices/1-0021/gpiochip5").mkdir(parents=True)
    chip = Chip("x2", ChipType.MCP23017, i2c_bus=1, address=0x21, interrupt=5)
    assert resolve_gpiochip(chip, tmp_path) == 5
    missing = Chip("x3", ChipType.MCP23017, i2c_bus=1, address=0x22, interrupt=6)
    with pytest.raises(PinBackendError, match="overlay for address 0x22 loaded"):
        resolve_gpiochip(missing, tmp_path)


def test_without_lgpio_installed_the_real_back_end_is_a_clear_error() -> None:
    try:  # lgpio is the optional `.[pi]` extra
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(PinBackendError, match="lgpio back end is not installed"):
            close_factories(lgpio_factories(default_pinmap()))
    else:
        pytest.skip("lgpio is installed here")
