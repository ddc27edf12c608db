"""Which code derives the journal's rows: the identity a `station.boot` row and every
`table.resume` row record, so that a replay knows which stretches of the journal this very code
wrote. Edge adapter (reads the source files once; `writer_at` reads the journal).

A stretch is the rows from one `station.boot` row to the next: the boot row names the code
that wrote them. A resume row's own `engine` says the same, for a reader of the row alone; a
replay goes by the boot rows, so that a row cannot vouch for itself.

The identity's `code` is a SHA-256 over the source of everything that turns an input row into
derived rows and resume documents: the rules engine, the journal's payload forms
(`station.formats` decisions, events and payloads) and the recorder's derivation, resume
document and operational fold (`replay`, `resume_rows`, `ops`, `codes`). The compiled engine
and the pure one are the same program (tests/test_native.py holds them to it), so `kind` is
recorded beside the code but is not part of it. A station that cannot read its source (an
installation without it) has the code "unknown", which no stretch shares: every difference
replay finds is then reported as engine drift, never as tampering (JOURNAL.md, "Engine drift").
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from functools import cache
from pathlib import Path
from typing import Final

from station.native import engine_kind
from station.version import VERSION

log = logging.getLogger(__name__)

UNKNOWN: Final = "unknown"
_JOURNAL_FILES: Final = ("replay.py", "resume_rows.py", "ops.py", "codes.py")
_FORMAT_FILES: Final = ("decisions.py", "events.py", "payload.py")


@cache
def deriving_code() -> str:
    """SHA-256 (hex) of the source that derives rows; UNKNOWN when it cannot be read."""
    import station.engine  # noqa: PLC0415
    import station.formats  # noqa: PLC0415
    import station.journal  # noqa: PLC0415

    engine = Path(station.engine.__file__).parent
    root = engine.parent
    files = [
        *sorted(engine.rglob("*.py")),
        *(Path(station.formats.__file__).parent / n for n in _FORMAT_FILES),
        *(Path(station.journal.__file__).parent / n for n in _JOURNAL_FILES),
    ]
    digest = hashlib.sha256()
    try:
        for path in files:
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    except OSError as exc:
        log.warning("the engine's source cannot be read (%s): its rows count as drift", exc)
        return UNKNOWN
    return digest.hexdigest()


def identity() -> dict[str, str]:
    """What a boot row and a resume row say of the code that wrote them."""
    return {"code": deriving_code(), "kind": engine_kind(), "version": VERSION}


def code_of(payload: object) -> str | None:
    """The deriving code a row's payload names (`engine.code`), None when it names none."""
    if isinstance(payload, dict):
        engine = payload.get("engine")
        if isinstance(engine, dict) and isinstance(engine.get("code"), str):
            return str(engine["code"])
    return None


def writer_at(conn: sqlite3.Connection, seq: int) -> str | None:
    """The deriving code of the stretch row `seq` is in: what the `station.boot` row before it
    names (None: a boot from before engine identities, or none)."""
    found = conn.execute(
        "SELECT payload FROM log WHERE code = 'station.boot' AND seq < ? ORDER BY seq DESC LIMIT 1",
        (seq,),
    ).fetchone()
    if found is None:
        return None
    try:
        return code_of(json.loads(found[0]))
    except ValueError:
        return None
