"""`station bench tamper`: every kind of tampering and loss we know of, tried on a real journal,
each judged twice, by `journal verify` and by a station starting on it. Edge adapter (files,
processes).

A pristine journal is recorded first: a scripted hold'em table through the recorder, people
enrolled, the head witness beside it. Each case works on a copy of those files (the journal and
its witness, as someone holding the station's files has them) and does what an attacker or a
careless technician would, with plain sqlite3 and file operations:

- row edits: each column of one row changed, a row changed and its own hash recomputed, a row
  deleted, two rows swapped, the tail cut (anchor left, and anchor rewritten too), the chain
  recomputed from an edited row to the head on the same file (anchor and triggers put back);
  the protective triggers dropped; a person's PIN hash replaced in the people table;
- losses: the WAL deleted after a `kill -9` (a real child process), only the main file copied
  while a station runs, an older copy restored, the journal deleted, the witness deleted, the
  witness deleted and an older copy restored.

A case counts as detected when `verify_journal` reports a problem (not "cannot read") AND a station
starting on the files (`Journal.open`, `Recorder.recover`, the history check) ends up with a
critical `journal_integrity` or `replay_mismatch` tilt, or refuses the file as damaged. Cases
beyond a local check are reported apart under `out_of_reach`, with what closes them: the journal
and its witness rewritten together (caught by a head known off the station, here given as the
fleet's central head would be).

Bar: `missed` == 0 (every case detected both ways).

A second section (`hardening`, issue 27: `station.bench.hardening`) tries what a careless
technician or a hostile hand can do besides editing the journal: every command that writes a
file pointed at the journal's files, a second daemon through a hard or symbolic link, a second
demo in a busy folder, a full disk at the start and in the middle of a hand, forged link frames.
Each must be refused or detected, with `lost` == 0 (no protected file changed, no genuine draw
vanished unreported): bars `hardening_missed` == 0 and `hardening_lost` == 0.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from station.bench.hardening import section
from station.bench.report import Bar, emit, say

BARS = (Bar("missed", "==", 0), Bar("hardening_missed", "==", 0), Bar("hardening_lost", "==", 0))
STATION = "tamper-table"
OLDER = "older-copy.sqlite"  # the pristine journal as it was halfway
CRASH_STATION = "crash-table"  # the crash-test child's station id


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=4, help="hands in the journal (default 4)")
    parser.add_argument("--seed", type=int, default=5, help="script seed (default 5)")


@dataclass(frozen=True, slots=True)
class Outcome:
    name: str
    verify: bool  # journal verify found a problem
    start: bool  # a station starting on it raised a critical integrity tilt (or refused)
    detail: str = ""

    @property
    def detected(self) -> bool:
        return self.verify and self.start


# --- the files ----------------------------------------------------------------------------------


def _files(journal: Path) -> list[Path]:
    from station.journal.files import SHM, WAL, companion  # noqa: PLC0415
    from station.journal.witness import witness_path  # noqa: PLC0415

    return [journal, companion(journal, WAL), companion(journal, SHM), witness_path(journal)]


def _copy_all(src: Path, dst: Path) -> None:
    for a, b in zip(_files(src), _files(dst), strict=True):
        b.unlink(missing_ok=True)
        if a.exists():
            shutil.copyfile(a, b)


def _pristine(folder: Path, hands: int, seed: int) -> Path:
    from station.bench.scripted import nlhe_session  # noqa: PLC0415
    from station.journal import ActorRole, Journal, Recorder, SystemClock  # noqa: PLC0415
    from station.people.check import PEOPLE_CHECKS  # noqa: PLC0415
    from station.people.staff import add_person, authenticate  # noqa: PLC0415

    path = folder / "pristine.sqlite"
    with Journal.open(path, clock=SystemClock(), station_id=STATION, create=True) as journal:
        add_person(journal, "ada", ActorRole.ADMIN, "739514", by=None)
        admin = authenticate(journal, "ada", "739514", purpose="enrol")
        add_person(journal, "flo", ActorRole.FLOOR, "482915", by=admin)
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        events = nlhe_session(hands, seed=seed).events
        for i, item in enumerate(events):
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
            if i == len(events) // 2:  # a backup taken halfway: everything in the main file
                journal.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                shutil.copyfile(path, folder / OLDER)
    return path


def _sql(path: Path, *statements: str, params: tuple[object, ...] = ()) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            conn.execute(statement, params if "?" in statement else ())
    finally:
        conn.close()


def _head(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT MAX(seq) FROM log").fetchone()[0])
    finally:
        conn.close()


class Attacker:
    """Plain sqlite3 on the journal file: drops the triggers, does the deed, puts them back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.triggers = [
            str(r[0])
            for r in self.conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'")
        ]
        for (name,) in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'"
        ).fetchall():
            self.conn.execute(f"DROP TRIGGER {name}")

    def head(self) -> int:
        return int(self.conn.execute("SELECT MAX(seq) FROM log").fetchone()[0])

    def rehash_from(self, seq: int) -> None:
        """Recompute every hash from `seq` to the head, and the anchor: the chain is whole."""
        from station.journal.rows import COLUMNS, LogRow  # noqa: PLC0415

        prev = self.conn.execute("SELECT hash FROM log WHERE seq = ?", (seq - 1,)).fetchone()
        prev_hash = str(prev[0]) if prev else "0" * 64
        rows = self.conn.execute(
            f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq >= ? ORDER BY seq", (seq,)
        ).fetchall()
        for raw in rows:
            row = LogRow.from_tuple(raw)
            fields = {**row.fields(), "prev_hash": prev_hash, "hash": ""}
            new_hash = LogRow(**fields).computed_hash()
            self.conn.execute(
                "UPDATE log SET prev_hash = ?, hash = ? WHERE seq = ?",
                (prev_hash, new_hash, row.seq),
            )
            prev_hash = new_hash
        head = self.head()
        self.conn.execute(
            "UPDATE anchor SET head_seq = ?, head_hash = ? WHERE id = 1", (head, prev_hash)
        )

    def done(self, keep_triggers_dropped: bool = False) -> None:
        if not keep_triggers_dropped:
            for sql in self.triggers:
                self.conn.execute(sql)
        self.conn.close()


# --- the cases ----------------------------------------------------------------------------------

Case = Callable[[Path, Path], None]  # (the copy to tamper with, the folder for scratch files)

_COLUMN_VALUES = {
    "station_id": "'other-table'",
    "boot_id": "'forged-boot'",
    "recorded_utc": "'2020-01-01T00:00:00.000Z'",
    "recorded_at_ns": "1",
    "clock_ok": "1 - clock_ok",
    "hand": "hand + 7",
    "code": "'input.key'",
    "actor": "'mallory'",
    "role": "'admin'",
    "ref": "IFNULL(ref, 0) + 3",
    "payload": "payload || ' '",
    "prev_hash": "'" + "1" * 64 + "'",
    "hash": "'" + "2" * 64 + "'",
}


def _edit_column(column: str) -> Case:
    def case(path: Path, scratch: Path) -> None:
        a = Attacker(path)
        seq = a.head() // 2
        a.conn.execute(f"UPDATE log SET {column} = {_COLUMN_VALUES[column]} WHERE seq = ?", (seq,))
        a.done()

    return case


def edit_rehashed(path: Path, scratch: Path) -> None:
    a = Attacker(path)
    seq = a.head() // 2
    a.conn.execute("UPDATE log SET actor = 'mallory' WHERE seq = ?", (seq,))
    from station.journal.rows import COLUMNS, LogRow  # noqa: PLC0415

    raw = a.conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq = ?", (seq,)).fetchone()
    row = LogRow.from_tuple(raw)
    forged = LogRow(**{**row.fields(), "prev_hash": row.prev_hash, "hash": ""}).computed_hash()
    a.conn.execute("UPDATE log SET hash = ? WHERE seq = ?", (forged, seq))
    a.done()


def delete_row(path: Path, scratch: Path) -> None:
    a = Attacker(path)
    a.conn.execute("DELETE FROM log WHERE seq = ?", (a.head() // 2,))
    a.done()


def swap_rows(path: Path, scratch: Path) -> None:
    a = Attacker(path)
    seq, parked = a.head() // 2, a.head() + 1000
    a.conn.execute("UPDATE log SET seq = ? WHERE seq = ?", (parked, seq))
    a.conn.execute("UPDATE log SET seq = ? WHERE seq = ?", (seq, seq + 1))
    a.conn.execute("UPDATE log SET seq = ? WHERE seq = ?", (seq + 1, parked))
    a.done()


def truncate(path: Path, scratch: Path) -> None:
    a = Attacker(path)
    a.conn.execute("DELETE FROM log WHERE seq > ?", (a.head() * 2 // 3,))
    a.done()


def truncate_and_anchor(path: Path, scratch: Path) -> None:
    a = Attacker(path)
    a.conn.execute("DELETE FROM log WHERE seq > ?", (a.head() * 2 // 3,))
    a.rehash_from(a.head())  # the anchor names the new last row
    a.done()


def recomputed_chain(path: Path, scratch: Path) -> None:
    """Edit a row, recompute every hash after it and the anchor, put the triggers back: the
    file is consistent in itself."""
    a = Attacker(path)
    seq = a.head() // 3
    a.conn.execute("UPDATE log SET actor = 'mallory' WHERE seq = ?", (seq,))
    a.rehash_from(seq)
    a.done()


def triggers_dropped(path: Path, scratch: Path) -> None:
    Attacker(path).done(keep_triggers_dropped=True)


def pin_hash_replaced(path: Path, scratch: Path) -> None:
    """Set a PIN of the attacker's choosing for the admin, straight in the people table."""
    from station.people.pins import KDF, hash_pin  # noqa: PLC0415

    salt = b"\x01" * 16
    _sql(
        path,
        "UPDATE people SET salt = ?, pin_hash = ? WHERE name = 'ada'",
        params=(salt, hash_pin("135790", salt, KDF)),
    )


def older_copy_restored(path: Path, scratch: Path) -> None:
    """A backup taken halfway put back over the journal (the witness stays)."""
    for name in _files(path)[:3]:
        name.unlink(missing_ok=True)
    shutil.copyfile(scratch.parent / OLDER, path)


def journal_deleted(path: Path, scratch: Path) -> None:
    for name in _files(path)[:3]:
        name.unlink(missing_ok=True)


def witness_deleted(path: Path, scratch: Path) -> None:
    _files(path)[3].unlink()


def witness_deleted_older_copy(path: Path, scratch: Path) -> None:
    older_copy_restored(path, scratch)
    _files(path)[3].unlink()


def _live_child(journal: Path, hands: int, acks: int) -> subprocess.Popen[str]:
    """The crash-test child recording a scripted table, stopped (not killed) after `acks`."""
    child = subprocess.Popen(
        [sys.executable, "-m", "station.bench.crash_child", "--journal", str(journal),
         "--hands", str(hands), "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    if child.stdin is None or child.stdout is None:
        raise RuntimeError("no pipes to the crash-test child")
    child.stdin.write(f"go {acks}\n")
    child.stdin.flush()
    seen = 0
    while seen < acks:
        line = child.stdout.readline()
        if not line:
            raise RuntimeError("the crash-test child ended early")
        seen += line.startswith("ack ")
    return child


def _kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait()
    for pipe in (child.stdin, child.stdout):
        if pipe is not None:
            pipe.close()


def wal_deleted_after_kill(folder: Path, hands: int) -> Path:
    """A real process killed with SIGKILL mid-table, then its WAL and SHM deleted."""
    journal = folder / "killed.sqlite"
    _kill(_live_child(journal, hands, 150))
    for name in _files(journal)[1:3]:
        name.unlink(missing_ok=True)
    return journal


def main_file_copied_live(folder: Path, hands: int) -> Path:
    """Only journal.sqlite (and the witness) copied off a running station."""
    journal = folder / "live.sqlite"
    child = _live_child(journal, hands, 150)
    copy = folder / "copied.sqlite"
    shutil.copyfile(journal, copy)
    shutil.copyfile(_files(journal)[3], _files(copy)[3])
    _kill(child)
    return copy


COPY_CASES: dict[str, Case] = {
    **{f"edit {column}": _edit_column(column) for column in _COLUMN_VALUES},
    "edit a row and recompute its hash": edit_rehashed,
    "delete a row": delete_row,
    "swap two rows": swap_rows,
    "truncate (anchor left)": truncate,
    "truncate and rewrite the anchor": truncate_and_anchor,
    "recompute the chain on the same file": recomputed_chain,
    "drop the protective triggers": triggers_dropped,
    "replace a PIN hash": pin_hash_replaced,
    "restore an older copy": older_copy_restored,
    "delete the journal": journal_deleted,
    "delete the head witness": witness_deleted,
    "delete the witness and restore an older copy": witness_deleted_older_copy,
}


# --- judging ------------------------------------------------------------------------------------


def judged_by_verify(path: Path) -> tuple[bool, str]:
    from station.people.check import verify_journal  # noqa: PLC0415

    report = verify_journal(path)
    if report.cannot_read:
        return False, f"cannot read: {report.cannot_read}"
    return (not report.ok), (report.problems[0].text if report.problems else "ok")


def judged_at_start(path: Path, station_id: str) -> tuple[bool, str]:
    from station.journal import Journal, Recorder, SystemClock  # noqa: PLC0415
    from station.journal.codes import TiltCode  # noqa: PLC0415
    from station.journal.exc import JournalError  # noqa: PLC0415
    from station.people.check import PEOPLE_CHECKS  # noqa: PLC0415

    alarms = {TiltCode.JOURNAL_INTEGRITY, TiltCode.REPLAY_MISMATCH}
    try:
        with Journal.open(path, clock=SystemClock(), station_id=station_id, create=True) as j:
            recorder = Recorder(j, checks=PEOPLE_CHECKS)
            recorder.recover()
            recorder.check_history()
            tilts = [t for t in recorder.op_state().tilts.values() if t.code in alarms]
    except JournalError as exc:  # too damaged to start on: play cannot begin
        return True, f"refused: {exc}"
    return bool(tilts), (tilts[0].detail if tilts else "started without an alarm")


def judge_case(name: str, path: Path, station_id: str) -> Outcome:
    by_verify, why = judged_by_verify(path)
    at_start, why_start = judged_at_start(path, station_id)
    return Outcome(name, by_verify, at_start, why if by_verify else why_start)


def out_of_reach(pristine: Path, scratch: Path) -> dict[str, object]:
    """The journal and its witness rewritten together: consistent locally; the head the fleet's
    central store acknowledged before the rewrite shows it."""
    from station.journal.witness import FileWitness, Head, witness_path  # noqa: PLC0415
    from station.people.check import verify_journal  # noqa: PLC0415

    path = scratch / "both.sqlite"
    _copy_all(pristine, path)
    conn = sqlite3.connect(path)
    seq, digest = conn.execute("SELECT seq, hash FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()
    central = Head(int(seq), str(digest), source="the central store's acknowledged head")
    recomputed_chain(path, scratch)
    conn = sqlite3.connect(path)
    new_seq, new_hash, hand = conn.execute(
        "SELECT seq, hash, hand FROM log ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    conn.close()
    witness = FileWitness(witness_path(path))
    witness.write(Head(int(new_seq), str(new_hash), int(hand), "", STATION), force=True)
    local = not verify_journal(path).ok
    with_central = not verify_journal(path, heads=[central]).ok
    return {
        "rewrite journal and witness together": {
            "detected_locally": local,
            "detected_with_central_head": with_central,
        }
    }


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    logging.disable(logging.CRITICAL)  # each case's alarms are what is judged, not read
    try:
        return _run(args, started)
    finally:
        logging.disable(logging.NOTSET)


def _run(args: argparse.Namespace, started: float) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-tamper-") as tmp:
        folder = Path(tmp)
        say(f"tamper: recording a {args.hands}-hand journal")
        pristine = _pristine(folder, args.hands, args.seed)
        outcomes: list[Outcome] = []
        for name, case in COPY_CASES.items():
            work = folder / "case"
            work.mkdir()
            path = work / "journal.sqlite"
            _copy_all(pristine, path)
            case(path, work)
            outcomes.append(judge_case(name, path, STATION))
            shutil.rmtree(work)
        for name, make in (
            ("delete the WAL after kill -9", wal_deleted_after_kill),
            ("copy only the main file of a running station", main_file_copied_live),
        ):
            work = folder / "case"
            work.mkdir()
            path = make(work, max(args.hands, 12))
            outcomes.append(judge_case(name, path, CRASH_STATION))
            shutil.rmtree(work)
        beyond = out_of_reach(pristine, folder)
        hardening = section(pristine, folder / "hardening", STATION, getattr(args, "main", None))
    for o in outcomes:
        mark = "detected" if o.detected else "MISSED"
        say(f"  {mark:8}  verify={o.verify!s:5} start={o.start!s:5}  {o.name}: {o.detail[:110]}")
    missed = [o.name for o in outcomes if not o.detected]
    figures: dict[str, object] = {
        "cases": len(outcomes),
        "detected": len(outcomes) - len(missed),
        "detected_by_verify": sum(o.verify for o in outcomes),
        "detected_at_start": sum(o.start for o in outcomes),
        "missed": len(missed),
        "missed_cases": missed,
        "out_of_reach": beyond,
        "hardening": hardening,  # the second round (issue 27): station.bench.hardening
        "hardening_missed": len(hardening["missed_cases"]),  # type: ignore[arg-type]
        "hardening_lost": hardening["lost"],
        "elapsed_s": round(time.monotonic() - started, 1),
    }
    emit("tamper", figures, BARS)
    return 0
