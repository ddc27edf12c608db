"""Fixtures shared across the suites: one run of the whole demo (six hands, every injected
irregularity), kept for the tests that read its journal (hand rows, PHH export, diagnostics,
the floor commands). Tests copy what they change."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def demo_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a finished `station demo --headless` run: journal.sqlite, station.toml,
    decks.toml, session.jsonl."""
    folder = tmp_path_factory.mktemp("demo") / "table"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "station.cli", "demo", "--headless", "--dir", str(folder)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=180, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (folder / "demo.log").write_text(proc.stdout, encoding="utf-8")
    return folder


def demo_pins(folder: Path) -> dict[str, str]:
    """The demo's people and their PINs, as the demo printed them."""
    log = (folder / "demo.log").read_text(encoding="utf-8")
    found = re.search(
        r"demo credentials .*?: (\w+) \(admin\) PIN (\d+), (\w+) \(floor\) PIN (\d+)", log
    )
    assert found is not None, "the demo prints its credentials"
    return {found.group(1): found.group(2), found.group(3): found.group(4)}
