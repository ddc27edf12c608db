"""Recovery checkpoints: the recorder's state saved beside the chain, so that a restart replays
only the rows after it. Edge adapter (SQLite, pickle).

A checkpoint is a cache, never the record: it holds the engine's `Table`, the operational
state (`OpsTracker`) and the hand number exactly as they stood once every row up to `seq` was
applied, pickled, with the hash of row `seq`. Recovery uses the newest one only when all of
these hold, and otherwise replays the whole journal as before:
- row `seq` is still in the chain with that hash (the chain recovery goes on to check joins it);
- the rules engine and the operational fold are byte for byte the code that wrote it
  (`code_digest`: a digest of their source files, so an upgrade, or any edit, starts afresh);
- the blob's SHA-256 matches (a torn or damaged write), it unpickles with `load_state` and
  holds the deck registry this start was given.

`load_state` resolves only classes defined in the rules engine and the journal's own state
modules, never a function or anything imported into them: a forged blob cannot run code. What
a checkpoint skipped at start is still checked, after READY: `HistoryCheck` replays the journal
from its first row up to `seq` on a read-only connection of its own and compares the state it
arrives at with the checkpoint's (`same_state`), with the hash chain on the way.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import logging
import pickle
import sqlite3
from collections import deque
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from types import BuiltinFunctionType, FunctionType
from typing import Any

from station.engine.cards import DeckRegistry, default_registry
from station.engine.table import Table
from station.journal.ops import OpsTracker
from station.native import engine_kind

log = logging.getLogger(__name__)

EVERY_HANDS = 20  # a checkpoint at the start of every 20th hand: a restart replays fewer
KEEP = 2  # checkpoints kept (the newest is used; the one before is spare)
PROTOCOL = 5
UNKNOWN_CODE = "unknown"

# Modules whose classes a checkpoint may hold: the engine's state and the operational fold.
_ALLOWED_PREFIXES = ("station.engine.",)
_ALLOWED_MODULES = frozenset({"station.journal.ops", "station.journal.codes", "collections"})
_ALLOWED_COLLECTIONS = frozenset({"deque", "OrderedDict", "Counter", "defaultdict"})


class CheckpointError(ValueError):
    """A checkpoint that cannot be used (the reason is in the message)."""


@dataclass(frozen=True, slots=True)
class RecorderState:
    """What recovery rebuilds: the engine's table, the operational fold, the current hand."""

    table: Table
    ops: OpsTracker
    hand: int


@dataclass(frozen=True, slots=True)
class Checkpoint:
    seq: int  # every row up to this one is applied
    row_hash: str  # the hash of row `seq`
    code: str  # code_digest() of the station that wrote it
    state: bytes  # dump_state(...)
    sha256: str  # of `state`

    @property
    def intact(self) -> bool:
        return hashlib.sha256(self.state).hexdigest() == self.sha256


@cache
def code_digest() -> str:
    """SHA-256 over the source of the rules engine and of the operational fold: a checkpoint
    is only as good as the code that pickled it. UNKNOWN_CODE when the source cannot be read
    (then no checkpoint is ever used)."""
    import station.engine  # noqa: PLC0415
    import station.journal  # noqa: PLC0415

    engine = Path(station.engine.__file__).parent
    journal = Path(station.journal.__file__).parent
    files = [*sorted(engine.rglob("*.py")), journal / "ops.py", journal / "codes.py"]
    digest = hashlib.sha256(engine_kind().encode() + b"\0")  # compiled or pure: never mixed
    try:
        for path in files:
            digest.update(str(path.relative_to(engine.parent)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    except OSError as exc:
        log.warning("recovery checkpoints are off: the engine's source cannot be read (%s)", exc)
        return UNKNOWN_CODE
    return digest.hexdigest()


def dump_state(state: RecorderState) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, protocol=PROTOCOL).dump((state.table, state.ops, state.hand))
    return buf.getvalue()


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        """A frozen dataclass is rebuilt by its constructor: the compiled engine's classes
        (station.native) cannot have their fields set after construction."""
        cls = type(obj)
        params = getattr(cls, "__dataclass_params__", None)
        if params is None or not params.frozen or isinstance(obj, type):
            return NotImplemented
        if "__reduce__" in cls.__dict__:
            return NotImplemented  # the class says how it is rebuilt (Card, DeckRegistry)
        fields = dataclasses.fields(obj)
        if any(not f.init for f in fields):
            return NotImplemented
        return type(obj), tuple(getattr(obj, f.name) for f in fields)


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        allowed = module.startswith(_ALLOWED_PREFIXES) or module in _ALLOWED_MODULES
        if not allowed or not name.isidentifier() or name.startswith("_"):
            raise CheckpointError(f"a checkpoint may not hold {module}.{name}")
        if module == "collections" and name not in _ALLOWED_COLLECTIONS:
            raise CheckpointError(f"a checkpoint may not hold {module}.{name}")
        found = super().find_class(module, name)
        if not isinstance(found, type) or found.__module__ != module:
            raise CheckpointError(f"{module}.{name} is not a class of that module")
        return found


def load_state(blob: bytes) -> RecorderState:
    """The state in a checkpoint blob; CheckpointError when it is not one."""
    try:
        loaded = _Unpickler(io.BytesIO(blob)).load()
    except CheckpointError:
        raise
    except Exception as exc:  # any unpickling failure: the blob is not a usable checkpoint
        raise CheckpointError(f"the checkpoint does not load: {type(exc).__name__}") from exc
    match loaded:
        case (Table() as table, OpsTracker() as ops, int(hand)):
            return RecorderState(table, ops, hand)
    raise CheckpointError("the checkpoint does not hold a recorder's state")


def make(seq: int, row_hash: str, state: RecorderState) -> Checkpoint:
    blob = dump_state(state)
    return Checkpoint(seq, row_hash, code_digest(), blob, hashlib.sha256(blob).hexdigest())


def usable(
    found: Checkpoint | None, row_hash: str | None, registry: DeckRegistry | None
) -> tuple[RecorderState | None, str]:
    """(state, "") when `found` may stand in for replaying rows up to its seq, whose hash in the
    journal is `row_hash`; (None, why not) otherwise."""
    if found is None:
        return None, "no checkpoint"
    if row_hash != found.row_hash:
        return None, f"row {found.seq} is not the row the checkpoint was taken at"
    if found.code != code_digest() or found.code == UNKNOWN_CODE:
        return None, "written by other station code"
    if not found.intact:
        return None, "the checkpoint is damaged"
    try:
        state = load_state(found.state)
    except CheckpointError as exc:
        return None, str(exc)
    if state.table.registry != (registry if registry is not None else default_registry()):
        return None, "taken with another deck registry"
    return state, ""


# --- in the journal file ----------------------------------------------------------------------


def save(conn: sqlite3.Connection, checkpoint: Checkpoint) -> None:
    """Store `checkpoint` and forget all but the newest KEEP, in one transaction of its own
    (never inside a journal write: a checkpoint lost to a crash costs only replay time)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "INSERT OR REPLACE INTO checkpoint (seq, row_hash, code, state, sha256) "
            "VALUES (?, ?, ?, ?, ?)",
            (checkpoint.seq, checkpoint.row_hash, checkpoint.code, checkpoint.state,
             checkpoint.sha256),
        )  # fmt: skip
        conn.execute(
            "DELETE FROM checkpoint WHERE seq NOT IN "
            "(SELECT seq FROM checkpoint ORDER BY seq DESC LIMIT ?)",
            (KEEP,),
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def drop_all(conn: sqlite3.Connection) -> None:
    """Forget every checkpoint (the next start replays the whole journal)."""
    try:
        conn.execute("DELETE FROM checkpoint")
    except sqlite3.Error as exc:  # then recovery finds it unusable, or uses it and checks again
        log.error("could not drop the recovery checkpoints: %s", exc)


def latest(conn: sqlite3.Connection, upto: int) -> Checkpoint | None:
    """The newest checkpoint at or below seq `upto` (None when there is none, or no table)."""
    try:
        found = conn.execute(
            "SELECT seq, row_hash, code, state, sha256 FROM checkpoint WHERE seq <= ? "
            "ORDER BY seq DESC LIMIT 1",
            (upto,),
        ).fetchone()
    except sqlite3.DatabaseError:
        return None
    if found is None:
        return None
    seq, row_hash, code, state, sha256 = found
    if not (isinstance(seq, int) and isinstance(state, bytes)):
        return None
    return Checkpoint(seq, str(row_hash), str(code), state, str(sha256))


# --- comparing states -------------------------------------------------------------------------


def same_state(a: object, b: object, path: str = "state") -> str | None:
    """Where two states differ (a dotted path), or None when they are equal: objects field by
    field (`__dict__` and slots), containers element by element, sets as sets."""
    return _compare(a, b, path, set())


def _compare(a: object, b: object, path: str, seen: set[tuple[int, int]]) -> str | None:
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if (id(a), id(b)) in seen:  # shared or cyclic: compared where first met
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        seen.add((id(a), id(b)))
        if a.keys() != b.keys():
            return f"{path}: keys differ"
        pairs: list[tuple[object, object, str]] = [(a[k], b[k], f"{path}[{k!r}]") for k in a]
    elif isinstance(a, list | tuple | deque) and isinstance(b, list | tuple | deque):
        seen.add((id(a), id(b)))
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        pairs = [(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True))]
    elif (names := _fields(a)) is not None:
        seen.add((id(a), id(b)))
        pairs = [(getattr(a, n, None), getattr(b, n, None), f"{path}.{n}") for n in names]
    else:  # a value: numbers, strings, enums, sets, classes
        return None if a == b else f"{path}: {a!r} != {b!r}"
    for x, y, where in pairs:
        found = _compare(x, y, where, seen)
        if found is not None:
            return found
    return None


def _fields(value: object) -> list[str] | None:
    if isinstance(value, type | Enum | FunctionType | BuiltinFunctionType):
        return None
    if dataclasses.is_dataclass(value):  # also the compiled engine's, which have no slots
        return sorted(f.name for f in dataclasses.fields(value)) or None
    names: list[str] = []
    for cls in type(value).__mro__:
        slots = getattr(cls, "__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    names += list(getattr(value, "__dict__", {}))
    names = [n for n in names if n not in ("__dict__", "__weakref__")]
    return sorted(set(names)) or None
