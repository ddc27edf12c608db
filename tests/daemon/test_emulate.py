"""`station run --emulate`: the daemon a table runs, on the emulated table, exactly as README's
first screen says to run and watch it; and a recorded session played through the emulated
hardware gives the decisions `station replay` gives for the file."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from station.demo.console import Cable, Hands, Quit, Refused, event_step, parse_command
from station.demo.emulate import EmulateError, EmulateOptions, emulated_table, folder_problem
from station.demo.rig import MARKER
from station.demo.steps import Chips, Collect, Deal, Narrate, Press, Reseat, Sit
from station.engine.cards import Card
from station.engine.events import ClockSet, Key
from station.journal.clock import ManualClock
from station.journal.store import Journal
from tests.daemon.conftest import write_config

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests/scenarios/PREMATURE-FLOP/rr11_burn_stays_flop_redealt_without_burn.jsonl"
pytestmark = pytest.mark.slow


def _env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONUNBUFFERED="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("NOTIFY_SOCKET", None)
    return env


def readme_commands() -> dict[str, list[str]]:
    """The `station run --emulate` and `station diag` lines of README's first screen, as argv."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("## Start here", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    found = {}
    for line in first.splitlines():
        words = shlex.split(line, comments=True)
        if words[:2] == ["./dev", "station"] and words[2] in ("run", "diag"):
            found[words[2]] = words[2:]
    return found


class Lines:
    """A process's stdout, line by line, read on a thread (so a test can wait for a line)."""

    def __init__(self, stream: IO[str]) -> None:
        self.all: list[str] = []
        self._q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def until(self, pattern: str, timeout_s: float = 90.0) -> str:
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._q.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.all.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError(f"no line matching {pattern!r}; got:\n" + "\n".join(self.all))

    def seen_or_until(self, pattern: str) -> str:
        """A line already read, or the next one, matching `pattern` (for a line whose place
        among the others is not fixed)."""
        for line in self.all:
            if re.search(pattern, line):
                return line
        return self.until(pattern)

    def rest(self) -> list[str]:
        while (line := self._q.get(timeout=30)) is not None:
            self.all.append(line)
        return self.all


@pytest.fixture
def table_dir() -> Iterator[Path]:
    """A short folder (the status socket's path holds at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="emu-"))
    yield folder / "table"
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def _cli(words: list[str], table: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "station.cli",
        *(w.replace("/tmp/table", str(table)) for w in words),
    ]


def test_run_emulate_and_watch_it_as_readme_says(table_dir: Path) -> None:
    commands = readme_commands()
    assert commands["run"][:2] == ["run", "--emulate"] and "--watch" in commands["diag"]
    daemon = subprocess.Popen(
        _cli(commands["run"], table_dir),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, cwd=ROOT, env=_env(),
    )  # fmt: skip
    assert daemon.stdin is not None and daemon.stdout is not None
    out = Lines(daemon.stdout)
    try:
        pins = out.until(r"people of this emulated journal: admin \(admin\) PIN \d+")
        assert "floor1 (floor) PIN" in pins and "dealer1 (dealer) PIN" in pins
        out.until(r"links up: the table is ready \(help: commands\)")
        # A dealer at the console: the posts, the deal, a fold, through the emulated hardware.
        for line in ("zone 2 1", "zone 3 2", "key NEW_HAND", "draw Ah", "draw 7c up", "bogus"):
            daemon.stdin.write(line + "\n")
            daemon.stdin.flush()
        out.until(r'^#\d+ panel: \{"type":"key","key":"NEW_HAND"\}')
        out.until(r'"type":"prompt","hand":1,"text":"DEAL: FIRST CARD TO SEAT 2"')
        out.until(r'^#\d+ shoe:SHOE-DEMO1:\d+: \{"type":"draw","tag":"[0-9A-F]+","face_up":true')
        # The console answers "bogus" at once, while the draws go through the emulated shoe's
        # serial line: its answer lands anywhere among their lines.
        out.seen_or_until(r"bogus: not a command \(help lists them\)")
        # Watched from a second terminal as README says: the live daemon, its links, its pins.
        watch = subprocess.Popen(
            _cli(commands["diag"], table_dir), stdout=subprocess.PIPE, text=True, cwd=ROOT,
            env=_env(),
        )  # fmt: skip
        assert watch.stdout is not None
        screen = Lines(watch.stdout)
        screen.until(r"^daemon: running \(pid \d+, ")
        screen.until(r"^  rules engine: (native|pure) \(")
        screen.until(r"^LINKS \(now, from the daemon\)")
        screen.until(r"^  shoe      UP ")
        screen.until(r"^  betzones  UP ")
        screen.until(r"^GPIO INPUTS \(now, from the daemon\)")
        screen.until(r"^JOURNAL \(the file, read now\)")
        watch.send_signal(signal.SIGINT)
        watch.wait(timeout=30)
        screen.rest()
        watch.stdout.close()
        assert watch.returncode == 0
        daemon.stdin.write("quit\n")
        daemon.stdin.flush()
        assert daemon.wait(timeout=60) == 0
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        daemon.stdin.close()
    lines = out.rest()
    daemon.stdout.close()
    assert any(line.startswith("station stopped (quit)") for line in lines), lines[-5:]
    # Stopped: diag says so, and shows nothing of the links as live.
    stopped = subprocess.run(
        _cli(["diag", "--journal", "/tmp/table/journal.sqlite"], table_dir),
        capture_output=True, text=True, cwd=ROOT, env=_env(), check=False,
    )  # fmt: skip
    assert stopped.returncode == 1
    assert "daemon: NOT RUNNING" in stopped.stdout and "  shoe      NOT KNOWN" in stopped.stdout
    assert "PROBLEMS\n  daemon not running" in stopped.stdout
    # Started again on the same folder: the same journal and people go on.
    again = subprocess.run(
        _cli(commands["run"], table_dir), input="quit\n",
        capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=120, check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert "the journal of the last run goes on" in again.stdout
    assert "people of this emulated journal" not in again.stdout


def test_a_folder_is_an_emulated_tables_or_refused(tmp_path: Path) -> None:
    """The folder of `--dir` holds only an emulated table: a demo's goes on under its station
    id; a table's own journal folder, or a journal of another station than --config's, is
    refused before anything opens."""
    demo = tmp_path / "demo"
    demo.mkdir()
    (demo / "station.toml").write_text(MARKER + "\n", encoding="utf-8")
    with Journal.open(demo / "journal.sqlite", clock=ManualClock(), station_id="DEMO", create=True):
        pass
    _, rig = emulated_table(EmulateOptions(demo))
    assert rig.station_id == "DEMO"
    config = write_config(tmp_path)  # station T07
    with pytest.raises(EmulateError, match="holds the emulated journal of station DEMO"):
        emulated_table(EmulateOptions(demo, config=config))
    installed = tmp_path / "var-lib"
    installed.mkdir()
    (installed / "journal.sqlite").write_bytes(b"")
    assert "not empty and holds no emulated table" in folder_problem(installed)
    (installed / "station.toml").write_text('station_id = "T07"\n', encoding="utf-8")
    assert "not an emulated table's" in folder_problem(installed)
    assert folder_problem(tmp_path / "new") == ""


def _decisions(lines: list[str]) -> list[dict[str, Any]]:
    """The decisions the console printed, without the journal's event numbers."""
    out = []
    for line in lines:
        if line.startswith("    {"):
            d = json.loads(line)
            out.append({k: v for k, v in d.items() if k not in ("event", "events")})
    return out


def test_a_session_through_the_emulated_hardware_decides_as_replay(table_dir: Path) -> None:
    run = subprocess.Popen(
        [sys.executable, "-m", "station.cli", "run", "--emulate", "--dir", str(table_dir),
         "--session", str(SESSION)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=ROOT, env=_env(),
    )  # fmt: skip
    assert run.stdout is not None
    out = Lines(run.stdout)
    try:
        played = out.until(r"^session: \d+ of \d+ step\(s\) played")
        numbers = re.findall(r"\d+", played)
        assert numbers[0] == numbers[1], played
        run.send_signal(signal.SIGTERM)  # systemctl stop
        assert run.wait(timeout=60) == 0
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    lines = out.rest()
    run.stdout.close()
    assert any(line.startswith("station stopped (SIGTERM)") for line in lines)
    replay = subprocess.run(
        [sys.executable, "-m", "station.cli", "replay", "--json", "--trace", str(SESSION)],
        capture_output=True, text=True, cwd=ROOT, env=_env(), check=True,
    )  # fmt: skip
    expected = _decisions(["    " + line for line in replay.stdout.splitlines()])
    got = _decisions(lines)
    # The emulated table's journal starts with the config's own seating (its setup row and its
    # posting prompt) before the session's: the session's decisions follow, the same.
    assert got[-len(expected) :] == expected
    assert any(d.get("rule") == "PREMATURE-FLOP" for d in got)


def test_the_console_turns_a_dealers_line_into_hardware_steps() -> None:
    assert parse_command("draw Ah") == Hands((Deal(card("Ah")),))
    assert parse_command("draw 7c up") == Hands((Deal(card("7c"), face_up=True),))
    assert parse_command("zone 3 100") == Hands((Chips(3, 100),))
    assert parse_command("zone 3 0") == Hands((Collect((3,)),))
    assert parse_command("seat 4 on") == Hands((Sit(4, True),))
    step = parse_command("key FOLD 4")
    assert isinstance(step, Hands) and isinstance(step.steps[0], Press)
    assert step.steps[0].key.key is Key.FOLD and step.steps[0].key.seat == 4
    setup = parse_command(
        '{"type":"setup","game":"nlhe","stakes":{"sb":1,"bb":2},"seats":{"1":9,"2":9}}'
    )
    assert isinstance(setup, Hands) and isinstance(setup.steps[0], Reseat)
    assert parse_command("unplug shoe") == Cable("shoe", plugged=False)
    assert parse_command("quit") == Quit()
    assert parse_command("") == Hands(())
    for bad, said in (
        ("draw", "usage: draw CARD [up]"),
        ("draw Zz", "Zz"),
        ("zone x 3", "whole numbers"),
        ("key NOPE", "NOPE"),
        ("{nope", "not a JSON object"),
        ("fly", "fly: not a command"),
    ):
        got = parse_command(bad)
        assert isinstance(got, Refused) and said in got.text, (bad, got)


def card(code: str) -> Card:
    return Card.parse(code)


def test_a_clock_line_is_said_not_played_through_the_hardware() -> None:
    """A session's tournament clock line comes from the centre: no emulated device makes it,
    so the console says so instead of pretending to play it."""
    step = event_step(ClockSet(2, 600.0))
    assert isinstance(step, Narrate) and "comes from the centre" in step.text
