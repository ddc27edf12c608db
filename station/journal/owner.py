"""Which station a journal file belongs to, read without writing anything. Edge adapter (files).

A journal keeps the station id it was created with for good (its hash chain covers it), so a
config naming another `station_id` than its journal's cannot run on it. `station config check`
and `station journal init` ask this before anything opens the journal for writing: the file is
opened read-only (`mode=ro`), as the floor group may read it, and never created or migrated.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Owner:
    """`station_id` of the journal at `path`; `problem` says why it could not be read ("" when
    it was)."""

    path: Path
    station_id: str = ""
    problem: str = ""


def reading_uri(path: Path) -> str:
    """The SQLite URI that reads the journal at `path` and writes nothing: through its WAL
    (`mode=ro`) while a station has it open (a -wal beside it), else the file as it is
    (`immutable=1`). `mode=ro` alone makes a -wal and a -shm beside a journal nobody has open,
    which a floor member (who may read the folder, not write in it) cannot."""
    wal = path.with_name(path.name + "-wal")
    return f"{path.resolve().as_uri()}?{'mode=ro' if wal.exists() else 'immutable=1'}"


def journal_owner(path: Path) -> Owner | None:
    """The owner of the journal at `path`, or None when there is no file there."""
    if not path.is_file():
        return None
    try:
        with closing(sqlite3.connect(reading_uri(path), uri=True, timeout=5.0)) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'station_id'").fetchone()
    except sqlite3.Error as exc:
        return Owner(path, problem=f"cannot read it ({exc})")
    if row is None:
        return Owner(path, problem="it names no station (not a journal, or never finished)")
    return Owner(path, station_id=str(row[0]))


def wrong_owner(path: Path, wanted: str) -> str:
    """'' when the journal at `path` is missing or belongs to `wanted`; else the problem in
    words (the station it belongs to, or why it cannot be read)."""
    owner = journal_owner(path)
    if owner is None or owner.station_id == wanted:
        return ""
    if owner.problem:
        return f"{path}: {owner.problem}"
    return f"{path} is the journal of station {owner.station_id}, not {wanted}"
