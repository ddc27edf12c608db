"""`station diag` on a damaged journal, exactly when a technician runs it: what is wrong and
what to do, exit 1, never a traceback (issue 27, item 7)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _damage(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as f:
        f.seek(offset)
        f.write(data)


@pytest.mark.parametrize(
    ("offset", "data"),
    [(0, b"not a database at all, sorry" * 4), (4096, b"\xff" * 8192)],
    ids=["header", "pages"],
)
def test_diag_on_a_damaged_journal_says_what_to_do(
    demo_table: Path, tmp_path: Path, offset: int, data: bytes
) -> None:
    journal = tmp_path / "journal.sqlite"
    shutil.copy(demo_table / "journal.sqlite", journal)
    _damage(journal, offset, data)
    done = subprocess.run(
        [sys.executable, "-m", "station.cli", "diag", "--offline", "--journal", str(journal)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr + done.stdout
    assert done.returncode == 1, done.stderr
    said = done.stdout + done.stderr
    assert str(journal) in said
    assert "station journal verify" in said or "journal chain broken" in said
