"""The console's commands as systemd and an admin run them: `station central console-user`
makes the first admin from the shell (password on stdin) and lists accounts; `station central
console` migrates, serves, says READY=1 on $NOTIFY_SOCKET once it has indexed the store, and
stops cleanly on SIGTERM; a bad `[console]` is exit 2 naming the key."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from station.central.services import free_port
from tests.conftest import StationRun
from tests.console.fleet import Fleet
from tests.daemon.conftest import NotifyListener

ROOT = Path(__file__).resolve().parents[2]


def _station(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "station", "central", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip


def _config(fleet: Fleet, tmp_path: Path, console: str) -> Path:
    base = fleet.services.write_central_toml(tmp_path / "central.toml").read_text()
    path = tmp_path / "central.toml"
    path.write_text(base + "\n[console]\n" + console, encoding="utf-8")
    return path


def test_the_first_admin_from_the_shell(
    fleet: Fleet, tmp_path: Path, station_cli: StationRun
) -> None:
    config = _config(fleet, tmp_path, "secure_cookies = false\n")
    added = _station(
        "console-user", "add", "boss", "--role", "admin", "--password-stdin",
        "--config", str(config), stdin="the-chief-password\n",
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    # The same command's other answers, run in this process.
    again = station_cli(
        "central", "console-user", "add", "boss", "--role", "admin", "--password-stdin",
        "--config", str(config), stdin="the-chief-password\n",
    )  # fmt: skip
    assert again.returncode == 2
    assert "boss already has an account" in again.stderr
    weak = station_cli(
        "central", "console-user", "add", "weakling", "--role", "floor", "--password-stdin",
        "--config", str(config), stdin="short\n",
    )  # fmt: skip
    assert weak.returncode == 2
    assert "10 to" in weak.stderr
    listed = station_cli("central", "console-user", "list", "--config", str(config))
    assert "boss\tadmin\tactive" in listed.stdout.splitlines()
    audit = fleet.query(
        "SELECT account, action, target FROM console_audit WHERE target = 'boss' ORDER BY id"
    )
    assert audit == [("cli", "account.added", "boss")]


def test_the_console_serves_says_ready_and_stops_on_sigterm(fleet: Fleet, tmp_path: Path) -> None:
    port = free_port()
    config = _config(
        fleet, tmp_path, f'listen = "127.0.0.1"\nport = {port}\nsecure_cookies = false\n'
    )
    listener = NotifyListener(tmp_path / "notify.sock")
    proc = subprocess.Popen(
        [sys.executable, "-m", "station", "central", "console", "--config", str(config),
         "--log-level", "warning"],
        cwd=ROOT, env={"NOTIFY_SOCKET": str(listener.path), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        got = listener.until("READY=1", 60)
        assert f"http://127.0.0.1:{port}" in got[-1][1]
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").text == "ok"
        assert httpx.get(f"http://127.0.0.1:{port}/login").status_code == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert "STOPPING=1" in listener.until("STOPPING=1", 10)[-1][1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        listener.close()
        if proc.stdout is not None:
            proc.stdout.close()


def test_a_bad_console_section_is_exit_2_naming_the_key(fleet: Fleet, tmp_path: Path) -> None:
    config = _config(fleet, tmp_path, "port = 99999\nsession_idle_mins = 3\n")
    started = time.monotonic()
    done = _station("console", "--config", str(config))
    assert done.returncode == 2
    assert "console.port" in done.stderr
    assert "console.session_idle_mins" in done.stderr
    assert time.monotonic() - started < 30
