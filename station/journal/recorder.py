"""The recorder: the only way input events reach the rules engine on a live table, and the
replay that rebuilds the station after a restart. Application service over the journal (edge).

`record(event, actor=, role=, at=)` feeds the engine and commits the input row together with
every row it derives (the decisions, a `table.hand_start` when a hand begins, an engine fault)
in ONE transaction, and only then tells the sinks. The engine is fed the event decoded back from
the journaled payload and `seq` = the input row's sequence number, so replay sees byte for byte
what the live run saw. When the input ended a hand (or set the table up) the same transaction
ends with a `table.resume` row: the table between hands and the operational fold, as a JSON
document (`resume_rows`, JOURNAL.md "The resume document").

`recover()` starts from the newest resume row: it builds the table and the fold back from its
document and replays only the rows after it (the hand in progress), re-deriving every derived
row and comparing it with the journal, checking the chain on the way; any engine version that
reads the document's format resumes there. A journal without one (written before resume rows)
is replayed from its first row, once: that recovery ends with a resume row. Then it journals the
boot (with the identity of the code that derives rows from now on: `engine_id`) and the
recovery. A mismatch or a chain problem is logged as an error and journaled as a critical tilt;
a difference in rows another engine wrote is engine drift, counted and reported; `strict=True`
raises on a mismatch. The tables the higher layers keep in
the same file are checked against their rows by the `checks` they pass in (the people table:
`station.people.check.PEOPLE_CHECKS`), each problem a critical tilt too.

What a start from a resume row took on trust is checked after READY (`history`): the chain from
the last verified anchor and the hand before the resume row. The daemon runs
`history.check_history` beside the core and hands the report to `journal_history`, which
journals `station.history_checked` (the new anchor) and a critical tilt for anything that
differs; `check_history()` does both here and now.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from station.engine.cards import DeckRegistry
from station.engine.decisions import Decision, HandEnd
from station.engine.events import InputEvent, Setup
from station.engine.resume import ResumeError, between_hands
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.payload import END_PAYLOAD, input_from_dict
from station.formats.session import event_to_dict
from station.journal import resume_rows
from station.journal.clock import format_utc, parse_utc
from station.journal.codes import (
    INPUT_CODE_BY_TYPE,
    INPUT_CODES,
    STATION_ACTOR,
    ActorRole,
    Code,
)
from station.journal.engine_id import writer_at
from station.journal.exc import IntegrityError, JournalWriteError, RecoveryMismatchError
from station.journal.history import NO_ANCHOR, HistoryPlan, HistoryReport, check_history
from station.journal.ops import OpState, OpsTracker
from station.journal.recovery_rows import (
    RecoveryReport,
    anchor_of,
    clean,
    describe,
    history_entries,
    recovery_entries,
)
from station.journal.replay import Replay, derive
from station.journal.resume_rows import ResumePoint
from station.journal.rows import COLUMNS, Entry, LogRow
from station.journal.store import CLOCK_STEP_S, Journal, Txn
from station.journal.verify import Problem, TableCheck

log = logging.getLogger(__name__)

DecisionSink = Callable[[int, Decision], None]


class Recorder:
    """Holds the `Table`: the engine, fed only through the journal. Call `recover()` once
    before the first `record()` (on a new journal it returns at once). `resume_rows=False`
    writes no resume rows (a journal as stations wrote before them: tests and benches)."""

    def __init__(
        self,
        journal: Journal,
        *,
        registry: DeckRegistry | None = None,
        resume_rows: bool = True,
        checks: Sequence[TableCheck] = (),
    ) -> None:
        self.journal = journal
        self.checks = tuple(checks)  # the higher layers' table checks, run at each recovery
        self.registry = registry
        self.write_resume = resume_rows
        self.history: HistoryPlan | None = None  # what the start took on trust, until checked
        self.last_history: HistoryReport | None = None  # what that check found
        self.table = Table(registry)
        self.ops = OpsTracker()
        self.sinks: list[DecisionSink] = []  # told after the commit, never before
        self.last_recovery: RecoveryReport | None = None
        self.last_input_seq = 0  # the input row of the last record() / finish()
        self._hand = 0
        self._recovered = False
        self._broken: str | None = None  # the engine is ahead of the journal
        self._foreign: str | None = None  # another process fed input into this journal
        self._resume_fault = ""  # why the last resume row could not be written ("" fine)
        self.clock_warning = ""  # the wall clock was behind the journal's last time at start
        journal.subscribe(self._on_row)

    # --- live ---------------------------------------------------------------------------------

    def record(
        self, event: InputEvent, *, actor: str, role: ActorRole, at: float | None
    ) -> list[Decision]:
        """Journal one input event and everything the engine derives from it, then return the
        decisions (committed); the `sinks` are told after the commit."""
        payload = event_to_dict(event, at)
        fed, fed_at = input_from_dict(payload)
        return self._record(payload, fed, fed_at, actor, role)

    def finish(self, *, actor: str, role: ActorRole) -> list[Decision]:
        """Journal the end of input (Table.finish), e.g. when a table closes."""
        return self._record(dict(END_PAYLOAD), None, None, actor, role)

    def _record(
        self,
        payload: dict[str, Any],
        fed: InputEvent | None,
        at: float | None,
        actor: str,
        role: ActorRole,
    ) -> list[Decision]:
        if not self._recovered:
            raise JournalWriteError("recover() the journal before recording")
        for problem in (self._broken, self._foreign):
            if problem is not None:
                raise JournalWriteError(f"recorder out of step ({problem}): recover() again")
        code = INPUT_CODE_BY_TYPE[payload["type"]]
        try:
            with self.journal.transaction() as txn:
                seq = txn.next_seq
                self._broken = "the engine was fed but the journal did not commit"
                entries, decisions, hand = derive(self.table, fed, seq, at, self._hand)
                txn.add(Entry(code, payload, actor, role, hand=hand))
                for entry in entries:
                    txn.add(entry)
                if self.write_resume and _resume_point(fed, decisions):
                    self._add_resume(txn, seq, _ended(decisions, hand))
        except JournalWriteError:
            if self._broken is not None:
                self._rewind()  # the event is not on record: neither may the engine hold it
            raise
        self._broken = None
        self._hand = hand
        self.last_input_seq = seq
        if entries and entries[0].code == Code.ENGINE_FAULT:
            log.error("rules engine fault on input seq %d: %s", seq, entries[0].payload["error"])
        for decision in decisions:
            for sink in self.sinks:
                sink(seq, decision)
        return decisions

    def _add_resume(self, txn: Txn, ref: int, hand: int) -> None:
        """End the transaction with a resume row: the table as this input left it, the fold
        over every row before the resume row (other processes' rows the store found first,
        and this transaction's). Nothing when the table has no document (logged once)."""
        if not between_hands(self.table):
            return
        ops = self.ops.copy()
        for row in (*txn.foreign, *txn.rows):
            if row.seq > ops.last_seq:
                ops.apply(row)
        try:
            entry = resume_rows.entry(self.table, ops, ref=ref, hand=hand)
        except ResumeError as exc:
            if str(exc) != self._resume_fault:
                log.warning("no resume row after input seq %d: %s", ref, exc)
            self._resume_fault = str(exc)
            return
        self._resume_fault = ""
        txn.add(entry)

    def _rewind(self) -> None:
        """After a commit failed (disk full, I/O): rebuild the engine and the fold from the
        journal as it stands, without writing to it (there may be no room), so that recording
        can go on as soon as the journal takes rows again. From the newest resume row this is
        the hand in progress. If even reading fails the recorder stays out of step."""
        try:
            head_seq, _ = self.journal.head()
            point, _ = self._resume_point(head_seq)
            replay = Replay(self.registry, self.journal.station_id, point)
            for row in self.journal.rows(point.seq if point is not None else 1):
                replay.row(row)
            replay.finish()
        except sqlite3.DatabaseError as exc:
            log.error("cannot rebuild the engine from the journal after a failed commit: %s", exc)
            return
        self.table, self.ops, self._hand = replay.table, replay.ops, replay.hand
        self._broken = None
        log.warning("engine rebuilt from the journal (seq %d) after a failed commit", head_seq)

    def snapshot(self) -> TableSnapshot:
        """The engine's snapshot, with CALL FLOOR as the journal holds it."""
        snap = self.table.snapshot()
        held = self.ops.floor_call is not None
        return snap if snap.floor_call == held else replace(snap, floor_call=held)

    def op_state(self) -> OpState:
        return self.ops.state()

    def _on_row(self, row: LogRow, own: bool) -> None:
        if not own and row.code in INPUT_CODES:
            self._foreign = f"another process fed input seq {row.seq}"
            log.error("another process fed input seq %d into this station's journal", row.seq)
        if row.seq > self.ops.last_seq:
            self.ops.apply(row)

    # --- restart ------------------------------------------------------------------------------

    def recover(self, *, strict: bool = False, use_resume: bool = True) -> tuple[Table, int]:
        """Rebuild engine and operational state from the journal. Returns (table, seq of the
        journal head afterwards). Details are in `last_recovery`.

        The pass over the journal only reads; everything recovery has to say (boot, tilts for
        what it found, the recovery itself) is appended afterwards in one transaction, so a kill
        during recovery leaves the journal as it found it. With `use_resume` it starts from the
        newest resume row it can read, and `history` says what to check after the start."""
        clock = self.journal.clock
        started_ns = clock.monotonic_ns()
        quick: tuple[str, ...] = ()
        try:
            head_seq, head_hash = self.journal.head()
            last = self.journal.row(head_seq)
            point, why_full = self._resume_point(head_seq) if use_resume else (None, "asked")
            if point is None:  # a full pass: the file's own check with it
                quick = tuple(self.journal.quick_check())
            replay = Replay(self.registry, self.journal.station_id, point)
            for row in self.journal.rows(point.seq if point is not None else 1):  # streamed
                replay.row(row)
            last_input = replay.last_input or (point.ref if point is not None else 0)
        except sqlite3.DatabaseError as exc:
            raise _damaged(quick or tuple(self.journal.quick_check()), exc) from exc
        replay.finish()
        down_s = None
        if last is not None:
            down_s = round((clock.utc() - parse_utc(last.recorded_utc)).total_seconds(), 3)
        walk_problem = replay.chain.problem  # the anchor is compared (and recorded) by the store
        chain_problem = replay.chain.finish(self.journal.anchor())
        duration_s = round((clock.monotonic_ns() - started_ns) / 1e9, 3)
        table = replay.table
        self.table, self.ops, self._hand = table, replay.ops, replay.hand
        self._recovered, self._broken, self._foreign = True, None, None
        report = RecoveryReport(
            0, replay.rows, replay.inputs, last_input, duration_s, down_s,
            tuple(replay.mismatches), replay.count, chain_problem, quick,
            point.seq if point is not None else 0, tuple(replay.drifts), replay.drift,
            why_full if point is None else "",
        )  # fmt: skip
        self.history = None
        if point is not None:
            anchor = self._anchor()
            self.history = HistoryPlan(anchor, (point.seq, point.prev_hash), (head_seq, head_hash))
        try:
            boot_seq = self._journal_recovery(report, head_seq, head_hash, walk_problem)
        except JournalWriteError as exc:
            if not quick:
                raise
            raise _damaged(quick, exc) from exc
        self.last_recovery = report = replace(report, boot_seq=boot_seq)
        _forget_checkpoints(self.journal.conn)
        if strict and not report.ok:
            first = report.mismatches[0].seq if report.mismatches else None
            seq = chain_problem.seq if chain_problem is not None else first
            raise RecoveryMismatchError(describe(report), seq)
        return table, self.journal.head()[0]

    def _resume_point(self, head_seq: int) -> tuple[ResumePoint | None, str]:
        """The newest resume row this station reads, or (None, why a full replay)."""
        conn = self.journal.conn
        found = conn.execute(_NEWEST, (Code.TABLE_RESUME.value, head_seq)).fetchone()
        if found is None:
            return None, "no resume row"
        checked = conn.execute(_NEWEST, (Code.HISTORY_CHECKED.value, head_seq)).fetchone()
        if checked is not None and not clean(LogRow.from_tuple(checked)):
            log.warning("the last history check found problems: replaying the whole journal")
            return None, "the last history check found problems"
        row = LogRow.from_tuple(found)
        try:
            point = resume_rows.load(row, self.registry, writer_at(conn, row.seq))
        except ResumeError as exc:
            log.warning("resume row %d not used (%s): replaying the whole journal", row.seq, exc)
            return None, str(exc)
        return point, ""

    def _anchor(self) -> tuple[int, str]:
        """The last row a check verified: the newest `station.history_checked` or full
        `station.recovered` row that names one (NO_ANCHOR: none, the walk starts at row 1)."""
        best = NO_ANCHOR
        for code in (Code.HISTORY_CHECKED, Code.RECOVERED):
            found = self.journal.conn.execute(_NEWEST, (code.value, 1 << 62)).fetchone()
            if found is None:
                continue
            row = LogRow.from_tuple(found)
            anchor = anchor_of(row)
            if anchor is not None and anchor[0] >= row.seq:
                # A check verifies rows before the row that records it: an anchor at or past
                # its own row was written by someone else. Not trusted: the walk starts from an
                # older anchor and so passes over this row, whose hash then tells.
                log.warning("seq %d names an anchor at seq %d: not used", row.seq, anchor[0])
                continue
            if anchor is not None and anchor[0] > best[0]:
                best = anchor
        return best

    def _journal_recovery(
        self, report: RecoveryReport, head_seq: int, head_hash: str, walk_problem: Problem | None
    ) -> int:
        entries = recovery_entries(
            report,
            head_seq,
            head_hash,
            walk_problem,
            self._clock_behind(),
            self._table_problems(),
            self._hand,
        )
        with self.journal.transaction() as txn:
            for entry in entries:
                txn.add(entry)
            if self.write_resume and report.resume_seq == 0 and report.last_input_seq:
                self._add_resume(txn, report.last_input_seq, self._hand)  # the next start's
        return next(r.seq for r in txn.rows if r.code == Code.BOOT)

    def _clock_behind(self) -> Entry | None:
        """A `clock.step` when the wall clock is behind the last wall time the station recorded
        (its last row, or the head witness, which the daemon refreshes every minute): the clock
        went back while the station was off, or the machine woke up in 1993."""
        journal = self.journal
        head = journal.row(journal.head()[0])
        last = head.recorded_utc if head is not None else ""
        try:
            known = journal.witness.read() if journal.witness is not None else None
        except OSError:
            known = None
        if known is not None and known.utc > last:
            last = known.utc
        if not last:
            return None
        now = journal.clock.utc()
        step_s = round((now - parse_utc(last)).total_seconds(), 3)
        if step_s >= -CLOCK_STEP_S:
            self.clock_warning = ""
            return None
        self.clock_warning = f"clock {-step_s:.0f} s behind the journal's last time {last}"
        log.warning("wall clock is %.3f s behind the last recorded time %s", -step_s, last)
        payload = {
            "step_s": step_s,
            "last_utc": last,
            "now_utc": format_utc(now),
            "found": "at start: behind the last recorded time",
        }
        return Entry(Code.CLOCK_STEP, payload, STATION_ACTOR, ActorRole.STATION)

    def _table_problems(self) -> list[Problem]:
        """What the `checks` find (the people table's credentials that their journal rows do
        not vouch for: `station.people.check`), each said once while its tilt stays open."""
        open_details = {t.detail for t in self.ops.tilts.values()}
        found = [p for check in self.checks for p in check(self.journal.conn)]
        return [p for p in found if p.text[:300] not in open_details]

    # --- after a start from a resume row ------------------------------------------------------

    def check_history(self) -> HistoryReport | None:
        """Check, here and now, what the start took on trust (see `history.check_history`),
        and journal the result. None when recovery started from the first row."""
        if self.history is None:
            return None
        report = check_history(
            self.journal.path, self.journal.station_id, self.registry, self.history
        )
        if report is not None:
            self.journal_history(report)
        return report

    def journal_history(self, report: HistoryReport) -> None:
        """Journal what the history check found: a `station.history_checked` row (naming the
        new anchor when it is clean), and a critical tilt for each kind of problem; engine
        drift is counted in the row and logged. After a check with problems the next start
        replays the whole journal (`_resume_point`)."""
        self.journal.append(history_entries(report, self._hand))
        self.history, self.last_history = None, report


_NEWEST = (
    f"SELECT {', '.join(COLUMNS)} FROM log WHERE code = ? AND seq <= ? ORDER BY seq DESC LIMIT 1"
)


def _resume_point(fed: InputEvent | None, decisions: list[Decision]) -> bool:
    """A resume row follows an input that ended a hand, or set the table up."""
    return isinstance(fed, Setup) or any(isinstance(d, HandEnd) for d in decisions)


def _ended(decisions: list[Decision], hand: int) -> int:
    """The resume row's hand: the hand that ended (the last one, if several), else `hand`."""
    ends = [d.hand for d in decisions if isinstance(d, HandEnd)]
    return ends[-1] if ends else hand


def _forget_checkpoints(conn: sqlite3.Connection) -> None:
    """Empty the `checkpoint` table of the stations before resume rows (pickled states, a cache
    beside the chain that nothing reads any more)."""
    try:
        if conn.execute("SELECT 1 FROM checkpoint LIMIT 1").fetchone() is not None:
            conn.execute("DELETE FROM checkpoint")
            log.info("old recovery checkpoints deleted (resume rows replace them)")
    except sqlite3.Error as exc:
        log.warning("old recovery checkpoints not deleted: %s", exc)


def _damaged(quick: tuple[str, ...], exc: Exception) -> IntegrityError:
    """The file itself is damaged: nothing can be recorded, so play must stop (the daemon shows
    the tilt without a journal row) until a technician restores or replaces the journal."""
    first = quick[0].splitlines()[-1] if quick else str(exc)
    log.critical("JOURNAL DAMAGED, NOTHING CAN BE RECORDED: %s", first)
    return IntegrityError(f"the journal file is damaged: {first}")
