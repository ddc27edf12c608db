"""`station diag`: the technician's diagnostics in a terminal, from a running demo daemon (its
read-only status socket) and from a journal alone, as text, JSON and `--watch`."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from station.cli import main
from station.daemon.operations import StationOps
from station.diag.server import NoDaemonError, StatusServer, fetch, socket_path
from station.journal.clock import ManualClock
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.journal.verify import verify_file

ROOT = Path(__file__).resolve().parents[2]
CLOCK_PROBLEM = "clock not synchronised (NTP)"


def _diag(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["diag", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_diag_from_the_journal_alone(demo_table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = demo_table / "journal.sqlite"
    code, snap = _diag(capsys, "--journal", str(journal))
    assert snap["source"] == "journal" and snap["format"] == 1
    assert snap["daemon"]["running"] is False
    assert snap["daemon"]["socket"] == str(socket_path(journal))
    links = {link["device"]: link for link in snap["links"]}
    assert links["shoe"]["state"] == "unknown"  # no daemon: what is live is not known
    assert links["shoe"]["journal_state"] == "up"  # replugged in hand 6: the last row is up
    assert (links["shoe"]["serial"], links["shoe"]["firmware"]) == ("SHOE-DEMO1", "1.0.0")
    assert links["betzones"]["serial"] == "ZONES-DEMO1"
    assert links["shoe"]["counters"] is None  # only the running daemon counts frames
    assert len(links["shoe"]["last_events"]) == 5
    assert all("face down" in e or "face up" in e for e in links["shoe"]["last_events"])
    assert snap["gpio"]["levels"] is None
    assert snap["gpio"]["seats_occupied"] == [1, 2, 3, 4, 5, 6]
    report = verify_file(journal)
    j = snap["journal"]
    assert (j["station_id"], j["head_seq"], j["head_hash"]) == (
        "DEMO",
        report.head_seq,
        report.head_hash,
    )
    assert j["chain"] == "ok" and j["last_hand"] == 6 and j["mode"] == "play"
    assert j["tilts"] == [] and j["floor_call"] is None
    # The demo does not forward to a central store: nothing was ever acknowledged.
    assert j["outbox"] == {
        "forwarder": None,  # from the journal alone the config is not known
        "state": "",
        "acked_seq": 0,
        "pending_rows": None,
        "oldest_pending_utc": None,
        "oldest_pending_age_s": None,
        "central_seq": None,
        "text": "no forwarder (the central store never acknowledged a row)",
    }
    with sqlite3.connect(journal) as conn:
        stamped = conn.execute("SELECT clock_ok FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    assert snap["clock"]["last_row_clock_ok"] is bool(stamped[0])  # as the journal says
    assert snap["problems"][0] == f"daemon not running (no socket {socket_path(journal)})"
    assert set(snap["problems"][1:]) <= {CLOCK_PROBLEM}
    assert code == 1
    # The same journal found through its station config, as an installed table finds it.
    _, again = _diag(capsys, "--config", str(demo_table / "station.toml"))
    assert again["journal"]["head_hash"] == report.head_hash
    assert main(["diag", "--journal", str(journal)]) == code
    text = capsys.readouterr().out
    assert "counters: not known (kept by the running daemon only)" in text
    assert "outbox: no forwarder" in text and "chain ok" in text


def test_diag_of_a_stopped_station_writes_nothing_beside_its_journal(
    demo_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A floor member may read the journal's folder but not write in it: diag of a stopped
    station must read the journal without the -wal and -shm SQLite makes for a reader in WAL
    mode (it could not make them there, and called the journal damaged: a technician's
    probe). Nothing is created beside it, and the figures are the journal's."""
    copy = tmp_path / "journal.sqlite"
    shutil.copy(demo_table / "journal.sqlite", copy)
    before = sorted(p.name for p in tmp_path.iterdir())
    _code, snap = _diag(capsys, "--journal", str(copy))
    assert snap["journal"]["station_id"] == "DEMO" and snap["journal"]["head_seq"] > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_broken_chain_and_a_lost_link_are_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal.open(path, clock=ManualClock(), station_id="T01", create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        ops = StationOps(recorder)
        ops.link_up("shoe", "SHOE-7 firmware 2.1.0")
        ops.link_down("shoe", "port lost: read failed")
    code, snap = _diag(capsys, "--journal", str(path))
    shoe = next(link for link in snap["links"] if link["device"] == "shoe")
    assert (shoe["state"], shoe["journal_state"], shoe["firmware"], shoe["detail"]) == (
        "unknown",  # nothing is live without the daemon: the journal says what was
        "down",
        "2.1.0",
        "port lost: read failed",
    )
    assert snap["problems"][0].startswith("daemon not running")
    assert code == 1
    # An edited row breaks the chain (the protective trigger dropped first, as an attacker would).
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER IF EXISTS log_no_update")
    conn.execute("UPDATE log SET payload = replace(payload, 'read failed', 'fine') WHERE seq = 3")
    conn.commit()
    conn.close()
    code, snap = _diag(capsys, "--journal", str(path), "--offline")
    assert snap["journal"]["chain"] == "broken"
    assert any(p.startswith("journal chain broken: ") for p in snap["problems"]), snap["problems"]
    assert code == 1


def test_events_lost_on_a_link_stay_a_problem_while_a_link_down_is_its_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link down is said once, as the link's state; events lost on a link (the shoe's
    firmware log reset: draws the station never saw) are an open tilt the floor must clear,
    so diag lists them under PROBLEMS and exits 1 (they were left out with the link's own
    tilt: a technician's probe)."""
    from station.journal.codes import TiltCode

    path = tmp_path / "journal.sqlite"
    with Journal.open(path, clock=ManualClock(), station_id="T01", create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        ops = StationOps(recorder)
        ops.link_up("shoe", "SHOE-7 firmware 2.1.0")
        ops.raise_tilt(TiltCode.LINK_LOST, "events lost: log_reset", "shoe-events")
    code, snap = _diag(capsys, "--journal", str(path), "--offline")
    assert any("link_lost:shoe-events" in p and "log_reset" in p for p in snap["problems"]), snap[
        "problems"
    ]
    assert code == 1


def test_a_missing_journal_says_where_diag_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("STATION_JOURNAL", raising=False)
    assert main(["diag", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert "none.sqlite, which does not exist" in capsys.readouterr().err


# --- the status socket ---------------------------------------------------------------------


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (a Unix socket path holds at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="diag-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_status_socket_serves_and_never_reads(short_dir: Path) -> None:
    path = socket_path(short_dir / "journal.sqlite")
    path.touch()  # not a socket: left alone, the server refuses to take its place
    server = StatusServer(path, "9.9")
    assert not server.start()
    path.unlink()
    # A socket left by a daemon killed with kill -9: nobody listens, a new daemon replaces it.
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(os.fspath(path))
    stale.close()
    with pytest.raises(NoDaemonError, match="nobody listening"):
        fetch(path)
    assert server.start()
    try:
        assert stat.S_IMODE(path.stat().st_mode) == 0o660  # the default: group_read journals
        assert fetch(path)["starting"] is True  # nothing published yet
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(os.fspath(path))
            # never read: the server may answer and close before all of it went out, which
            # the sender sees as a broken pipe (it did once under load); the answer stays readable
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                client.sendall(b'{"command": "clear tilts"}\n' * 100)
            answer = client.makefile("rb").readline()
        assert json.loads(answer)["format"] == 1
        deadline = time.monotonic() + 5
        while server.served < 2 and time.monotonic() < deadline:
            time.sleep(0.01)  # counted after the answer went out
        assert server.served == 2
    finally:
        server.stop()
    assert not path.exists()
    with pytest.raises(NoDaemonError, match="no socket"):
        fetch(path)


def _wait_live(journal: Path, deadline: float) -> dict[str, Any]:
    """`station diag --json` until the daemon answers with both links up and frames counted."""
    last: dict[str, Any] = {}
    while time.monotonic() < deadline:
        proc = subprocess.run(
            [sys.executable, "-m", "station.cli", "diag", "--json", "--journal", str(journal)],
            capture_output=True, text=True, cwd=ROOT, timeout=30, check=False,
        )  # fmt: skip
        if proc.stdout.strip():
            last = json.loads(proc.stdout)
            links = last.get("links", [])
            if last["source"] == "daemon" and all(
                link["state"] == "up" and (link["counters"] or {}).get("frames_rx", 0) > 0
                for link in links
            ):
                return last
        time.sleep(0.3)
    raise AssertionError(f"the demo daemon never answered with its links up: {last}")


@pytest.mark.slow
def test_diag_from_a_running_demo_daemon(short_dir: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    folder = short_dir / "t"
    log = (short_dir / "demo.log").open("w")
    demo = subprocess.Popen(
        [sys.executable, "-m", "station.cli", "demo", "--headless", "--hands", "1",
         "--speed", "1", "--dir", str(folder)],
        stdout=log, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env,
    )  # fmt: skip
    journal = folder / "journal.sqlite"
    try:
        snap = _wait_live(journal, time.monotonic() + 60)
        assert snap["daemon"]["running"] is True and snap["daemon"]["pid"] == demo.pid
        links = {link["device"]: link for link in snap["links"]}
        for device, serial in (("shoe", "SHOE-DEMO1"), ("betzones", "ZONES-DEMO1")):
            link = links[device]
            assert (link["serial"], link["firmware"], link["protocol"]) == (serial, "1.0.0", 1)
            assert link["port"] == str(folder / device)
            assert {"crc_errors", "retransmits", "frames_tx"} <= set(link["counters"])
            assert link["last_frames"] and link["last_frame_age_s"] is not None
        levels = snap["gpio"]["levels"]
        assert "keys.NEW_HAND" in levels and "puck.6" in levels
        assert snap["journal"]["chain"] in ("ok", "checking")
        assert snap["journal"]["head_seq"] > 0
        assert snap["journal"]["outbox"]["forwarder"] is False  # the demo has no [fleet]
        assert snap["journal"]["outbox"]["text"] == "no forwarder"
        assert set(snap["problems"]) <= {CLOCK_PROBLEM}
        # --watch: a JSON line per refresh until Ctrl-C, then exit 0.
        watch = subprocess.Popen(
            [sys.executable, "-m", "station.cli", "diag", "--json", "--watch", "0.3",
             "--journal", str(journal)],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        assert watch.stdout is not None
        first = [watch.stdout.readline(), watch.stdout.readline()]  # two refreshes, then Ctrl-C
        watch.send_signal(signal.SIGINT)
        out, _ = watch.communicate(timeout=20)
        assert watch.returncode == 0
        lines = [json.loads(line) for line in [*first, *out.splitlines()]]
        assert len(lines) >= 2 and all(s["source"] == "daemon" for s in lines)
    finally:
        demo.send_signal(signal.SIGINT)
        try:
            demo.wait(timeout=30)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait()
        log.close()
    assert not socket_path(journal).exists()  # removed when the daemon closed


def test_the_text_says_where_facts_come_from_and_never_prints_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32: a rake-zone event read "zone seat None 80", and the journal's seats sat under
    GPIO levels as if live. Offline every section names its source and the recorded facts their
    time; the engine and versions that ran the journal come from its start rows."""
    from station.engine.events import RakeZone, Setup, Stakes, Zone
    from station.journal.codes import ActorRole

    path = tmp_path / "journal.sqlite"
    with Journal.open(path, clock=ManualClock(), station_id="T07", create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        setup = Setup("nlhe", stakes=Stakes(sb=1, bb=2), seats={1: 100, 2: 100}, button=1)
        recorder.record(setup, actor="floor", role=ActorRole.FLOOR, at=None)
        for event in (Zone(1, 1), RakeZone(80)):
            recorder.record(event, actor="betzones:Z-1:7", role=ActorRole.DEVICE, at=None)
        StationOps(recorder).link_up("betzones", "Z-1 firmware 1.0.0")
    assert main(["diag", "--journal", str(path)]) == 1
    text = capsys.readouterr().out
    assert "None" not in text
    assert "event Z-1#7: the rake zone: 80 in chips" in text
    assert "event Z-1#7: seat 1's zone: 1 in chips" in text
    assert "daemon: NOT RUNNING (no socket" in text and "nothing below is live" in text
    assert "LINKS (not known: no daemon)" in text
    assert "  betzones  NOT KNOWN" in text
    assert "            journal: last recorded UP at " in text
    assert "            journal: no link row yet" in text  # the shoe never came up
    assert "GPIO INPUTS\n  levels: not known (read by the running daemon only)" in text
    assert "  journal: seats with a player 1 2 since " in text
    assert "JOURNAL (the file, read now)" in text
    assert "  software that ran this journal (its start rows, oldest first):" in text
    assert "PROBLEMS\n  daemon not running" in text
    _, snap = _diag(capsys, "--journal", str(path))
    assert [s["starts"] for s in snap["journal"]["software"]] == [1]
    assert snap["journal"]["software"][0]["engine"] in ("native", "pure")
    assert snap["gpio"]["seats_since_utc"] is not None
