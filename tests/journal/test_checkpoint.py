"""Recovery checkpoints: a restored table goes on exactly as the one saved; recovery starts from
the newest usable checkpoint and refuses one that is forged, damaged, stale or from other code;
what it skipped is checked afterwards, and a checkpoint that does not match its history is
caught, put on record as a critical tilt and dropped."""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
from collections import deque
from pathlib import Path

import pytest
from station.journal.checkpoint import RecorderState, dump_state, load_state, same_state

from station.engine.cards import DeckRegistry
from station.engine.table import Table
from station.formats.session import read_session
from station.journal import checkpoint
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code, TiltCode
from station.journal.ops import OpsTracker
from station.journal.recorder import Recorder
from station.journal.store import Journal
from tests.scenario_kit import Scenario, all_scenarios

from .test_recorder import SESSION, _fingerprint, _run, _tamper_decision


def _cuts(n: int) -> set[int]:
    return {n // 3, n // 2, (2 * n) // 3, n - 1} - {-1}


@pytest.mark.parametrize("sc", all_scenarios(), ids=lambda sc: sc.name)
def test_a_restored_table_goes_on_exactly_as_the_one_saved(sc: Scenario) -> None:
    """Every rule scenario (all games, irregularities, recoveries, chip races), saved and restored
    at several points: the copy decides what the original decides, and ends in the same state."""
    lines = read_session(sc.path).lines
    for cut in _cuts(len(lines)):
        original = Table()
        for line in lines[:cut]:
            original.feed(line.event, seq=line.line, at=line.t)
        copy = load_state(dump_state(RecorderState(original, OpsTracker(), 0))).table
        assert same_state(copy, original) is None
        for line in lines[cut:]:
            want = original.feed(line.event, seq=line.line, at=line.t)
            assert copy.feed(line.event, seq=line.line, at=line.t) == want, (cut, line.line)
        assert copy.finish(seq=0) == original.finish(seq=0)
        assert same_state(copy, original) is None
        assert copy.snapshot() == original.snapshot()


def test_same_state_names_where_two_states_differ() -> None:
    a, b = Table(), Table()
    assert same_state(a, b) is None
    b.stacks[3] = 100
    assert same_state(a, b) == "state.stacks: keys differ"
    a.stacks[3] = 90
    assert same_state(a, b) == "state.stacks[3]: 90 != 100"
    a.stacks[3] = 100
    a.occupied, b.occupied = {1, 2}, {2, 1}
    assert same_state(a, b) is None  # sets as sets
    assert same_state(deque([1, 2]), deque([1, 3])) == "state[1]: 2 != 3"
    assert same_state((1, [2]), (1, (2,))) == "state[1]: list != tuple"


def _checkpoints(path: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(path)
    try:
        return [(int(r[0]), str(r[1])) for r in conn.execute("SELECT seq, code FROM checkpoint")]
    finally:
        conn.close()


def _replace_state(path: Path, blob: bytes, *, row_hash: str | None = None) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        seq = conn.execute("SELECT MAX(seq) FROM checkpoint").fetchone()[0]
        conn.execute(
            "UPDATE checkpoint SET state = ?, sha256 = ? WHERE seq = ?",
            (blob, hashlib.sha256(blob).hexdigest(), seq),
        )
        if row_hash is not None:
            conn.execute("UPDATE checkpoint SET row_hash = ? WHERE seq = ?", (row_hash, seq))
    finally:
        conn.close()


def _played_and_restarted(path: Path, clock: ManualClock) -> None:
    """The session journaled, then one restart: its recovery replays everything and saves a
    checkpoint at the end (the session itself, 3 hands, is too short to have saved one)."""
    _run(path, clock, range(len(SESSION.events)), restart=True)
    assert _checkpoints(path) == []
    _recover(path, clock).journal.close()
    assert len(_checkpoints(path)) == 1


def _recover(path: Path, clock: ManualClock) -> Recorder:
    journal = Journal.open(path, clock=clock)
    recorder = Recorder(journal)
    recorder.recover()
    return recorder


def test_a_live_table_saves_checkpoints_and_a_restart_starts_from_the_newest(
    path: Path, clock: ManualClock
) -> None:
    with Journal.open(path, clock=clock, station_id="T01", create=True) as journal:
        recorder = Recorder(journal, checkpoint_every=1)
        recorder.recover()
        for item in SESSION.events:
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
        head = journal.head()[0]
    saved = _checkpoints(path)
    assert len(saved) == checkpoint.KEEP  # one per hand start, the older ones dropped
    assert all(code == checkpoint.code_digest() for _, code in saved)
    newest = max(seq for seq, _ in saved)
    recorder = _recover(path, clock)
    report = recorder.last_recovery
    assert report is not None and report.ok and report.checkpoint_seq == newest
    assert report.rows == head - newest  # only the rows after it were replayed
    assert recorder.history is not None and recorder.history.seq == newest
    fast = recorder.snapshot()
    recorder.journal.close()
    with Journal.open(path, clock=clock) as journal:
        full = Recorder(journal)
        full.recover(use_checkpoint=False)
        assert full.last_recovery is not None and full.last_recovery.checkpoint_seq == 0
        assert full.snapshot() == fast


def test_the_history_a_checkpoint_skipped_is_checked_and_put_on_record(
    path: Path, clock: ManualClock
) -> None:
    _played_and_restarted(path, clock)
    recorder = _recover(path, clock)
    assert recorder.last_recovery is not None and recorder.last_recovery.checkpoint_seq > 0
    report = recorder.check_history()
    assert report is not None and report.ok
    assert report.upto_seq == recorder.last_recovery.checkpoint_seq
    assert report.rows == report.upto_seq and report.inputs == len(SESSION.events)
    row = next(recorder.journal.rows(codes=[Code.HISTORY_CHECKED]))
    assert row.data()["state_ok"] and row.data()["chain_ok"] and row.data()["mismatches"] == 0
    assert recorder.history is None and recorder.check_history() is None
    recorder.journal.close()


def test_a_checkpoint_over_a_rewritten_history_is_caught_after_the_start(
    path: Path, clock: ManualClock
) -> None:
    """A decision before the checkpoint rewritten with valid hashes all the way, and the
    checkpoint moved onto the new hash: the start uses it, the history check finds the row."""
    _played_and_restarted(path, clock)
    bad = _tamper_decision(path)
    conn = sqlite3.connect(path)
    (seq,) = conn.execute("SELECT MAX(seq) FROM checkpoint").fetchone()
    (new_hash,) = conn.execute("SELECT hash FROM log WHERE seq = ?", (seq,)).fetchone()
    conn.close()
    assert bad < seq
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE checkpoint SET row_hash = ? WHERE seq = ?", (new_hash, seq))
    conn.close()
    recorder = _recover(path, clock)
    assert recorder.last_recovery is not None and recorder.last_recovery.checkpoint_seq == seq
    assert TiltCode.REPLAY_MISMATCH.value not in recorder.op_state().tilts
    report = recorder.check_history()
    assert report is not None and not report.ok and report.mismatches[0].seq == bad
    tilts = recorder.op_state().tilts
    assert tilts[TiltCode.REPLAY_MISMATCH.value].critical
    assert _checkpoints(path) == []  # the next start replays everything, and finds it too
    recorder.journal.close()
    again = _recover(path, clock)
    assert again.last_recovery is not None and again.last_recovery.checkpoint_seq == 0
    assert again.last_recovery.mismatch_count > 0
    again.journal.close()


def test_a_checkpoint_whose_state_was_altered_is_caught_and_dropped(
    path: Path, clock: ManualClock
) -> None:
    _played_and_restarted(path, clock)
    honest = _recover(path, clock)
    stacks = dict(honest.table.stacks)
    honest.journal.close()
    conn = sqlite3.connect(path)
    (blob,) = conn.execute("SELECT state FROM checkpoint ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()
    forged = load_state(blob)
    seat = min(s for s, v in forged.table.stacks.items() if v is not None)
    forged.table.stacks[seat] = 1_000_000
    _replace_state(path, dump_state(forged))
    recorder = _recover(path, clock)
    assert recorder.table.stacks[seat] == 1_000_000  # what the start believed
    report = recorder.check_history()
    assert (
        report is not None and report.state == f"state[0].stacks[{seat}]: {stacks[seat]} != 1000000"
    )
    assert TiltCode.REPLAY_MISMATCH.value in recorder.op_state().tilts
    recorder.journal.close()
    after = _recover(path, clock)
    assert after.last_recovery is not None and after.last_recovery.checkpoint_seq == 0
    assert after.table.stacks == stacks
    after.journal.close()


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def test_a_forged_checkpoint_cannot_run_code_and_is_not_used(
    path: Path, clock: ManualClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _played_and_restarted(path, clock)
    marker = tmp_path / "pwned"
    _replace_state(path, pickle.dumps(_Payload(marker)))
    recorder = _recover(path, clock)
    assert not marker.exists()
    assert recorder.last_recovery is not None and recorder.last_recovery.checkpoint_seq == 0
    assert "may not hold" in caplog.text and "not used" in caplog.text
    recorder.journal.close()
    assert _fingerprint(path, clock)  # and the full replay is sound


@pytest.mark.parametrize("what", ["damaged", "other code", "other row", "other registry"])
def test_a_checkpoint_that_does_not_fit_is_not_used(
    what: str, path: Path, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    _played_and_restarted(path, clock)
    conn = sqlite3.connect(path, isolation_level=None)
    match what:
        case "damaged":
            conn.execute("UPDATE checkpoint SET state = substr(state, 1, length(state) - 9)")
        case "other code":
            conn.execute("UPDATE checkpoint SET code = 'an older station'")
        case "other row":
            conn.execute("UPDATE checkpoint SET row_hash = 'f00d'")
        case _:
            (blob,) = conn.execute("SELECT state FROM checkpoint").fetchone()
            state = load_state(blob)
            state.table.registry = DeckRegistry()
            _replace_state(path, dump_state(state))
    conn.close()
    recorder = _recover(path, clock)
    assert recorder.last_recovery is not None and recorder.last_recovery.ok
    assert recorder.last_recovery.checkpoint_seq == 0
    assert "not used" in caplog.text
    recorder.journal.close()


def test_no_checkpoint_is_saved_from_a_recovery_that_found_problems(
    path: Path, clock: ManualClock
) -> None:
    _run(path, clock, range(12), restart=False)  # no restart yet: no checkpoint
    assert _checkpoints(path) == []
    _tamper_decision(path)
    recorder = _recover(path, clock)
    assert recorder.last_recovery is not None and not recorder.last_recovery.ok
    assert _checkpoints(path) == []
    recorder.journal.close()


def test_diagnostics_say_the_chain_is_being_checked_until_the_history_is(
    path: Path, clock: ManualClock
) -> None:
    from station.daemon.views import diagnostics

    _played_and_restarted(path, clock)
    recorder = _recover(path, clock)
    pending = diagnostics(recorder, (), {}, None).journal
    assert pending.checking and pending.chain_ok is None and pending.ok
    recorder.check_history()
    done = diagnostics(recorder, (), {}, None).journal
    assert not done.checking and done.chain_ok is True and done.ok
    recorder.journal.close()
