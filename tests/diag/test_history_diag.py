"""`station diag` on the history check and the scrub: from the journal alone (the last
`station.history_checked` and `station.scrub` rows) and from a running daemon's status (the
scrub's progress between two rows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.bench.scripted import nlhe_session
from station.cli import main
from station.diag.history import read_history, with_live
from station.diag.journal_facts import read_only
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.scrub import ScrubProgress, progress_entries
from station.journal.store import Journal


def _journal(path: Path) -> None:
    clock = ManualClock()
    with Journal.open(path, clock=clock, station_id="T04", create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        for item in nlhe_session(4, seed=9).events:
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    with Journal.open(path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        assert recorder.check_history() is not None
        ended = ScrubProgress(
            run=9, target_seq=300, upto_seq=300, rows=300, hands=5, drift=2, busy_s=0.5, done=True
        )
        journal.append(progress_entries(ended))
        journal.append(progress_entries(ScrubProgress(run=12, target_seq=400, upto_seq=100)))


def test_the_history_from_the_journal_alone_and_from_the_daemon(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    _journal(path)
    with read_only(path) as conn:
        diag = read_history(conn)
    assert diag.checking is None  # the journal alone cannot say
    assert diag.last_check.startswith("ok: seq ") and "re-derived" in diag.last_check
    assert diag.last_scrub == "ok: 300 rows, 5 hands at 10 hands/s, 2 row(s) of engine drift"
    assert diag.last_scrub_ok is True and diag.drift == 2
    assert diag.scrub == "stopped (goes on at the next start)" and diag.scrub_percent == 25.0
    live = {
        "history": {
            "checking": False,
            "scrub": ScrubProgress(
                run=12, target_seq=400, upto_seq=300, busy_s=1.0, hands=40
            ).to_dict(),
        }
    }
    now = with_live(diag, live)
    assert (now.checking, now.scrub, now.scrub_percent) == (False, "running", 75.0)
    assert now.scrub_hands_per_s == 40.0
    assert main(["diag", "--json", "--offline", "--journal", str(path)]) in (0, 1)
    snap = json.loads(capsys.readouterr().out)
    assert snap["journal"]["history"]["last_scrub_ok"] is True
    assert main(["diag", "--offline", "--journal", str(path)]) in (0, 1)
    text = capsys.readouterr().out
    assert "  history check: ok: seq " in text
    assert "  scrub: stopped (goes on at the next start): 25 % (seq 100 of 400)" in text
    assert "  last scrub: ok: 300 rows, 5 hands at 10 hands/s" in text


def test_a_damaged_history_check_row_is_said_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A probe's: the last check's payload made not JSON (someone with the file). diag says so
    and what to do, and exits as on any problem, with no traceback."""
    import sqlite3
    from contextlib import closing

    from station.journal.codes import Code
    from station.journal.schema import expected_trigger_sql

    path = tmp_path / "journal.sqlite3"
    _journal(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in names:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(
            "UPDATE log SET payload = 'not json {' WHERE code = ?", (Code.HISTORY_CHECKED.value,)
        )
        for name in names:
            conn.execute(expected_trigger_sql(name))
    with read_only(path) as conn:
        diag = read_history(conn)
    assert diag.last_check.startswith("UNREADABLE") and "station journal verify" in diag.last_check
    assert main(["diag", "--offline", "--journal", str(path)]) == 1
    assert "  history check: UNREADABLE" in capsys.readouterr().out
