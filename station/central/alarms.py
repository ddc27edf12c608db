"""Central chain alarms: a table's alarms with the rows they concern, and clearing one with a
reason by a person whose console role may. Edge adapter (PostgreSQL through psycopg 3).

The ingest raises an alarm (`alarms` row) when a station's chain disagrees with the stored one:
a fork (a row offered with another hash than the stored row), a rollback (the station came
back behind the central head) or a chain break. Clearing one says a person looked at it: the
alarm row keeps who (`cleared_by`, `cleared_role`), when (`cleared_at`) and why (`note`, the
reason, required); migration 0003 refuses deleting an alarm or changing a cleared one. Every
clearing is also a `console_audit` row (`alarm.cleared`, with `via`: console or cli), and a
`fleet_alarms` notification so the floor maps drop the alarm at once. The console's page and
`station central alarms` both go through `clear` (one set of checks).

Clearing an alarm centrally does not touch the station: a critical tilt the station raised for
the same cause is cleared at the table, by a floor or technician credential there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

import psycopg

from station.central.console.accounts import Action, Role, audit, may

Conn = psycopg.Connection[tuple[Any, ...]]

REASON_MAX: Final = 500
MAY_CLEAR: Final = tuple(r.value for r in Role if may(r, Action.CLEAR_ALARM))


class Via(StrEnum):
    CONSOLE = "console"
    CLI = "cli"


class AlarmError(ValueError):
    """A clearing that cannot be done (no such alarm, already cleared, no reason)."""


class AlarmClearedError(AlarmError):
    """The alarm was cleared already (by someone else, a moment ago perhaps)."""


class AlarmRefusedError(PermissionError):
    """The person's role may not clear alarms."""


# What each kind of alarm means, for the people reading it.
KIND_TEXT: Final = {
    "fork": "another history: the station offered a row that differs from the stored one",
    "rollback": "rollback: the station came back behind the central store "
    "(its journal was put back or lost rows)",
    "chain_break": "chain break: a row does not chain to the one before it",
}


@dataclass(frozen=True, slots=True)
class RowRef:
    """A row an alarm concerns: as stored centrally, or as offered (kept in conflict_rows)."""

    seq: int
    hash: str
    hand: int | None
    code: str
    recorded_utc: str
    offered: bool  # True: the station's other row (evidence), False: the stored one


@dataclass(frozen=True, slots=True)
class Alarm:
    id: int
    station: str
    kind: str
    seq: int | None
    detail: dict[str, Any]
    raised_at: datetime
    cleared_at: datetime | None
    cleared_by: str | None
    cleared_role: str | None
    reason: str | None
    rows: tuple[RowRef, ...] = ()

    @property
    def open(self) -> bool:
        return self.cleared_at is None

    @property
    def what(self) -> str:
        return KIND_TEXT.get(self.kind, self.kind)

    @property
    def detail_text(self) -> str:
        return str(self.detail.get("detail", "")) or "-"


_COLS = "id, station_id, kind, seq, detail, raised_at, cleared_at, cleared_by, cleared_role, note"


def _alarm(r: tuple[Any, ...], rows: tuple[RowRef, ...] = ()) -> Alarm:
    return Alarm(
        id=int(r[0]),
        station=str(r[1]),
        kind=str(r[2]),
        seq=None if r[3] is None else int(r[3]),
        detail=dict(r[4] or {}),
        raised_at=r[5],
        cleared_at=r[6],
        cleared_by=r[7],
        cleared_role=r[8],
        reason=r[9],
        rows=rows,
    )


def _rows_of(conn: Conn, station: str, seq: int | None) -> tuple[RowRef, ...]:
    if seq is None:
        return ()
    found = [
        RowRef(int(q), str(h), int(hand), str(code), str(utc), False)
        for q, h, hand, code, utc in conn.execute(
            "SELECT seq, hash, hand, code, recorded_utc FROM rows"
            " WHERE station_id = %s AND seq = %s",
            (station, seq),
        )
    ]
    for q, h, row in conn.execute(
        "SELECT seq, hash, row FROM conflict_rows WHERE station_id = %s AND seq = %s"
        " ORDER BY received_at",
        (station, seq),
    ):
        data = dict(row or {})
        hand = data.get("hand")
        found.append(
            RowRef(
                int(q),
                str(h),
                hand if isinstance(hand, int) else None,
                str(data.get("code", "?")),
                str(data.get("recorded_utc", "?")),
                True,
            )
        )
    return tuple(found)


def station_known(conn: Conn, station: str) -> bool:
    found = conn.execute("SELECT 1 FROM stations WHERE station_id = %s", (station,)).fetchone()
    return found is not None


def of_station(conn: Conn, station: str, *, open_only: bool = False) -> list[Alarm]:
    """A table's alarms, open ones first, newest first, each with the rows it concerns."""
    where = "station_id = %s" + (" AND cleared_at IS NULL" if open_only else "")
    found = conn.execute(
        f"SELECT {_COLS} FROM alarms WHERE {where} ORDER BY cleared_at IS NOT NULL, id DESC",
        (station,),
    ).fetchall()
    return [_alarm(r, _rows_of(conn, str(r[1]), r[3])) for r in found]


def listed(conn: Conn, station: str = "", *, open_only: bool = False) -> list[Alarm]:
    """Alarms of one table or of all (no rows attached), open first, newest first."""
    where, params = [], []
    if station:
        where.append("station_id = %s")
        params.append(station)
    if open_only:
        where.append("cleared_at IS NULL")
    sql = f"SELECT {_COLS} FROM alarms"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY cleared_at IS NOT NULL, id DESC"
    return [_alarm(r) for r in conn.execute(sql.encode(), params)]


def get(conn: Conn, ident: int) -> Alarm | None:
    row = conn.execute(f"SELECT {_COLS} FROM alarms WHERE id = %s", (ident,)).fetchone()
    return None if row is None else _alarm(row, _rows_of(conn, str(row[1]), row[3]))


def when_text(at: datetime | None) -> str:
    return "-" if at is None else f"{at.astimezone():%Y-%m-%d %H:%M:%S %Z}"


def clean_reason(text: str) -> str:
    """The reason as recorded (whitespace folded); AlarmError when empty or too long."""
    reason = " ".join(text.split())
    if not reason:
        raise AlarmError(
            "give the reason for clearing the alarm (what was checked, what was found)"
        )
    if len(reason) > REASON_MAX:
        raise AlarmError(f"the reason is {len(reason)} characters: at most {REASON_MAX}")
    return reason


def clear(
    conn: Conn,
    ident: int,
    *,
    person: str,
    role: Role,
    reason: str,
    via: Via,
    station: str | None = None,
    address: str = "",
) -> Alarm:
    """Clear alarm `ident` (of `station`, when given) by `person` in `role`, with `reason`:
    the alarm row and an audit row in one transaction, then the maps are told. Returns the
    alarm as cleared. AlarmRefusedError when the role may not; AlarmError when there is no
    such alarm, it is already cleared, or the reason is missing."""
    if not may(role, Action.CLEAR_ALARM):
        raise AlarmRefusedError(
            f"{role.value} accounts may not clear chain alarms"
            f" (only {' and '.join(MAY_CLEAR)} accounts may)"
        )
    text = clean_reason(reason)
    with conn.transaction():
        row = conn.execute(
            f"SELECT {_COLS} FROM alarms WHERE id = %s FOR UPDATE", (ident,)
        ).fetchone()
        if row is None or (station is not None and row[1] != station):
            where = f" at table {station}" if station is not None else ""
            raise AlarmError(f"no alarm {ident}{where}")
        before = _alarm(row)
        if not before.open:
            raise AlarmClearedError(
                f"alarm {ident} was already cleared by {before.cleared_by}"
                f" at {when_text(before.cleared_at)}: {before.reason}"
            )
        done = conn.execute(
            "UPDATE alarms SET cleared_at = now(), cleared_by = %s, cleared_role = %s,"
            f" note = %s WHERE id = %s RETURNING {_COLS}",
            (person, role.value, text, ident),
        ).fetchone()
        assert done is not None
        audit(
            conn,
            person,
            role.value,
            "alarm.cleared",
            station=before.station,
            target=str(ident),
            detail={"kind": before.kind, "seq": before.seq, "reason": text, "via": via.value},
            address=address,
        )
        conn.execute(
            "SELECT pg_notify('fleet_alarms', %s)",
            (
                json.dumps(
                    {"station": before.station, "kind": before.kind, "seq": before.seq,
                     "cleared": ident}
                ),
            ),
        )  # fmt: skip
    return _alarm(done, _rows_of(conn, before.station, before.seq))
