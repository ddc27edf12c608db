"""The core without serial devices: a panel key on mock pins becomes a journaled input, CALL
FLOOR lights its LED pattern until a floor PIN clears it (through the same queue the display's
PIN pad uses), and nothing secret reaches the log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hardware.inputs.clock import FakeClock
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap_load import default_pinmap
from hardware.inputs.signals import Signal
from station.daemon.daemon import Overrides
from station.daemon.items import DisplayCommand, PinCheck, Reply
from station.daemon.news import OpsNews, PanelNews, Recorded
from station.daemon.sink import NullSink
from station.demo.dealer import Watcher
from station.display.nav import ClearFloorCall, SignedIn
from station.display.pinpad import PadAccess
from station.engine.events import Key, KeyPress
from station.journal import ActorRole, Code, Journal, SystemClock
from station.people.staff import add_person, authenticate
from tests.daemon.conftest import Running, start_daemon, write_config

ADMIN_PIN, FLOOR_PIN = "48151623", "27093614"
START_AT = 1000.0


def _enrol(journal_path: Path) -> None:
    journal = Journal.open(journal_path, clock=SystemClock(), station_id="T07", create=True)
    try:
        add_person(journal, "boss", ActorRole.ADMIN, ADMIN_PIN, by=None)
        admin = authenticate(journal, "boss", ADMIN_PIN, purpose="test")
        add_person(journal, "flo", ActorRole.FLOOR, FLOOR_PIN, by=admin)
    finally:
        journal.close()


def test_call_floor_from_the_panel_is_cleared_only_by_a_floor_pin(
    tmp_path: Path, daemons: list[Running], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    config = write_config(tmp_path)
    _enrol(tmp_path / "journal.sqlite")
    pinmap = default_pinmap()
    factories = mock_factories(pinmap)
    panel = InputEmulator(pinmap, factories)
    panel.idle()
    watcher, sink = Watcher(), NullSink()
    try:
        clock = FakeClock(START_AT)  # time moves only when the test presses a key
        running = start_daemon(
            config,
            Overrides(
                factories=factories, display=sink, observers=[watcher], environ={}, clock=clock
            ),
        )
        daemons.append(running)
        core = running.daemon.core
        assert core is not None

        panel.press("FLOOR", START_AT + 1.0, 0.05)
        panel.run_until(START_AT + 1.5, clock.set)
        watcher.wait(
            0,
            lambda news: next(
                (i for i, n in enumerate(news) if isinstance(n, Recorded)
                 and n.event == KeyPress(Key.FLOOR)), None,
            ),
            5.0,
        )  # fmt: skip
        assert sink.snapshot.floor_call
        assert core.signals is not None and Signal.CALL_FLOOR in core.signals.playing()

        wrong = Reply()
        running.daemon.inbox.put(PinCheck(PadAccess.FLOOR, "11223344", wrong))
        assert not wrong.wait(5.0)
        right = Reply()
        running.daemon.inbox.put(PinCheck(PadAccess.FLOOR, FLOOR_PIN, right))
        assert right.wait(5.0)
        start = len(watcher.news)
        running.daemon.inbox.put(DisplayCommand(SignedIn(PadAccess.FLOOR)))
        running.daemon.inbox.put(DisplayCommand(ClearFloorCall(PadAccess.FLOOR)))
        watcher.wait(
            start,
            lambda news: next(
                (i for i, n in enumerate(news)
                 if isinstance(n, OpsNews) and not n.snapshot.floor_call), None,
            ),
            5.0,
        )  # fmt: skip
        assert not sink.snapshot.floor_call
        assert Signal.CALL_FLOOR not in core.signals.playing()
        assert running.stop() == "test over"
    finally:
        for running in daemons:
            if running.thread.is_alive():
                running.stop()
        daemons.clear()
        close_factories(factories)

    journal = Journal.open(tmp_path / "journal.sqlite", clock=SystemClock())
    try:
        codes = [(r.code, r.actor) for r in journal.rows()]
    finally:
        journal.close()
    assert (Code.INPUT_KEY, "panel") in codes
    assert (Code.AUTH_FAILED, "flo") in codes and (Code.VERIFIED, "flo") in codes
    assert (Code.FLOOR_CALL_CLEARED, "flo") in codes
    text = caplog.text
    assert FLOOR_PIN not in text and "11223344" not in text and ADMIN_PIN not in text


def test_the_key_panels_entry_reaches_the_display(tmp_path: Path, daemons: list[Running]) -> None:
    """A seat key or an armed MISDEAL is shown on the screen (PANEL.md rule 3), and a seat key
    turns a small panel to its SEATS page: the core hands the panel's state to the display."""
    config = write_config(tmp_path)
    pinmap = default_pinmap()
    factories = mock_factories(pinmap)
    panel = InputEmulator(pinmap, factories)
    panel.idle()
    watcher, sink = Watcher(), NullSink()
    try:
        clock = FakeClock(START_AT)
        running = start_daemon(
            config,
            Overrides(
                factories=factories, display=sink, observers=[watcher], environ={}, clock=clock
            ),
        )
        daemons.append(running)

        def panel_says(start: int, selected: int | None, mode: str) -> None:
            watcher.wait(
                start,
                lambda news: next(
                    (i for i, n in enumerate(news) if isinstance(n, PanelNews)
                     and n.status.selected == selected and n.status.mode.value == mode), None,
                ),
                5.0,
            )  # fmt: skip

        start = len(watcher.news)
        panel.press("SEAT_7", START_AT + 1.0, 0.05)
        panel.run_until(START_AT + 1.5, clock.set)
        panel_says(start, 7, "idle")
        assert (sink.status.selected, sink.status.entry, sink.status.entry_short) == (
            7,
            "SEAT 7 SELECTED",  # a pill with a label: the seat key waits for its key
            "S7 SELECTED",
        )
        start = len(watcher.news)
        panel.press("MISDEAL", START_AT + 2.0, 0.05)
        panel.run_until(START_AT + 2.5, clock.set)
        panel_says(start, 7, "armed")
        assert (sink.status.entry, sink.status.entry_short) == ("MISDEAL: CONFIRM?", "MISDEAL?")
        start = len(watcher.news)
        panel.press("CANCEL", START_AT + 3.0, 0.05)
        panel.run_until(START_AT + 3.5, clock.set)
        panel_says(start, 7, "idle")
        assert sink.status.entry == "SEAT 7 SELECTED"
        assert running.stop() == "test over"
    finally:
        for running in daemons:
            if running.thread.is_alive():
                running.stop()
        daemons.clear()
        close_factories(factories)
