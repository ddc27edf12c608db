"""The console's side of a ruling: what the signed-in person may do to an incident now, and
queueing it as a command for the station. Edge adapter (PostgreSQL through psycopg 3).

Nothing is journaled here. A step is a row in `commands` (`pending`); the ingest publishes it
on the station's commands topic while the station is connected, the station journals it with
its own workflow code (`station.daemon.fleet_commands`) and replies, and the ingest stores the
reply (`done` with the journal row, or `refused` with the reason). While the station is offline
the command waits, shown as pending. The station decides: these checks only spare the floor a
refusal (the same rules as `station.incidents.workflow`: only a floor person rules; a review
needs floor or admin and someone who neither dealt the hand nor ruled on it; a close follows
the review).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from station.central.console.accounts import (
    STATION_ROLE,
    Action,
    Conn,
    Session,
    audit,
    may,
    refusal,
)
from station.central.console.floor import floor_call_seq
from station.central.console.records import SEVERITY
from station.central.console.views import IncidentPage
from station.journal.codes import IncidentState

KIND = {
    Action.RULE: "incident.rule",
    Action.REVIEW: "incident.review",
    Action.CLOSE: "incident.close",
}


class StepRefusedError(ValueError):
    """The step cannot be asked for now (the message says why)."""


@dataclass(frozen=True, slots=True)
class Offer:
    action: Action
    allowed: bool
    why: str = ""  # why not


def _why_not(page: IncidentPage, current: Session, action: Action) -> str:
    rec = page.record
    state = rec.state
    if not may(current.role, action):
        return refusal(current.role, action)
    if any(c.kind == KIND[action] for c in page.pending):
        return f"a {action.value} is already on its way to {page.station}"
    match action:
        case Action.RULE:
            if state not in (IncidentState.OPEN, IncidentState.RULED):
                return f"the incident is {state.value}: too late to rule"
        case Action.REVIEW:
            if state is not IncidentState.RULED:
                return "only a ruled incident is reviewed"
            if current.account == rec.dealer:
                return f"{current.account} dealt this hand and may not review it"
            if any(r.person == current.account for r in rec.rulings):
                return f"{current.account} ruled on this incident and may not review it"
        case Action.CLOSE:
            if state is not IncidentState.REVIEWED:
                return "only a reviewed incident is closed"
        case _:
            return "not a workflow step"
    return ""


def offers(page: IncidentPage, current: Session) -> dict[str, Offer]:
    out = {}
    for action in (Action.RULE, Action.REVIEW, Action.CLOSE):
        why = _why_not(page, current, action)
        out[action.value] = Offer(action, not why, why)
    return out


def step(
    conn: Conn,
    current: Session,
    page: IncidentPage,
    action: Action,
    form: Mapping[str, str],
    *,
    address: str = "",
    console: str = "",
) -> int:
    """Queue a rule, review or close of `page`'s incident; the command's id. `console` names
    this console (the station records who gave the command, from which console)."""
    why = _why_not(page, current, action)
    if why:
        raise StepRefusedError(why)
    body: dict[str, Any] = {
        "incident": page.record.id,
        **_account(current, console),
    }
    if action is Action.RULE:
        ruling = form.get("ruling", "").strip()
        if ruling not in SEVERITY:
            raise StepRefusedError("choose a ruling")
        detail = " ".join(form.get("detail", "").split())[:500]
        body["ruling"] = f"{ruling}: {detail}" if detail else ruling
        body["camera"] = " ".join(form.get("camera", "").split())[:100]
    else:
        body["note"] = " ".join(form.get("note", "").split())[:500]
    return _queue(conn, current, page.station, KIND[action], page.record.id, body, address)


def clear_call(
    conn: Conn,
    current: Session,
    station: str,
    seq: int,
    note: str,
    *,
    address: str = "",
    console: str = "",
) -> int:
    """Queue clearing the table's CALL FLOOR (row `seq`, the call the floor saw)."""
    if not may(current.role, Action.CLEAR_CALL):
        raise StepRefusedError(refusal(current.role, Action.CLEAR_CALL))
    open_seq = floor_call_seq(conn, station)
    if open_seq is None:
        raise StepRefusedError(f"table {station} has no CALL FLOOR open")
    pending = conn.execute(
        "SELECT 1 FROM commands WHERE station_id = %s AND kind = 'floor.clear'"
        " AND state = 'pending'",
        (station,),
    ).fetchone()
    if pending is not None:
        raise StepRefusedError("clearing it is already on its way to the table")
    body = {
        **_account(current, console),
        "note": " ".join(note.split())[:500] or "cleared at the floor console",
        "raised_seq": seq or open_seq,
    }
    return _queue(conn, current, station, "floor.clear", open_seq, body, address)


def _account(current: Session, console: str) -> dict[str, Any]:
    """Who asks, as the station journals it: the person and the station role of the console
    role, and the console account itself (its name, console role and which console)."""
    return {
        "person": current.account,
        "role": STATION_ROLE[current.role],
        "console": console,
        "console_role": current.role.value,
    }


def _queue(
    conn: Conn,
    current: Session,
    station: str,
    kind: str,
    incident: int | None,
    body: dict[str, Any],
    address: str,
) -> int:
    with conn.transaction():
        found = conn.execute(
            "INSERT INTO commands (station_id, kind, body, created_by, incident)"
            " VALUES (%s, %s, %s, %s, %s) RETURNING id",
            (station, kind, json.dumps(body), current.account, incident),
        ).fetchone()
        assert found is not None
        ident = int(found[0])
        audit(
            conn,
            current.account,
            current.role.value,
            f"command.{kind}",
            station=station,
            target=str(incident or ""),
            detail={"command": ident, **body},
            address=address,
        )
    return ident
