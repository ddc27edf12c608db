"""The history check and the scrub, as `station diag` reports them: from the journal's
`station.history_checked` and `station.scrub` rows, and, with the daemon running, what it holds
now (a scrub's progress between two rows). Edge adapter (reads the journal read-only).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from station.journal.codes import Code
from station.journal.scrub import ScrubProgress

RECENT_SCRUB_ROWS: Final = 50  # rows looked at for the last finished run


@dataclass(frozen=True, slots=True)
class HistoryDiag:
    """`checking`: the check after the daemon's start is running (None: from the journal
    alone); `last_check`: the last `station.history_checked` in words; `scrub`: the scrub now
    ("running", "stopped", "never", or the last run's end) and `last_scrub`: the last run that
    ended, in words."""

    checking: bool | None = None
    last_check: str = "never"
    last_check_utc: str | None = None
    scrub: str = "never"
    scrub_percent: float | None = None
    scrub_hands_per_s: float | None = None
    scrub_upto_seq: int | None = None
    scrub_target_seq: int | None = None
    last_scrub: str = "never"
    last_scrub_utc: str | None = None
    last_scrub_ok: bool | None = None
    drift: int = 0  # engine drift the last check and scrub found (other code's rows)


def _check_words(d: Mapping[str, Any]) -> str:
    problems = []
    if not d.get("chain_ok", True):
        problems.append("CHAIN BROKEN")
    if d.get("mismatches"):
        problems.append(f"{d['mismatches']} MISMATCH(ES)")
    if d.get("quick_check_ok") is False:
        problems.append("QUICK_CHECK FAILED")
    verdict = ", ".join(problems) or "ok"
    drift = f", {d['drift']} row(s) of engine drift" if d.get("drift") else ""
    return (
        f"{verdict}: seq {d.get('from_seq', 0)}-{d.get('upto_seq', '?')}, {d.get('rows', 0)} "
        f"rows walked, {d.get('rederived_rows', 0)} re-derived{drift}"
    )


def _scrub_words(p: ScrubProgress) -> str:
    problems = []
    if not p.chain_ok:
        problems.append("CHAIN BROKEN")
    if p.mismatches:
        problems.append(f"{p.mismatches} MISMATCH(ES), first {p.first_mismatch}")
    if p.integrity:
        problems.append("INTEGRITY_CHECK FAILED")
    verdict = ", ".join(problems) or "ok"
    drift = f", {p.drift} row(s) of engine drift" if p.drift else ""
    return f"{verdict}: {p.rows} rows, {p.hands} hands at {p.hands_per_s:g} hands/s{drift}"


_UNREADABLE = (
    "UNREADABLE: its row is not the record a check writes (damaged or altered): run "
    "`station journal verify`"
)


def _check_record(raw: object) -> Mapping[str, Any] | None:
    """The last check's row as written, or None when it is not (a damaged or altered row)."""
    try:
        d = json.loads(raw) if isinstance(raw, str | bytes) else None
        if isinstance(d, dict):
            int(d.get("drift", 0) or 0)
            return d
    except (ValueError, TypeError):
        pass
    return None


def _progress(raw: str) -> ScrubProgress | None:
    try:
        return ScrubProgress.from_dict(json.loads(raw))
    except (ValueError, TypeError):
        return None


def read_history(conn: sqlite3.Connection) -> HistoryDiag:
    """What the journal alone says (the daemon's view is laid over it: `with_live`)."""
    check = conn.execute(
        "SELECT recorded_utc, payload FROM log WHERE code = ? ORDER BY seq DESC LIMIT 1",
        (Code.HISTORY_CHECKED.value,),
    ).fetchone()
    rows = conn.execute(
        "SELECT recorded_utc, payload FROM log WHERE code = ? ORDER BY seq DESC LIMIT ?",
        (Code.SCRUB.value, RECENT_SCRUB_ROWS),
    ).fetchall()
    scrubs = [(utc, p) for utc, raw in rows if (p := _progress(raw)) is not None]
    ended = next(((utc, p) for utc, p in scrubs if p.done), None)
    diag = HistoryDiag()
    if check is not None:
        d = _check_record(check[1])
        diag = replace(
            diag,
            last_check=_check_words(d) if d is not None else _UNREADABLE,
            last_check_utc=str(check[0]),
            drift=int(d.get("drift", 0) or 0) if d is not None else 0,
        )
    if ended is not None:
        utc, p = ended
        diag = replace(
            diag,
            last_scrub=_scrub_words(p),
            last_scrub_utc=str(utc),
            last_scrub_ok=p.ok,
            drift=diag.drift + p.drift,
        )
    if scrubs:
        now = scrubs[0][1]
        state = "ended" if now.done else "stopped (goes on at the next start)"
        diag = _scrub_now(replace(diag, scrub=state), now)
    return diag


def with_live(diag: HistoryDiag, live: Mapping[str, Any] | None) -> HistoryDiag:
    """The daemon's view: whether the check runs, and the scrub as it reported last."""
    history = live.get("history") if live is not None else None
    if not isinstance(history, Mapping):
        return diag
    diag = replace(diag, checking=bool(history.get("checking")))
    raw = history.get("scrub")
    if isinstance(raw, Mapping):
        try:
            now = ScrubProgress.from_dict(raw)
        except ValueError:
            return diag
        diag = _scrub_now(replace(diag, scrub="ended" if now.done else "running"), now)
    return diag


def _scrub_now(diag: HistoryDiag, now: ScrubProgress) -> HistoryDiag:
    percent = None
    if now.target_seq > 0:
        percent = round(100 * min(now.upto_seq, now.target_seq) / now.target_seq, 1)
    return replace(
        diag,
        scrub_percent=percent,
        scrub_hands_per_s=now.hands_per_s,
        scrub_upto_seq=now.upto_seq,
        scrub_target_seq=now.target_seq,
    )
