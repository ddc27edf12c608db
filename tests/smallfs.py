"""A real, small file system for disk-full tests: a size-limited tmpfs mounted for the test.

Mounting needs root (CI runs as root). Elsewhere the tests that need it are skipped, except
under `CI=true`, where a missing small file system is a failure, never a silent skip. Chosen
over SQLite's own limits (`max_page_count`) because the station must meet the real thing: the
kernel's ENOSPC on the WAL, the SHM and the witness, not an error SQLite makes up.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_fs(folder: Path, size: str = "8m") -> Iterator[Path]:
    """`folder` (created) with a tmpfs of `size` mounted on it; unmounted afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    why = ""
    if os.geteuid() != 0:
        why = "mounting a small tmpfs needs root"
    else:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            why = f"cannot mount a tmpfs: {done.stderr.strip()}"
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why} (CI=true: a disk-full test may not be skipped)")
        pytest.skip(why)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path, leave: int = 0) -> Path:
    """Fill the file system holding `folder` up to `leave` bytes free; returns the filler."""
    filler = folder / "filler"
    with filler.open("ab") as f:
        block = b"\0" * 65536
        try:
            while os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize > leave + len(block):
                f.write(block)
                f.flush()
            while True:
                if os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize <= leave:
                    break
                f.write(b"\0" * 512)
                f.flush()
        except OSError:
            pass
    return filler
