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
    assert links["shoe"]["state"] == "up"  # replugged in hand 6: the last link row is up
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
    assert set(snap["problems"]) <= {CLOCK_PROBLEM}
    assert code == (1 if snap["problems"] else 0)
    # The same journal found through its station config, as an installed table finds it.
    _, again = _diag(capsys, "--config", str(demo_table / "station.toml"))
    assert again["journal"]["head_hash"] == report.head_hash
    assert main(["diag", "--journal", str(journal)]) == code
    text = capsys.readouterr().out
    assert "counters: not known (kept by the running daemon only)" in text
    assert "outbox: no forwarder" in text and "chain ok" in text


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
    assert (shoe["state"], shoe["firmware"], shoe["detail"]) == (
        "down",
        "2.1.0",
        "port lost: read failed",
    )
    assert "shoe link down: port lost: read failed" in snap["problems"]
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
