"""The recorder: decisions are committed before anyone hears of them, and recovery from the
journal rebuilds exactly the state of an uninterrupted run, whatever the cut point."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from station.bench.crashcheck import derived_by_input, snapshot_digest
from station.bench.scripted import ScriptedEvent, ScriptedSession, nlhe_session
from station.engine.cards import Card
from station.engine.decisions import Decision, Incident
from station.engine.events import Draw, Key, KeyPress, Zone
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code, TiltCode
from station.journal.exc import JournalWriteError, RecoveryMismatchError
from station.journal.recorder import Recorder
from station.journal.rows import COLUMNS, Entry, LogRow
from station.journal.store import Journal

from .conftest import STATION

DEVICE = ActorRole.DEVICE


def _irregular(session: ScriptedSession) -> ScriptedSession:
    """The scripted table with dealer errors, so that replay re-derives incidents, STOPs and
    recoveries too: in hand 2 every card after the hole cards leaves the shoe face up (boxed),
    in hand 3 a card is drawn while the first betting round is open and the floor is called."""
    out: list[ScriptedEvent] = []
    hand = draws = 0
    for item in session.events:
        event = item.event
        if isinstance(event, KeyPress) and event.key is Key.NEW_HAND:
            hand, draws = hand + 1, 0
        if isinstance(event, Draw):
            draws += 1
            if hand == 2 and draws > 8:
                event = Draw(event.card, face_up=True)
        out.append(ScriptedEvent(event, item.t))
        if hand == 3 and draws == 8 and isinstance(event, Draw):
            out.append(ScriptedEvent(Draw(Card.parse("JOKER")), item.t))
            out.append(ScriptedEvent(KeyPress(Key.FLOOR), item.t))
    return ScriptedSession(tuple(out), session.hole_cards)


SESSION = _irregular(nlhe_session(3, seed=11))


def _run(path: Path, clock: ManualClock, events: range, *, restart: bool) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover(strict=True)
        for i in events:
            item = SESSION.events[i]
            clock.advance(0.5)
            recorder.record(item.event, actor="table", role=DEVICE, at=item.t)
    if restart:
        clock.reboot(f"boot-after-{events.stop}", down_s=60)


def _fingerprint(path: Path, clock: ManualClock) -> tuple[list[list[str]], str]:
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover(strict=True)
        assert recorder.last_recovery is not None and recorder.last_recovery.ok
        ordinal_of = {r.seq: i + 1 for i, r in enumerate(journal.rows(codes=_inputs()))}
        return derived_by_input(journal.rows()), snapshot_digest(recorder.snapshot(), ordinal_of)


def _inputs() -> list[str]:
    from station.journal.codes import INPUT_CODES

    return sorted(INPUT_CODES)


def test_the_irregular_session_makes_the_engine_work() -> None:
    from station.formats.replay import replay_lines
    from station.formats.session import SessionLine

    lines = [SessionLine(i + 1, e.t, e.event) for i, e in enumerate(SESSION.events)]
    rules = {d.rule for d in replay_lines(lines) if isinstance(d, Incident)}
    assert len(rules) >= 3


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[list[str]], str]:
    path = tmp_path_factory.mktemp("ref") / "ref.sqlite3"
    clock = ManualClock()
    _run(path, clock, range(len(SESSION.events)), restart=False)
    return _fingerprint(path, clock)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, len(SESSION.events)), min_size=1, max_size=3))
def test_recovery_at_any_cut_points_equals_an_uninterrupted_run(
    reference: tuple[list[list[str]], str], cuts: list[int]
) -> None:
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite3"
        start = 0
        for cut in sorted(cuts):
            _run(path, clock, range(start, cut), restart=True)
            start = cut
        _run(path, clock, range(start, len(SESSION.events)), restart=False)
        assert _fingerprint(path, clock) == reference


def test_a_restart_during_recovery_changes_nothing(
    reference: tuple[list[list[str]], str], path: Path, clock: ManualClock
) -> None:
    half = len(SESSION.events) // 2
    _run(path, clock, range(half), restart=True)
    with Journal.open(path, clock=clock) as journal:  # killed after writing its boot row
        journal.append([Entry(Code.BOOT, {"version": "x"}, "station", ActorRole.STATION)])
    _run(path, clock, range(half, len(SESSION.events)), restart=False)
    assert _fingerprint(path, clock) == reference


def test_decisions_are_committed_before_the_sinks_hear_of_them(recorder: Recorder) -> None:
    seen: list[tuple[int, str]] = []

    def sink(seq: int, decision: Decision) -> None:
        other = sqlite3.connect(recorder.journal.path)  # another reader sees it committed
        try:
            row = other.execute("SELECT code FROM log WHERE seq = ?", (seq,)).fetchone()
            derived = other.execute("SELECT COUNT(*) FROM log WHERE ref = ?", (seq,)).fetchone()
        finally:
            other.close()
        seen.append((seq, f"{row[0]} +{derived[0]}"))

    recorder.sinks.append(sink)
    for item in SESSION.events[:8]:
        recorder.record(item.event, actor="table", role=DEVICE, at=item.t)
    draw = Draw(Card.parse("As"))
    decisions = recorder.record(draw, actor="shoe", role=DEVICE, at=99.0)
    seq = recorder.last_input_seq
    assert decisions  # even the foundation engine labels every draw
    assert seen[-1] == (seq, f"input.draw +{len(decisions)}")


def test_the_input_row_holds_what_the_engine_was_fed(recorder: Recorder) -> None:
    recorder.record(SESSION.events[0].event, actor="table", role=DEVICE, at=0.0)
    recorder.record(Zone(2, 6), actor="zone-2", role=DEVICE, at=12.34567)
    row = recorder.journal.row(recorder.last_input_seq)
    assert row is not None
    assert (row.code, row.actor, row.role) == ("input.zone", "zone-2", "device")
    assert row.data() == {"type": "zone", "t": 12.346, "seat": 2, "amount": 6}


def test_record_before_recover_and_after_a_foreign_input_is_refused(
    journal: Journal, clock: ManualClock
) -> None:
    recorder = Recorder(journal)
    with pytest.raises(JournalWriteError, match="recover"):
        recorder.record(KeyPress(Key.NEW_HAND), actor="panel", role=DEVICE, at=None)
    recorder.recover()
    with Journal.open(journal.path, clock=clock) as intruder:
        intruder.append([Entry(Code.INPUT_KEY, {"type": "key", "key": "FOLD"}, "x", DEVICE)])
    recorder.record(SESSION.events[0].event, actor="table", role=DEVICE, at=0.0)  # recorded
    with pytest.raises(JournalWriteError, match="another process fed input seq 4"):
        recorder.record(KeyPress(Key.NEW_HAND), actor="panel", role=DEVICE, at=None)
    recorder.recover()  # what the daemon does: rebuild from the journal, then go on
    recorder.record(KeyPress(Key.NEW_HAND), actor="panel", role=DEVICE, at=None)


def _tamper_decision(path: Path) -> int:
    """Rewrite one decision row with valid hashes all the way (chain intact, content wrong)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'"):
            conn.execute(f"DROP TRIGGER {name}")
        rows = [
            LogRow.from_tuple(t)
            for t in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log ORDER BY seq")
        ]
        target = next(r for r in rows if r.code == Code.DECISION_DRAW)
        prev = None
        for r in rows:
            if r.seq < target.seq:
                prev = r
                continue
            payload = (
                r.payload.replace('"role":', '"role":"scrap","was":') if r is target else r.payload
            )
            fixed = LogRow(
                **{
                    **r.fields(),
                    "payload": payload,
                    "prev_hash": prev.hash if prev else r.prev_hash,
                    "hash": "",
                }
            )
            fixed = LogRow(
                **{**fixed.fields(), "prev_hash": fixed.prev_hash, "hash": fixed.computed_hash()}
            )
            conn.execute(
                "UPDATE log SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                (fixed.payload, fixed.prev_hash, fixed.hash, r.seq),
            )
            prev = fixed
        conn.execute("UPDATE anchor SET head_hash = ?", (prev.hash if prev else "",))
        return target.seq
    finally:
        conn.close()


def test_a_rewritten_decision_is_caught_by_replay(path: Path, clock: ManualClock) -> None:
    _run(path, clock, range(12), restart=True)
    bad = _tamper_decision(path)
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        with pytest.raises(RecoveryMismatchError) as caught:
            recorder.recover(strict=True)
        assert caught.value.seq == bad
        tilts = recorder.op_state().tilts
    assert TiltCode.REPLAY_MISMATCH.value in tilts
    assert tilts[TiltCode.REPLAY_MISMATCH.value].critical
    with Journal.open(path, clock=clock) as journal:  # still blocked after another restart
        recorder = Recorder(journal)
        recorder.recover()
        assert "tilt replay_mismatch" in recorder.op_state().why_play_stops


def test_a_broken_chain_raises_the_integrity_tilt(path: Path, clock: ManualClock) -> None:
    _run(path, clock, range(5), restart=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER log_no_update")
    conn.execute("UPDATE log SET actor = 'mallory' WHERE seq = 4")
    conn.close()
    with Journal.open(path, clock=clock) as journal:  # from the resume row after seq 4
        recorder = Recorder(journal)
        recorder.recover()
        report = recorder.last_recovery
        assert report is not None and report.chain is None and report.resume_seq > 4
        history = recorder.check_history()  # the chain from the first row to the resume row
        assert history is not None and history.chain is not None and history.chain.seq == 4
        assert TiltCode.JOURNAL_INTEGRITY.value in recorder.op_state().tilts
    with Journal.open(path, clock=clock) as journal:  # a full replay finds it at once
        recorder = Recorder(journal)
        recorder.recover()
        report = recorder.last_recovery
        assert report is not None and report.resume_seq == 0  # the last check found a problem
        assert report.chain is not None and report.chain.seq == 4


def test_end_of_input_is_journaled_and_replayed(path: Path, clock: ManualClock) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        recorder.record(SESSION.events[0].event, actor="table", role=DEVICE, at=0.0)
        recorder.finish(actor="station", role=ActorRole.STATION)
        assert journal.row(recorder.last_input_seq).code == Code.INPUT_END  # type: ignore[union-attr]
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover(strict=True)  # from the setup's resume row: the end is replayed
        report = recorder.last_recovery
        assert report is not None and report.resume_seq > 0 and report.inputs == 1
        recorder.recover(strict=True, use_resume=False)
        assert recorder.last_recovery is not None and recorder.last_recovery.inputs == 2
