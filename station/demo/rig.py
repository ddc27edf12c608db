"""The emulated table: the shoe and the bet-zone board behind real ptys under stable names, the
key panel and sensors on mock pins, and a station config in a folder that `station run` itself
would accept. Edge adapter (ptys, threads, files).

The daemon runs on this exactly as on a table: it opens the ptys with pyserial through the
same link code, reads the mock pins through the same `TableInputs`, and journals to SQLite in
the folder. Only the mock pin factories are shared with the emulated panel (that is what a
mock pin is), handed to the daemon as an override.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from hardware.emulator.shoe import EmulatedShoe
from hardware.emulator.zones import EmulatedBetZones
from hardware.firmware.zones import STABLE_MS
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.gpio import PinFactory
from hardware.inputs.pinmap import InputLine, PinMap
from station.config.station_toml import LoadedConfig, load_station
from station.demo.steps import MAIN_DECK, SPARE_DECK
from station.engine.events import Setup
from station.engine.rake import schedule_to_dict
from station.journal import ActorRole, Journal, SystemClock
from station.people.exc import WeakPinError
from station.people.pins import check_pin_policy
from station.people.staff import add_person, authenticate

SHOE_SERIAL = "SHOE-DEMO1"
ZONES_SERIAL = "ZONES-DEMO1"
STATION_ID = "DEMO"
# The first line of every station.toml a rig writes: a folder whose station.toml does not start
# with it is not an emulated table's, and `station run --emulate` leaves it alone.
MARKER = "# an emulated table (station demo / station run --emulate): written at each start"
FLOOR_NAME = "floor1"
DEALER_NAME = "dealer1"
ADMIN_NAME = "admin"


@dataclass(frozen=True, slots=True)
class FleetLink:
    """The table's `[fleet]` section: it forwards its journal to a site's centre."""

    site: str
    broker: str  # host:port
    ca: Path
    cert: Path
    key: Path


@dataclass(frozen=True, slots=True)
class RigOptions:
    settle_ms: int = 40  # the emulated board reads clean totals: a short settle keeps it brisk
    display: str = "none"  # the daemon's own display: none (headless) or auto (a window)
    # Time compression for long benches: the hardware's waits (the board's stable window, the
    # host's settle, key debounce and puck stability) times this; 1 is the table's own timing.
    time_scale: float = 1.0
    station_id: str = STATION_ID
    fleet: FleetLink | None = None

    def scaled_ms(self, ms: int, low: int = 1) -> int:
        return max(low, round(ms * self.time_scale))


def registry_toml() -> str:
    """The embedded decks plus the house's spare blue deck, in the registry file format."""
    decks = ((MAIN_DECK, "blue"), ("red-1", "red"), (SPARE_DECK, "blue"))
    return "".join(
        f'[[deck]]\nid = "{deck}"\nback = "{back}"\nemulated = true\n\n' for deck, back in decks
    )


def _toml_value(value: object) -> str:
    return json.dumps(value)  # TOML strings, ints and lists of ints read the same


def _toml_table(name: str, values: Mapping[str, object]) -> list[str]:
    """A TOML table of scalars, inline tables of scalars, and sub-tables (the rake schedule)."""
    lines, subs = [f"[{name}]"], []
    for key, value in values.items():
        if isinstance(value, Mapping) and key == "time":
            subs += _toml_table(f"{name}.{key}", value)
        elif isinstance(value, Mapping):
            inner = ", ".join(f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items())
            lines.append(f"{key} = {{ {inner} }}")
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    return lines + subs


def station_toml(folder: Path, setup: Setup, options: RigOptions) -> str:
    stakes = {k: getattr(setup.stakes, k) for k in ("sb", "bb", "ante", "straddle")}
    lines = [
        MARKER,
        f'station_id = "{options.station_id}"',
        'log_level = "warning"',
        "",
        "[table]",
        f'game = "{setup.game}"',
        f'profile = "{setup.profile}"',
        f"seats = {_toml_value(sorted(setup.seats))}",
    ]
    if setup.button is not None:
        lines.append(f"button = {setup.button}")
    lines.append("[table.stakes]")
    lines += [f"{k} = {v}" for k, v in stakes.items() if v is not None]
    lines.append("[table.stacks]")
    lines += [f'"{s}" = {v}' for s, v in sorted(setup.seats.items()) if v is not None]
    if setup.rake is not None:
        lines += _toml_table("table.rake", schedule_to_dict(setup.rake))
    lines += [
        "",
        "[shoe]",
        f"port = {_toml_value(str(folder / 'shoe'))}",
        "[betzones]",
        f"port = {_toml_value(str(folder / 'betzones'))}",
        f"settle_ms = {options.scaled_ms(options.settle_ms, low=10)}",
        "[inputs]",
        'backend = "mock"',
        "[registry]",
        'file = "decks.toml"',
        "[display]",
        f'driver = "{options.display}"',
        "[journal]",
        'path = "journal.sqlite"',
        "[people]",
        f'floor_pad = "{FLOOR_NAME}"',
    ]
    if options.fleet is not None:
        f = options.fleet
        lines += [
            "[fleet]",
            f"site = {_toml_value(f.site)}",
            f"broker = {_toml_value(f.broker)}",
            f"ca = {_toml_value(str(f.ca))}",
            f"cert = {_toml_value(str(f.cert))}",
            f"key = {_toml_value(str(f.key))}",
        ]
    return "\n".join(lines) + "\n"


@dataclass
class Rig:
    """The emulated table in `folder`; `start()` plugs the devices in, `stop()` unplugs them."""

    folder: Path
    setup: Setup
    options: RigOptions = field(default_factory=RigOptions)

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "decks.toml").write_text(registry_toml(), encoding="utf-8")
        self.config_path = self.folder / "station.toml"
        self.config_path.write_text(
            station_toml(self.folder, self.setup, self.options), encoding="utf-8"
        )
        self.loaded: LoadedConfig = load_station(self.config_path)
        if self.options.time_scale != 1.0:
            pinmap = scaled_pinmap(self.loaded.pinmap, self.options.time_scale)
            self.loaded = replace(self.loaded, pinmap=pinmap)
        self.shoe = EmulatedShoe(self.folder / "shoe", serial=SHOE_SERIAL)
        self.zones = EmulatedBetZones(
            self.folder / "betzones",
            serial=ZONES_SERIAL,
            stable_ms=self.options.scaled_ms(STABLE_MS),
            rake_zone=setup_has_rake(self.setup),
        )
        self.factories: Mapping[str, PinFactory] = {}
        self.panel: InputEmulator | None = None
        self.floor_pin = ""  # the emulated floor supervisor's; printed as demo credentials
        self.admin_pin = ""
        self.dealer_pin = ""  # the emulated dealer's, who signs in on the dealer screen

    def start(self) -> None:
        self.shoe.start()
        self.zones.start()
        self.factories = mock_factories(self.loaded.pinmap)
        self.panel = InputEmulator(self.loaded.pinmap, self.factories)
        self.panel.idle()

    def enrol_people(self) -> None:
        """An admin, a floor supervisor and a dealer with fresh random PINs, printed by the demo
        so that whoever runs it can sign in (floor screen, dealer sign-in, `station incidents
        rule`, `journal export`): a demo table's credentials, new with each demo journal."""
        journal = Journal.open(
            self.loaded.config.journal,
            clock=SystemClock(),
            station_id=self.options.station_id,
            create=True,
        )
        try:
            self.admin_pin, self.floor_pin = _pin(), _pin()
            add_person(journal, ADMIN_NAME, ActorRole.ADMIN, self.admin_pin, by=None)
            admin = authenticate(journal, ADMIN_NAME, self.admin_pin, purpose="enrol the floor")
            add_person(journal, FLOOR_NAME, ActorRole.FLOOR, self.floor_pin, by=admin)
            self.dealer_pin = _pin()
            add_person(journal, DEALER_NAME, ActorRole.DEALER, self.dealer_pin, by=admin)
        finally:
            journal.close()

    def stop(self) -> None:
        self.shoe.stop()
        self.zones.stop()
        close_factories(self.factories)
        self.factories = {}


def setup_has_rake(setup: Setup) -> bool:
    """A table with a rake schedule gets a board with a rake (drop) zone."""
    return setup.rake is not None


def scaled_pinmap(pinmap: PinMap, scale: float) -> PinMap:
    """The pin map with each input's debounce (keys, puck, seat sensors) times `scale`; a long
    press's threshold stays as it is."""
    timing = replace(
        pinmap.timing,
        key_debounce_s=pinmap.timing.key_debounce_s * scale,
        puck_stable_s=pinmap.timing.puck_stable_s * scale,
        seat_stable_s=pinmap.timing.seat_stable_s * scale,
    )

    def lines(group: tuple[InputLine, ...]) -> tuple[InputLine, ...]:
        return tuple(replace(line, debounce_s=line.debounce_s * scale) for line in group)

    return replace(
        pinmap,
        keys=lines(pinmap.keys),
        puck=lines(pinmap.puck),
        occupancy=lines(pinmap.occupancy),
        timing=timing,
    )


def _pin() -> str:
    """A random 8-digit PIN the policy accepts."""
    while True:
        pin = "".join(secrets.choice("0123456789") for _ in range(8))
        try:
            check_pin_policy(pin)
        except WeakPinError:
            continue
        return pin
