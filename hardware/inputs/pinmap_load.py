"""Read and validate a pin map (TOML) before anything opens. Pure (plus file reads).

Every problem is collected, not just the first, and named by the file and the dotted key in it:
`rev-a.toml: keys.FOLD: pin 17 is already used by keys.CHECK`. Checks: unknown sections, fields
and dealer keys; missing keys and sensors; types and ranges; pins used twice (inputs, outputs and
expander interrupts together); pins out of range or reserved; pulls the chip cannot give; pull and
polarity that contradict each other (the rule gpiozero enforces: a pulled-up input is active low).
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard

from hardware.inputs.exc import PinMapError, PinMapProblem
from hardware.inputs.names import MAX_SEATS, Group, Output, panel_buttons, seat_of_button
from hardware.inputs.pinmap import (
    HEADER,
    Active,
    Chip,
    ChipType,
    InputLine,
    OutputLine,
    PinMap,
    Pull,
    Timing,
)

DEFAULT_PINMAP = "rev-a.toml"

TOP_KEYS = (
    "revision",
    "seats",
    "description",
    "chips",
    "timing",
    "defaults",
    "keys",
    "puck",
    "occupancy",
    "outputs",
)
CHIP_FIELDS = ("type", "i2c_bus", "address", "interrupt")
TIMING_FIELDS: dict[str, tuple[str, int, int]] = {  # toml name -> (Timing field, min ms, max ms)
    "key_debounce_ms": ("key_debounce_s", 1, 1000),
    "puck_stable_ms": ("puck_stable_s", 1, 10_000),
    "seat_stable_ms": ("seat_stable_s", 1, 60_000),
    "readback_ms": ("readback_s", 50, 60_000),
    "selection_timeout_ms": ("selection_timeout_s", 500, 60_000),
    "entry_timeout_ms": ("entry_timeout_s", 500, 60_000),
    "stuck_ms": ("stuck_s", 1000, 600_000),
}
INPUT_FIELDS = ("chip", "pin", "pull", "active", "debounce_ms")
KEY_FIELDS = (*INPUT_FIELDS, "hold_ms")
OUTPUT_FIELDS = ("chip", "pin", "active")
DEFAULT_FIELDS = ("pull", "active")

# Header pins that are never ours: the HAT ID EEPROM bus.
HEADER_RESERVED = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)"}
# The Pi has 1.8 kOhm pull-ups on GPIO2/3 soldered on the board; gpiozero refuses other pulls.
HEADER_FIXED_PULL_UP = frozenset({2, 3})
I2C1_PINS = {2: "I2C1 SDA (the expanders' bus)", 3: "I2C1 SCL (the expanders' bus)"}
# MCP23017 datasheet (DS20001952C onwards): GPA7 and GPB7 are output-only.
MCP23017_OUTPUT_ONLY = frozenset({7, 15})


class _Problems:
    def __init__(self) -> None:
        self.items: list[PinMapProblem] = []

    def add(self, key: str, message: str) -> None:
        self.items.append(PinMapProblem(key, message))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _table(doc: Mapping[str, Any], name: str, out: _Problems) -> Mapping[str, Any]:
    value = doc.get(name, {})
    if not isinstance(value, Mapping):
        out.add(name, "must be a table")
        return {}
    return value


def _unknown_fields(
    entry: Mapping[str, Any], allowed: tuple[str, ...], key: str, out: _Problems
) -> None:
    for field in entry:
        if field not in allowed:
            out.add(f"{key}.{field}", f"unknown field (allowed: {', '.join(allowed)})")


def _chips(doc: Mapping[str, Any], out: _Problems) -> dict[str, Chip]:
    chips = {HEADER: Chip(HEADER, ChipType.HEADER)}
    seen_addresses: dict[tuple[int, int], str] = {}
    for name, entry in _table(doc, "chips", out).items():
        key = f"chips.{name}"
        if name == HEADER:
            out.add(key, "'header' is the Pi's own header and is always there; do not declare it")
            continue
        if not isinstance(entry, Mapping):
            out.add(key, 'must be a table like { type = "mcp23017", address = 0x20, ... }')
            continue
        _unknown_fields(entry, CHIP_FIELDS, key, out)
        if entry.get("type") != ChipType.MCP23017.value:
            out.add(f"{key}.type", f'must be "{ChipType.MCP23017.value}"')
            continue
        bus, address, interrupt = (
            entry.get("i2c_bus", 1),
            entry.get("address"),
            entry.get("interrupt"),
        )
        if not _is_int(bus) or not 0 <= bus <= 31:
            out.add(f"{key}.i2c_bus", "must be an I2C bus number 0-31")
        elif not _is_int(address) or not 0x20 <= address <= 0x27:
            out.add(f"{key}.address", "must be an MCP23017 address 0x20-0x27")
        elif not _is_int(interrupt) or not 0 <= interrupt <= 27:
            out.add(f"{key}.interrupt", "must be the header BCM pin (0-27) wired to INTA/INTB")
        else:
            other = seen_addresses.setdefault((bus, address), key)
            if other != key:
                out.add(f"{key}.address", f"bus {bus} address {address:#04x} is also {other}")
            chips[name] = Chip(name, ChipType.MCP23017, bus, address, interrupt)
    return chips


def _timing(doc: Mapping[str, Any], out: _Problems) -> Timing:
    values: dict[str, float] = {}
    for name, value in _table(doc, "timing", out).items():
        spec = TIMING_FIELDS.get(name)
        if spec is None:
            out.add(f"timing.{name}", f"unknown field{_suggest(name, list(TIMING_FIELDS))}")
            continue
        field, low, high = spec
        if not _is_int(value) or not low <= value <= high:
            out.add(f"timing.{name}", f"must be a whole number of ms, {low}-{high}")
            continue
        values[field] = value / 1000
    return Timing(**values)


class _Builder:
    def __init__(self, doc: Mapping[str, Any], out: _Problems) -> None:
        self.doc, self.out = doc, out
        self.chips = _chips(doc, out)
        self.timing = _timing(doc, out)
        self.used: dict[tuple[str, int], str] = {}
        self.reserved: dict[int, str] = dict(HEADER_RESERVED)
        for chip in self.chips.values():
            if chip.type is ChipType.MCP23017 and chip.i2c_bus == 1:
                self.reserved.update(I2C1_PINS)
        for chip in self.chips.values():
            if chip.interrupt is not None:
                self._claim(f"chips.{chip.name}.interrupt", HEADER, chip.interrupt)
        self.defaults = self._defaults()

    def _defaults(self) -> dict[str, dict[str, str]]:
        table = _table(self.doc, "defaults", self.out)
        base = {"pull": Pull.UP.value, "active": Active.LOW.value}
        groups = [g.value for g in Group]
        result: dict[str, dict[str, str]] = {}
        for field, value in table.items():
            if field in DEFAULT_FIELDS:
                if self._valid_default(f"defaults.{field}", field, value):
                    base[field] = value
            elif field not in groups:
                self.out.add(
                    f"defaults.{field}",
                    f"unknown field (allowed: pull, active, {', '.join(groups)})",
                )
        for group in groups:
            sub = table.get(group, {})
            if not isinstance(sub, Mapping):
                self.out.add(f"defaults.{group}", 'must be a table like { pull = "up" }')
                sub = {}
            _unknown_fields(sub, DEFAULT_FIELDS, f"defaults.{group}", self.out)
            result[group] = dict(base)
            for field, value in sub.items():
                if field in DEFAULT_FIELDS and self._valid_default(
                    f"defaults.{group}.{field}", field, value
                ):
                    result[group][field] = value
        return result

    def _valid_default(self, key: str, field: str, value: object) -> bool:
        allowed = [p.value for p in Pull] if field == "pull" else [a.value for a in Active]
        if value not in allowed:
            self.out.add(key, f"must be one of {', '.join(allowed)}")
            return False
        return True

    def _claim(self, key: str, chip_name: str, pin: int) -> bool:
        chip = self.chips.get(chip_name)
        if chip is None:
            known = ", ".join(self.chips)
            self.out.add(key, f"unknown chip {chip_name!r} (declared: {known})")
            return False
        label = str(pin) if chip_name == HEADER else f"{chip_name}:{pin}"
        if not 0 <= pin < chip.lines:
            self.out.add(key, f"pin {pin} is out of range for {chip_name} (0-{chip.lines - 1})")
            return False
        if chip_name == HEADER and pin in self.reserved:
            self.out.add(key, f"pin {label} is reserved for {self.reserved[pin]}")
            return False
        other = self.used.setdefault((chip_name, pin), key)
        if other != key:
            self.out.add(key, f"pin {label} is already used by {other}")
            return False
        return True

    def _place(
        self, key: str, entry: object, allowed: tuple[str, ...]
    ) -> tuple[dict[str, Any], str, int] | None:
        if _is_int(entry):
            entry = {"pin": entry}
        if not isinstance(entry, Mapping):
            self.out.add(key, "must be a pin number or a table like { pin = 17 }")
            return None
        _unknown_fields(entry, allowed, key, self.out)
        chip, pin = entry.get("chip", HEADER), entry.get("pin")
        if not isinstance(chip, str):
            self.out.add(f"{key}.chip", "must be a chip name")
            return None
        if not _is_int(pin):
            self.out.add(f"{key}.pin", "missing or not a whole number")
            return None
        if not self._claim(key, chip, pin):
            return None
        return dict(entry), chip, pin

    def input(self, group: Group, name: str, entry: object) -> InputLine | None:
        key = f"{group.value}.{name}"
        placed = self._place(key, entry, KEY_FIELDS if group is Group.KEYS else INPUT_FIELDS)
        if placed is None:
            return None
        fields, chip_name, pin = placed
        merged = {**self.defaults[group.value], **fields}
        if merged["pull"] not in [p.value for p in Pull]:
            self.out.add(f"{key}.pull", "must be one of up, down, none")
            return None
        if merged["active"] not in [a.value for a in Active]:
            self.out.add(f"{key}.active", "must be one of low, high")
            return None
        pull, active = Pull(merged["pull"]), Active(merged["active"])
        chip = self.chips[chip_name]
        ok = self._electrical(key, chip, pin, pull, active)
        default_s = {
            Group.KEYS: self.timing.key_debounce_s,
            Group.PUCK: self.timing.puck_stable_s,
            Group.OCCUPANCY: self.timing.seat_stable_s,
        }[group]
        debounce_s = self._ms(f"{key}.debounce_ms", fields.get("debounce_ms"), 0, 60_000, default_s)
        hold_s = self._ms(f"{key}.hold_ms", fields.get("hold_ms"), 100, 10_000, None)
        if debounce_s is not None and hold_s is not None and hold_s <= debounce_s:
            self.out.add(f"{key}.hold_ms", "must be longer than the debounce time")
            ok = False
        if not ok or debounce_s is None:
            return None
        return InputLine(group, name, chip_name, pin, pull, active, debounce_s, hold_s)

    def _ms(
        self, key: str, value: object, low: int, high: int, default: float | None
    ) -> float | None:
        if value is None:
            return default
        if not _is_int(value) or not low <= value <= high:
            self.out.add(key, f"must be a whole number of ms, {low}-{high}")
            return default
        return value / 1000

    def _electrical(self, key: str, chip: Chip, pin: int, pull: Pull, active: Active) -> bool:
        ok = True
        if pull is Pull.UP and active is Active.HIGH:
            self.out.add(
                key,
                'pull "up" with active "high" reads as pressed when nothing '
                'is connected: a pulled-up input is active "low"',
            )
            ok = False
        if pull is Pull.DOWN and active is Active.LOW:
            self.out.add(
                key,
                'pull "down" with active "low" reads as pressed when nothing '
                'is connected: a pulled-down input is active "high"',
            )
            ok = False
        if chip.type is ChipType.HEADER and pin in HEADER_FIXED_PULL_UP and pull is not Pull.UP:
            self.out.add(
                key, f'pin {pin} has a fixed 1.8 kOhm pull-up on the board: pull must be "up"'
            )
            ok = False
        if chip.type is ChipType.MCP23017:
            if pull is Pull.DOWN:
                self.out.add(key, f"{chip.name} is an MCP23017, which has pull-ups only")
                ok = False
            if pin in MCP23017_OUTPUT_ONLY:
                self.out.add(key, f"{chip.name}:{pin} (GPA7/GPB7) is output-only on the MCP23017")
                ok = False
        return ok

    def output(self, name: str, entry: object) -> OutputLine | None:
        key = f"outputs.{name}"
        try:
            out_name = Output(name)
        except ValueError:
            self.out.add(key, f"unknown output{_suggest(name, [o.value for o in Output])}")
            return None
        placed = self._place(key, entry, OUTPUT_FIELDS)
        if placed is None:
            return None
        fields, chip, pin = placed
        try:
            active = Active(fields.get("active", Active.HIGH.value))
        except ValueError:
            self.out.add(f"{key}.active", 'must be "low" or "high"')
            return None
        return OutputLine(out_name, chip, pin, active)


def _seats(doc: Mapping[str, Any], out: _Problems) -> int:
    seats = doc.get("seats")
    if not _is_int(seats) or not 2 <= seats <= MAX_SEATS:
        out.add("seats", f"missing or not a seat count 2-{MAX_SEATS}")
        return MAX_SEATS
    return int(seats)


def build(doc: Mapping[str, Any], source: str) -> PinMap:
    """Validate a parsed TOML document and build the pin map, or raise `PinMapError`."""
    out = _Problems()
    for name in doc:
        if name not in TOP_KEYS:
            out.add(name, f"unknown section or key{_suggest(name, list(TOP_KEYS))}")
    revision = doc.get("revision")
    if not isinstance(revision, str) or not revision:
        out.add("revision", "missing or not a string")
    description = doc.get("description", "")
    if not isinstance(description, str):
        out.add("description", "must be a string")
    seats = _seats(doc, out)
    b = _Builder(doc, out)

    required = panel_buttons(seats)
    known = list(panel_buttons(MAX_SEATS))
    keys: list[InputLine] = []
    key_table = _table(doc, "keys", out)
    for name, entry in key_table.items():
        seat = seat_of_button(name)
        if name not in known:
            out.add(f"keys.{name}", f"unknown dealer key{_suggest(name, known)}")
        elif seat is not None and seat > seats and name not in required:
            out.add(f"keys.{name}", f"seat {seat} is beyond seats = {seats}")
        elif (line := b.input(Group.KEYS, name, entry)) is not None:
            keys.append(line)
    for name in required:
        if name not in key_table:
            out.add(f"keys.{name}", "missing: the panel needs this key")

    sensors: dict[Group, list[InputLine]] = {Group.PUCK: [], Group.OCCUPANCY: []}
    for group, lines in sensors.items():
        table = _table(doc, group.value, out)
        for name, entry in table.items():
            if not name.isdigit() or not 1 <= int(name) <= seats or name != str(int(name)):
                out.add(f"{group.value}.{name}", f"not a seat number 1-{seats}")
            elif (line := b.input(group, name, entry)) is not None:
                lines.append(line)
        for seat in range(1, seats + 1):
            if str(seat) not in table:
                out.add(f"{group.value}.{seat}", "missing: every seat needs a sensor")

    outputs: list[OutputLine] = []
    out_table = _table(doc, "outputs", out)
    for name, entry in out_table.items():
        if (o := b.output(name, entry)) is not None:
            outputs.append(o)
    for output in Output:
        if output.value not in out_table:
            out.add(f"outputs.{output.value}", "missing")

    if out.items:
        raise PinMapError(source, out.items)
    return PinMap(
        source=source,
        revision=str(revision),
        seats=seats,
        description=str(description),
        chips=tuple(b.chips.values()),
        keys=tuple(keys),
        puck=tuple(sorted(sensors[Group.PUCK], key=lambda line: int(line.name))),
        occupancy=tuple(sorted(sensors[Group.OCCUPANCY], key=lambda line: int(line.name))),
        outputs=tuple(outputs),
        timing=b.timing,
    )


def parse_pinmap(text: str, source: str) -> PinMap:
    """Validate and build a pin map from TOML text; `source` names the file in messages."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(source, [PinMapProblem("toml", str(exc))]) from None
    return build(doc, source)


def load_pinmap(path: str | Path) -> PinMap:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PinMapError(str(p), [PinMapProblem("file", "not UTF-8 text")]) from None
    except OSError as exc:
        raise PinMapError(str(p), [PinMapProblem("file", f"cannot read: {exc.strerror}")]) from None
    return parse_pinmap(text, str(p))


def default_pinmap_path() -> str:
    """Where the embedded default pin map lives (a real path for a normal or editable install)."""
    return str(resources.files("hardware.pinmaps").joinpath(DEFAULT_PINMAP))


def default_pinmap() -> PinMap:
    text = resources.files("hardware.pinmaps").joinpath(DEFAULT_PINMAP).read_text("utf-8")
    return parse_pinmap(text, default_pinmap_path())
