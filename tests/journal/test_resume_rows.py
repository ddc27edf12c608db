"""Resume rows in the journal: one per finished hand, in the transaction of the input that ended
it; a restart resumes from the newest and replays only what follows, to the very state a full
replay reaches; a journal written before them is replayed whole once; a row this station cannot
read is passed over; a forged document is caught by the history check after the start, and the
next start replays everything; engine drift in another code's stretch is reported, not tilted;
the scrub re-derives the whole journal and goes on after a stop; views and exports do not see
resume rows."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from station.bench.scripted import nlhe_session
from station.engine.decisions import HandEnd
from station.engine.events import Key, Setup
from station.formats.decisions import decision_to_dict
from station.formats.session import read_session
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code, TiltCode
from station.journal.engine_id import deriving_code
from station.journal.recorder import Recorder
from station.journal.rows import COLUMNS, Entry, LogRow
from station.journal.schema import expected_trigger_sql
from station.journal.scrub import ScrubProgress, scrub
from station.journal.store import Journal
from station.journal.witness import witness_path
from tests.scenario_kit import all_scenarios

from .conftest import STATION

DEVICE = ActorRole.DEVICE
SESSION = nlhe_session(10, seed=7)  # re-seated once (every eighth hand)
HANDS = 10


def _write(path: Path, clock: ManualClock, *, resume_rows: bool = True, upto: int = 0) -> None:
    events = SESSION.events[: upto or len(SESSION.events)]
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        recorder = Recorder(journal, resume_rows=resume_rows)
        recorder.recover()
        for item in events:
            clock.advance(0.5)
            recorder.record(item.event, actor="table", role=DEVICE, at=item.t)
    clock.reboot("boot-2", down_s=30)


def _rows(path: Path) -> list[LogRow]:
    with closing(sqlite3.connect(path)) as conn:
        return [
            LogRow.from_tuple(t)
            for t in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log ORDER BY seq")
        ]


def _recover(path: Path, clock: ManualClock, **kw: bool) -> Recorder:
    journal = Journal.open(path, clock=clock)
    recorder = Recorder(journal)
    recorder.recover(**kw)
    return recorder


def test_each_hand_end_writes_a_resume_row_with_the_input_that_ended_it(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock)
    rows = _rows(path)
    resumes = [r for r in rows if r.code == Code.TABLE_RESUME]
    ends = [r for r in rows if r.code == Code.DECISION_HAND_END]
    setups = [r for r in rows if r.code == Code.INPUT_SETUP]
    assert len(ends) == HANDS and len(setups) == 2 and len(resumes) == len(ends) + len(setups)
    by_seq = {r.seq: r for r in rows}
    for end in ends:
        resume = next(r for r in resumes if r.ref == end.ref)
        assert end.ref is not None
        # the same transaction (one time stamp), the last row of it, the ended hand's number
        assert resume.recorded_at_ns == by_seq[end.ref].recorded_at_ns
        assert by_seq.get(resume.seq + 1) is None or by_seq[resume.seq + 1].ref != end.ref
        assert all(r.ref == end.ref for r in rows if end.ref < r.seq < resume.seq)
        assert resume.hand == end.hand and resume.role == ActorRole.ENGINE
        doc = resume.data()
        assert doc["format"] == 1 and doc["engine"]["code"] == deriving_code()
        result = doc["table"]["last_hand"]["result"]
        # the hand_end as printed, each pot with the winning hand as announced besides
        named = [pot.pop("named", "") for pot in result["pots"]]
        assert result == end.data() and all(isinstance(n, str) for n in named)


def test_a_restart_resumes_from_the_newest_row_and_reaches_the_state_of_a_full_replay(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock, upto=len(SESSION.events) - 12)  # stopped in the middle of the last hand
    rows = _rows(path)
    newest = max(r.seq for r in rows if r.code == Code.TABLE_RESUME)
    fast = _recover(path, clock)
    report = fast.last_recovery
    assert report is not None and report.ok and report.resume_seq == newest
    assert report.rows == rows[-1].seq - newest + 1  # that row and the rows after it
    inputs = [r for r in rows if r.code.startswith("input.") and r.seq > newest]
    assert report.inputs == len(inputs) > 0
    full = _recover(path, clock, use_resume=False)
    assert full.last_recovery is not None and full.last_recovery.resume_seq == 0
    assert full.snapshot() == fast.snapshot()
    assert full.ops.to_doc() == fast.ops.to_doc()
    for r in (fast, full):
        r.journal.close()


def test_a_journal_from_before_resume_rows_is_replayed_whole_once(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock, resume_rows=False)
    assert not [r for r in _rows(path) if r.code == Code.TABLE_RESUME]
    first = _recover(path, clock)
    assert first.last_recovery is not None and first.last_recovery.resume_seq == 0
    assert first.last_recovery.why_full == "no resume row"
    snap = first.snapshot()
    first.journal.close()
    written = [r for r in _rows(path) if r.code == Code.TABLE_RESUME]
    assert len(written) == 1  # at the end of that replay
    again = _recover(path, clock)
    assert again.last_recovery is not None and again.last_recovery.resume_seq == written[0].seq
    assert again.last_recovery.inputs == 0 and again.snapshot() == snap
    again.journal.close()


def test_old_checkpoints_are_deleted(path: Path, clock: ManualClock) -> None:
    _write(path, clock)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(
            "INSERT INTO checkpoint VALUES (5, 'h', 'c', ?, 's')", (b"\x80\x05pickled state",)
        )
        conn.commit()
    _recover(path, clock).journal.close()
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM checkpoint").fetchone()[0] == 0


def test_a_resume_row_this_station_cannot_read_is_passed_over(
    path: Path, clock: ManualClock
) -> None:
    """A newer station's row (as after a downgrade): a full replay instead, which counts the
    row it cannot reach as the other code's drift."""
    _write(path, clock)
    with Journal.open(path, clock=clock) as journal:
        later = {"format": 2, "table": {}, "ops": {}}
        journal.append([Entry(Code.TABLE_RESUME, later, "engine", ActorRole.ENGINE)])
    _rechain(path, _other_boots)
    recorder = _recover(path, clock)
    report = recorder.last_recovery
    assert report is not None and report.resume_seq == 0 and "format 2" in report.why_full
    assert report.ok and report.drift_count == 1
    recorder.journal.close()


def test_a_forged_resume_document_is_caught_after_the_start_and_the_next_start_replays_all(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock)
    newest = [r for r in _rows(path) if r.code == Code.TABLE_RESUME][-1].data()
    newest["table"]["seats"]["1"]["stack"] += 5000  # seat 1 is a rich man now
    with Journal.open(path, clock=clock) as journal:  # appended by someone with the files
        journal.append([Entry(Code.TABLE_RESUME, newest, "engine", ActorRole.ENGINE)])
    recorder = _recover(path, clock)
    report = recorder.last_recovery
    assert report is not None and report.ok  # the start takes it on trust...
    assert recorder.table.stacks[1] is not None and recorder.table.stacks[1] > 5000
    history = recorder.check_history()  # ...and the check after it does not
    assert history is not None and history.mismatch_count == 1
    assert "seats.1.stack" in history.mismatches[0].text
    assert "tilt replay_mismatch" in recorder.op_state().why_play_stops
    recorder.journal.close()
    again = _recover(path, clock)
    assert again.last_recovery is not None and again.last_recovery.resume_seq == 0
    assert again.last_recovery.why_full == "the last history check found problems"
    assert again.last_recovery.mismatch_count == 1  # the forged row, compared with replay
    again.journal.close()


def _rechain(path: Path, edit: Callable[[LogRow], str | None]) -> None:
    """Rewrite payloads (`edit` returns the new one, or None) and every hash after the first
    edit, the anchor, the triggers and the head witness, as someone holding the files could."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in names:
            conn.execute(f"DROP TRIGGER {name}")
        prev = None
        for t in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log ORDER BY seq").fetchall():
            row = LogRow.from_tuple(t)
            payload = edit(row)
            if payload is None and prev is None:
                continue
            fields = {**row.fields(), "payload": payload or row.payload}
            new = LogRow(**fields, prev_hash=prev or row.prev_hash, hash="")
            new = new._replace(hash=new.computed_hash())
            conn.execute(
                "UPDATE log SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                (new.payload, new.prev_hash, new.hash, new.seq),
            )
            prev = new.hash
        head = conn.execute("SELECT seq, hash FROM log ORDER BY seq DESC LIMIT 1").fetchone()
        conn.execute("UPDATE anchor SET head_seq = ?, head_hash = ?", head)
        for name in names:
            conn.execute(expected_trigger_sql(name))
    witness_path(path).unlink()  # (a journal from before the witness, as far as anyone knows)


def _changed_prompt(row: LogRow) -> str | None:
    """A prompt text the engine now says otherwise (as between two versions)."""
    if row.code == Code.DECISION_PROMPT and '"DEAL: FIRST CARD' in row.payload:
        return row.payload.replace("DEAL: FIRST CARD", "DEAL THE FIRST CARD")
    return None


def _other_boots(row: LogRow) -> str | None:
    """Every boot row names another engine: every stretch was written by other code."""
    if row.code == Code.BOOT:
        data = row.data()
        data["engine"]["code"] = "0" * 64
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    return None


def _older_boots(row: LogRow) -> str | None:
    return _other_boots(row) or _changed_prompt(row)


def test_differences_in_rows_other_engine_code_wrote_are_drift_not_tampering(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock)
    _rechain(path, _older_boots)
    recorder = _recover(path, clock, use_resume=False)
    report = recorder.last_recovery
    assert report is not None and report.mismatch_count == 0 and report.drift_count == HANDS
    assert "prompt" in report.drifts[0].text
    assert TiltCode.REPLAY_MISMATCH.value not in recorder.op_state().tilts
    recorder.journal.close()


def test_the_same_difference_in_rows_this_code_wrote_is_a_mismatch(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock)
    _rechain(path, _changed_prompt)
    recorder = _recover(path, clock, use_resume=False)
    report = recorder.last_recovery
    assert report is not None and report.mismatch_count == HANDS and report.drift_count == 0
    assert "tilt replay_mismatch" in recorder.op_state().why_play_stops
    recorder.journal.close()


# --- the history check's anchor ------------------------------------------------------------------


def test_the_history_check_walks_only_what_is_new_since_the_last_verified_anchor(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock, upto=len(SESSION.events) // 2)
    first = _recover(path, clock)
    checked = first.check_history()
    assert checked is not None and checked.ok and checked.from_seq > 0  # the first start's
    assert checked.anchor is not None
    for item in SESSION.events[len(SESSION.events) // 2 :]:
        first.record(item.event, actor="table", role=DEVICE, at=item.t)
    first.journal.close()
    again = _recover(path, clock)
    second = again.check_history()
    assert second is not None and second.ok
    assert second.from_seq == checked.anchor[0]  # from where the last check got to
    assert second.rows == second.upto_seq - 1 - second.from_seq
    assert second.rederived_from > 0 and second.inputs > 0  # the hand before the start
    again.journal.close()


def test_an_anchor_forged_past_its_own_row_is_not_trusted(path: Path, clock: ManualClock) -> None:
    """A probe's: the anchor in the last check's row edited to a later row (and a draw after the
    old anchor edited, no hash recomputed). The anchor is not trusted (a check only ever verifies
    rows before the row that records it), so the walk passes over the edited rows and says so."""
    _write(path, clock, upto=len(SESSION.events) // 2)
    first = _recover(path, clock)
    checked = first.check_history()
    assert checked is not None and checked.ok and checked.anchor is not None
    for item in SESSION.events[len(SESSION.events) // 2 :]:
        first.record(item.event, actor="table", role=DEVICE, at=item.t)
    first.journal.close()
    rows = _rows(path)
    history_row = [r for r in rows if r.code == Code.HISTORY_CHECKED][-1]
    late = rows[-3]  # a row after the last check, its hash left as it was
    edited = next(r for r in rows if r.seq > checked.anchor[0] and r.code == Code.INPUT_DRAW)
    forged = {**history_row.data(), "anchor": {"seq": late.seq, "hash": late.hash}}
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in names:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(
            "UPDATE log SET payload = ? WHERE seq = ?",
            (json.dumps(forged, sort_keys=True, separators=(",", ":")), history_row.seq),
        )
        conn.execute(
            "UPDATE log SET payload = replace(payload, '\"face_up\":false', '\"face_up\":true') "
            "WHERE seq = ?",
            (edited.seq,),
        )
        for name in names:
            conn.execute(expected_trigger_sql(name))
    again = _recover(path, clock)
    second = again.check_history()
    assert second is not None and not second.ok
    assert second.from_seq < history_row.seq  # walked from an older anchor, over the forged row
    again.journal.close()


# --- the scrub ----------------------------------------------------------------------------------


def _scrub(path: Path, start: ScrubProgress, stop: threading.Event | None = None) -> ScrubProgress:
    reports: list[ScrubProgress] = []

    def report(p: ScrubProgress) -> None:
        reports.append(p)
        if stop is not None and p.hands >= 2:
            stop.set()

    return scrub(
        path, STATION, None, start, running=deriving_code(), report=report, stop=stop,
        progress_s=0.0,
    )  # fmt: skip


def test_the_scrub_rederives_everything_and_goes_on_after_a_stop(
    path: Path, clock: ManualClock
) -> None:
    _write(path, clock)
    head = _rows(path)[-1].seq
    whole = _scrub(path, ScrubProgress(run=1, target_seq=head))
    assert whole.done and whole.ok and whole.upto_seq == head and whole.rows == head
    assert whole.hands == len([r for r in _rows(path) if r.code == Code.TABLE_RESUME])
    stopped = _scrub(path, ScrubProgress(run=1, target_seq=head), threading.Event())
    assert not stopped.done and 0 < stopped.resume_seq < head
    rest = _scrub(path, stopped)
    assert rest.done and rest.ok and rest.upto_seq == head
    assert (rest.rows, rest.inputs, rest.hands) == (whole.rows, whole.inputs, whole.hands)


def test_the_scrub_finds_a_rewritten_derived_row(path: Path, clock: ManualClock) -> None:
    _write(path, clock)
    _rechain(path, _changed_prompt)
    head = _rows(path)[-1].seq
    found = _scrub(path, ScrubProgress(run=1, target_seq=head))
    assert found.done and not found.ok and found.mismatches == HANDS and found.chain_ok
    assert "prompt" in found.first_mismatch


# --- the views ------------------------------------------------------------------------------


def test_the_hand_views_and_the_phh_export_do_not_see_resume_rows(
    tmp_path: Path, clock: ManualClock
) -> None:
    from station.phh.export import phh_document
    from station.recall.hands import load_hand

    views = []
    for resume_rows in (True, False):
        path = tmp_path / f"{resume_rows}.sqlite3"
        _write(path, clock, resume_rows=resume_rows)
        with Journal.open(path, clock=clock) as journal:
            recalls = [load_hand(journal, n) for n in range(1, HANDS + 1)]
        found = [r for r in recalls if r is not None]
        steps = [[(s.kind, s.text, s.seat, s.card) for s in r.steps] for r in found]
        views.append((steps, [r.hand_end for r in found], phh_document(found)[0]))
    with_rows, without = views
    assert with_rows[0] == without[0] and len(with_rows[0]) == HANDS
    assert [_result(e) for e in with_rows[1]] == [_result(e) for e in without[1]]
    assert with_rows[2] == without[2]


def _result(end: HandEnd | None) -> object:
    assert end is not None
    d = decision_to_dict(end)
    del d["event"]  # an input's seq: the journals' seqs differ by the resume rows before it
    return d


def test_a_tournament_table_restarted_mid_event_goes_on_as_a_full_replay_says(
    tmp_path: Path, clock: ManualClock
) -> None:
    """Each tournament scenario with more than one hand, stopped in its last hand: the start
    resumes from the newest resume row (its table a tournament's, with its clock) to the state
    a full replay reaches; the rest of the session recorded after it derives exactly the rows a
    full replay of the whole journal derives (no mismatch, the resume rows included)."""
    checked = 0
    for sc in all_scenarios():
        lines = read_session(sc.path).lines
        setup = lines[0].event
        starts = [i for i, ln in enumerate(lines) if getattr(ln.event, "key", None) is Key.NEW_HAND]
        if not isinstance(setup, Setup) or setup.tournament is None or len(starts) < 2:
            continue
        path = tmp_path / f"{checked}.sqlite3"
        cut = starts[-1] + 1  # the last hand dealt, not over
        with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
            first = Recorder(journal)
            first.recover()
            for ln in lines[:cut]:
                clock.advance(0.5)
                first.record(ln.event, actor="table", role=DEVICE, at=ln.t)
        clock.reboot(f"boot-{checked}", down_s=30)
        fast = _recover(path, clock)
        report = fast.last_recovery
        assert report is not None and report.ok and report.resume_seq > 0, sc.name
        doc = fast.journal.row(report.resume_seq)
        assert doc is not None and doc.data()["table"]["tournament"] is not None, sc.name
        full = _recover(path, clock, use_resume=False)
        assert full.snapshot() == fast.snapshot(), sc.name
        full.journal.close()
        for ln in lines[cut:]:
            clock.advance(0.5)
            fast.record(ln.event, actor="table", role=DEVICE, at=ln.t)
        fast.journal.close()
        clock.reboot(f"boot-{checked}-b", down_s=30)
        again = _recover(path, clock, use_resume=False)
        replayed = again.last_recovery
        assert replayed is not None and replayed.ok, f"{sc.name}: {replayed}"
        again.journal.close()
        checked += 1
    assert checked >= 10
