"""The scrub: the whole journal re-derived from its first row, at low priority, resumable, on a
schedule. Edge adapter (SQLite, the clock).

A start trusts the newest resume row and the history check after it looks only at what is new;
the scrub is the full check behind both. It replays every row (`Replay`: the chain, every
derived row re-derived and compared, every resume row's document compared with the replayed
table, exact in stretches the running code wrote and engine drift in others), then runs SQLite's
`PRAGMA integrity_check` (requirement 8's daily full check). It runs in a process of its own at
idle priority (`station.daemon.history_child`), paced so that it leaves the core alone, and
reports `ScrubProgress` as it goes; the daemon journals it as `station.scrub` rows.

Resumable: progress names the last resume row whose document equalled the replayed state
(`resume`). A run cut short (the station stopped) goes on from there at the next start: from
that row's document, which the run had found equal to its own re-derivation, so going on from
it is going on from the run's own state.

When (`due`): the newest `station.scrub` row decides. A run left unfinished by this code goes
on; a finished one is followed by the next `every_h` hours after it began, or at once when the
code that derives rows has changed since (an upgrade). The first run of a journal is due
`every_h` hours after its first row. `every_h` 0 schedules none (but for an upgrade).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from station.engine.cards import DeckRegistry
from station.engine.resume import ResumeError
from station.journal.clock import parse_utc
from station.journal.codes import STATION_ACTOR, ActorRole, Code, TiltCode
from station.journal.engine_id import writer_at
from station.journal.replay import Replay
from station.journal.resume_rows import load
from station.journal.rows import COLUMNS, Entry, LogRow
from station.journal.tamper import integrity_tilt

BATCH: Final = 256  # rows between two looks at the clock (pacing, progress, stop)
PROGRESS_S: Final = 10.0  # a progress report at most this often
_ROWS = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq >= ? AND seq <= ? ORDER BY seq"


@dataclass(frozen=True, slots=True)
class ScrubProgress:
    """Where a scrub run is (and, with `done`, how it ended). Counts are over the whole run."""

    run: int  # the seq of the `station.scrub` row that began the run (0: not yet journaled)
    target_seq: int  # the head when the run began: it re-derives rows 1..target_seq
    upto_seq: int = 0  # rows re-derived so far
    resume_seq: int = 0  # the last resume row found equal: a restart goes on from it
    resume_hash: str = ""
    resume_counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # rows, inputs, hands,
    # mismatches, drift up to that row: what a restart from it carries over
    rows: int = 0
    inputs: int = 0
    hands: int = 0  # resume rows compared (one per finished hand)
    mismatches: int = 0
    drift: int = 0
    first_mismatch: str = ""
    first_drift: str = ""
    chain_ok: bool = True
    chain_detail: str = ""
    integrity: tuple[str, ...] = ()  # `PRAGMA integrity_check` at the end (empty: sound)
    busy_s: float = 0.0  # time spent re-deriving (pauses left out)
    done: bool = False
    engine: str = ""  # the deriving code that ran it
    started_utc: str = ""  # when the run began (the schedule counts from it)

    @property
    def ok(self) -> bool:
        return self.mismatches == 0 and self.chain_ok and not self.integrity

    @property
    def hands_per_s(self) -> float:
        return round(self.hands / self.busy_s, 1) if self.busy_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["integrity"] = list(self.integrity)
        out["resume_counts"] = list(self.resume_counts)
        out["hands_per_s"] = self.hands_per_s
        return out

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ScrubProgress:
        """What `to_dict` wrote (a `station.scrub` row, the child's report); ValueError else."""
        fields = {f: d[f] for f in ScrubProgress.__dataclass_fields__ if f in d}
        try:
            fields["integrity"] = tuple(str(x) for x in d.get("integrity", ()))
            counts = tuple(int(x) for x in d.get("resume_counts", (0, 0, 0, 0, 0)))
            if len(counts) != 5:
                raise TypeError("resume_counts: not five counts")
            fields["resume_counts"] = counts
            progress = ScrubProgress(**fields)
        except TypeError as exc:
            raise ValueError(f"not a scrub progress: {exc}") from None
        for name in ("run", "target_seq", "upto_seq", "resume_seq", "rows", "hands"):
            if type(getattr(progress, name)) is not int:
                raise ValueError(f"scrub progress: {name} is not a whole number")
        return progress


Paced = Callable[[float], None]  # told the seconds just spent working; sleeps to keep the pace


def pacer(duty: float, sleep: Callable[[float], object] = time.sleep) -> Paced:
    """Work at most `duty` (0-1] of the time: after `busy` seconds of work, rest so long."""

    def rest(busy: float) -> None:
        if 0 < duty < 1:
            sleep(busy * (1 - duty) / duty)

    return rest


def scrub(
    path: str | Path,
    station_id: str,
    registry: DeckRegistry | None,
    start: ScrubProgress,
    *,
    running: str,
    report: Callable[[ScrubProgress], None],
    pace: Paced | None = None,
    stop: threading.Event | None = None,
    progress_s: float = PROGRESS_S,
) -> ScrubProgress:
    """Re-derive rows from the start (or `start.resume_seq`) up to `start.target_seq`,
    calling `report` every `progress_s` and at the end. Returns the last progress (`done`
    False when `stop` was set first)."""
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    state = replace(start, engine=running, done=False)
    try:
        replay, begin = _replay_from(conn, station_id, registry, state, running)
        if begin == 1:  # from the first row: the counts start again
            state = ScrubProgress(
                run=state.run,
                target_seq=state.target_seq,
                engine=running,
                started_utc=state.started_utc,
            )
            base = (0, 0, 0, 0, 0)
        else:  # from a resume row: what the run counted up to it (that row is read again)
            rows, inputs, hands, mismatches, drift = state.resume_counts
            base = (rows - 1, inputs, hands, mismatches, drift)
            if not mismatches:
                state = replace(state, first_mismatch="")
            if not drift:
                state = replace(state, first_drift="")
        report(state)  # under way
        last_report = time.monotonic()
        cursor = conn.execute(_ROWS, (begin, state.target_seq))
        try:
            while True:
                if stop is not None and stop.is_set():
                    stopped = _now(state, base, replay)
                    report(stopped)
                    return stopped
                began = time.monotonic()
                batch = cursor.fetchmany(BATCH)
                if not batch:
                    break
                for t in batch:
                    try:
                        row = LogRow.from_tuple(t)
                    except (TypeError, ValueError) as exc:
                        replay.chain.unreadable(t[0] if isinstance(t[0], int) else None, str(exc))
                        continue
                    replay.row(row)
                busy = time.monotonic() - began
                state = replace(state, busy_s=state.busy_s + busy)
                if time.monotonic() - last_report >= progress_s:
                    report(_now(state, base, replay))
                    last_report = time.monotonic()
                if pace is not None:
                    pace(busy)
        finally:
            cursor.close()
        replay.finish()
        if replay.chain.problem is None and replay.chain.expected != state.target_seq + 1:
            replay.chain.unreadable(replay.chain.expected, "the journal ends before the run's head")
        found = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
        integrity = () if found == ["ok"] else tuple(found)
    except sqlite3.DatabaseError as exc:
        integrity = (str(exc),)
        done = replace(state, integrity=integrity, chain_ok=False, chain_detail=str(exc))
        final = replace(done, done=True)
        report(final)
        return final
    finally:
        conn.close()
    final = replace(_now(state, base, replay), integrity=integrity, done=True)
    report(final)
    return final


def _replay_from(
    conn: sqlite3.Connection,
    station_id: str,
    registry: DeckRegistry | None,
    state: ScrubProgress,
    running: str,
) -> tuple[Replay, int]:
    """The replay a run (re)starts with, and the first seq it reads."""
    if state.resume_seq > 0:
        raw = conn.execute(_ROWS, (state.resume_seq, state.resume_seq)).fetchone()
        if raw is not None:
            row = LogRow.from_tuple(raw)
            if row.hash == state.resume_hash and row.code == Code.TABLE_RESUME:
                try:
                    point = load(row, registry, writer_at(conn, row.seq))
                except ResumeError:
                    pass
                else:
                    return Replay(registry, station_id, point, running=running), row.seq
    return Replay(registry, station_id, running=running), 1


def _now(
    state: ScrubProgress, base: tuple[int, int, int, int, int], replay: Replay
) -> ScrubProgress:
    """The run's progress: what it carried over (`base`: the counts up to the row this replay
    started from) plus what this replay did."""
    problem = replay.chain.problem
    resumed = replay.resumed
    at = replay.resumed_at
    return replace(
        state,
        upto_seq=replay.chain.expected - 1 if problem is None else state.upto_seq,
        resume_seq=resumed[0] if resumed is not None else state.resume_seq,
        resume_hash=resumed[1] if resumed is not None else state.resume_hash,
        resume_counts=(
            base[0] + at[0],
            base[1] + at[1],
            base[2] + at[2],
            base[3] + at[3],
            base[4] + at[4],
        ),
        rows=base[0] + replay.rows,
        inputs=base[1] + replay.inputs,
        hands=base[2] + replay.resumes,
        mismatches=base[3] + replay.count,
        drift=base[4] + replay.drift,
        first_mismatch=state.first_mismatch or _first(replay.mismatches),
        first_drift=state.first_drift or _first(replay.drifts),
        chain_ok=state.chain_ok and problem is None,
        chain_detail=state.chain_detail or (problem.text if problem is not None else ""),
    )


def _first(found: list[Any]) -> str:
    return f"seq {found[0].seq}: {found[0].text}" if found else ""


# --- when -----------------------------------------------------------------------------------------


def last_scrub(conn: sqlite3.Connection) -> tuple[LogRow, ScrubProgress] | None:
    """The newest `station.scrub` row and what it says (None: no scrub yet, or unreadable)."""
    raw = conn.execute(
        f"SELECT {', '.join(COLUMNS)} FROM log WHERE code = ? ORDER BY seq DESC LIMIT 1",
        (Code.SCRUB.value,),
    ).fetchone()
    if raw is None:
        return None
    row = LogRow.from_tuple(raw)
    try:
        return row, ScrubProgress.from_dict(row.data())
    except ValueError:
        return None


def due(
    last: tuple[LogRow, ScrubProgress] | None,
    *,
    now: datetime,
    every_h: float,
    after_upgrade: bool,
    running: str,
    head_seq: int,
    journal_began: datetime | None,
) -> ScrubProgress | None:
    """The run to start now (a new one, or the unfinished one going on), or None. Before any
    run, the first is due `every_h` hours after the journal's first row."""
    fresh = ScrubProgress(run=0, target_seq=head_seq, engine=running)
    if last is None:
        if every_h <= 0 or journal_began is None:
            return None
        return fresh if (now - journal_began).total_seconds() >= every_h * 3600 else None
    row, progress = last
    if not progress.done:
        if progress.engine == running:
            return progress  # goes on from where it was
        return fresh if after_upgrade or every_h > 0 else None
    if after_upgrade and progress.engine != running:
        return fresh
    if every_h <= 0:
        return None
    try:
        began = parse_utc(progress.started_utc or row.recorded_utc)
    except ValueError:
        began = parse_utc(row.recorded_utc)
    return fresh if (now - began).total_seconds() >= every_h * 3600 else None


def journal_began(conn: sqlite3.Connection) -> datetime | None:
    """The time of the journal's first row."""
    found = conn.execute("SELECT recorded_utc FROM log WHERE seq = 1").fetchone()
    try:
        return parse_utc(str(found[0])) if found is not None else None
    except ValueError:
        return None


# --- on record ------------------------------------------------------------------------------------


def progress_entries(p: ScrubProgress) -> list[Entry]:
    """The `station.scrub` row for this progress and, when the run has ended with problems in
    rows this code wrote (or in the file), a critical tilt for each kind. Engine drift is in
    the row only: expected after an upgrade, not tampering."""
    entries = [Entry(Code.SCRUB, p.to_dict(), STATION_ACTOR, ActorRole.STATION)]
    if not p.done:
        return entries
    if p.mismatches:
        detail = f"scrub: {p.mismatches} row(s) re-derive differently, first {p.first_mismatch}"
        payload = {"tilt": TiltCode.REPLAY_MISMATCH.value, "detail": detail[:300], "seq": None}
        entries.append(Entry(Code.TILT_RAISED, payload, STATION_ACTOR, ActorRole.STATION))
    if not p.chain_ok:
        entries.append(integrity_tilt(f"scrub: {p.chain_detail}"[:300], None))
    if p.integrity:
        text = "scrub: SQLite integrity_check: " + p.integrity[0].splitlines()[-1]
        entries.append(integrity_tilt(text[:300], None))
    return entries
