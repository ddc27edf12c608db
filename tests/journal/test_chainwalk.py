"""The fast chain walk of the history check judges every row exactly as the row-by-row
`ChainChecker` does (the one `verify` and recovery use): the same first problem for each kind of
edit, and a row the slow way accepts (a value stored with another type whose text hashes the
same) is accepted too. Each check runs the walk's inner loop as imported (compiled with the
engine where the build is current, `station.native`) and as written (the Python source)."""

from __future__ import annotations

import importlib.util
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from station import native
from station.bench.scripted import nlhe_session
from station.journal import chainfast, chainwalk
from station.journal.chainwalk import walk
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.rows import COLUMNS, GENESIS_HASH, LogRow
from station.journal.store import Journal
from station.journal.verify import ChainChecker, Problem

STATION = "T03"
SOURCE = Path(__file__).resolve().parents[2] / "station" / "journal" / "chainfast.py"


def _as_written() -> object:
    spec = importlib.util.spec_from_file_location("chainfast_as_written", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.check_rows


@pytest.fixture(params=["as imported", "as written"])
def form(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The inner loop the walk runs: as imported, or the Python source whatever was built."""
    if request.param == "as written":
        monkeypatch.setattr(chainwalk, "check_rows", _as_written())
    return str(request.param)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("walk") / "journal.sqlite3"
    with Journal.open(path, clock=ManualClock(), station_id=STATION, create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        for item in nlhe_session(3, seed=6).events:
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    clock = ManualClock(boot="manual-boot-2")  # a new boot
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        for item in nlhe_session(1, seed=7).events[:40]:
            recorder.record(item.event, actor="shoe", role=ActorRole.DEVICE, at=item.t)
    return path


def _copy(pristine: Path, tmp_path: Path, change: Callable[[sqlite3.Connection], None]) -> Path:
    path = tmp_path / "edited.sqlite3"
    with closing(sqlite3.connect(pristine)) as src, closing(sqlite3.connect(path)) as dst:
        src.backup(dst)
        dst.execute("DROP TRIGGER log_no_update")
        dst.execute("DROP TRIGGER log_no_delete")
        change(dst)
        dst.commit()
    return path


def _slow(path: Path) -> Problem | None:
    checker = ChainChecker(STATION)
    with closing(sqlite3.connect(path)) as conn:
        for t in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log ORDER BY seq"):
            try:
                found = checker.check(LogRow.from_tuple(t))
            except (TypeError, ValueError) as exc:
                return checker.unreadable(t[0], str(exc))
            if found is not None:
                return found
    return None


def _fast(path: Path) -> Problem | None:
    with closing(sqlite3.connect(path)) as conn:
        head = int(conn.execute("SELECT MAX(seq) FROM log").fetchone()[0])
        return walk(conn, STATION, (0, GENESIS_HASH), head).problem


def _rehash(conn: sqlite3.Connection, seq: int) -> None:
    t = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq = ?", (seq,)).fetchone()
    row = LogRow.from_tuple(t)
    conn.execute("UPDATE log SET hash = ? WHERE seq = ?", (row.computed_hash(), seq))


EDITS: dict[str, Callable[[sqlite3.Connection], None]] = {
    "payload edited": lambda c: c.execute(
        "UPDATE log SET payload = replace(payload, '\"seat\":', '\"seat\": ') WHERE seq = 40"
    ),
    "payload edited and re-hashed": lambda c: (
        c.execute("UPDATE log SET payload = payload || ' ' WHERE seq = 40"),
        _rehash(c, 40),
    ),
    "row deleted": lambda c: c.execute("DELETE FROM log WHERE seq = 77"),
    "another station's row": lambda c: (
        c.execute("UPDATE log SET station_id = 'T99' WHERE seq = 90"),
        _rehash(c, 90),
    ),
    "hand stored as text": lambda c: c.execute(
        "UPDATE log SET hand = CAST(hand AS TEXT) WHERE seq = 55"
    ),
    "hand not a number": lambda c: c.execute("UPDATE log SET hand = 'abc' WHERE seq = 57"),
    "payload stored as a blob": lambda c: c.execute(
        "UPDATE log SET payload = CAST(payload AS BLOB) WHERE seq = 58"
    ),
    "ref stored as text": lambda c: c.execute(
        "UPDATE log SET ref = CAST(ref AS TEXT) WHERE seq = 61 AND ref IS NOT NULL"
    ),
    "actor stored as a blob": lambda c: c.execute(
        "UPDATE log SET actor = CAST(actor AS BLOB) WHERE seq = 66"
    ),
    "boot_id edited and re-hashed": lambda c: (
        c.execute("UPDATE log SET boot_id = 'b\"x' WHERE seq = 70"),
        _rehash(c, 70),
    ),
    "prev_hash edited": lambda c: c.execute(
        "UPDATE log SET prev_hash = substr(prev_hash, 2) || '0' WHERE seq = 72"
    ),
    "seq stored as text": lambda c: c.execute(
        "UPDATE log SET seq = CAST(seq AS TEXT) WHERE seq = 74"
    ),
}


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_the_walk_finds_what_the_row_by_row_check_finds(
    pristine: Path, tmp_path: Path, edit: str, form: str
) -> None:
    path = _copy(pristine, tmp_path, EDITS[edit])
    assert _fast(path) == _slow(path)


def test_a_sound_journal_walks_clean(pristine: Path, form: str) -> None:
    assert _fast(pristine) is None and _slow(pristine) is None
    with closing(sqlite3.connect(pristine)) as conn:
        seq, digest = conn.execute("SELECT seq, hash FROM log WHERE seq = 100").fetchone()
        head = int(conn.execute("SELECT MAX(seq) FROM log").fetchone()[0])
        walked = walk(conn, STATION, (seq, digest), head)
    assert walked.problem is None and walked.rows == head - 100 and walked.last_seq == head


@pytest.mark.parametrize("batch", [1, 7])
def test_batches_of_any_size_walk_the_same(
    pristine: Path, tmp_path: Path, batch: int, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    """The walk reads the rows in batches (checking `stop` between them): a batch boundary
    anywhere, a row judged the slow way inside a batch, changes nothing."""
    monkeypatch.setattr(chainwalk, "BATCH", batch)
    assert _fast(pristine) is None
    for edit in ("row deleted", "hand stored as text", "ref stored as text"):
        folder = tmp_path / edit.replace(" ", "-")
        folder.mkdir()
        path = _copy(pristine, folder, EDITS[edit])
        assert _fast(path) == _slow(path), edit


def test_a_sound_journal_is_judged_by_the_inner_loop_alone(
    pristine: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    """No row of a sound journal (two boots, three actors, every code a hand writes) is left
    to the slow way: the loop quotes each boot, actor, role and code right, each time it
    changes."""
    judged: list[object] = []
    slow = chainwalk._judge

    def counting(conn: sqlite3.Connection, checker: ChainChecker, seq: object) -> Problem | None:
        judged.append(seq)
        return slow(conn, checker, seq)

    monkeypatch.setattr(chainwalk, "_judge", counting)
    with closing(sqlite3.connect(pristine)) as conn:
        kinds = conn.execute(
            "SELECT COUNT(DISTINCT boot_id), COUNT(DISTINCT actor), COUNT(DISTINCT code) FROM log"
        ).fetchone()
    assert kinds[0] == 2 and kinds[1] >= 3 and kinds[2] >= 10
    assert _fast(pristine) is None
    assert judged == []


def test_the_inner_loop_runs_compiled_exactly_when_the_engine_does() -> None:
    compiled = not str(chainfast.__file__).endswith(".py")
    assert compiled == (native.engine_kind() == "native")
