"""Operational state that is not engine state: sessions, modes, CALL FLOOR and tilts. Every
change is journaled, and a restart rebuilds the same state by replay (requirements 11, 12, 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.bench.scripted import nlhe_session
from station.daemon.operations import StationOps
from station.engine.events import Key, KeyPress
from station.incidents.exc import TransitionError
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code, Mode, TiltCode
from station.journal.exc import IntegrityError
from station.journal.ops import OpState
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.journal.verify import verify_file
from station.people.exc import RoleRefusedError
from station.people.staff import add_person, authenticate

from .conftest import PINS, STATION


def _restart(path: Path, clock: ManualClock) -> OpState:
    clock.reboot("boot-2", down_s=5)
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        recorder = Recorder(journal)
        recorder.recover(strict=True)
        assert recorder.snapshot().floor_call == (recorder.op_state().floor_call is not None)
        return recorder.op_state()


@pytest.fixture
def ops(staffed: Journal) -> StationOps:
    recorder = Recorder(staffed)
    recorder.recover()
    return StationOps(recorder)


def test_a_floor_key_raises_call_floor_that_only_a_floor_credential_clears(
    ops: StationOps, path: Path, clock: ManualClock
) -> None:
    recorder = ops.recorder
    for item in nlhe_session(1, seed=2).events[:12]:
        recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    recorder.record(KeyPress(Key.FLOOR), actor="panel", role=ActorRole.DEVICE, at=30.0)
    assert recorder.snapshot().floor_call is True
    assert "CALL FLOOR" in recorder.op_state().why_play_stops
    with pytest.raises(RoleRefusedError):
        ops.clear_floor_call("dan", PINS["dan"])
    with pytest.raises(RoleRefusedError):
        ops.clear_floor_call("tom", PINS["tom"])
    assert _restart(path, clock).floor_call is not None  # survives a restart
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        StationOps(recorder).clear_floor_call("flo", PINS["flo"], note="ruled at the table")
        assert recorder.snapshot().floor_call is False
    assert _restart(path, clock).floor_call is None


def test_a_floor_call_from_the_screen_is_journaled_once(ops: StationOps) -> None:
    first = ops.raise_floor_call("dan", ActorRole.DEALER, "player dispute")
    assert first is not None and first.code == Code.FLOOR_CALL_RAISED
    assert ops.raise_floor_call("dan", ActorRole.DEALER, "again") is None
    call = ops.recorder.op_state().floor_call
    assert call is not None and (call.seq, call.reason) == (first.seq, "player dispute")
    ops.clear_floor_call("fay", PINS["fay"])
    with pytest.raises(TransitionError):
        ops.clear_floor_call("fay", PINS["fay"])


def test_tilts_survive_a_restart_and_need_a_credential(
    ops: StationOps, path: Path, clock: ManualClock
) -> None:
    ops.link_down("shoe", "no heartbeat for 2 s")
    ops.raise_tilt(TiltCode.TAMPER, "enclosure switch open")
    state = ops.recorder.op_state()
    assert set(state.tilts) == {"link_lost:shoe", "tamper"}
    assert state.why_play_stops == ("tilt tamper",)  # a lost link is shown, not blocking
    after = _restart(path, clock)
    assert set(after.tilts) == {"link_lost:shoe", "tamper"}
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        ops2 = StationOps(recorder)
        ops2.link_up("shoe")
        with pytest.raises(RoleRefusedError):
            ops2.clear_tilt("tamper", "dan", PINS["dan"])
        cleared = ops2.clear_tilt("tamper", "tom", PINS["tom"], note="lid closed")
        assert (cleared.actor, cleared.role) == ("tom", "technician")
        assert recorder.op_state().tilts == {}
    assert _restart(path, clock).tilts == {}


def test_logins_modes_and_idle_logout_are_journaled_and_rebuilt(
    ops: StationOps, path: Path, clock: ManualClock
) -> None:
    start = ops.journal.head()[0] + 1
    ops.login("dan", PINS["dan"])
    ops.login("flo", PINS["flo"])
    ops.set_mode(Mode.TECHNICIAN, "tom", PINS["tom"])
    assert ops.recorder.op_state().why_play_stops == ("technician mode",)
    with pytest.raises(RoleRefusedError):
        ops.set_mode(Mode.PLAY, "dan", PINS["dan"])
    state = _restart(path, clock)
    assert (state.mode, state.dealer, sorted(state.sessions)) == (
        Mode.TECHNICIAN,
        "dan",
        ["dan", "flo"],
    )
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        ops2 = StationOps(recorder)
        ops2.set_mode(Mode.PLAY, "tom", PINS["tom"])
        ops2.expire_idle()  # restored sessions start their idle timer now
        clock.advance(60)
        ops2.touch("flo")
        clock.advance(61)
        assert ops2.expire_idle() == ["dan"]
        codes = [
            (r.code, r.actor) for r in journal.rows(start) if r.code.startswith(("auth.l", "mode"))
        ]
    assert codes == [
        (Code.LOGIN, "dan"),
        (Code.LOGIN, "flo"),
        (Code.MODE_CHANGED, "tom"),
        (Code.MODE_CHANGED, "tom"),
        (Code.LOGOUT, "dan"),
    ]


def test_a_new_dealer_replaces_the_last(ops: StationOps) -> None:
    admin = authenticate(ops.journal, "ada", PINS["ada"], purpose="enrol")
    add_person(ops.journal, "dee", ActorRole.DEALER, "564783", by=admin)
    ops.login("dan", PINS["dan"])
    ops.login("dee", "564783")
    state = ops.recorder.op_state()
    assert state.dealer == "dee" and "dan" not in state.sessions
    replaced = [r for r in ops.journal.rows() if r.code == Code.LOGOUT][-1]
    assert replaced.data() == {"person": "dan", "reason": "replaced"}


def test_a_full_disk_is_a_critical_tilt_raised_once(ops: StationOps) -> None:
    assert ops.check_storage() is None  # this machine's disk is not 90 % full
    row = ops.check_storage(tilt_at=0.0)
    assert row is not None and row.data()["tilt"] == "storage_full"
    assert ops.check_storage(tilt_at=0.0) is None
    assert ops.recorder.op_state().why_play_stops == ("tilt storage_full",)


def test_a_damaged_file_is_never_taken_for_a_sound_one(
    ops: StationOps, path: Path, clock: ManualClock
) -> None:
    """Requirement 8: quick_check at start (a start from a resume row runs it in the history
    check right after). Page corruption either becomes a critical tilt or, when nothing can be
    written any more, stops the station with IntegrityError."""
    for item in nlhe_session(3, seed=1).events:
        ops.recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    ops.journal.close()
    page = path.stat().st_size // 4096 // 2  # a b-tree page in the middle of the file
    with path.open("r+b") as f:
        f.seek(4096 * page)
        f.write(b"\xff" * 64)  # its page header
    assert not verify_file(path).ok
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        try:
            recorder.recover()
        except IntegrityError as exc:
            assert "damaged" in str(exc)
        else:
            report = recorder.last_recovery
            assert report is not None
            if not report.quick_check:  # started from a resume row: the check after it
                history = recorder.check_history()
                assert history is not None and history.quick_check
            assert "tilt journal_integrity" in recorder.op_state().why_play_stops


def test_each_devices_last_event_id_is_folded_and_comes_back_after_a_restart(
    path: Path, clock: ManualClock
) -> None:
    """Where a restarted station resumes each device: the highest event id journaled per
    device and serial (actor `device:serial:event_id`), not what a person or the panel did."""
    from station.engine.cards import Card
    from station.engine.events import Draw, Zone

    inputs = [
        (Draw(Card.parse("Ah")), "shoe:SHOE-1:5"),
        (Zone(3, 10), "betzones:ZONES-1:2"),
        (Draw(Card.parse("Kd")), "shoe:SHOE-1:9"),
        (Draw(Card.parse("Qc")), "shoe:SHOE-2:4"),  # a spare shoe plugged in
        (KeyPress(Key.FOLD, seat=3), "panel"),
    ]
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        for event, actor in inputs:
            recorder.record(event, actor=actor, role=ActorRole.DEVICE, at=None)
        want = {"shoe": {"SHOE-1": 9, "SHOE-2": 4}, "betzones": {"ZONES-1": 2}}
        assert recorder.ops.device_events == want
    for _ in range(2):  # a full replay (no hand ended: it writes a resume row), then from it
        with Journal.open(path, clock=clock) as journal:
            recorder = Recorder(journal)
            recorder.recover()
            assert recorder.ops.device_events == want
    assert recorder.last_recovery is not None and recorder.last_recovery.resume_seq > 0
