"""What the console's pages show, read from the central store: the incident queue with its
filters, one incident with its rule, events and commands, a hand's recall (the floor map is
`floor.py`). Edge adapter (PostgreSQL through psycopg 3); the page models are frozen
dataclasses.

Each read is one or two indexed queries whatever the size of `rows`: the queue reads
`console_incidents`; an incident page reads its record, its triggering rows by key and its
hand's rows by `(station_id, hand, seq)`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import psycopg

from station.central.console.records import SEVERITY_NAMES, record_from_json
from station.engine.rulebook import STATION_RULES, title
from station.engine.rulebook_data import RULES
from station.engine.rulebook_text import RULE_TEXT
from station.incidents.records import IncidentRecord
from station.journal.codes import INPUT_CODES, Code
from station.journal.rows import COLUMNS, LogRow
from station.recall.hands import recall_from
from station.recall.steps import HandRecall

Conn = psycopg.Connection[tuple[Any, ...]]

QUEUE_LIMIT: Final = 200
STATES: Final = ("open", "ruled", "reviewed", "closed")
_ROW_COLS = ", ".join(COLUMNS)


def like_prefix(text: str) -> str:
    """A LIKE pattern matching what starts with `text`, taken literally (`%`, `_` and `\\` in it
    are not wildcards)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


def _age_s(at: datetime | None, now: datetime) -> float | None:
    return None if at is None else max(0.0, (now - at).total_seconds())


def parse_time(text: str | None, *, local: bool = False) -> datetime | None:
    """An ISO 8601 time; None for none or a bad one. A time without a zone is UTC (what the
    stations store), or with `local` the console's own zone (what a floor supervisor types in
    a form: the console shows every time in that zone)."""
    if not text:
        return None
    try:
        found = datetime.fromisoformat(text)
        if not 1970 <= found.year <= 9998:  # beyond, shifting zones overflows: no such row
            return None
        if found.tzinfo:
            return found
        return found.astimezone() if local else found.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        return None


def age_text(seconds: float | None) -> str:
    """A short age: `12 s`, `4 min`, `3 h 05 min`, `2 d`."""
    if seconds is None:
        return "never"
    s = int(seconds)
    if s < 90:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min"
    if s < 48 * 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s // 86400} d"


# --- the incident queue -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QueueFilter:
    table: str = ""
    rule: str = ""
    ruling: str = ""
    state: str = ""  # one of STATES, "active" (not closed) or "" (all)
    since: datetime | None = None
    until: datetime | None = None
    person: str = ""
    sort: str = "severity"  # severity | oldest | newest
    offset: int = 0
    hand: int | None = None  # one hand's (the hand page)

    def query(self) -> dict[str, str]:
        """As URL query parameters (the export links keep the filter)."""
        out = {
            "table": self.table,
            "rule": self.rule,
            "ruling": self.ruling,
            "state": self.state,
            "since": self.since.isoformat(timespec="minutes")[:16] if self.since else "",
            "until": self.until.isoformat(timespec="minutes")[:16] if self.until else "",
            "person": self.person,
            "sort": self.sort,
        }
        return {k: v for k, v in out.items() if v}


@dataclass(frozen=True, slots=True)
class QueueRow:
    station: str
    id: int
    hand: int
    rule: str
    title: str
    text: str
    state: str
    ruling: str
    engine_ruling: str
    severity: int
    detected: datetime | None
    age_s: float | None
    people: tuple[str, ...]
    pending: int

    @property
    def severity_name(self) -> str:
        return SEVERITY_NAMES.get(self.severity, str(self.severity))


def _where(f: QueueFilter) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    if f.table:
        clauses.append("i.station_id = %s")
        params.append(f.table)
    if f.rule:
        clauses.append("i.rule LIKE %s")
        params.append(like_prefix(f.rule.upper()))
    if f.ruling:
        clauses.append("split_part(coalesce(i.ruling, i.engine_ruling), ':', 1) = %s")
        params.append(f.ruling)
    if f.state == "active":
        clauses.append("i.state <> 'closed'")
    elif f.state:
        clauses.append("i.state = %s")
        params.append(f.state)
    if f.since is not None:
        clauses.append("i.detected >= %s")
        params.append(f.since)
    if f.until is not None:
        clauses.append("i.detected < %s")
        params.append(f.until)
    if f.person:
        clauses.append("i.people @> ARRAY[%s]::text[]")
        params.append(f.person)
    if f.hand is not None:
        clauses.append("i.hand = %s")
        params.append(f.hand)
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


_ORDER: Final = {
    "severity": "i.severity DESC, i.detected ASC, i.station_id, i.id",
    "oldest": "i.detected ASC, i.station_id, i.id",
    "newest": "i.detected DESC, i.station_id, i.id DESC",
}


def queue(conn: Conn, f: QueueFilter, limit: int = QUEUE_LIMIT) -> tuple[list[QueueRow], int]:
    """One page of the queue and the number of incidents the filter matches."""
    where, params = _where(f)
    order = _ORDER.get(f.sort, _ORDER["severity"])
    rows = conn.execute(
        "SELECT i.station_id, i.id, i.hand, i.rule, i.record->>'text', i.state,"
        " coalesce(i.ruling, ''), i.engine_ruling, i.severity, i.detected, i.people,"
        " (SELECT count(*) FROM commands c WHERE c.station_id = i.station_id"
        "   AND c.incident = i.id AND c.state = 'pending'), now()"
        f" FROM console_incidents i{where} ORDER BY {order} LIMIT %s OFFSET %s",
        [*params, limit, f.offset],
    ).fetchall()
    total_row = conn.execute(f"SELECT count(*) FROM console_incidents i{where}", params).fetchone()
    total = int(total_row[0]) if total_row else 0
    return [
        QueueRow(
            station=str(r[0]),
            id=int(r[1]),
            hand=int(r[2]),
            rule=str(r[3]),
            title=title(str(r[3])),
            text=str(r[4] or ""),
            state=str(r[5]),
            ruling=str(r[6]),
            engine_ruling=str(r[7]),
            severity=int(r[8]),
            detected=r[9],
            age_s=_age_s(r[9], r[12]),
            people=tuple(r[10] or ()),
            pending=int(r[11]),
        )
        for r in rows
    ], total


def incidents_of_hand(conn: Conn, station: str, hand: int) -> list[QueueRow]:
    rows, _ = queue(conn, QueueFilter(table=station, state="", sort="oldest", hand=hand), 500)
    return rows


def records(conn: Conn, f: QueueFilter, limit: int = 100_000) -> list[tuple[str, IncidentRecord]]:
    """(station, record) of every incident the filter matches, oldest first (exports)."""
    where, params = _where(f)
    rows = conn.execute(
        f"SELECT i.station_id, i.record FROM console_incidents i{where}"
        " ORDER BY i.detected ASC, i.station_id, i.id LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [(str(s), record_from_json(dict(rec))) for s, rec in rows]


def rule_ids(conn: Conn) -> list[str]:
    return [str(r[0]) for r in conn.execute("SELECT DISTINCT rule FROM console_incidents")]


def station_ids(conn: Conn) -> list[str]:
    return [str(r[0]) for r in conn.execute("SELECT station_id FROM stations ORDER BY 1")]


# --- one incident -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleText:
    rule: str
    title: str
    section: str
    observability: str
    sources: str  # every source the catalog gives
    known: bool
    condition: str = ""  # the catalog's words (station.engine.rulebook_text)
    ruling: str = ""


def rule_text(rule: str) -> RuleText:
    if rule in RULES:
        heading, section, obs, sources = RULES[rule]
        condition, ruling = RULE_TEXT.get(rule, ("", ""))
        return RuleText(rule, heading, section, obs, sources, True, condition, ruling)
    if rule in STATION_RULES:
        return RuleText(rule, STATION_RULES[rule], "station rule", "", "", True)
    if rule == "FLOOR-CALL":
        return RuleText(rule, "The dealer called the floor", "station rule", "", "", True)
    return RuleText(rule, rule, "", "", "", False)


@dataclass(frozen=True, slots=True)
class CommandView:
    id: int
    kind: str
    body: Mapping[str, Any]
    created_by: str
    created_at: datetime
    state: str  # pending, done, refused, unsupported
    sent_at: datetime | None
    tries: int
    replied_at: datetime | None
    reply: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class IncidentPage:
    station: str
    record: IncidentRecord
    severity: int
    rule: RuleText
    events: tuple[LogRow, ...]
    commands: tuple[CommandView, ...]
    online: bool | None
    profile: str

    @property
    def severity_name(self) -> str:
        return SEVERITY_NAMES.get(self.severity, str(self.severity))

    @property
    def pending(self) -> tuple[CommandView, ...]:
        return tuple(c for c in self.commands if c.state == "pending")


def stored_row(r: Sequence[Any]) -> LogRow:
    cols = list(r)
    cols[COLUMNS.index("clock_ok")] = int(bool(cols[COLUMNS.index("clock_ok")]))
    return LogRow.from_tuple(tuple(cols))


_COMMAND_COLS = "id, kind, body, created_by, created_at, state, sent_at, tries, replied_at, reply"


def commands_of(conn: Conn, station: str, incident: int | None) -> list[CommandView]:
    rows = conn.execute(
        f"SELECT {_COMMAND_COLS} FROM commands"
        " WHERE station_id = %s AND incident IS NOT DISTINCT FROM %s ORDER BY id",
        (station, incident),
    ).fetchall()
    return _command_views(rows)


def commands_of_station(conn: Conn, station: str) -> list[CommandView]:
    """A table's pending commands (of any incident, and CALL FLOOR clears)."""
    rows = conn.execute(
        f"SELECT {_COMMAND_COLS} FROM commands WHERE station_id = %s AND state = 'pending'"
        " ORDER BY id",
        (station,),
    ).fetchall()
    return _command_views(rows)


def ingest_counters(conn: Conn) -> dict[str, int]:
    """The ingest's running totals (rows stored, duplicates, gaps, forks, ...)."""
    return {str(k): int(v) for k, v in conn.execute("SELECT name, value FROM ingest_counters")}


def _command_views(rows: Sequence[Sequence[Any]]) -> list[CommandView]:
    return [
        CommandView(
            int(r[0]),
            str(r[1]),
            dict(r[2] or {}),
            str(r[3]),
            r[4],
            str(r[5]),
            r[6],
            int(r[7]),
            r[8],
            dict(r[9] or {}),
        )
        for r in rows
    ]


def incident_page(conn: Conn, station: str, incident: int) -> IncidentPage | None:
    found = conn.execute(
        "SELECT i.record, i.severity, s.online, s.setup->>'profile'"
        " FROM console_incidents i JOIN stations s USING (station_id)"
        " WHERE i.station_id = %s AND i.id = %s",
        (station, incident),
    ).fetchone()
    if found is None:
        return None
    rec = record_from_json(dict(found[0]))
    seqs = sorted({*rec.events, rec.id})
    events = conn.execute(
        f"SELECT {_ROW_COLS} FROM rows WHERE station_id = %s AND seq = ANY(%s) ORDER BY seq",
        (station, seqs),
    ).fetchall()
    return IncidentPage(
        station=station,
        record=rec,
        severity=int(found[1]),
        rule=rule_text(rec.rule),
        events=tuple(stored_row(r) for r in events),
        commands=tuple(commands_of(conn, station, incident)),
        online=found[2],
        profile=str(found[3] or ""),
    )


def event_lines(events: Sequence[LogRow], recall: HandRecall | None) -> list[tuple[LogRow, str]]:
    """Each triggering row with its words: the recall's step text when the recall has the row
    (private cards as [hidden]), else `event_text`."""
    steps = {} if recall is None else {s.seq: s for s in recall.steps}
    out = []
    for row in events:
        step = steps.get(row.seq)
        if step is None:
            out.append((row, event_text(row)))
        else:
            card = "" if step.card is None else (" [hidden]" if step.private else f" {step.card}")
            out.append((row, f"{step.kind.value.replace('_', ' ')}: {step.text}{card}"))
    return out


def event_text(row: LogRow) -> str:
    """One stored row in words for the incident page (never a card dealt face down)."""
    d = row.data()
    match row.code:
        case Code.INPUT_DRAW:
            if d.get("face_up"):
                return f"card drawn face up {d.get('card') or d.get('tag', '?')}"
            return "card drawn face down [hidden]"
        case Code.INPUT_KEY:
            seat = f" seat {d['seat']}" if d.get("seat") is not None else ""
            extra = " ".join(f"{k} {d[k]}" for k in ("action", "amount", "count") if k in d)
            return f"key {d.get('key')}{seat} {extra}".rstrip()
        case Code.INPUT_ZONE:
            return f"seat {d.get('seat')} chips in the zone: {d.get('amount')}"
        case Code.DECISION_INCIDENT:
            return f"incident {d.get('rule')}: {d.get('text')} (ruling {d.get('ruling')})"
        case _:
            if row.code in INPUT_CODES:
                rest = {k: v for k, v in d.items() if k not in ("type", "t")}
                return f"{d.get('type', row.code)} " + json.dumps(rest, sort_keys=True)
            return row.code


# --- hands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CentralRows:
    """One station's rows in the central store, as `station.recall.hands.RowSource`: the
    journal's own recall code (`recall_from`) reads them exactly as it reads the journal."""

    conn: Conn
    station: str

    def rows_of_hands(self, hands: Iterable[int]) -> list[LogRow]:
        found = self.conn.execute(
            f"SELECT {_ROW_COLS} FROM rows WHERE station_id = %s AND hand = ANY(%s) ORDER BY seq",
            (self.station, sorted(set(hands))),
        ).fetchall()
        return [stored_row(r) for r in found]

    def latest(self, codes: Iterable[str], before_seq: int) -> LogRow | None:
        """The last row of one of `codes` (a setup or a hand end: the partial index
        `rows_setup_end` of migration 0002) before `before_seq`."""
        wanted = sorted(set(codes))
        if not set(wanted) <= {Code.INPUT_SETUP, Code.DECISION_HAND_END}:
            raise ValueError(f"no index for the latest of {wanted}")
        found = self.conn.execute(
            f"SELECT {_ROW_COLS} FROM rows WHERE station_id = %s AND code = ANY(%s)"
            " AND seq < %s AND code IN ('input.setup', 'decision.hand_end')"
            " ORDER BY seq DESC LIMIT 1",
            (self.station, wanted, before_seq),
        ).fetchone()
        return None if found is None else stored_row(found)


def load_hand(conn: Conn, station: str, hand: int) -> HandRecall | None:
    """A hand's recall from the central rows, by the station's own code
    (`station.recall.hands.recall_from`): the same rows, setup and starting stacks as
    `station hands show` gives from the journal."""
    return recall_from(CentralRows(conn, station), hand)


@dataclass(frozen=True, slots=True)
class HandRow:
    hand: int
    start_utc: str
    end_utc: str
    incidents: int
    void: bool
    pot: int


def hand_at(conn: Conn, station: str, at: datetime) -> int | None:
    """The hand being dealt at `at` (the last hand started at or before it)."""
    found = conn.execute(
        "SELECT hand FROM rows WHERE station_id = %s AND code = 'table.hand_start'"
        " AND recorded <= %s ORDER BY seq DESC LIMIT 1",
        (station, at),
    ).fetchone()
    return int(found[0]) if found else None


def recent_hands(conn: Conn, station: str, before: int | None = None, n: int = 30) -> list[HandRow]:
    rows = conn.execute(
        "SELECT hand, recorded_utc, payload FROM rows WHERE station_id = %s"
        " AND code IN ('input.setup', 'decision.hand_end') AND code = 'decision.hand_end'"
        " AND hand < %s ORDER BY seq DESC LIMIT %s",
        (station, before if before is not None else 2**62, n * 2),
    ).fetchall()
    seen: set[int] = set()
    out = []
    counts: dict[int, int] = dict(
        conn.execute(
            "SELECT hand, count(*) FROM console_incidents WHERE station_id = %s"
            " AND hand = ANY(%s) GROUP BY hand",
            (station, [int(r[0]) for r in rows]),
        ).fetchall()
    )
    for hand, utc, payload in rows:
        if hand in seen:
            continue
        seen.add(int(hand))
        d = json.loads(payload)
        pot = sum(int(p.get("amount", 0)) for p in d.get("pots", ()))
        out.append(
            HandRow(int(hand), "", str(utc), int(counts.get(hand, 0)), bool(d.get("void")), pot)
        )
    return out[:n]


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    at: datetime
    account: str
    role: str
    action: str
    station: str | None
    target: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    address: str = ""


def audit_log(
    conn: Conn, *, account: str = "", action: str = "", before: int | None = None, n: int = 200
) -> list[AuditRow]:
    clauses: list[str] = ["id < %s"]
    params: list[object] = [before if before is not None else 2**62]
    if account:
        clauses.append("account = %s")
        params.append(account)
    if action:
        clauses.append("action LIKE %s")
        params.append(like_prefix(action))
    rows = conn.execute(
        "SELECT id, at, account, role, action, station_id, target, detail, address"
        f" FROM console_audit WHERE {' AND '.join(clauses)} ORDER BY id DESC LIMIT %s",
        [*params, n],
    ).fetchall()
    return [
        AuditRow(
            int(r[0]),
            r[1],
            str(r[2]),
            str(r[3]),
            str(r[4]),
            r[5],
            str(r[6]),
            dict(r[7] or {}),
            str(r[8]),
        )
        for r in rows
    ]
