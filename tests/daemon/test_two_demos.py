"""Two demos started at once in one new folder (issue 27, item 2): one plays, the other refuses
with a message and exit 2, no traceback, and the journal of the one that played verifies."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from station.demo.run import demo_folder
from station.journal.verify import verify_file

ROOT = Path(__file__).resolve().parents[2]


def test_a_second_demo_in_the_same_folder_refuses(tmp_path: Path) -> None:
    folder = tmp_path / "table"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    argv = [sys.executable, "-m", "station.cli", "demo", "--headless", "--hands", "1"]
    procs = [
        subprocess.Popen(
            [*argv, "--dir", str(folder)],
            cwd=ROOT,
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    results = [(p.wait(timeout=180), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, _, err in results if code == 2)
    assert f"{folder} is in use by another demo" in refused or "already holds" in refused
    assert all("Traceback" not in out + err for _, out, err in results)
    assert verify_file(folder / "journal.sqlite").ok


def test_a_folder_another_demo_holds_before_its_journal_exists_is_refused(tmp_path: Path) -> None:
    """The race the issue saw: the first demo has taken the folder but not yet made its journal
    (so a check for the journal's file alone lets a second one through, and both rewrite it).
    Here the test holds the folder as a starting demo does; the demo started in it refuses."""
    folder = tmp_path / "table"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    with demo_folder(folder):
        done = subprocess.run(
            [sys.executable, "-m", "station.cli", "demo", "--headless", "--hands", "1",
             "--dir", str(folder)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
    assert done.returncode == 2, done.stdout[-500:] + done.stderr[-500:]
    assert f"{folder} is in use by another demo (pid {os.getpid()})" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert not (folder / "journal.sqlite").exists()  # it touched nothing
