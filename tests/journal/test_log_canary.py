"""The log canary (standards-ux requirement 34): a scripted session with known PINs and hole
cards, including failed logins and lockouts, leaves none of them, and no PIN hash, salt or RFID
tag, in any log output (every logger at DEBUG, and stderr where the station logs)."""

from __future__ import annotations

import io
import logging
import re
import sys
from pathlib import Path

import pytest

from station.bench.scripted import nlhe_session
from station.daemon.operations import StationOps
from station.engine.cards import synthetic_tag
from station.engine.events import Draw, Key, KeyPress
from station.journal.clock import SystemClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.people.exc import AuthError

from .conftest import PINS, ROLES, station

SESSION = nlhe_session(6, seed=21)


def _present(text: str, token: str) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(token)}(?![0-9A-Za-z])", text) is not None


def _play(journal: Journal, tags: list[str]) -> None:
    recorder = Recorder(journal)
    recorder.recover()
    ops = StationOps(recorder)
    ops.login("dan", PINS["dan"])
    for i, item in enumerate(SESSION.events):
        event = item.event
        if isinstance(event, Draw) and not event.face_up and event.card is not None:
            tag = synthetic_tag("blue-1", event.card)  # hole cards come from the shoe as tags
            tags.append(tag)
            event = Draw(None, tag=tag)
        recorder.record(event, actor="shoe", role=ActorRole.DEVICE, at=item.t)
        if i == 40:
            recorder.record(KeyPress(Key.FLOOR), actor="panel", role=ActorRole.DEVICE, at=item.t)
            for wrong in ("111111", "222333", "444555", "666777", "888999", PINS["fay"]):
                with pytest.raises(AuthError):
                    ops.clear_floor_call("fay", wrong)  # the 5th locks fay out
            ops.clear_floor_call("flo", PINS["flo"])
    for _ in range(6):
        with pytest.raises(AuthError):
            ops.login("tom", "135790")


def test_no_pin_hash_salt_tag_or_hole_card_reaches_any_log(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    handler = logging.StreamHandler(sys.stderr)  # the station logs to stderr
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    path = tmp_path / "canary.sqlite3"
    monkeypatch.setenv("STATION_JOURNAL", str(path))
    tags: list[str] = []
    try:
        assert station("journal", "init", "--station", "CANARY") == 0
        monkeypatch.setattr(sys, "stdin", io.StringIO(f"{PINS['ada']}\n"))
        assert station("journal", "users", "add", "ada", "--role", "admin", "--pin-stdin") == 0
        for name in ("flo", "fay", "dan", "tom"):
            monkeypatch.setattr(sys, "stdin", io.StringIO(f"{PINS['ada']}\n{PINS[name]}\n"))
            add = ("users", "add", name, "--role", ROLES[name].value, "--person", "ada")
            assert station("journal", *add, "--pin-stdin") == 0
        for wrong in ("100200", "300400", "500600", "700800", "900100", PINS["ada"]):
            monkeypatch.setattr(sys, "stdin", io.StringIO(f"{wrong}\n"))
            assert station("journal", "users", "list") == 0
            args = ("users", "disable", "dan", "--person", "ada", "--pin-stdin")
            assert station("journal", *args) == 2  # wrong PINs, then locked out
        with Journal.open(path, clock=SystemClock()) as journal:
            _play(journal, tags)
            secrets = [
                s.hex()
                for row in journal.conn.execute("SELECT salt, pin_hash FROM people")
                for s in (bytes(row[0]), bytes(row[1]))
            ]
        with Journal.open(path, clock=SystemClock()) as journal:
            Recorder(journal).recover(strict=True)  # a restart logs its recovery
        for argv in (
            ("journal", "verify"),
            ("journal", "status"),
            ("incidents", "list"),
            ("hands", "list"),
        ):
            assert station(*argv) == 0
    finally:
        logging.getLogger().removeHandler(handler)
    captured = capsys.readouterr()
    logs = caplog.text + "\n" + captured.err
    assert "locked out" in logs and "authentication failed for fay" in logs  # it did log
    hole_cards = {card for hand in SESSION.hole_cards for card in hand}
    leaks = [pin for pin in PINS.values() if _present(logs + captured.out, pin)]
    leaks += [s for s in secrets if s in logs + captured.out]
    leaks += [t for t in tags if t in logs + captured.out]
    leaks += sorted(card for card in hole_cards if _present(logs, card))
    assert leaks == []
    assert len(tags) >= 6 * 8 and len(secrets) == 10  # hole cards and burns came as tags


def test_the_canary_would_see_a_leak(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    logging.getLogger("station.journal.test").debug("card %s pin %s", "Qs", PINS["flo"])
    assert _present(caplog.text, "Qs") and _present(caplog.text, PINS["flo"])
    assert not _present("hash 5Qs9", "Qs")
