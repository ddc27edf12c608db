"""The daemon with a `[fleet]`: its journal reaches the central store, the diagnostics show the
outbox, a journal rolled back under it is a critical tilt at its next start, and without the
client library it still deals and keeps the outbox."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from station.daemon.daemon import Overrides
from station.display.diag_view import DiagCursor, diagnostics_screen
from station.display.panel import PANEL_7, PANEL_10_1
from station.fleet.outbox import outbox_status
from station.journal import Journal, SystemClock
from station.journal.codes import Code
from tests.daemon.conftest import Running, start_daemon, write_config
from tests.fleet.conftest import SITE, RunningIngest, wait_until


def fleet_section(services: Any, station: str = "T07") -> str:
    ident = services.broker.identity(station)
    return (
        f'[fleet]\nsite = "{SITE}"\nbroker = "127.0.0.1:{services.broker.port}"\n'
        f'ca = "{ident.ca}"\ncert = "{ident.cert}"\nkey = "{ident.key}"\nresend_s = 1.0\n'
    )


@pytest.fixture
def running() -> Iterator[list[Running]]:
    started: list[Running] = []
    yield started
    for r in started:
        if r.thread.is_alive():
            r.stop()


def head_of(path: Path) -> tuple[int, str]:
    journal = Journal.open(path, clock=SystemClock())
    try:
        return journal.head()
    finally:
        journal.close()


def run_until_delivered(config: Path, running: list[Running]) -> Running:
    r = start_daemon(config, Overrides(environ={}))
    running.append(r)
    assert r.daemon.core is not None
    core = r.daemon.core
    wait_until(
        lambda: (v := core.fleet_view()) is not None and v.state == "online" and v.outbox_rows == 0,
        what="the journal delivered",
    )
    return r


def test_the_daemon_forwards_its_journal_and_shows_the_outbox(
    services: Any, ingest: RunningIngest, tmp_path: Path, running: list[Running]
) -> None:
    config = write_config(tmp_path, extra=fleet_section(services))
    r = run_until_delivered(config, running)
    journal = tmp_path / "journal.sqlite"
    r.stop()
    head = head_of(journal)
    wait_until(
        lambda: (
            ingest.query("SELECT head_seq, head_hash FROM stations WHERE station_id='T07'")
            == [head]
        ),
        what="the last rows (the daemon's stop) stored",
    )
    codes = [c for (c,) in ingest.query("SELECT code FROM rows ORDER BY seq")]
    assert codes[:2] == [Code.JOURNAL_CREATED, Code.BOOT]
    assert Code.INPUT_SETUP in codes


def test_a_journal_rolled_back_under_the_daemon_is_a_critical_tilt_at_its_next_start(
    services: Any, ingest: RunningIngest, tmp_path: Path, running: list[Running]
) -> None:
    config = write_config(tmp_path, extra=fleet_section(services))
    journal = tmp_path / "journal.sqlite"
    run_until_delivered(config, running).stop()
    shutil.copy(journal, tmp_path / "older.sqlite")
    run_until_delivered(config, running).stop()  # a second boot: more rows, all delivered
    shutil.copy(tmp_path / "older.sqlite", journal)

    r = start_daemon(config, Overrides(environ={}))
    running.append(r)
    recorder = r.daemon.recorder
    assert recorder is not None
    core = r.daemon.core
    assert core is not None
    wait_until(
        lambda: (v := core.fleet_view()) is not None and v.state == "forked", what="the fork"
    )
    wait_until(lambda: recorder.op_state().why_play_stops, what="play blocked")
    r.stop()
    # The restart journals its boot before the forwarder connects, so the older copy already
    # holds new rows at seqs the centre has: another history from the copy's end on. The
    # journal checked the centre's head (Journal.check_head): a critical tilt naming it.
    reopened = Journal.open(journal, clock=SystemClock())
    rows = list(reopened.rows(codes=[Code.TILT_RAISED]))
    reopened.close()
    central = [row.data() for row in rows if "central store" in row.data()["detail"]]
    assert central, [row.data() for row in rows]
    assert central[0]["tilt"] == "journal_integrity"
    alarms = ingest.query("SELECT DISTINCT kind FROM alarms WHERE station_id = 'T07'")
    assert alarms
    assert {kind for (kind,) in alarms} <= {"rollback", "fork"}


def test_without_the_client_library_the_station_deals_and_keeps_the_outbox(
    services: Any, tmp_path: Path, running: list[Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "paho" else real(name, *a)
    )
    config = write_config(tmp_path, extra=fleet_section(services))
    r = start_daemon(config, Overrides(environ={}))
    running.append(r)
    core = r.daemon.core
    assert core is not None
    view = core.fleet_view()
    assert view is not None
    assert view.state == "disabled"
    assert "paho-mqtt" in view.detail
    assert view.outbox_rows > 0
    r.stop()
    # Nothing was delivered, so every row of the journal is still in the outbox.
    box = outbox_status(tmp_path / "journal.sqlite")
    assert (box.acked_seq, box.rows) == (0, head_of(tmp_path / "journal.sqlite")[0])


def test_with_the_broker_unreachable_the_dealer_screen_shows_the_outbox_and_its_age(
    services: Any, tmp_path: Path, running: list[Running]
) -> None:
    """Issue 20: the station keeps dealing offline and "the dealer screen and `station
    diag` show the outbox size and age". A port nobody listens on stands for a broker that is
    down; the rows the daemon journals wait in the outbox and the SYSTEM page says so."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]  # closed again before the daemon starts: nothing listens
    section = fleet_section(services).replace(f":{services.broker.port}", f":{dead}")
    config = write_config(tmp_path, extra=section)
    r = start_daemon(config, Overrides(environ={}))
    running.append(r)
    display = r.daemon.display
    wait_until(
        lambda: (
            (f := display.diagnostics.fleet) is not None
            and f.state in ("connecting", "offline")
            and f.outbox_rows > 0
            and f.outbox_age_s is not None
        ),
        what="the diagnostics showing rows waiting",
    )
    data = display.diagnostics
    fleet = data.fleet
    assert fleet is not None
    # Nothing was acknowledged: every row the journal held then waited (it has grown since).
    box = outbox_status(tmp_path / "journal.sqlite")
    assert box.acked_seq == 0
    assert 0 < fleet.outbox_rows <= box.rows
    for panel in (PANEL_10_1, PANEL_7):
        # The SYS page scrolls on a small panel (LINES 1-7 OF 11): read it from the top and
        # scrolled to its end, where the fleet line is.
        text = "\n".join(
            diagnostics_screen(data, DiagCursor("sys", top=top), panel).all_text()
            for top in (0, 99)
        )
        assert f"OUTBOX {fleet.outbox_rows}" in text
        assert "OLDEST " in text
        assert fleet.state.upper() in text
    r.stop()
