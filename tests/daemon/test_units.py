"""The daemon's pure parts: journald log lines, device provenance, LEDs and status from the
table state, the panel entries and chip stacks of the demo's dealer."""

from __future__ import annotations

import io
import logging
import os
from dataclasses import replace
from pathlib import Path

from hardware.inputs.events import KeyPressed
from hardware.inputs.signals import Signal
from station.config.model import LogLevel
from station.daemon.items import Device, Inbox, Stop
from station.daemon.logsetup import JournaldFormatter, configure, priority, under_journald
from station.daemon.translate import Provenance, key_event, parse_actor, status_line, wanted_signals
from station.demo.steps import buttons, chip_split, chip_unit, forced_bet_chips
from station.engine.events import Key, KeyPress, VerbalAction
from station.engine.snapshot import Phase, StopView, TableSnapshot


def test_log_lines_carry_a_syslog_priority_and_no_timestamp() -> None:
    stream = io.StringIO()
    handler = configure(LogLevel.INFO, stream, journald=True)
    try:
        log = logging.getLogger("station.test")
        log.warning("link to %s lost", "shoe")
        log.debug("not shown at info")
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("core fault")
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(logging.WARNING)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "<4>station.test: link to shoe lost"
    assert lines[1] == "<3>station.test: core fault"
    assert lines[2].startswith("<3>Traceback") and lines[-1] == "<3>ValueError: boom"
    assert all(line.startswith("<") for line in lines)
    assert [priority(x) for x in (50, 40, 30, 20, 10, 5)] == [2, 3, 4, 6, 7, 7]
    assert isinstance(handler.formatter, JournaldFormatter)


def test_the_priority_prefix_only_goes_to_journald(tmp_path: Path) -> None:
    """Under systemd stderr is the journal stream `$JOURNAL_STREAM` names (device:inode); in a
    terminal (the demo) log lines carry their level as a word, no `<4>`."""
    log_file = tmp_path / "stderr"
    with log_file.open("w") as err:
        st = os.fstat(err.fileno())
        assert under_journald(err, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not under_journald(err, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not under_journald(err, {})
    stream = io.StringIO()  # no file descriptor: a terminal's stand-in
    handler = configure(LogLevel.WARNING, stream)
    try:
        logging.getLogger("station.daemon.operations").warning("link to %s lost", "shoe")
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(logging.WARNING)
    assert stream.getvalue() == "WARNING station.daemon.operations: link to shoe lost\n"


def test_device_provenance_round_trips_and_people_are_not_devices() -> None:
    prov = Provenance(Device.SHOE, "DS-E6614103E7", 4711)
    assert prov.actor == "shoe:DS-E6614103E7:4711"
    assert parse_actor(prov.actor) == prov
    for actor in ("panel", "flo", "floor", "shoe", "shoe:X:y", "printer:X:1", "config"):
        assert parse_actor(actor) is None


def test_leds_follow_the_table_state() -> None:
    snap = TableSnapshot.empty()
    assert wanted_signals(snap, attention=False) == frozenset()
    stopped = replace(snap, stop=StopView("STOP", 4), floor_call=True)
    assert wanted_signals(stopped, attention=False) == {Signal.STOP, Signal.CALL_FLOOR}
    assert wanted_signals(replace(snap, phase=Phase.MISDEAL), False) == {Signal.ATTENTION}
    assert wanted_signals(snap, attention=True) == {Signal.ATTENTION}


def test_the_status_line() -> None:
    snap = replace(TableSnapshot.empty(), hand=12, phase=Phase.BETTING, stop=StopView("S", 2))
    line = status_line(snap, {Device.SHOE: False, Device.BETZONES: None}, ("CALL FLOOR",))
    assert line == "hand 12 betting; shoe down; betzones connecting; STOP; blocked: CALL FLOOR"


def test_panel_keys_become_engine_keys_and_showdown_keys_find_their_seat() -> None:
    snap = replace(TableSnapshot.empty(), to_act=5)
    call = KeyPressed("VERBAL", 1.0, seat=None, action="call")
    assert key_event(call, snap) == KeyPress(Key.VERBAL, None, action=VerbalAction.CALL)
    assert key_event(KeyPressed("TABLED", 1.0), snap) == KeyPress(Key.TABLED, 5)
    assert key_event(KeyPressed("FOLD", 1.0, seat=3), snap) == KeyPress(Key.FOLD, 3)
    # EXPOSED is left to the engine: answering its BOXED-or-EXPOSED question is not a new exposure.
    assert key_event(KeyPressed("EXPOSED", 1.0), snap) == KeyPress(Key.EXPOSED, None)


def test_the_dealer_enters_keys_as_the_panel_wants_them() -> None:
    assert buttons(KeyPress(Key.FOLD, 3)) == ("SEAT_3", "FOLD")
    assert buttons(KeyPress(Key.NEW_HAND)) == ("NEW_HAND",)
    assert buttons(KeyPress(Key.MISDEAL)) == ("MISDEAL", "CONFIRM")
    assert buttons(KeyPress(Key.VERBAL, 2, action=VerbalAction.RAISE)) == ("SEAT_2", "RAISE")


def test_chip_stacks_add_up_and_are_never_one_oversized_chip() -> None:
    for amount in (1, 5, 100, 225, 500, 1125, 10000, 20325):
        chips = chip_split(amount)
        assert sum(chips) == amount
        assert len(chips) > 1 or amount == 1, amount
        assert list(chips) == sorted(chips, reverse=True)


def test_the_inbox_times_out_and_keeps_order() -> None:
    inbox = Inbox()
    assert inbox.get(0) is None and inbox.get(0.01) is None
    inbox.put(Stop("a"))
    inbox.put(Stop("b"))
    assert inbox.get(None) == Stop("a") and inbox.get(0) == Stop("b")


def test_forced_bets_carry_the_smallest_chip_the_hand_needs() -> None:
    assert chip_unit([50, 100, 225, 1000]) == 25
    assert chip_unit([50, 100, 287]) == 1
    assert forced_bet_chips(50, 25) == (25, 25)
    blind = forced_bet_chips(100, 1)
    assert sum(blind) == 100 and min(blind) == 1
