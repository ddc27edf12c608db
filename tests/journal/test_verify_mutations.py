"""The mutation suite: every kind of tampering with a journal file is detected by `verify`, and
the first bad sequence number is named exactly (standards-ux requirement 5).

The journal is a real one: a scripted table recorded through the recorder, people enrolled,
operational rows. Each mutation works on a copy with plain sqlite3, dropping the protective
triggers first where the triggers would refuse it (as an attacker holding the file would).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from station.bench.scripted import nlhe_session
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code
from station.journal.recorder import Recorder
from station.journal.rows import COLUMNS, Entry, LogRow
from station.journal.schema import PROTECTIVE_TRIGGERS, expected_trigger_sql, tampered_triggers
from station.journal.store import Journal
from station.journal.verify import verify_file
from station.journal.witness import witness_path
from station.people.check import PEOPLE_CHECKS, verify_journal

from .conftest import STATION, enrol, station

Mutation = Callable[[sqlite3.Connection, int], None]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "journal.sqlite3"
    clock = ManualClock()
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        enrol(journal, "flo")
        recorder = Recorder(journal)
        recorder.recover()
        for item in nlhe_session(3, seed=5).events:
            clock.advance(0.7)
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    assert verify_file(path).ok
    return path


def _copy(pristine: Path, tmp_path: Path) -> Path:
    """The journal and its head witness, as an attacker holding the station's files has them."""
    target = tmp_path / "tampered.sqlite3"
    shutil.copyfile(pristine, target)
    shutil.copyfile(witness_path(pristine), witness_path(target))
    return target


def _head(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT MAX(seq) FROM log").fetchone()[0])


def _drop_triggers(conn: sqlite3.Connection) -> None:
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")


def _row(conn: sqlite3.Connection, seq: int) -> LogRow:
    return LogRow.from_tuple(
        conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq = ?", (seq,)).fetchone()
    )


def edit_payload(conn: sqlite3.Connection, seq: int) -> None:
    _drop_triggers(conn)
    conn.execute("UPDATE log SET payload = payload || ' ' WHERE seq = ?", (seq,))


def edit_rehashed(conn: sqlite3.Connection, seq: int) -> None:
    """Change a row and recompute its own hash: its successor's link gives it away."""
    _drop_triggers(conn)
    row = _row(conn, seq)
    forged = LogRow(**{**row.fields(), "actor": "mallory", "prev_hash": row.prev_hash, "hash": ""})
    conn.execute(
        "UPDATE log SET actor = ?, hash = ? WHERE seq = ?", ("mallory", forged.computed_hash(), seq)
    )


def delete_row(conn: sqlite3.Connection, seq: int) -> None:
    _drop_triggers(conn)
    conn.execute("DELETE FROM log WHERE seq = ?", (seq,))


def insert_row(conn: sqlite3.Connection, seq: int) -> None:
    """Shift the tail up by one and put a copy of another row in the gap."""
    _drop_triggers(conn)
    for s in range(_head(conn), seq - 1, -1):
        conn.execute("UPDATE log SET seq = seq + 1 WHERE seq = ?", (s,))
    donor = seq + 2 if seq + 2 <= _head(conn) else seq - 1
    row = _row(conn, donor)
    conn.execute(
        f"INSERT INTO log ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
        (seq, *row.as_tuple()[1:-1], "f" * 64),
    )


def reorder(conn: sqlite3.Connection, seq: int) -> None:
    """Swap two neighbouring rows' places in the sequence."""
    _drop_triggers(conn)
    other = seq + 1 if seq < _head(conn) else seq - 1
    parked = _head(conn) + 1000
    conn.execute("UPDATE log SET seq = ? WHERE seq = ?", (parked, seq))
    conn.execute("UPDATE log SET seq = ? WHERE seq = ?", (seq, other))
    conn.execute("UPDATE log SET seq = ? WHERE seq = ?", (other, parked))


def truncate(conn: sqlite3.Connection, seq: int) -> None:
    _drop_triggers(conn)
    conn.execute("DELETE FROM log WHERE seq >= ?", (seq,))


def first_bad(kind: str, seq: int, head: int) -> int:
    if kind == "reorder" and seq == head:
        return seq - 1
    return seq


MUTATIONS: dict[str, Mutation] = {
    "edit": edit_payload,
    "edit-rehashed": edit_rehashed,
    "delete": delete_row,
    "insert": insert_row,
    "reorder": reorder,
    "truncate": truncate,
}


def _mutate(path: Path, mutation: Mutation, seq: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        mutation(conn, seq)
    finally:
        conn.close()


def test_sweep_every_mutation_at_many_points_is_detected_exactly(
    pristine: Path, tmp_path: Path
) -> None:
    """100 % detection with the exact first bad seq, over every kind and a spread of places."""
    conn = sqlite3.connect(pristine)
    head = _head(conn)
    conn.close()
    points = sorted({1, 2, head // 3, head // 2, head - 1, head, *range(5, head, 37)})
    detected = wrong = 0
    failures: list[str] = []
    for kind, mutation in MUTATIONS.items():
        for seq in points:
            if kind == "edit-rehashed" and seq == head:
                continue  # the head has no successor: see the anchor test below
            target = _copy(pristine, tmp_path)
            _mutate(target, mutation, seq)
            report = verify_file(target)
            if report.ok:
                failures.append(f"{kind}@{seq}: not detected")
            elif report.first_bad_seq != first_bad(kind, seq, head):
                wrong += 1
                failures.append(f"{kind}@{seq}: named seq {report.first_bad_seq}")
            else:
                detected += 1
    assert failures == []
    assert detected == len(MUTATIONS) * len(points) - 1 and wrong == 0


@pytest.mark.parametrize("column", [c for c in COLUMNS if c not in ("seq",)])
def test_editing_any_column_after_dropping_the_triggers_is_detected(
    pristine: Path, tmp_path: Path, column: str
) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(f"UPDATE log SET {column} = {column} WHERE seq = 40")
        _drop_triggers(conn)
        value = {"recorded_at_ns": "1", "hand": "999", "ref": "999", "clock_ok": "0"}.get(
            column, "'x'"
        )
        conn.execute(f"UPDATE log SET {column} = {value} WHERE seq = 40")
    finally:
        conn.close()
    report = verify_file(target)
    assert not report.ok
    assert report.first_bad_seq == 40


def test_rewriting_the_head_with_a_fresh_hash_is_caught_by_the_anchor(
    pristine: Path, tmp_path: Path
) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    head = _head(conn)
    conn.close()
    _mutate(target, edit_rehashed, head)
    report = verify_file(target)
    assert report.first_bad_seq == head
    assert "anchor" in report.problems[0].text


def test_a_forged_row_appended_behind_the_anchors_back_is_detected(
    pristine: Path, tmp_path: Path
) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        head = _head(conn)
        _drop_triggers(conn)
        row = _row(conn, head)
        forged = LogRow(**{**row.fields(), "seq": head + 1, "prev_hash": row.hash, "hash": ""})
        conn.execute(
            f"INSERT INTO log ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
            (*forged.as_tuple()[:-1], forged.computed_hash()),
        )
    finally:
        conn.close()
    report = verify_file(target)
    assert report.first_bad_seq == head + 1
    assert "after the anchored head" in report.problems[0].text


def test_dropping_a_trigger_alone_is_reported(pristine: Path, tmp_path: Path) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("DROP TRIGGER log_no_update")
    conn.close()
    report = verify_file(target)
    assert not report.ok and report.first_bad_seq is None
    assert report.problems[0].text == "protective trigger log_no_update is missing or altered"


def test_a_replaced_pin_hash_is_detected(pristine: Path, tmp_path: Path) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    changed_seq = conn.execute("SELECT changed_seq FROM people WHERE name = 'flo'").fetchone()[0]
    conn.execute("UPDATE people SET pin_hash = zeroblob(32) WHERE name = 'flo'")
    conn.close()
    report = verify_journal(target)
    assert report.first_bad_seq == changed_seq
    assert "people table entry of flo" in report.problems[0].text
    # The log's own checks know nothing of people: the people room passes its check in.
    assert verify_file(target).ok


def test_a_replaced_pin_hash_tilts_at_recovery_with_the_people_check(
    pristine: Path, tmp_path: Path
) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("UPDATE people SET pin_hash = zeroblob(32) WHERE name = 'flo'")
    conn.close()
    with Journal.open(target, clock=ManualClock(), station_id=STATION) as journal:
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        tilts = [t.detail for t in recorder.op_state().tilts.values()]
    assert tilts == ["people table entry of flo does not match its journal row"]


def test_station_journal_verify_exit_codes_and_first_bad_seq(
    pristine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert station("journal", "verify", "--journal", str(pristine)) == 0
    assert capsys.readouterr().out.startswith("journal OK:")
    target = _copy(pristine, tmp_path)
    _mutate(target, delete_row, 57)
    assert station("journal", "verify", "--journal", str(target)) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "JOURNAL TAMPERED: first bad seq 57"
    assert "seq 57 is missing" in out
    assert station("journal", "verify", "--journal", str(tmp_path / "none.sqlite3")) == 2


def test_tampering_a_writer_finds_stays_on_record(pristine: Path, tmp_path: Path) -> None:
    """Cut the tail, then let the station open the file: its next write would move the anchor
    and hide the cut, so it records the cut (and the missing triggers it puts back) first, and
    verify keeps naming the first missing seq."""
    target = _copy(pristine, tmp_path)
    with closing(sqlite3.connect(pristine)) as conn:
        head = conn.execute("SELECT MAX(seq) FROM log").fetchone()[0]
    _mutate(target, truncate, 200)
    with Journal.open(target, clock=ManualClock(), station_id=STATION) as journal:
        tilts = [r.data() for r in journal.rows(200)]
    assert [(t["tilt"], t["seq"]) for t in tilts] == [
        ("journal_integrity", 200),
        ("journal_integrity", 200),
        ("journal_integrity", None),
    ]
    assert tilts[0]["detail"] == (
        f"truncated: the anchor records head seq {head}, the journal ends at 199"
    )
    assert tilts[1]["detail"].startswith("journal shorter than it was: it ends at seq 199 but")
    assert f"{head - 199} row(s) lost, seq 200-{head}" in tilts[1]["detail"]
    assert tilts[2]["detail"].startswith("protective triggers missing or altered: meta_no_update")
    assert tampered_triggers_of(target) == []
    report = verify_file(target)
    assert report.first_bad_seq == 200
    assert report.problems[0].text.startswith("the station recorded at seq 200: journal_integrity")


def test_a_cut_tail_found_by_the_next_write_names_its_first_missing_seq(
    pristine: Path, tmp_path: Path
) -> None:
    target = _copy(pristine, tmp_path)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("DROP TRIGGER log_no_delete")
    conn.execute("DELETE FROM log WHERE seq >= 250")
    conn.execute(SCHEMA_TRIGGER["log_no_delete"])  # the attacker even puts the trigger back
    conn.close()
    assert verify_file(target).first_bad_seq == 250
    with Journal.open(target, clock=ManualClock(), station_id=STATION) as journal:
        note = Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)
        tilt, witnessed, _ = journal.append([note])
    assert (tilt.seq, tilt.data()["tilt"], tilt.data()["seq"]) == (250, "journal_integrity", 250)
    assert (witnessed.data()["tilt"], witnessed.data()["seq"]) == ("journal_integrity", 250)
    assert verify_file(target).first_bad_seq == 250  # still, though the anchor moved on


SCHEMA_TRIGGER = {name: expected_trigger_sql(name) for name in PROTECTIVE_TRIGGERS}


def tampered_triggers_of(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return tampered_triggers(conn)
    finally:
        conn.close()
