"""Fixtures for the table-input tests: a fake clock, MockFactory pins per chip, the revision A
pin map, and `TableInputs` wired to them (closed after each test)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

import pytest

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.events import TableInputEvent
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.gpio import PinFactory
from hardware.inputs.pinmap import PinMap
from hardware.inputs.pinmap_load import default_pinmap, parse_pinmap
from hardware.inputs.table import TableInputs

START_AT = 1000.0


def rev_a_text() -> str:
    return resources.files("hardware.pinmaps").joinpath("rev-a.toml").read_text("utf-8")


def variant(*edits: tuple[str, str], name: str = "variant.toml") -> PinMap:
    """Revision A with text replaced, e.g. `("FOLD = 17", "FOLD = { pin = 17, hold_ms = 900 }")`."""
    text = rev_a_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return parse_pinmap(text, name)


@dataclass
class Rig:
    """A table on mock pins: the emulator drives the pins, `TableInputs` reads them."""

    clock: FakeClock
    factories: dict[str, PinFactory]
    emu: InputEmulator
    table: TableInputs
    start_events: list[TableInputEvent]

    def pin(self, path: str) -> object:
        line = self.table.pinmap.input(path)
        return self.factories[line.chip].pin(line.pin)

    def run_until(self, at: float) -> list[TableInputEvent]:
        """Drive every scheduled edge due by `at` (moving the clock to each), then poll."""
        self.emu.run_until(at, self.clock.set)
        return self.table.poll()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START_AT)


@pytest.fixture
def make_rig(clock: FakeClock) -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(pinmap: PinMap | None = None) -> Rig:
        pm = pinmap or default_pinmap()
        factories = mock_factories(pm)
        emu = InputEmulator(pm, factories)
        emu.idle()  # switches and sensors at rest before the table opens them
        table = TableInputs(pm, factories, clock)
        rig = Rig(clock, factories, emu, table, table.start())
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.table.close()
        close_factories(rig.factories)


@pytest.fixture
def rig(make_rig: Callable[..., Rig]) -> Rig:
    return make_rig()
