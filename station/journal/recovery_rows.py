"""What a recovery and a history check put on record: the rows they journal and the tilts for
what they found, with the log lines that say so. Pure (builds entries; the recorder appends
them).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from station.journal.codes import STATION_ACTOR, ActorRole, Code, TiltCode
from station.journal.engine_id import identity
from station.journal.history import HistoryReport
from station.journal.replay import Mismatch
from station.journal.rows import Entry, LogRow
from station.journal.verify import Problem
from station.version import VERSION

log = logging.getLogger("station.journal.recorder")


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
    resume_seq: int = 0  # replay started at this resume row (0: from the first row)
    drifts: tuple[Mismatch, ...] = ()  # differences in rows other engine code wrote
    drift_count: int = 0
    why_full: str = ""  # why replay started from the first row

    @property
    def ok(self) -> bool:
        return self.mismatch_count == 0 and self.chain is None and not self.quick_check


def recovery_entries(
    report: RecoveryReport,
    head_seq: int,
    head_hash: str,
    walk_problem: Problem | None,
    behind: Entry | None,
    people: list[Problem],
    hand: int,
) -> list[Entry]:
    """`station.boot` (naming the code that derives rows from now on), a clock step, the tilts
    for what the recovery found, and `station.recovered` (with an anchor after a full replay
    that found nothing wrong)."""
    entries = [
        Entry(
            Code.BOOT,
            {
                "version": VERSION,
                "previous_head_seq": head_seq,
                "down_s": report.down_s,
                "engine": identity(),
            },
            STATION_ACTOR,
            ActorRole.STATION,
        )
    ]
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
        entries.append(tilt(TiltCode.REPLAY_MISMATCH, detail, first.seq))
    if report.drift_count:
        first = report.drifts[0]
        log.warning(
            "engine drift: %d row(s) other engine code wrote re-derive differently, first at "
            "seq %d (%s)",
            report.drift_count,
            first.seq,
            first.text,
        )
    if walk_problem is not None or report.quick_check:
        text = walk_problem.text if walk_problem else report.quick_check[0].splitlines()[-1]
        log.error("JOURNAL INTEGRITY: %s", text)
        seq = walk_problem.seq if walk_problem else None
        entries.append(tilt(TiltCode.JOURNAL_INTEGRITY, text[:300], seq))
    for problem in people:
        log.error("JOURNAL INTEGRITY: %s", problem.text)
        entries.append(tilt(TiltCode.JOURNAL_INTEGRITY, problem.text[:300], problem.seq))
    recovered: dict[str, Any] = {
        "inputs": report.inputs,
        "last_input_seq": report.last_input_seq,
        "rows": report.rows,
        "duration_s": report.duration_s,
        "down_s": report.down_s,
        "mismatches": report.mismatch_count,
        "drift": report.drift_count,
        "chain_ok": report.chain is None,
        "quick_check_ok": not report.quick_check,
        "resume_seq": report.resume_seq,
    }
    if report.resume_seq == 0 and report.ok:  # every row re-derived: verified to here
        recovered["anchor"] = {"seq": head_seq, "hash": head_hash}
    entries.append(Entry(Code.RECOVERED, recovered, STATION_ACTOR, ActorRole.STATION, hand=hand))
    log.info(
        "recovered %d input(s) up to seq %d in %.3f s (down %s s, from %s)",
        report.inputs,
        report.last_input_seq,
        report.duration_s,
        report.down_s,
        f"resume row {report.resume_seq}" if report.resume_seq else "the first row",
    )
    return entries


def history_entries(report: HistoryReport, hand: int) -> list[Entry]:
    """`station.history_checked` and the tilts for what the check found."""
    entries: list[Entry] = []
    where = f"between seq {report.from_seq} and the resume row {report.upto_seq}"
    if report.mismatch_count:
        first = report.mismatches[0]
        text = f"{report.mismatch_count} row(s) {where}, first at seq {first.seq}"
        log.error("REPLAY MISMATCH: %s (%s)", text, first.text)
        entries.append(tilt(TiltCode.REPLAY_MISMATCH, text[:300], first.seq))
    if report.quick_check:
        text = "SQLite quick_check: " + report.quick_check[0].splitlines()[-1]
        log.error("JOURNAL INTEGRITY: %s", text)
        entries.append(tilt(TiltCode.JOURNAL_INTEGRITY, text[:300], None))
    if report.chain is not None:
        log.error("JOURNAL INTEGRITY: %s", report.chain.text)
        problem = report.chain
        entries.append(tilt(TiltCode.JOURNAL_INTEGRITY, problem.text[:300], problem.seq))
    if report.drift_count:
        first = report.drifts[0]
        log.warning(
            "engine drift %s: %d row(s), first at seq %d (%s)",
            where,
            report.drift_count,
            first.seq,
            first.text,
        )
    payload: dict[str, Any] = {
        "from_seq": report.from_seq,
        "upto_seq": report.upto_seq,
        "rows": report.rows,
        "rederived_from": report.rederived_from,
        "rederived_rows": report.rederived_rows,
        "inputs": report.inputs,
        "duration_s": report.duration_s,
        "mismatches": report.mismatch_count,
        "drift": report.drift_count,
        "chain_ok": report.chain is None,
        "quick_check_ok": not report.quick_check,
    }
    if report.anchor is not None:
        payload["anchor"] = {"seq": report.anchor[0], "hash": report.anchor[1]}
    if report.note:
        payload["note"] = report.note
    entries.append(
        Entry(Code.HISTORY_CHECKED, payload, STATION_ACTOR, ActorRole.STATION, hand=hand)
    )
    log.info(
        "history from seq %d to the resume row %d checked in %.3f s: %s",
        report.from_seq,
        report.upto_seq,
        report.duration_s,
        "ok" if report.ok else "PROBLEMS",
    )
    return entries


def clean(row: LogRow) -> bool:
    """A `station.history_checked` row that found nothing wrong."""
    try:
        d = row.data()
    except ValueError:
        return False
    return (
        bool(d.get("chain_ok", False))
        and not d.get("mismatches")
        and d.get("state_ok", True) is True
        and d.get("quick_check_ok", True) is True
    )


def anchor_of(row: LogRow) -> tuple[int, str] | None:
    try:
        anchor = row.data().get("anchor")
    except ValueError:
        return None
    if isinstance(anchor, dict):
        seq, digest = anchor.get("seq"), anchor.get("hash")
        if type(seq) is int and isinstance(digest, str):
            return seq, digest
    return None


def tilt(code: TiltCode, detail: str, seq: int | None) -> Entry:
    payload = {"tilt": code.value, "detail": detail, "seq": seq}
    return Entry(Code.TILT_RAISED, payload, STATION_ACTOR, ActorRole.STATION)


def describe(report: RecoveryReport) -> str:
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
