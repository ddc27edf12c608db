"""What the journal file says about the station's health, read without writing: head, chain,
size, operational state (mode, tilts, CALL FLOOR), the last link rows and device events, the
sensors it last recorded, clock stamps. Edge adapter (reads the SQLite file read-only).

The file is opened with `mode=ro`, so a member of the floor group, who may read the journal but
not write it, can run `station diag`, and nothing here can ever add a row (opening a `Journal`
may: it re-installs tampered triggers and records that it did).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from station.diag.history import HistoryDiag, read_history
from station.fleet.outbox import OutboxStatus, outbox_status
from station.journal.codes import Code
from station.journal.ops import OpState
from station.journal.opstate import op_state
from station.journal.owner import reading_uri
from station.journal.rows import COLUMNS, LogRow
from station.people.check import verify_journal

DEVICES: Final = ("shoe", "betzones")
LAST_EVENTS: Final = 5
_SELECT: Final = f"SELECT {', '.join(COLUMNS)} FROM log"


@dataclass(frozen=True, slots=True)
class LinkRecord:
    device: str
    state: str  # "up" | "down" | "unknown" (no link row yet)
    detail: str = ""
    since_utc: str | None = None
    serial: str = ""
    firmware: str = ""
    protocol: int | None = None
    last_events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Software:
    """One stretch of the journal run by one version of the station (its boot rows)."""

    version: str
    engine: str  # "native" | "pure" | "" (a version that did not say)
    first_utc: str
    last_utc: str
    starts: int


@dataclass(frozen=True, slots=True)
class JournalFacts:
    path: Path
    station_id: str
    head_seq: int
    head_hash: str
    head_clock_ok: bool | None
    size_bytes: int
    last_hand: int
    ops: OpState
    last_boot_utc: str | None
    links: tuple[LinkRecord, ...]
    seats_occupied: tuple[int, ...] | None
    puck: int | None
    clock_steps: int
    last_step_utc: str | None
    outbox: OutboxStatus | None = None  # the fleet ack cursor (None: an older journal)
    head_utc: str | None = None  # when the newest row was written
    seats_utc: str | None = None  # the newest row `seats_occupied` comes from
    puck_utc: str | None = None  # the row `puck` comes from
    software: tuple[Software, ...] = ()  # the versions that ran this journal, oldest first
    chain: str = "not checked"
    chain_detail: str = ""
    history: HistoryDiag = field(default_factory=HistoryDiag)


@contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """The journal opened for reading only, creating nothing beside it (`reading_uri`)."""
    conn = sqlite3.connect(reading_uri(path), uri=True)
    try:
        yield conn
    finally:
        conn.close()


def _rows(conn: sqlite3.Connection, where: str, params: tuple[object, ...]) -> list[LogRow]:
    return [LogRow.from_tuple(t) for t in conn.execute(f"{_SELECT} {where}", params).fetchall()]


def size_bytes(path: Path) -> int:
    total = 0
    for p in (path, path.with_name(path.name + "-wal")):
        with suppress(OSError):
            total += p.stat().st_size
    return total


def _identity(data: dict[str, Any]) -> tuple[str, str, int | None]:
    """(serial, firmware, protocol) of a link.up row: its fields when it has them, else its
    detail text, "SERIAL firmware VERSION" (rows journaled before the fields were added)."""
    if "firmware" in data:
        protocol = data.get("protocol")
        return (
            str(data.get("serial", "")),
            str(data["firmware"]),
            (int(protocol) if isinstance(protocol, int) else None),
        )
    serial, sep, firmware = str(data.get("detail", "")).partition(" firmware ")
    return (serial, firmware, None) if sep else ("", "", None)


def _event_text(row: LogRow) -> str:
    """A device's journaled input, without a card's identity (face-down draws are private)."""
    d = row.data()
    _, _, rest = row.actor.partition(":")
    serial, _, event_id = rest.partition(":")
    what = row.code.removeprefix("input.")
    if row.code == Code.INPUT_DRAW:
        what = "card drawn face up" if d.get("face_up") else "card drawn face down"
    elif row.code == Code.INPUT_ZONE:
        amount = d.get("amount")
        chips = f"{amount} in chips" if isinstance(amount, int) else "an unreadable amount"
        seat, zone = d.get("seat"), d.get("zone")
        where = (
            f"seat {seat}'s zone"
            if isinstance(seat, int)
            else f"the {zone} zone"
            if isinstance(zone, str)
            else "a zone"
        )
        what = f"{where}: {chips}"
    return f"seq {row.seq} {row.recorded_utc} event {serial}#{event_id}: {what}"


def _link(conn: sqlite3.Connection, device: str) -> LinkRecord:
    last = _rows(
        conn,
        "WHERE code IN (?, ?) AND actor = ? ORDER BY seq DESC LIMIT 1",
        (Code.LINK_UP, Code.LINK_DOWN, device),
    )
    up = _rows(
        conn, "WHERE code = ? AND actor = ? ORDER BY seq DESC LIMIT 1", (Code.LINK_UP, device)
    )
    events = _rows(
        conn,
        "WHERE code IN (?, ?) AND actor LIKE ? ORDER BY seq DESC LIMIT ?",
        (Code.INPUT_DRAW, Code.INPUT_ZONE, f"{device}:%", LAST_EVENTS),
    )
    serial, firmware, protocol = _identity(up[0].data()) if up else ("", "", None)
    texts = tuple(_event_text(r) for r in reversed(events))
    if not last:
        return LinkRecord(device, "unknown", "", None, serial, firmware, protocol, texts)
    row = last[0]
    state = "up" if row.code == Code.LINK_UP else "down"
    detail = str(row.data().get("detail", ""))
    return LinkRecord(device, state, detail, row.recorded_utc, serial, firmware, protocol, texts)


def _outbox(path: Path) -> OutboxStatus | None:
    try:
        return outbox_status(path)
    except sqlite3.Error:  # a journal from before the fleet cursor
        return None


@dataclass(frozen=True, slots=True)
class Sensors:
    """Seats with a player and the puck as the journal last recorded them, with the time of
    the newest row each comes from."""

    seats: tuple[int, ...] | None = None
    seats_utc: str | None = None
    puck: int | None = None
    puck_utc: str | None = None


def _sensors(conn: sqlite3.Connection) -> Sensors:
    """The last setup's seats, then the seat inputs after it; the last puck input (else the
    last setup's button)."""
    setup = _rows(conn, "WHERE code = ? ORDER BY seq DESC LIMIT 1", (Code.INPUT_SETUP,))
    puck_rows = _rows(conn, "WHERE code = ? ORDER BY seq DESC LIMIT 1", (Code.INPUT_PUCK,))
    puck = int(puck_rows[0].data()["seat"]) if puck_rows else None
    puck_utc = puck_rows[0].recorded_utc if puck_rows else None
    if not setup:
        return Sensors(puck=puck, puck_utc=puck_utc)
    d = setup[0].data()
    seats = {int(s) for s in d.get("seats") or {}}
    seats_utc = setup[0].recorded_utc
    if puck is None and isinstance(d.get("button"), int):
        puck, puck_utc = int(d["button"]), setup[0].recorded_utc
    for row in _rows(
        conn, "WHERE code = ? AND seq > ? ORDER BY seq", (Code.INPUT_SEAT, setup[0].seq)
    ):
        s = row.data()
        (seats.add if s.get("occupied") else seats.discard)(int(s["seat"]))
        seats_utc = row.recorded_utc
    return Sensors(tuple(sorted(seats)), seats_utc, puck, puck_utc)


def _software(conn: sqlite3.Connection) -> tuple[Software, ...]:
    """The boot rows folded into stretches of one version and engine."""
    out: list[Software] = []
    for row in _rows(conn, "WHERE code = ? ORDER BY seq", (Code.BOOT,)):
        d = row.data()
        engine = d.get("engine")  # the code's identity (`engine_id`); its kind only, earlier
        if isinstance(engine, dict):
            engine = engine.get("kind")
        version, engine = str(d.get("version") or "?"), str(engine or "")
        last = out[-1] if out else None
        if last is not None and (last.version, last.engine) == (version, engine):
            out[-1] = replace(last, last_utc=row.recorded_utc, starts=last.starts + 1)
        else:
            out.append(Software(version, engine, row.recorded_utc, row.recorded_utc, 1))
    return tuple(out)


def read_facts(path: Path, *, check_chain: bool) -> JournalFacts:
    """Everything `station diag` reads from the journal. `check_chain` runs the full check of
    `station journal verify` (the whole file: skip it when the daemon has checked)."""
    with read_only(path) as conn:
        meta = conn.execute("SELECT value FROM meta WHERE key = 'station_id'").fetchone()
        head = _rows(conn, "ORDER BY seq DESC LIMIT 1", ())
        found = conn.execute(  # hands only go up: the newest start is the last hand
            "SELECT hand FROM log WHERE code = ? ORDER BY seq DESC LIMIT 1", (Code.HAND_START,)
        ).fetchone()
        last_hand = found[0] if found else 0
        boot = _rows(conn, "WHERE code = ? ORDER BY seq DESC LIMIT 1", (Code.BOOT,))
        steps = conn.execute(
            "SELECT COUNT(*), MAX(recorded_utc) FROM log WHERE code = ?", (Code.CLOCK_STEP,)
        ).fetchone()
        sensors = _sensors(conn)
        facts = JournalFacts(
            path=path,
            station_id=str(meta[0]) if meta else "",
            head_seq=head[0].seq if head else 0,
            head_hash=head[0].hash if head else "",
            head_clock_ok=head[0].clock_ok if head else None,
            size_bytes=size_bytes(path),
            last_hand=int(last_hand or 0),
            ops=op_state(conn),
            last_boot_utc=boot[0].recorded_utc if boot else None,
            links=tuple(_link(conn, d) for d in DEVICES),
            seats_occupied=sensors.seats,
            puck=sensors.puck,
            clock_steps=int(steps[0]),
            last_step_utc=steps[1],
            outbox=_outbox(path),
            history=read_history(conn),
            head_utc=head[0].recorded_utc if head else None,
            seats_utc=sensors.seats_utc,
            puck_utc=sensors.puck_utc,
            software=_software(conn),
        )
    if not check_chain:
        return facts
    report = verify_journal(path)
    if report.ok:
        chain, detail = "ok", f"{report.rows} rows checked"
    else:
        first = report.problems[0]
        chain = "broken"
        detail = (f"seq {first.seq}: " if first.seq is not None else "") + first.text
    return replace(facts, chain=chain, chain_detail=detail)
