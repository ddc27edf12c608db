"""The floor console's commands, carried out at the station: a ruling, review or close of an
incident, or clearing CALL FLOOR, journaled here by the station's own workflow code (the same
rows the table's floor screen and `station incidents` write), then answered. Application
service over the journal; the core thread.

The console signed the person in (its accounts, its lockout, its audit log) and the command
arrived on this station's own `commands` topic, which only the central ingest may write (the
broker's ACL): the station takes the person and role as given, and its workflow checks them
(only a floor person rules or clears CALL FLOOR; a dealer may not; nobody reviews his own
ruling or the hand he dealt). The row carries `"via": "console"`, the command's id and
`console_account`: the account's name, its console role, which console sent it, and whether a
person of that name is enrolled at this station (a console account need not be: the row says
who it was rather than passing for one of the station's people).

A command may arrive twice (QoS 1; the ingest sends a pending command again until it has the
reply): one already carried out is found by its id in the journal and answered again with the
same row, never journaled twice.

Kinds and bodies (JSON):
Every body carries `person` and `role` (the station role), and from the console `console` (which
console) and `console_role` (the account's role there).
- `incident.rule`: `incident`, `person`, `role`, `ruling`, optional `camera`
- `incident.review` / `incident.close`: `incident`, `person`, `role`, optional `note`
- `floor.clear`: `person`, `role`, optional `note`, optional `raised_seq` (refused when the
  CALL FLOOR open now is another one)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Final

from station.daemon.items import FleetCommandReceived
from station.daemon.operations import StationOps
from station.fleet.messages import Command, Reply, ReplyStatus
from station.incidents.exc import WorkflowError
from station.incidents.workflow import close, review, rule
from station.journal.codes import ActorRole, Code
from station.journal.store import Journal
from station.people.exc import AuthError
from station.people.roster import valid_name
from station.people.staff import Authenticated, get_person

log = logging.getLogger(__name__)

KINDS: Final = ("incident.rule", "incident.review", "incident.close", "floor.clear")
_ROW_CODES: Final = (
    Code.INCIDENT_RULED,
    Code.INCIDENT_REVIEWED,
    Code.INCIDENT_CLOSED,
    Code.FLOOR_CALL_CLEARED,
)


class _RefusedError(Exception):
    pass


def received(command_id: int, kind: str, body: Mapping[str, Any]) -> FleetCommandReceived:
    """A command of the central store as the forwarder hands it to the core's inbox (the demo's
    tournament story gives the centre's commands so, without a broker)."""
    return FleetCommandReceived(Command(command_id, kind, dict(body)))


def done_row(journal: Journal, command_id: int) -> int | None:
    """The journal row that carried out console command `command_id`, if any."""
    marks = ", ".join("?" * len(_ROW_CODES))
    found = journal.conn.execute(
        f"SELECT seq FROM log WHERE code IN ({marks})"
        " AND json_extract(payload, '$.via') = 'console'"
        " AND json_extract(payload, '$.command') = ? ORDER BY seq LIMIT 1",
        (*_ROW_CODES, command_id),
    ).fetchone()
    return None if found is None else int(found[0])


def carry_out(command: Command, journal: Journal, ops: StationOps) -> Reply:
    """Journal what `command` asks (once) and say how it went."""
    if command.kind not in KINDS:
        return Reply(command.id, ReplyStatus.UNSUPPORTED, detail=f"unknown kind {command.kind}")
    seq = done_row(journal, command.id)
    if seq is not None:
        return Reply(command.id, ReplyStatus.DONE, seq=seq, detail="already carried out")
    try:
        seq = _carry_out(command, journal, ops)
    except _RefusedError as exc:
        return Reply(command.id, ReplyStatus.REFUSED, detail=str(exc))
    except (WorkflowError, AuthError) as exc:
        log.warning("console command %d (%s) refused: %s", command.id, command.kind, exc)
        return Reply(command.id, ReplyStatus.REFUSED, detail=str(exc))
    log.info("console command %d (%s) journaled at seq %d", command.id, command.kind, seq)
    return Reply(command.id, ReplyStatus.DONE, seq=seq)


def _carry_out(command: Command, journal: Journal, ops: StationOps) -> int:
    body = command.body
    who = _who(body)
    via = {"via": "console", "command": command.id, "console_account": _account(body, journal)}
    if command.kind == "floor.clear":
        call = ops.recorder.ops.floor_call
        raised = body.get("raised_seq")
        if call is not None and isinstance(raised, int) and raised != call.seq:
            raise _RefusedError(f"the CALL FLOOR open now is row {call.seq}, not {raised}")
        return ops.clear_floor_call_as(who, _text(body, "note"), via).seq
    incident = body.get("incident")
    if not isinstance(incident, int) or isinstance(incident, bool):
        raise _RefusedError("incident: not a whole number")
    match command.kind:
        case "incident.rule":
            ruling = _text(body, "ruling")
            return rule(journal, incident, who, ruling, camera=_text(body, "camera"), via=via).seq
        case "incident.review":
            return review(journal, incident, who, _text(body, "note"), via=via).seq
        case _:
            return close(journal, incident, who, _text(body, "note"), via=via).seq


def _who(body: Mapping[str, Any]) -> Authenticated:
    person, role = body.get("person"), body.get("role")
    if not isinstance(person, str) or not valid_name(person):
        raise _RefusedError("person: not a valid name")
    try:
        actor = ActorRole(str(role))
    except ValueError:
        raise _RefusedError(f"role: unknown {role!r}") from None
    if actor in (ActorRole.DEVICE, ActorRole.ENGINE, ActorRole.STATION):
        raise _RefusedError(f"role: {actor.value} is not a person's role")
    return Authenticated(person, actor)


def _account(body: Mapping[str, Any], journal: Journal) -> dict[str, Any]:
    """The console account that gave the command, as the console named it: the person's name,
    the console role, which console, and whether this station knows a person of that name
    (a console account need not be enrolled here: the row says so instead of passing for one
    of the station's own people)."""
    known = get_person(journal, str(body.get("person", "")))
    return {
        "name": body.get("person"),
        "role": _text(body, "console_role") or str(body.get("role", "")),
        "console": _text(body, "console"),
        "enrolled_here": known is not None,
    }


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise _RefusedError(f"{key}: not text")
    return value[:2000]
