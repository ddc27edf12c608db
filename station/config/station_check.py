"""The station.toml and deck-registry checks of `station config check`. Edge adapter (files).

`check_station` validates station.toml and checks it against the pin map and registry it names
(seats on the panel, the deck's back enrolled); `check_registry` validates the registry file.
The pin map itself is checked by `pinmap_check`, which asks `named_files` which one the config
names. Each file's own problems are reported once, by the check of that file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hardware.inputs.exc import PinMapError
from hardware.inputs.pinmap import PinMap
from hardware.inputs.pinmap_load import default_pinmap, load_pinmap
from station.config.checks import CheckInputs, CheckResult, Problem
from station.config.model import StationConfig
from station.config.registry import RegistryError, describe, load_registry
from station.config.station_toml import ConfigError, journal_problems, parse_station
from station.engine.cards import DeckRegistry, default_registry
from station.engine.rake import describe as describe_rake


@dataclass(frozen=True, slots=True)
class NamedFiles:
    config: StationConfig | None  # None when station.toml itself is not valid
    problems: tuple[Problem, ...]
    pinmap: Path | None
    registry: Path | None
    pinmap_missing: Problem | None = None
    registry_missing: Problem | None = None


def named_files(path: Path) -> NamedFiles:
    """Read station.toml once and say which pin map and registry it names."""
    try:
        config = parse_station(path.read_bytes(), path)
    except OSError as exc:
        return NamedFiles(
            None, (Problem(str(path), "file", f"cannot read: {exc.strerror}"),), None, None
        )
    except ConfigError as exc:
        return NamedFiles(None, tuple(exc.problems), None, None)
    pin = config.inputs.pinmap
    reg = config.registry_in_use
    pin_missing = None
    if pin is not None and not pin.is_file():
        pin_missing = Problem(str(path), "inputs.pinmap", f"no such file: {pin}")
    reg_missing = None
    if reg is not None and not reg.is_file():
        reg_missing = Problem(str(path), "registry.file", f"no such file: {reg}")
    return NamedFiles(config, (), pin, reg, pin_missing, reg_missing)


def _summary(config: StationConfig) -> str:
    t = config.table
    shoe = config.shoe.port or "no shoe"
    zones = config.betzones.device.port or "no bet zones"
    rake = f", {describe_rake(t.rake)}" if t.rake is not None else ""
    return (
        f"station config {config.source}: station {config.station_id}, {t.game} {t.profile}, "
        f"{len(t.seats)} seats{rake}; shoe {shoe}, bet zones {zones}; inputs "
        f"{config.inputs.backend}; display {config.display.driver}; journal {config.journal}"
    )


def check_station(inputs: CheckInputs) -> CheckResult:
    if inputs.station is None:
        return CheckResult("station")
    named = named_files(inputs.station)
    config = named.config
    if config is None:
        return CheckResult("station", named.problems)
    problems: list[Problem] = journal_problems(config)
    pinmap = _quiet_pinmap(inputs.pinmap if inputs.pinmap is not None else named.pinmap)
    if pinmap is not None:
        beyond = [s for s in config.table.seats if s > pinmap.seats]
        if beyond:
            problems.append(
                Problem(
                    str(config.source),
                    "table.seats",
                    f"seat {beyond[0]} is not on the {pinmap.seats}-seat pin map {pinmap.source}",
                )
            )
    registry = _quiet_registry(named.registry)
    deck = config.table.deck
    if registry is not None and deck is not None and deck not in registry.backs():
        problems.append(
            Problem(
                str(config.source),
                "table.deck",
                f"no enrolled deck has the back {deck!r} (backs: {', '.join(registry.backs())})",
            )
        )
    return CheckResult("station", tuple(problems), _summary(config))


def check_registry(inputs: CheckInputs) -> CheckResult:
    path = None
    if inputs.station is not None:
        named = named_files(inputs.station)
        if named.registry_missing is not None:
            return CheckResult("registry", (named.registry_missing,))
        path = named.registry
    if path is None:
        return CheckResult(
            "registry", (), f"deck registry (embedded): {describe(default_registry())}"
        )
    try:
        registry = load_registry(path)
    except RegistryError as exc:
        return CheckResult("registry", tuple(exc.problems))
    return CheckResult("registry", (), f"deck registry {path}: {describe(registry)}")


def _quiet_pinmap(path: Path | None) -> PinMap | None:
    """The pin map for cross-checks; its own problems are the pin-map check's to report."""
    try:
        return default_pinmap() if path is None else load_pinmap(path)
    except PinMapError:
        return None


def _quiet_registry(path: Path | None) -> DeckRegistry | None:
    try:
        return default_registry() if path is None else load_registry(path)
    except RegistryError:
        return None
