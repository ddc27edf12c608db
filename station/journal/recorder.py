"""The recorder: the only way input events reach the rules engine on a live table, and the
replay that rebuilds the station after a restart. Application service over the journal (edge).

`record(event, actor=, role=, at=)` feeds the engine and commits the input row together with
every row it derives (the decisions, a `table.hand_start` when a hand begins, an engine fault)
in ONE transaction, and only then tells the sinks. The engine is fed the event decoded back from
the journaled payload and `seq` = the input row's sequence number, so replay sees byte for byte
what the live run saw.

`recover()` replays every journaled input through a fresh table, checks that each derived row
it re-derives equals the one in the journal, rebuilds the operational state (CALL FLOOR, tilts,
mode, sessions) by folding every row, and checks the hash chain on the way; then it journals the
boot and the recovery. A mismatch or a chain problem is logged as an error and journaled as a
critical tilt; `strict=True` also raises. The tables the higher layers keep in the same file
are checked against their rows by the `checks` they pass in (the people table:
`station.people.check.PEOPLE_CHECKS`), each problem a critical tilt too.

Checkpoints (`station.journal.checkpoint`) keep a restart short on a long journal: at the start
of every `checkpoint_every`-th hand the recorder saves its state beside the chain, and
`recover()` starts from the newest usable one, replaying (and checking) only the rows after it.
What it skipped is checked after the station is up: `check_history()` (the daemon runs
`history.check_history` on a thread of its own and hands the report to `journal_history`)
replays from the first row to the checkpoint and journals a `station.history_checked` row, and a
critical tilt for anything that differs.
"""

from __future__ import annotations

import logging
import pickle
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from station.engine.cards import DeckRegistry
from station.engine.decisions import Decision
from station.engine.events import InputEvent
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.payload import END_PAYLOAD, input_from_dict
from station.formats.session import event_to_dict
from station.journal import checkpoint
from station.journal.checkpoint import Checkpoint, RecorderState
from station.journal.clock import format_utc, parse_utc
from station.journal.codes import (
    INPUT_CODE_BY_TYPE,
    INPUT_CODES,
    STATION_ACTOR,
    ActorRole,
    Code,
    TiltCode,
)
from station.journal.exc import IntegrityError, JournalWriteError, RecoveryMismatchError
from station.journal.history import HistoryReport, check_history
from station.journal.ops import OpState, OpsTracker
from station.journal.replay import Mismatch, Replay, derive
from station.journal.rows import Entry, LogRow
from station.journal.store import CLOCK_STEP_S, Journal
from station.journal.verify import Problem, TableCheck
from station.version import VERSION

log = logging.getLogger(__name__)

DecisionSink = Callable[[int, Decision], None]


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    boot_seq: int  # the station.boot row of this start
    rows: int  # rows read
    inputs: int  # input events replayed
    last_input_seq: int
    duration_s: float
    down_s: float | None  # wall time since the last row before this boot
    mismatches: tuple[Mismatch, ...]  # the first replay.MAX_REPORTED
    mismatch_count: int
    chain: Problem | None
    quick_check: tuple[str, ...]
    checkpoint_seq: int = 0  # replay started after this row (0: from the first row)

    @property
    def ok(self) -> bool:
        return self.mismatch_count == 0 and self.chain is None and not self.quick_check


class Recorder:
    """Holds the `Table`: the engine, fed only through the journal. Call `recover()` once
    before the first `record()` (on a new journal it returns at once)."""

    def __init__(
        self,
        journal: Journal,
        *,
        registry: DeckRegistry | None = None,
        checkpoint_every: int = checkpoint.EVERY_HANDS,
        checks: Sequence[TableCheck] = (),
    ) -> None:
        self.journal = journal
        self.checks = tuple(checks)  # the higher layers' table checks, run at each recovery
        self.registry = registry
        self.checkpoint_every = checkpoint_every  # hands between checkpoints; 0: none
        self.history: Checkpoint | None = None  # recovery started here: check what it skipped
        self.last_history: HistoryReport | None = None  # what that check found
        self._checkpoint_hand = 0  # the hand the last checkpoint was taken in
        self.table = Table(registry)
        self.ops = OpsTracker()
        self.sinks: list[DecisionSink] = []  # told after the commit, never before
        self.last_recovery: RecoveryReport | None = None
        self.last_input_seq = 0  # the input row of the last record() / finish()
        self._hand = 0
        self._recovered = False
        self._broken: str | None = None  # the engine is ahead of the journal
        self._foreign: str | None = None  # another process fed input into this journal
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
        except JournalWriteError:
            if self._broken is not None:
                self._rewind()  # the event is not on record: neither may the engine hold it
            raise
        self._broken = None
        started, self._hand = hand != self._hand, hand
        self.last_input_seq = seq
        if entries and entries[0].code == Code.ENGINE_FAULT:
            log.error("rules engine fault on input seq %d: %s", seq, entries[0].payload["error"])
        for decision in decisions:
            for sink in self.sinks:
                sink(seq, decision)
        if (
            started
            and self.checkpoint_every > 0
            and hand - self._checkpoint_hand >= self.checkpoint_every
        ):
            self.save_checkpoint()
        return decisions

    def _rewind(self) -> None:
        """After a commit failed (disk full, I/O): rebuild the engine and the fold from the
        journal as it stands, without writing to it (there may be no room), so that recording
        can go on as soon as the journal takes rows again. From the newest checkpoint this is a
        few hands of replay. If even reading fails the recorder stays out of step (recover())."""
        try:
            head_seq, _ = self.journal.head()
            _, start = self._checkpoint_start(head_seq)
            replay = Replay(self.registry, self.journal.station_id, start)
            for row in self.journal.rows(start[0] + 1 if start is not None else 1):
                replay.row(row)
            replay.finish()
        except sqlite3.DatabaseError as exc:
            log.error("cannot rebuild the engine from the journal after a failed commit: %s", exc)
            return
        self.table, self.ops, self._hand = replay.table, replay.ops, replay.hand
        self._broken = None
        log.warning("engine rebuilt from the journal (seq %d) after a failed commit", head_seq)

    def save_checkpoint(self) -> bool:
        """Save the state as it stands at the journal head (False when not saved: rows the
        recorder has not folded yet, or a failed write, which costs only replay time)."""
        head_seq, head_hash = self.journal.head()
        if self.ops.last_seq != head_seq or self._broken or self._foreign:
            return False
        state = RecorderState(self.table, self.ops, self._hand)
        try:
            checkpoint.save(self.journal.conn, checkpoint.make(head_seq, head_hash, state))
        except (sqlite3.Error, pickle.PicklingError, TypeError, AttributeError) as exc:
            log.warning("recovery checkpoint at seq %d not saved: %s", head_seq, exc)
            return False
        self._checkpoint_hand = self._hand
        return True

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
        self.ops.apply(row)

    # --- restart ------------------------------------------------------------------------------

    def recover(self, *, strict: bool = False, use_checkpoint: bool = True) -> tuple[Table, int]:
        """Rebuild engine and operational state from the journal. Returns (table, seq of the
        journal head afterwards). Details are in `last_recovery`.

        The pass over the journal only reads; everything recovery has to say (boot, tilts for
        what it found, the recovery itself) is appended afterwards in one transaction, so a kill
        during recovery leaves the journal as it found it. With `use_checkpoint` it starts from
        the newest usable checkpoint, and `history` names it until `journal_history()`."""
        clock = self.journal.clock
        started_ns = clock.monotonic_ns()
        quick: tuple[str, ...] = ()
        try:
            head_seq, _ = self.journal.head()
            last = self.journal.row(head_seq)
            found, start = self._checkpoint_start(head_seq) if use_checkpoint else (None, None)
            if start is None:  # from a checkpoint the file's check comes with the history's
                quick = tuple(self.journal.quick_check())
            replay = Replay(self.registry, self.journal.station_id, start)
            begin = start[0] + 1 if start is not None else 1
            for row in self.journal.rows(begin):  # streamed: may be far bigger than RAM
                replay.row(row)
            last_input = replay.last_input or self._last_input_before(begin)
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
        self.history = found if start is not None else None
        self._checkpoint_hand = start[2].hand if start is not None else 0
        report = RecoveryReport(
            0, replay.rows, replay.inputs, last_input, duration_s, down_s,
            tuple(replay.mismatches), replay.count, chain_problem, quick,
            start[0] if start is not None else 0,
        )  # fmt: skip
        try:
            boot_seq = self._journal_recovery(report, head_seq, walk_problem)
        except JournalWriteError as exc:
            if not quick:
                raise
            raise _damaged(quick, exc) from exc
        self.last_recovery = report = replace(report, boot_seq=boot_seq)
        if report.ok and report.inputs and self.checkpoint_every > 0:
            self.save_checkpoint()  # the next start need not replay what this one did
        if strict and not report.ok:
            first = report.mismatches[0].seq if report.mismatches else None
            seq = chain_problem.seq if chain_problem is not None else first
            raise RecoveryMismatchError(_describe(report), seq)
        return table, self.journal.head()[0]

    def _journal_recovery(
        self, report: RecoveryReport, head_seq: int, walk_problem: Problem | None
    ) -> int:
        entries = [
            Entry(
                Code.BOOT,
                {"version": VERSION, "previous_head_seq": head_seq, "down_s": report.down_s},
                STATION_ACTOR,
                ActorRole.STATION,
            )
        ]
        behind = self._clock_behind()
        if behind is not None:
            entries.append(behind)
        if report.mismatch_count:
            first = report.mismatches[0]
            log.error(
                "REPLAY MISMATCH: %d derived row(s) differ, first at seq %d (%s)",
                report.mismatch_count,
                first.seq,
                first.text,
            )
            detail = f"{report.mismatch_count} row(s), first at seq {first.seq}"
            entries.append(_tilt(TiltCode.REPLAY_MISMATCH, detail, first.seq))
        if walk_problem is not None or report.quick_check:
            text = walk_problem.text if walk_problem else report.quick_check[0].splitlines()[-1]
            log.error("JOURNAL INTEGRITY: %s", text)
            seq = walk_problem.seq if walk_problem else None
            entries.append(_tilt(TiltCode.JOURNAL_INTEGRITY, text[:300], seq))
        for problem in self._table_problems():
            log.error("JOURNAL INTEGRITY: %s", problem.text)
            entries.append(_tilt(TiltCode.JOURNAL_INTEGRITY, problem.text[:300], problem.seq))
        entries.append(
            Entry(
                Code.RECOVERED,
                {
                    "inputs": report.inputs,
                    "last_input_seq": report.last_input_seq,
                    "rows": report.rows,
                    "duration_s": report.duration_s,
                    "down_s": report.down_s,
                    "mismatches": report.mismatch_count,
                    "chain_ok": report.chain is None,
                    "quick_check_ok": not report.quick_check,
                    "checkpoint_seq": report.checkpoint_seq,
                },
                STATION_ACTOR,
                ActorRole.STATION,
                hand=self._hand,
            )
        )
        rows = self.journal.append(entries)
        log.info(
            "recovered %d input(s) up to seq %d in %.3f s (down %s s)",
            report.inputs,
            report.last_input_seq,
            report.duration_s,
            report.down_s,
        )
        return next(r.seq for r in rows if r.code == Code.BOOT)

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

    def _checkpoint_start(
        self, head_seq: int
    ) -> tuple[Checkpoint | None, tuple[int, str, RecorderState] | None]:
        found = checkpoint.latest(self.journal.conn, head_seq)
        if found is None:
            return None, None
        row = self.journal.row(found.seq)
        state, why = checkpoint.usable(found, row.hash if row is not None else None, self.registry)
        if state is None:
            log.warning("recovery checkpoint at seq %d not used: %s", found.seq, why)
            return found, None
        return found, (found.seq, found.row_hash, state)

    def _last_input_before(self, seq: int) -> int:
        """The last input row before `seq` (recovery from a checkpoint saw none after it)."""
        codes = sorted(INPUT_CODES)
        found = self.journal.conn.execute(
            f"SELECT MAX(seq) FROM log WHERE seq < ? AND code IN ({', '.join('?' * len(codes))})",
            (seq, *codes),
        ).fetchone()
        return int(found[0]) if found and found[0] is not None else 0

    # --- after a restart from a checkpoint ----------------------------------------------------

    def check_history(self) -> HistoryReport | None:
        """Check, here and now, what recovery skipped (see `history.check_history`), and
        journal the result. None when recovery started from the first row."""
        if self.history is None:
            return None
        report = check_history(
            self.journal.path, self.journal.station_id, self.registry, self.history
        )
        if report is not None:
            self.journal_history(report)
        return report

    def journal_history(self, report: HistoryReport) -> None:
        """Journal what the check of the history before the checkpoint found: a
        `station.history_checked` row, and a critical tilt for each kind of problem. A checkpoint
        that does not match its history is dropped with the rest, so the next start replays the
        whole journal."""
        entries: list[Entry] = []
        where = f"before the checkpoint at seq {report.upto_seq}"
        if report.mismatch_count:
            first = report.mismatches[0]
            text = f"{report.mismatch_count} row(s) {where}, first at seq {first.seq}"
            log.error("REPLAY MISMATCH: %s (%s)", text, first.text)
            entries.append(_tilt(TiltCode.REPLAY_MISMATCH, text, first.seq))
        if report.quick_check:
            text = "SQLite quick_check: " + report.quick_check[0].splitlines()[-1]
            log.error("JOURNAL INTEGRITY: %s", text)
            entries.append(_tilt(TiltCode.JOURNAL_INTEGRITY, text[:300], None))
        if report.chain is not None:
            log.error("JOURNAL INTEGRITY: %s", report.chain.text)
            problem = report.chain
            entries.append(_tilt(TiltCode.JOURNAL_INTEGRITY, problem.text[:300], problem.seq))
        if report.state is not None:
            text = f"the checkpoint at seq {report.upto_seq} differs from its history: "
            text += report.state
            log.error("REPLAY MISMATCH: %s", text)
            entries.append(_tilt(TiltCode.REPLAY_MISMATCH, text[:300], report.upto_seq))
        if not report.ok:
            checkpoint.drop_all(self.journal.conn)
        entries.append(
            Entry(
                Code.HISTORY_CHECKED,
                {
                    "upto_seq": report.upto_seq,
                    "rows": report.rows,
                    "inputs": report.inputs,
                    "duration_s": report.duration_s,
                    "mismatches": report.mismatch_count,
                    "chain_ok": report.chain is None,
                    "state_ok": report.state is None,
                    "quick_check_ok": not report.quick_check,
                },
                STATION_ACTOR,
                ActorRole.STATION,
                hand=self._hand,
            )
        )
        self.journal.append(entries)
        self.history, self.last_history = None, report
        log.info(
            "history up to seq %d checked in %.3f s: %s",
            report.upto_seq,
            report.duration_s,
            "ok" if report.ok else "PROBLEMS",
        )


def _tilt(code: TiltCode, detail: str, seq: int | None) -> Entry:
    payload = {"tilt": code.value, "detail": detail, "seq": seq}
    return Entry(Code.TILT_RAISED, payload, STATION_ACTOR, ActorRole.STATION)


def _damaged(quick: tuple[str, ...], exc: Exception) -> IntegrityError:
    """The file itself is damaged: nothing can be recorded, so play must stop (the daemon shows
    the tilt without a journal row) until a technician restores or replaces the journal."""
    first = quick[0].splitlines()[-1] if quick else str(exc)
    log.critical("JOURNAL DAMAGED, NOTHING CAN BE RECORDED: %s", first)
    return IntegrityError(f"the journal file is damaged: {first}")


def _describe(report: RecoveryReport) -> str:
    parts = []
    if report.chain is not None:
        parts.append(f"chain: {report.chain.text}")
    if report.mismatch_count:
        first = report.mismatches[0]
        parts.append(
            f"{report.mismatch_count} replay mismatch(es), first at seq {first.seq}: {first.text}"
        )
    if report.quick_check:
        parts.append("quick_check: " + "; ".join(report.quick_check[:3]))
    return "; ".join(parts)
