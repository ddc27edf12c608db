"""Data shipped with the package: the public PHH hand-history sample. Edge adapter (package data).

`phh-sample.tar.xz` is a byte-for-byte copy of the product owner's `data/phh/` folder (public hands
from the PokerKit project's PHH dataset, MIT licence: see `phh/LICENSE` inside the archive). The
demo deals these hands and the test suite replays them, with no file outside the repository.
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from importlib.resources import files

SAMPLE = "phh-sample.tar.xz"


def phh_sample(prefix: str = "") -> Iterator[tuple[str, str]]:
    """(relative name without .phh, text) of every hand in the sample under `prefix`
    (e.g. "pluribus/30", "wsop"), in name order."""
    with (
        files(__package__).joinpath(SAMPLE).open("rb") as raw,
        tarfile.open(fileobj=raw, mode="r:xz") as tar,
    ):
        members = sorted(
            (m for m in tar.getmembers() if m.isfile() and m.name.endswith(".phh")),
            key=lambda m: m.name,
        )
        for m in members:
            name = m.name.removeprefix("phh/").removesuffix(".phh")
            if not name.startswith(prefix):
                continue
            handle = tar.extractfile(m)
            if handle is not None:
                yield name, handle.read().decode("utf-8")


def session_text(name: str) -> str:
    """A recorded session shipped in `sessions/` (e.g. "double-board-showdown"), as text."""
    return files(__package__).joinpath("sessions", f"{name}.jsonl").read_text(encoding="utf-8")
