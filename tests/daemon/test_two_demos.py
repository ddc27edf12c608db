"""Two demos started at once in one new folder (issue 27, item 2): one plays, the other refuses
with a message and exit 2, no traceback, and the journal of the one that played verifies."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
