"""The pin-map check: validate the TOML, then open every pin on mocks. Edge adapter (file, mock).

It never touches real hardware: the pins are gpiozero MockFactory pins. With a station config
and no explicit `--pinmap`, the pin map the config names is checked.

The validator (`hardware.inputs.pinmap_load`) finds the problems we know to look for; opening
every device on a MockFactory per chip catches anything gpiozero itself would refuse, before a
table ever starts with that map.
"""

from __future__ import annotations

from pathlib import Path

from hardware.inputs.exc import PinMapError
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.gpio import probe
from hardware.inputs.pinmap import PinMap
from hardware.inputs.pinmap_load import default_pinmap, load_pinmap
from station.config.checks import CheckInputs, CheckResult, Problem
from station.config.station_check import named_files


def check(inputs: CheckInputs) -> CheckResult:
    if inputs.pinmap is None and inputs.station is not None:
        named = named_files(inputs.station)
        if named.pinmap_missing is not None:
            return CheckResult("pinmap", (named.pinmap_missing,))
        return check_pinmap(named.pinmap)
    return check_pinmap(inputs.pinmap)


def check_pinmap(path: Path | None) -> CheckResult:
    try:
        pinmap: PinMap = default_pinmap() if path is None else load_pinmap(path)
    except PinMapError as exc:
        return CheckResult(
            "pinmap", tuple(Problem(exc.source, p.key, p.message) for p in exc.problems)
        )
    factories = mock_factories(pinmap)
    try:
        refused = probe(pinmap, factories)
    finally:
        close_factories(factories)
    problems = tuple(Problem(pinmap.source, p.key, p.message) for p in refused)
    return CheckResult("pinmap", problems, f"pin map {pinmap.source}: {pinmap.summary()}")
