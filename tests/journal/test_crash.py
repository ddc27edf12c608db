"""Crash recovery with real processes and SIGKILL: `station crashtest` for a few rounds, and an
open CALL FLOOR, tilt and mid-hand state surviving a kill -9."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from station.bench.crashcheck import snapshot_digest
from station.bench.crashtest import CrashResult, _check_journal, crashtest
from station.bench.scripted import nlhe_session
from station.formats.session import event_to_dict
from station.journal.clock import SystemClock
from station.journal.codes import INPUT_CODES, ActorRole
from station.journal.recorder import Recorder
from station.journal.rows import canonical_json
from station.journal.store import Journal
from station.journal.verify import verify_file

from .conftest import station

CHILD = textwrap.dedent(
    """
    import sys
    from station.engine.cards import Card
    from station.engine.events import Draw, Key, KeyPress
    from station.journal.clock import SystemClock
    from station.journal.codes import ActorRole, INPUT_CODES
    from station.bench.crashcheck import snapshot_digest
    from station.daemon.operations import StationOps
    from station.journal.recorder import Recorder
    from station.bench.scripted import nlhe_session
    from station.journal.store import Journal

    journal = Journal.open(sys.argv[1], clock=SystemClock(), station_id="T09", create=True)
    recorder = Recorder(journal)
    recorder.recover(strict=True)
    events = nlhe_session(1, seed=4).events
    for item in events[:14]:  # mid-hand: blinds, hole cards, some preflop action
        recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    # a board card while betting is still open, then the dealer calls the floor
    ace = Draw(Card.parse("Ah"))
    recorder.record(ace, actor="shoe", role=ActorRole.DEVICE, at=40.0)
    recorder.record(KeyPress(Key.FLOOR), actor="panel", role=ActorRole.DEVICE, at=41.0)
    StationOps(recorder).link_down("zones", "no heartbeat")
    ordinal = {r.seq: i + 1 for i, r in enumerate(journal.rows(codes=INPUT_CODES))}
    print("ready", snapshot_digest(recorder.snapshot(), ordinal), flush=True)
    sys.stdin.readline()  # wait here until killed
    """
)


def test_crashtest_few_rounds_loses_nothing(tmp_path: Path) -> None:
    result = crashtest(rounds=5, seed=3, workdir=tmp_path, hands=6)
    counts = result.as_dict()
    assert [counts[k] for k in ("rounds", "lost_events", "integrity_failures")] == [5, 0, 0]
    assert counts["state_mismatches"] == 0 and counts["problems"] == []
    assert sum(result.kills.values()) == 5 and result.acked > 0


def test_the_crash_checks_see_loss_tampering_and_divergence(tmp_path: Path) -> None:
    """The counters are not vacuous: each check fires on the fault it exists for."""
    session = nlhe_session(1, seed=3)
    payloads = [canonical_json(event_to_dict(e.event, e.t)) for e in session.events]
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, clock=SystemClock(), station_id="T", create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        for item in session.events[:5]:
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
        last = recorder.last_input_seq
    result = CrashResult()
    assert _check_journal(path, {last: 5}, payloads, result) == 5
    assert (result.lost_events, result.integrity_failures, result.state_mismatches) == (0, 0, 0)
    _check_journal(path, {last + 1: 6}, payloads, result)  # acknowledged, never journaled
    assert result.lost_events == 1
    _check_journal(path, {}, payloads[1:], result)  # not what the script said
    assert result.state_mismatches == 1
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER log_no_update")
    conn.execute("UPDATE log SET actor = 'x' WHERE seq = 3")
    conn.commit()
    conn.close()
    _check_journal(path, {}, payloads, result)
    assert result.integrity_failures == 1


def test_station_crashtest_prints_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = station(
        "crashtest", "--rounds", "2", "--seed", "7", "--hands", "3", "--keep", str(tmp_path)
    )
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and len(lines) == 1
    result = json.loads(lines[0])
    assert list(result)[:4] == ["rounds", "lost_events", "integrity_failures", "state_mismatches"]
    assert (result["rounds"], result["lost_events"]) == (2, 0)
    assert (result["integrity_failures"], result["state_mismatches"]) == (0, 0)


def test_call_floor_a_tilt_and_the_hand_survive_kill_9(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert child.stdout is not None
        ready = child.stdout.readline().split()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()
    assert ready[0] == "ready" and child.returncode == -signal.SIGKILL
    assert verify_file(path).ok
    with Journal.open(path, clock=SystemClock(), station_id="T09") as journal:
        recorder = Recorder(journal)
        recorder.recover(strict=True)
        ordinal = {r.seq: i + 1 for i, r in enumerate(journal.rows(codes=INPUT_CODES))}
        state = recorder.op_state()
        assert state.floor_call is not None and state.floor_call.reason == "FLOOR key"
        assert "link_lost:zones" in state.tilts
        assert recorder.snapshot().floor_call is True
        stop = recorder.snapshot().stop  # the premature card's STOP is engine state: replayed
        assert stop is not None and "STILL TO ACT" in stop.text
        assert snapshot_digest(recorder.snapshot(), ordinal) == ready[1]
