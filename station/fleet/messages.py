"""The fleet's MQTT payloads: compact JSON, version 1. Pure.

Every payload is a JSON object with `"v": 1`; a reader refuses other versions and anything
malformed with `MessageError` (the caller logs and drops it: a bad message never stops a
forwarder or the ingest, and nothing is lost, because unacknowledged rows are sent again).

- `RowBatch` (events): consecutive journal rows of one station, each as the list of its
  columns in `station.journal.rows.COLUMNS` order, exactly as stored (the payload is the
  canonical JSON text the hash covers), so the centre recomputes every hash.
- `Hello`: the station's head (seq, hash) when it connects; the centre answers with an `Ack`.
- `Ack`: the centre's stored head for that station *after* its commit, and a verdict:
  `ok`, `gap` (rows were missing before these: send again from head + 1), `fork` (the centre
  holds `seq` with another hash), `rollback` (the station's head is behind the centre's),
  `chain_break` (a row whose hash does not match its content).
- `Status` (retained): online/offline and the outbox figures, for the floor's map.
- `Command` (centre → station) and `Reply` (station → centre): the floor console's requests
  and their receipts; the kinds and bodies are in `station.daemon.fleet_commands`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from station.journal.rows import COLUMNS, LogRow

VERSION: Final = 1
MAX_BYTES: Final = 1_000_000


class MessageError(ValueError):
    """A payload that is not a valid fleet message."""


class Verdict(StrEnum):
    OK = "ok"
    GAP = "gap"
    FORK = "fork"
    ROLLBACK = "rollback"
    CHAIN_BREAK = "chain_break"


BAD_VERDICTS: Final = frozenset({Verdict.FORK, Verdict.ROLLBACK, Verdict.CHAIN_BREAK})


def _dump(obj: Mapping[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **obj}, separators=(",", ":"), ensure_ascii=False).encode()


def _load(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_BYTES:
        raise MessageError(f"message of {len(payload)} bytes (limit {MAX_BYTES})")
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise MessageError(f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise MessageError("not a JSON object")
    if obj.get("v") != VERSION:
        raise MessageError(f"unknown version {obj.get('v')!r}")
    return obj


def _int(obj: Mapping[str, Any], key: str, *, optional: bool = False) -> int | None:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MessageError(f"{key}: not a whole number >= 0")
    return value


def _str(obj: Mapping[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise MessageError(f"{key}: not text")
    return value


# --- rows -------------------------------------------------------------------------------------


def encode_rows(rows: Sequence[LogRow]) -> bytes:
    return _dump({"rows": [list(r.as_tuple()) for r in rows]})


def decode_rows(payload: bytes) -> list[LogRow]:
    obj = _load(payload)
    raw = obj.get("rows")
    if not isinstance(raw, list) or not raw:
        raise MessageError("rows: not a non-empty list")
    out = []
    for item in raw:
        if not isinstance(item, list) or len(item) != len(COLUMNS):
            raise MessageError(f"a row is not a list of {len(COLUMNS)} columns")
        out.append(_row(item))
    return out


def _row(item: list[Any]) -> LogRow:
    cols = dict(zip(COLUMNS, item, strict=True))
    for key in ("seq", "recorded_at_ns", "hand"):
        if not isinstance(cols[key], int) or isinstance(cols[key], bool):
            raise MessageError(f"row {key}: not a whole number")
    for key in ("station_id", "boot_id", "recorded_utc", "code", "actor", "role", "payload"):
        if not isinstance(cols[key], str) or "\x00" in cols[key]:
            raise MessageError(f"row {key}: not text")
    for key in ("prev_hash", "hash"):
        if not isinstance(cols[key], str) or len(cols[key]) != 64:
            raise MessageError(f"row {key}: not a SHA-256 hex digest")
    if cols["ref"] is not None and not isinstance(cols["ref"], int):
        raise MessageError("row ref: not a whole number")
    if cols["clock_ok"] not in (0, 1) or isinstance(cols["clock_ok"], float):
        raise MessageError("row clock_ok: not 0 or 1")
    if cols["seq"] < 1:
        raise MessageError("row seq: must be >= 1")
    return LogRow.from_tuple(tuple(item))


# --- hello and acks ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    head_seq: int
    head_hash: str
    boot_id: str = ""

    def encode(self) -> bytes:
        return _dump(
            {"head_seq": self.head_seq, "head_hash": self.head_hash, "boot_id": self.boot_id}
        )

    @staticmethod
    def decode(payload: bytes) -> Hello:
        obj = _load(payload)
        seq, digest = _int(obj, "head_seq"), _str(obj, "head_hash")
        assert seq is not None
        assert digest is not None
        return Hello(seq, digest, _str(obj, "boot_id", optional=True) or "")


@dataclass(frozen=True, slots=True)
class Ack:
    verdict: Verdict
    head_seq: int
    head_hash: str
    seq: int | None = None  # the row in question (fork, chain break, gap)
    detail: str = ""
    hello: bool = False  # the answer to a Hello (the centre's head at the station's connect)

    def encode(self) -> bytes:
        return _dump(
            {
                "verdict": self.verdict.value,
                "head_seq": self.head_seq,
                "head_hash": self.head_hash,
                "seq": self.seq,
                "detail": self.detail,
                "hello": self.hello,
            }
        )

    @staticmethod
    def decode(payload: bytes) -> Ack:
        obj = _load(payload)
        try:
            verdict = Verdict(str(obj.get("verdict")))
        except ValueError:
            raise MessageError(f"verdict: unknown {obj.get('verdict')!r}") from None
        seq, digest = _int(obj, "head_seq"), _str(obj, "head_hash")
        assert seq is not None
        assert digest is not None
        return Ack(
            verdict,
            seq,
            digest,
            _int(obj, "seq", optional=True),
            _str(obj, "detail", optional=True) or "",
            obj.get("hello") is True,
        )


# --- status, commands, replies ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Status:
    online: bool
    head_seq: int = 0
    acked_seq: int = 0
    outbox_rows: int = 0
    oldest_unacked_utc: str | None = None
    at_utc: str = ""

    def encode(self) -> bytes:
        return _dump(
            {
                "state": "online" if self.online else "offline",
                "head_seq": self.head_seq,
                "acked_seq": self.acked_seq,
                "outbox_rows": self.outbox_rows,
                "oldest_unacked_utc": self.oldest_unacked_utc,
                "at_utc": self.at_utc,
            }
        )

    @staticmethod
    def decode(payload: bytes) -> Status:
        obj = _load(payload)
        state = obj.get("state")
        if state not in ("online", "offline"):
            raise MessageError(f"state: {state!r}")
        return Status(
            state == "online",
            _int(obj, "head_seq", optional=True) or 0,
            _int(obj, "acked_seq", optional=True) or 0,
            _int(obj, "outbox_rows", optional=True) or 0,
            _str(obj, "oldest_unacked_utc", optional=True),
            _str(obj, "at_utc", optional=True) or "",
        )

    def as_dict(self) -> dict[str, Any]:
        return dict(json.loads(self.encode()))


@dataclass(frozen=True, slots=True)
class Command:
    id: int
    kind: str
    body: Mapping[str, Any] = field(default_factory=dict)

    def encode(self) -> bytes:
        return _dump({"id": self.id, "kind": self.kind, "body": dict(self.body)})

    @staticmethod
    def decode(payload: bytes) -> Command:
        obj = _load(payload)
        ident, kind = _int(obj, "id"), _str(obj, "kind")
        body = obj.get("body", {})
        if not isinstance(body, dict):
            raise MessageError("body: not an object")
        assert ident is not None
        assert kind is not None
        return Command(ident, kind, body)


class ReplyStatus(StrEnum):
    DONE = "done"  # carried out; `seq` is the journal row that records it
    REFUSED = "refused"  # understood but refused (`detail` says why)
    UNSUPPORTED = "unsupported"  # this station does not know the kind


@dataclass(frozen=True, slots=True)
class Reply:
    id: int
    status: ReplyStatus
    seq: int | None = None
    detail: str = ""

    def encode(self) -> bytes:
        return _dump(
            {"id": self.id, "status": self.status.value, "seq": self.seq, "detail": self.detail}
        )

    @staticmethod
    def decode(payload: bytes) -> Reply:
        obj = _load(payload)
        try:
            status = ReplyStatus(str(obj.get("status")))
        except ValueError:
            raise MessageError(f"status: unknown {obj.get('status')!r}") from None
        ident = _int(obj, "id")
        assert ident is not None
        return Reply(
            ident, status, _int(obj, "seq", optional=True), _str(obj, "detail", optional=True) or ""
        )


def central_online(payload: bytes) -> bool:
    """The ingest's retained presence message: True for online."""
    try:
        return _load(payload).get("state") == "online"
    except MessageError:
        return False


def central_presence(online: bool) -> bytes:
    return _dump({"state": "online" if online else "offline"})
