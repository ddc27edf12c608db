"""The `table.resume` row: the table between hands and the journal's operational fold, as one
chained row written with the input that ended a hand. Pure (the rows are given).

Its payload (JOURNAL.md, "The resume document"):

    {"format": 1,
     "engine": {"code": ..., "kind": ..., "version": ...},   # who wrote it (engine_id)
     "table": {...},                                         # station.engine.resume
     "ops": {...}}                                           # OpsTracker.to_doc

`table` and `ops` are the state once every row before this one is applied: a start-up builds
them back (`load`) and replays only the rows after it. A replay that arrives at such a row
compares its own state with the row's (`difference`): the document a station resumes from is
checked against the history whenever the history is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from station.engine.cards import DeckRegistry
from station.engine.resume import ResumeError, table_to_doc
from station.engine.resume_read import table_from_doc
from station.engine.table import Table
from station.journal.codes import ENGINE_ACTOR, ActorRole, Code
from station.journal.engine_id import code_of, identity
from station.journal.ops import OpsTracker
from station.journal.rows import Entry, LogRow, canonical_json

FORMAT: Final = 1
_KEYS: Final = frozenset({"format", "engine", "table", "ops"})


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """A resume row read back: the state once every row before it was applied."""

    seq: int
    prev_hash: str
    row_hash: str
    ref: int  # the input row it follows (0: none)
    table: Table
    ops: OpsTracker
    hand: int  # the engine's hand number
    writer: str | None  # the deriving code that wrote it (engine_id), when it says


def payload(table: Table, ops: OpsTracker) -> dict[str, Any]:
    """The row's payload for this state; ResumeError when the table is not between hands."""
    return {
        "format": FORMAT,
        "engine": identity(),
        "table": table_to_doc(table),
        "ops": ops.to_doc(),
    }


def entry(table: Table, ops: OpsTracker, *, ref: int, hand: int) -> Entry:
    """The resume row written after input `ref` (ResumeError when there can be none)."""
    return Entry(
        Code.TABLE_RESUME, payload(table, ops), ENGINE_ACTOR, ActorRole.ENGINE, hand=hand, ref=ref
    )


def load(row: LogRow, registry: DeckRegistry | None, writer: str | None = None) -> ResumePoint:
    """The state a resume row holds; ResumeError naming what this station cannot read.
    `writer`: the code of the stretch the row is in (`engine_id.writer_at`); without it, what
    the row says of itself."""
    try:
        data = json.loads(row.payload)
    except ValueError as exc:
        raise ResumeError(f"resume row {row.seq}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ResumeError(f"resume row {row.seq}: not an object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ResumeError(f"resume row {row.seq}: unknown field {unknown[0]!r}")
    if data.get("format") != FORMAT:
        raise ResumeError(f"resume row {row.seq}: format {data.get('format')!r}, not {FORMAT}")
    table = table_from_doc(data.get("table"), registry)
    try:
        ops = OpsTracker.from_doc(data.get("ops", {}), row.seq - 1)
    except ValueError as exc:
        raise ResumeError(f"resume row {row.seq}: {exc}") from None
    return ResumePoint(
        row.seq,
        row.prev_hash,
        row.hash,
        row.ref or 0,
        table,
        ops,
        table.hand_number(),
        writer if writer is not None else code_of(data),
    )


def difference(data: Mapping[str, Any], table: Table, ops: OpsTracker) -> str | None:
    """Where a journaled resume payload differs from the state replay holds at that row (a
    dotted path), or None when it holds exactly that state."""
    try:
        mine = {"table": table_to_doc(table), "ops": ops.to_doc()}
    except ResumeError as exc:
        return f"replay holds no resume document there: {exc}"
    normal = json.loads(canonical_json(mine))  # tuples as lists, as the row holds them
    theirs = {"table": data.get("table"), "ops": data.get("ops")}
    return _where(theirs, normal, "")


def _where(a: object, b: object, path: str) -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}{key}: only in {'the replay' if key in b else 'the row'}"
            found = _where(a[key], b[key], f"{path}{key}.")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _where(x, y, f"{path}{i}.")
            if found is not None:
                return found
        return None
    if a == b and type(a) is type(b):
        return None
    return f"{path.rstrip('.')}: row {_short(a)}, replay {_short(b)}"


def _short(v: object) -> str:
    text = json.dumps(v)
    return text if len(text) <= 60 else text[:57] + "..."
