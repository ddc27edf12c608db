"""The pin-map check: validate the TOML, then open every pin on mocks. Edge adapter (file, mock).

It never touches real hardware: the pins are gpiozero MockFactory pins.

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


def check(inputs: CheckInputs) -> CheckResult:
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
