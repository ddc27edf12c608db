"""`station.toml`: read, validate, and load with the files it names. Edge adapter (files); the
validation itself is pure.

`load_station(path)` returns the config, the pin map and the deck registry, or raises
`ConfigError` holding every problem as `FILE: KEY: reason` (unknown keys included, with a
suggestion). Nothing is opened before this has passed: `station run` exits 2 on any problem.
The format is documented in `station/config/example.toml`.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.inputs.exc import PinMapError
from hardware.inputs.pinmap import PinMap
from hardware.inputs.pinmap_load import default_pinmap, load_pinmap
from station.config.checks import Problem
from station.config.model import (
    BetZoneConfig,
    DeviceConfig,
    DisplayConfig,
    DisplayDriver,
    FleetConfig,
    GpioBackend,
    InputsConfig,
    LogLevel,
    PeopleConfig,
    ScrubConfig,
    StationConfig,
    TableConfig,
)
from station.config.registry import RegistryError, load_registry
from station.config.schema import Problems, Section, suggest
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.table_shape import TABLE_SEATS, TableKind, TableShape
from station.display.theme import Deck
from station.engine.cards import DeckRegistry, default_registry
from station.engine.events import Setup
from station.engine.games import GAMES
from station.engine.levels import KEYS as TOURNAMENT_KEYS
from station.engine.levels import Schedule, ScheduleError
from station.engine.levels import schedule_from_dict as tournament_from_dict
from station.engine.levels import schedule_to_dict as tournament_to_dict
from station.engine.profiles import PROFILES
from station.engine.rake import (
    KEYS,
    TIME_KEYS,
    RakeSchedule,
    RakeScheduleError,
    schedule_from_dict,
    schedule_to_dict,
)
from station.formats.session import MAX_SEAT, STAKE_KEYS, SessionFormatError, event_from_dict

STATION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
TOPIC_LEVEL = STATION_ID  # the fleet's site id: one MQTT topic level
MAX_CHIPS = 1_000_000_000  # a stake or a stack beyond this is a typing error, not a table
PANELS = {"10.1": PANEL_10_1, "7": PANEL_7}
PANEL_FIELDS = ("width_mm", "height_mm", "width_px", "height_px", "viewing_distance_mm")


class ConfigError(ValueError):
    """The config (or a file it names) is not valid; `problems` holds every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class LoadedConfig:
    config: StationConfig
    pinmap: PinMap
    registry: DeckRegistry


# --- reading one file -----------------------------------------------------------------------


def parse_station(data: bytes, source: Path) -> StationConfig:
    """Validate station.toml's bytes; relative paths are relative to `source`'s folder."""
    problems = Problems(str(source))
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError([Problem(str(source), "file", "not UTF-8 text")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([Problem(str(source), "toml", str(exc))]) from None
    base = source.parent
    top = Section(doc, "", problems)
    station_id = top.text("station_id", required=True)
    if station_id is not None and not STATION_ID.match(station_id):
        top.bad("station_id", f"{station_id!r}: letters, digits, '-' and '_' only (up to 32)")
    level = top.text("log_level", choices=[lv.value for lv in LogLevel], default="info")
    table = _table(top.table("table", required=True), top.table("tournament"))
    shoe = _device(top.table("shoe", required=True))
    betzones = _betzones(top.table("betzones", required=True))
    inputs = _inputs(top.table("inputs"), base)
    reg_sec = top.table("registry")
    registry = None
    if reg_sec is not None:
        registry = reg_sec.path("file", base, required=True)
        reg_sec.done()
    display = _display(top.table("display"), table.seats if table is not None else None)
    journal_sec = top.table("journal", required=True)
    journal = None
    group_read = False
    scrub = ScrubConfig()
    if journal_sec is not None:
        journal = journal_sec.path("path", base, required=True)
        group_read = journal_sec.flag("group_read", False)
        scrub = _scrub(journal_sec)
        journal_sec.done()
    people = _people(top.table("people"))
    fleet = _fleet(top.table("fleet"), base)
    if shoe and betzones and shoe.port and _same_port(shoe.port, betzones.device.port, base):
        problems.add("betzones.port", f"{betzones.device.port}: the shoe's port too")
    top.done()
    if problems or station_id is None or table is None or shoe is None or betzones is None:
        raise ConfigError(problems.items)
    assert journal is not None
    return StationConfig(
        source=source,
        sha256=hashlib.sha256(data).hexdigest(),
        station_id=station_id,
        table=table,
        shoe=shoe,
        betzones=betzones,
        inputs=inputs,
        registry=registry,
        display=display,
        journal=journal,
        log_level=LogLevel(level or "info"),
        people=people,
        journal_group_read=group_read,
        scrub=scrub,
        fleet=fleet,
    )


def _scrub(sec: Section) -> ScrubConfig:
    """`scrub_every_h` (0-744 hours, 0: no schedule), `scrub_after_upgrade`, `scrub_duty`
    (the share of the time the scrub may work, more than 0 and at most 1)."""
    default = ScrubConfig()
    every = sec.integer("scrub_every_h", low=0, high=744)
    duty = sec.number("scrub_duty", low=0.0)
    if duty is not None and duty > 1:
        sec.bad("scrub_duty", f"must be at most 1 (all of the time), not {duty}")
        duty = None
    return ScrubConfig(
        every_h=default.every_h if every is None else every,
        after_upgrade=sec.flag("scrub_after_upgrade", default.after_upgrade),
        duty=default.duty if duty is None else duty,
    )


def _seat_list(sec: Section) -> tuple[int, ...] | None:
    raw = sec.raw("seats")
    if raw is None:
        sec.bad("seats", "missing (required): the seat numbers in play, e.g. [1, 2, 3, 4]")
        return None
    ok = isinstance(raw, list) and all(
        isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= MAX_SEAT for s in raw
    )
    if not ok:
        sec.bad("seats", f"must be a list of seat numbers 1-{MAX_SEAT}, not {raw!r}")
        return None
    if len(set(raw)) != len(raw):
        sec.bad("seats", "a seat is listed twice")
        return None
    if len(raw) < 2:
        sec.bad("seats", "a table needs at least two seats")
        return None
    return tuple(sorted(raw))


def _table(sec: Section | None, tourn_sec: Section | None) -> TableConfig | None:
    if sec is None:
        if tourn_sec is not None:
            tourn_sec.done()
        return None
    before = len(sec.problems.items)
    game = sec.text("game", required=True, choices=list(GAMES))
    profile = sec.text("profile", choices=list(PROFILES), default="RR11")
    seats = _seat_list(sec)
    button = sec.integer("button", low=1, high=MAX_SEAT)
    deck = sec.text("deck")
    if button is not None and seats is not None and button not in seats:
        sec.bad("button", f"seat {button} is not one of the seats in play ({_seat_text(seats)})")
        button = None
    tournament = _tournament(tourn_sec, game) if game is not None else None
    stakes: dict[str, int] = {}
    stakes_sec = sec.table("stakes", required=tourn_sec is None)
    if stakes_sec is not None and tourn_sec is not None:
        sec.bad("stakes", "a tournament table takes its stakes from [tournament] levels")
    if stakes_sec is not None:
        for name in STAKE_KEYS:
            value = stakes_sec.integer(name, low=0, high=MAX_CHIPS)
            if value is not None:
                stakes[name] = value
        for low, high in (("sb", "bb"), ("small_bet", "big_bet")):
            if low in stakes and high in stakes and stakes[low] > stakes[high]:
                stakes_sec.bad(low, f"{stakes[low]} is more than {high} ({stakes[high]})")
        stakes_sec.done()
    stacks: dict[int, int] = {}
    stacks_sec = sec.table("stacks")
    if stacks_sec is not None:
        for name in list(stacks_sec.doc):
            value = stacks_sec.integer(name, low=0, high=MAX_CHIPS)
            if not _seat_name(name) or seats is None or int(name) not in seats:
                stacks_sec.bad(name, "not one of the table's seats")
            elif value is not None:
                stacks[int(name)] = value
    rules_sec = sec.table("rules")
    rules: dict[str, Any] = dict(rules_sec.doc) if rules_sec is not None else {}
    if rules_sec is not None:
        for name in rules:
            rules_sec.has(name)
    rake = _rake(sec)
    sec.done()
    if game is None or profile is None or seats is None or len(sec.problems.items) > before:
        return None
    if tourn_sec is not None and tournament is None:
        return None
    setup: dict[str, Any] = {
        "type": "setup",
        "game": game,
        "profile": profile,
        "seats": {str(s): stacks.get(s) for s in seats},
        "rules": rules,
    }
    if tournament is not None:
        setup["tournament"] = tournament_to_dict(tournament)
    else:
        setup["stakes"] = stakes
    if button is not None:
        setup["button"] = button
    if deck is not None:
        setup["deck"] = deck
    if rake is not None:
        setup["rake"] = schedule_to_dict(rake)
    try:
        _, event = event_from_dict(setup)
    except SessionFormatError as exc:
        message = exc.problems[0]
        key = "table.stakes" if "stake" in message else "table.rules" if "rule" in message else ""
        sec.problems.add(key or "table", message)
        return None
    assert isinstance(event, Setup)
    return TableConfig(
        game, profile, event.stakes, seats, stacks, button, deck, rules, rake, tournament
    )


def _tournament(sec: Section | None, game: str) -> Schedule | None:
    """`[tournament]`: the structure and where its clock starts (`station.engine.levels`): the
    keys of a session's `"tournament"` but `start_t` (the clock starts when the station applies
    the table)."""
    if sec is None:
        return None
    for name in sec.doc:
        sec.has(name)  # the structure's own reader names unknown keys
    if "start_t" in sec.doc:
        sec.problems.add("tournament.start_t", "the clock starts when the station applies it")
        return None
    try:
        return tournament_from_dict(sec.doc, game)
    except ScheduleError as exc:
        key = exc.key.split(".")[-1].split("[")[0]
        hint = (
            suggest(key, TOURNAMENT_KEYS)
            if exc.message.startswith("unknown key") and "." not in exc.key
            else ""
        )
        sec.problems.add(f"tournament.{exc.key}" if exc.key else "tournament", exc.message + hint)
        return None


def _rake(sec: Section) -> RakeSchedule | None:
    """`[table.rake]`: the house's rake or time collection (`station.engine.rake`)."""
    rake_sec = sec.table("rake")
    if rake_sec is None:
        return None
    for name in rake_sec.doc:
        rake_sec.has(name)  # the schedule's own reader names unknown keys
    try:
        return schedule_from_dict(rake_sec.doc)
    except RakeScheduleError as exc:
        key = exc.key.split(".")[-1]
        known = TIME_KEYS if exc.key.startswith("rake.time.") else KEYS
        hint = suggest(key, known) if exc.message.startswith("unknown key") else ""
        sec.problems.add(f"table.{exc.key}", exc.message + hint)
        return None


def _seat_name(name: str) -> bool:
    """A seat number as a TOML key: ASCII digits only (an Arabic-Indic one is not seat 1)."""
    return name.isascii() and name.isdecimal()


def _seat_text(seats: tuple[int, ...]) -> str:
    return ", ".join(map(str, seats))


def _device(sec: Section | None) -> DeviceConfig | None:
    if sec is None:
        return None
    enabled = sec.flag("enabled", True)
    port = sec.text("port", required=enabled)
    baud = sec.integer("baudrate", low=1200, high=4_000_000)
    sec.done()
    return DeviceConfig(port if enabled else None, baud or 115200)


def _betzones(sec: Section | None) -> BetZoneConfig | None:
    if sec is None:
        return None
    settle = sec.integer("settle_ms", low=10, high=5000)
    unstable = sec.integer("unstable_ms", low=100, high=60000)
    device = _device(sec)  # reads port, enabled, baudrate and reports the rest as unknown
    if device is None:
        return None
    settle_s = (settle if settle is not None else 400) / 1000
    unstable_s = (unstable if unstable is not None else 3000) / 1000
    if unstable_s <= settle_s:
        sec.bad("unstable_ms", "must be longer than settle_ms")
    return BetZoneConfig(device, settle_s, unstable_s)


def _inputs(sec: Section | None, base: Path) -> InputsConfig:
    if sec is None:
        return InputsConfig()
    backend = sec.text("backend", choices=[b.value for b in GpioBackend], default="lgpio")
    pinmap = sec.path("pinmap", base)
    sec.done()
    return InputsConfig(GpioBackend(backend or "lgpio"), pinmap)


def _display(sec: Section | None, seats: tuple[int, ...] | None) -> DisplayConfig:
    count = max(2, *(seats or ()), 2)
    if sec is None:
        return DisplayConfig(table=TableShape(seats=min(count, TABLE_SEATS)))
    driver = sec.text("driver", choices=[d.value for d in DisplayDriver], default="kmsdrm")
    panel = PANEL_10_1
    if sec.has("panel"):
        raw = sec.doc["panel"]
        if isinstance(raw, str):
            chosen = sec.text("panel", choices=list(PANELS))
            panel = PANELS.get(chosen or "", PANEL_10_1)
        else:
            custom = sec.table("panel")
            if custom is not None:
                panel = _panel(custom) or PANEL_10_1
    deck = sec.text("deck", choices=[d.value for d in Deck], default=Deck.FOUR_COLOUR.value)
    kind = sec.text("table", choices=[k.value for k in TableKind], default="oval")
    positions: dict[int, float] = {}
    places = sec.table("seat_positions")
    if places is not None:
        for name in list(places.doc):
            deg = places.number(name)
            if not _seat_name(name) or (seats is not None and int(name) not in seats):
                places.bad(name, "not one of the table's seats")
            elif deg is not None and not deg < 360:
                places.bad(name, f"must be less than 360 degrees, not {deg:g}")
            elif deg is not None:
                positions[int(name)] = deg
    sec.done()
    shape = TableShape(TableKind(kind or "oval"), min(count, TABLE_SEATS), positions)
    return DisplayConfig(
        DisplayDriver(driver or "kmsdrm"), panel, shape, Deck(deck or Deck.FOUR_COLOUR.value)
    )


def _panel(sec: Section) -> PanelConfig | None:
    values = {name: sec.number(name) for name in PANEL_FIELDS}
    sec.done()
    if any(values[name] is None for name in PANEL_FIELDS[:4]):
        for name in PANEL_FIELDS[:4]:
            if name not in sec.doc:
                sec.bad(name, "missing (required for a custom panel)")
        return None
    w_mm, h_mm, w_px, h_px, dist = (values[n] or 0.0 for n in PANEL_FIELDS)
    return PanelConfig(w_mm, h_mm, int(w_px), int(h_px), dist or 800.0, name="custom")


def _people(sec: Section | None) -> PeopleConfig:
    if sec is None:
        return PeopleConfig()
    floor = sec.text("floor_pad")
    tech = sec.text("tech_pad")
    sec.done()
    return PeopleConfig(floor, tech)


def _fleet(sec: Section | None, base: Path) -> FleetConfig | None:
    if sec is None:
        return None
    site = sec.text("site", required=True)
    if site is not None and not TOPIC_LEVEL.match(site):
        sec.bad("site", f"{site!r}: letters, digits, '-' and '_' only (up to 32)")
        site = None
    broker = sec.text("broker", required=True)
    host, port = None, None
    if broker is not None:
        host, _, port_text = broker.rpartition(":")
        if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            sec.bad("broker", f"{broker!r}: HOST:PORT, e.g. mqtt.casino.lan:8883")
            host = None
        else:
            port = int(port_text)
    files = {name: sec.path(name, base, required=True) for name in ("ca", "cert", "key")}
    for name, file in files.items():
        if file is not None and not file.is_file():
            sec.bad(name, f"no such file: {file}")
    window = sec.integer("window", low=1, high=100_000) or 1000
    batch = sec.integer("batch", low=1, high=1000) or 100
    resend_s = sec.number("resend_s") or 5.0
    keepalive = sec.integer("keepalive_s", low=5, high=3600) or 30
    sec.done()
    ca, cert, key = files["ca"], files["cert"], files["key"]
    if site is None or host is None or port is None or ca is None or cert is None or key is None:
        return None
    return FleetConfig(site, host, port, ca, cert, key, window, batch, resend_s, keepalive)


def _same_port(a: str, b: str | None, base: Path) -> bool:
    """Two device names for one port (a udev link and its target count as one)."""
    if b is None:
        return False
    if a == b:
        return True
    try:
        return (base / a).resolve() == (base / b).resolve()
    except OSError:
        return False


# --- the config and the files it names --------------------------------------------------------


def journal_problems(config: StationConfig) -> list[Problem]:
    """Where the journal is to live: a file (or nothing yet) in a folder that exists and the
    station may write. The station never creates the folder (under systemd it is the unit's
    StateDirectory, owned by the station's user): a wrong path is a config problem, not a
    folder made by root or a restart loop."""
    path = config.journal
    src, key = str(config.source), "journal.path"
    folder = path.parent
    if path.is_dir():
        return [Problem(src, key, f"{path} is a folder, not a journal file")]
    if path.exists() and not path.is_file():
        return [Problem(src, key, f"{path} is not a regular file")]
    if not folder.exists():
        return [
            Problem(
                src,
                key,
                f"the folder {folder} does not exist (create it for the station's user; the "
                "station does not create it)",
            )
        ]
    if not folder.is_dir():
        return [Problem(src, key, f"{folder} is not a folder")]
    if not os.access(folder, os.W_OK | os.X_OK):
        return [Problem(src, key, f"cannot write in {folder} (as this user)")]
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return [Problem(src, key, f"cannot read and write {path} (as this user)")]
    return []


def load_station(path: str | Path, *, pinmap_override: Path | None = None) -> LoadedConfig:
    """Validate station.toml, the pin map and the deck registry it names, and check them
    against each other. Raises ConfigError with every problem of every file."""
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise ConfigError([Problem(str(source), "file", f"cannot read: {exc.strerror}")]) from None
    config = parse_station(data, source)
    problems: list[Problem] = journal_problems(config)
    pinmap = _pinmap(config, pinmap_override, problems)
    registry = _registry(config, problems)
    if pinmap is not None:
        beyond = [s for s in config.table.seats if s > pinmap.seats]
        if beyond:
            problems.append(
                Problem(
                    str(source),
                    "table.seats",
                    f"seat {beyond[0]} is not on the {pinmap.seats}-seat pin map {pinmap.source}",
                )
            )
    deck = config.table.deck
    if registry is not None and deck is not None and deck not in registry.backs():
        problems.append(
            Problem(
                str(source),
                "table.deck",
                f"no enrolled deck has the back {deck!r} (backs: {', '.join(registry.backs())})",
            )
        )
    if problems or pinmap is None or registry is None:
        raise ConfigError(problems)
    return LoadedConfig(config, pinmap, registry)


def _pinmap(config: StationConfig, override: Path | None, out: list[Problem]) -> PinMap | None:
    path = override if override is not None else config.inputs.pinmap
    if path is None:
        return default_pinmap()
    if not path.is_file():
        out.append(Problem(str(config.source), "inputs.pinmap", f"no such file: {path}"))
        return None
    try:
        return load_pinmap(path)
    except PinMapError as exc:
        out.extend(Problem(exc.source, p.key, p.message) for p in exc.problems)
        return None


def _registry(config: StationConfig, out: list[Problem]) -> DeckRegistry | None:
    path = config.registry_in_use
    if path is None:
        return default_registry()
    if not path.is_file():
        out.append(Problem(str(config.source), "registry.file", f"no such file: {path}"))
        return None
    try:
        return load_registry(path)
    except RegistryError as exc:
        out.extend(exc.problems)
        return None
