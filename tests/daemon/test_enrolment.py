"""Enrolling a deck on the DIAG screen updates the registry the station reads (the configured
file, or decks.toml beside the journal when the config names none), validated and written
atomically; no side file to merge by hand."""

from __future__ import annotations

from pathlib import Path

from station.config.model import PeopleConfig
from station.config.station_toml import load_station
from station.daemon.display_requests import DisplayCommands
from station.daemon.operations import StationOps
from station.display.nav import SaveDeckRegistry
from station.display.pinpad import PadAccess
from station.engine.cards import STANDARD_DECK
from station.journal import Journal, Recorder
from station.journal.clock import ManualClock

from .conftest import write_config

RED = '[[deck]]\nid = "red-1"\nback = "red"\nemulated = true\n'


def _scan(first_byte: int) -> tuple[tuple[str, str], ...]:
    """A new deck as the shoe scanned it: 52 tags, each paired with its card."""
    return tuple((f"{first_byte:02X}{i:012X}", card.code) for i, card in enumerate(STANDARD_DECK))


def _commands(journal: Journal, registry: Path, back: str) -> DisplayCommands:
    recorder = Recorder(journal)
    recorder.recover()
    return DisplayCommands(
        StationOps(recorder), PeopleConfig(), registry_file=registry, deck_back=back
    )


def test_an_enrolled_deck_goes_into_the_configured_registry(tmp_path: Path) -> None:
    registry = tmp_path / "decks.toml"
    registry.write_text(RED, encoding="utf-8")
    config = write_config(tmp_path, extra='\n[registry]\nfile = "decks.toml"\n')
    with Journal.open(
        tmp_path / "j.sqlite", clock=ManualClock(), station_id="T07", create=True
    ) as j:
        commands = _commands(j, registry, "red")
        commands.handle(SaveDeckRegistry("new deck", _scan(0x04), PadAccess.TECHNICIAN))
        assert (tmp_path / "decks.toml.bak").read_text(encoding="utf-8") == RED
        loaded = load_station(config)
        decks = {d.deck_id: d for d in loaded.registry.decks}
        assert set(decks) == {"red-1", "red-2"}  # "new deck" is no id: the next free one
        assert decks["red-2"].back == "red"
        assert len(decks["red-2"].tags) == 52
        found = loaded.registry.lookup(f"04{51:012X}")  # the scan's last tag
        assert found is not None and found.card == STANDARD_DECK[51]
        # Enrolled again under its id: replaced, not doubled.
        commands.handle(SaveDeckRegistry("red-2", _scan(0x05), PadAccess.TECHNICIAN))
        again = {d.deck_id: d for d in load_station(config).registry.decks}
        assert set(again) == {"red-1", "red-2"}
        assert all(tag.startswith("05") for tag in again["red-2"].tags)
        # A deck whose tags another deck holds is refused: the file stays as it was.
        before = registry.read_text(encoding="utf-8")
        commands.handle(SaveDeckRegistry("blue-9", _scan(0x05), PadAccess.TECHNICIAN))
        assert registry.read_text(encoding="utf-8") == before
    assert not list(tmp_path.glob(".decks.toml.tmp")) and not list(tmp_path.glob("enrolled-*"))


def test_without_a_registry_in_the_config_the_deck_goes_beside_the_journal(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path)
    loaded = load_station(config)
    assert loaded.config.registry is None
    assert {d.deck_id for d in loaded.registry.decks} == {"blue-1", "red-1"}  # embedded
    target = loaded.config.enrolled_registry
    assert target == tmp_path / "decks.toml"
    with Journal.open(
        tmp_path / "journal.sqlite", clock=ManualClock(), station_id="T07", create=True
    ) as j:
        _commands(j, target, "blue").handle(
            SaveDeckRegistry("blue-7", _scan(0x04), PadAccess.TECHNICIAN)
        )
    reloaded = load_station(config)
    assert reloaded.config.registry_in_use == target
    assert [d.deck_id for d in reloaded.registry.decks] == ["blue-7"]
