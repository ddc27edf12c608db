"""Pin-map validation: every problem named by file and key, before anything opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.inputs.exc import InputsError, PinMapError
from hardware.inputs.names import CATALOG_KEYS, SCREEN_KEYS, STATION_KEYS, Group
from hardware.inputs.pinmap import HEADER, Active, Pull
from hardware.inputs.pinmap_load import default_pinmap, load_pinmap, parse_pinmap
from station.engine.events import Key
from tests.inputs.conftest import variant


def problems(*edits: tuple[str, str]) -> list[str]:
    with pytest.raises(PinMapError) as info:
        variant(*edits, name="rev-x.toml")
    assert info.value.source == "rev-x.toml"
    return [f"{p.key}: {p.message}" for p in info.value.problems]


def test_the_catalog_key_list_is_a_copy_of_the_engine_enum() -> None:
    assert tuple(k.value for k in Key) == CATALOG_KEYS + SCREEN_KEYS + STATION_KEYS


def test_the_default_pin_map_is_valid_and_complete() -> None:
    pm = default_pinmap()
    assert pm.source.endswith("hardware/pinmaps/rev-a.toml")
    assert (pm.revision, pm.seats) == ("A", 10)
    names = {line.name for line in pm.keys}
    assert set(CATALOG_KEYS) <= names
    assert {f"SEAT_{n}" for n in range(1, 11)} <= names
    assert [line.seat for line in pm.puck] == list(range(1, 11))
    assert [line.seat for line in pm.occupancy] == list(range(1, 11))
    fold = pm.input("keys.FOLD")
    assert (fold.chip, fold.pin, fold.pull, fold.active) == (HEADER, 17, Pull.UP, Active.LOW)
    seat = pm.input("occupancy.4")
    assert (seat.pull, seat.active, seat.debounce_s) == (Pull.NONE, Active.HIGH, 3.0)
    assert pm.input("keys.CANCEL").hold_s == 0.8
    assert pm.input("puck.1").group is Group.PUCK


def test_a_pin_used_twice_names_both_keys() -> None:
    assert problems(("CHECK = 27", "CHECK = 17")) == [
        "keys.CHECK: pin 17 is already used by keys.FOLD"
    ]


def test_a_pin_used_by_a_key_and_an_output_is_caught() -> None:
    assert problems(("LED_STOP = { pin = 20 }", "LED_STOP = { pin = 17 }")) == [
        "outputs.LED_STOP: pin 17 is already used by keys.FOLD"
    ]


def test_an_expander_pin_used_twice_is_named_with_its_chip() -> None:
    assert problems(('FLASH = { chip = "x1", pin = 11 }', 'FLASH = { chip = "x1", pin = 0 }')) == [
        "keys.FLASH: pin x1:0 is already used by keys.SEAT_1"
    ]


def test_an_unknown_key_is_named_with_a_suggestion() -> None:
    assert problems(("FOLD = 17", "FOLDD = 17")) == [
        "keys.FOLDD: unknown dealer key (did you mean FOLD?)",
        "keys.FOLD: missing: the panel needs this key",
    ]


def test_unknown_sections_and_fields_are_errors() -> None:
    found = problems(
        ('revision = "A"', 'revision = "A"\ncolour = "green"'),
        ("FOLD = 17", 'FOLD = { pin = 17, colour = "red" }'),
        ("readback_ms = 1000", "readback_msec = 1000"),
    )
    assert found == [
        "colour: unknown section or key",
        "timing.readback_msec: unknown field (did you mean readback_ms?)",
        "keys.FOLD.colour: unknown field (allowed: chip, pin, pull, active, debounce_ms, hold_ms)",
    ]


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("FOLD = 17", "FOLD = 28"), "keys.FOLD: pin 28 is out of range for header (0-27)"),
        (("FOLD = 17", "FOLD = 0"), "keys.FOLD: pin 0 is reserved for the HAT ID EEPROM (ID_SD)"),
        (
            ("FOLD = 17", "FOLD = 3"),
            "keys.FOLD: pin 3 is reserved for I2C1 SCL (the expanders' bus)",
        ),
        (("FOLD = 17", "FOLD = 4"), "keys.FOLD: pin 4 is already used by chips.x1.interrupt"),
        (
            ('FLASH = { chip = "x1", pin = 11 }', 'FLASH = { chip = "x1", pin = 16 }'),
            "keys.FLASH: pin 16 is out of range for x1 (0-15)",
        ),
        (
            ('FLASH = { chip = "x1", pin = 11 }', 'FLASH = { chip = "x1", pin = 7 }'),
            "keys.FLASH: x1:7 (GPA7/GPB7) is output-only on the MCP23017",
        ),
        (
            ('FLASH = { chip = "x1", pin = 11 }', 'FLASH = { chip = "x9", pin = 1 }'),
            "keys.FLASH: unknown chip 'x9' (declared: header, x1, x2, x3)",
        ),
    ],
)
def test_pins_out_of_range_reserved_or_on_unknown_chips(
    edit: tuple[str, str], expected: str
) -> None:
    assert problems(edit) == [expected]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            'FOLD = { pin = 17, pull = "up", active = "high" }',
            'keys.FOLD: pull "up" with active "high" reads as pressed when nothing is connected: '
            'a pulled-up input is active "low"',
        ),
        (
            'FOLD = { pin = 17, pull = "down", active = "low" }',
            'keys.FOLD: pull "down" with active "low" reads as pressed when nothing is '
            'connected: a pulled-down input is active "high"',
        ),
        ('FOLD = { pin = 17, pull = "sideways" }', "keys.FOLD.pull: must be one of up, down, none"),
        ("FOLD = { pin = 17, active = 1 }", "keys.FOLD.active: must be one of low, high"),
        (
            "FOLD = { pin = 17, hold_ms = 10 }",
            "keys.FOLD.hold_ms: must be a whole number of ms, 100-10000",
        ),
        ("FOLD = { pin = true }", "keys.FOLD.pin: missing or not a whole number"),
        ('FOLD = "17"', "keys.FOLD: must be a pin number or a table like { pin = 17 }"),
    ],
)
def test_bad_pull_polarity_and_fields(entry: str, expected: str) -> None:
    assert problems(("FOLD = 17", entry)) == [expected]


def test_an_expander_has_no_pull_down() -> None:
    edit = (
        'SEAT_1 = { chip = "x1", pin = 0 }',
        'SEAT_1 = { chip = "x1", pin = 0, pull = "down", active = "high" }',
    )
    assert problems(edit) == ["keys.SEAT_1: x1 is an MCP23017, which has pull-ups only"]


def test_missing_sensors_and_outputs_are_named() -> None:
    assert problems(('7 = { chip = "x2", pin = 6 }', ""), ("BUZZER = { pin = 26 }", "")) == [
        "puck.7: missing: every seat needs a sensor",
        "outputs.BUZZER: missing",
    ]


def test_a_smaller_table_needs_fewer_seat_keys_and_refuses_extra_ones() -> None:
    found = problems(("seats = 10", "seats = 8"))
    assert "keys.SEAT_9: seat 9 is beyond seats = 8" in found
    assert not [p for p in found if p.startswith("keys.SEAT_10")]  # kept as the 0 key
    assert "puck.10: not a seat number 1-8" in found


def test_every_problem_is_reported_in_one_go() -> None:
    found = problems(
        ("CHECK = 27", "CHECK = 17"),
        ("FLOOR = 13", "FLOORR = 13"),
        ("seat_stable_ms = 3000", "seat_stable_ms = -1"),
    )
    assert len(found) == 4


def test_a_toml_syntax_error_names_the_file() -> None:
    with pytest.raises(PinMapError) as info:
        parse_pinmap("revision = \n", "broken.toml")
    assert str(info.value).startswith("broken.toml: toml: Invalid value")


def test_a_missing_file_is_a_pin_map_error(tmp_path: Path) -> None:
    with pytest.raises(PinMapError) as info:
        load_pinmap(tmp_path / "nope.toml")
    assert (
        str(info.value) == f"{tmp_path / 'nope.toml'}: file: cannot read: No such file or directory"
    )


def test_pin_map_errors_are_value_errors_and_inputs_errors() -> None:
    assert issubclass(PinMapError, ValueError)
    assert issubclass(PinMapError, InputsError)


def test_pins_2_and_3_are_free_when_the_expanders_use_another_bus_but_keep_their_pull_ups() -> None:
    other_bus = [
        ("i2c_bus = 1\naddress = 0x2" + n, "i2c_bus = 0\naddress = 0x2" + n) for n in "012"
    ]
    pm = variant(*other_bus, ("FOLD = 17", "FOLD = 2"))
    assert pm.input("keys.FOLD").pin == 2
    found = problems(*other_bus, ("FOLD = 17", 'FOLD = { pin = 2, pull = "none" }'))
    assert found == [
        'keys.FOLD: pin 2 has a fixed 1.8 kOhm pull-up on the board: pull must be "up"'
    ]
