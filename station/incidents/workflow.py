"""The incident workflow: rule, review, close, each with a credential, each one journal
transaction. Edge adapter over the journal.

- rule: a floor person; the incident is open, or ruled and not yet reviewed (a new ruling
  amends the old one; both stay on record). The step records the ruling text, the camera and
  its time window, and whether the ruling was asked for before the next deal.
- review: a floor person or an admin who is neither the dealer logged in when the incident
  happened nor anyone who ruled on it.
- close: a floor person or an admin, after the review.
The state is folded inside the write transaction, so two people acting at once cannot both
move the same incident. Texts (ruling, note, camera) are cleaned on input (`text.clean_text`:
no terminal escapes or control characters; not UTF-8 is refused).

`via` (optional) adds keys to the row's payload saying how the step reached the station: the
floor console's commands carry `{"via": "console", "command": N}` (the same row code and
fields as at the table, so every reader folds it the same way).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from station.incidents.exc import TransitionError, UnknownIncidentError
from station.incidents.records import FOLD_CODES, IncidentRecord, fold_incidents
from station.journal.codes import ActorRole, Code, IncidentState
from station.journal.rows import LogRow
from station.journal.store import Journal, Txn
from station.journal.text import TextError, clean_text
from station.people.staff import Authenticated

log = logging.getLogger(__name__)

RULE_ROLES: Final = frozenset({ActorRole.FLOOR})
REVIEW_ROLES: Final = frozenset({ActorRole.FLOOR, ActorRole.ADMIN})
CLOSE_ROLES: Final = frozenset({ActorRole.FLOOR, ActorRole.ADMIN})


def incidents(journal: Journal) -> dict[int, IncidentRecord]:
    return fold_incidents(journal.rows(codes=FOLD_CODES))


def incident(journal: Journal, incident_id: int) -> IncidentRecord:
    found = incidents(journal).get(incident_id)
    if found is None:
        raise UnknownIncidentError(f"no incident {incident_id}")
    return found


def _current(txn: Txn, journal: Journal, incident_id: int) -> IncidentRecord:
    del txn  # the fold reads inside the caller's write transaction
    return incident(journal, incident_id)


def rule(
    journal: Journal,
    incident_id: int,
    who: Authenticated,
    text: str,
    *,
    camera: str = "",
    asked_before_next_deal: bool | None = None,
    via: Mapping[str, object] | None = None,
) -> LogRow:
    if who.role not in RULE_ROLES:
        raise TransitionError(f"{who.person} is {who.role.value}: only a floor person rules")
    text, camera = _clean(text, "the ruling"), _clean(camera, "the camera")
    if not text:
        raise TransitionError("a ruling needs its text")
    with journal.transaction() as txn:
        rec = _current(txn, journal, incident_id)
        if rec.state not in (IncidentState.OPEN, IncidentState.RULED):
            raise TransitionError(f"incident {incident_id} is {rec.state.value}: too late to rule")
        start, end = rec.camera_window()
        asked = (
            rec.asked_before_next_deal()
            if asked_before_next_deal is None
            else asked_before_next_deal
        )
        row = txn.add(
            who.entry(
                Code.INCIDENT_RULED,
                {
                    "incident": incident_id,
                    "ruling": text,
                    "camera": camera,
                    "window_start_utc": start,
                    "window_end_utc": end,
                    "asked_before_next_deal": asked,
                    "amends": rec.ruling.seq if rec.ruling else None,
                    **(via or {}),
                },
                hand=rec.hand,
            )
        )
    log.info("incident %d ruled by %s", incident_id, who.person)
    return row


def _clean(text: str, what: str) -> str:
    try:
        return clean_text(text, what)
    except TextError as exc:
        raise TransitionError(str(exc)) from None


def review(
    journal: Journal,
    incident_id: int,
    who: Authenticated,
    note: str = "",
    *,
    via: Mapping[str, object] | None = None,
) -> LogRow:
    def independent(rec: IncidentRecord) -> None:
        if who.person == rec.dealer:
            raise TransitionError(f"{who.person} dealt this hand and may not review it")
        if any(r.person == who.person for r in rec.rulings):
            raise TransitionError(f"{who.person} ruled on this incident and may not review it")

    return _advance(journal, incident_id, who, note, via, _REVIEW, independent)


def close(
    journal: Journal,
    incident_id: int,
    who: Authenticated,
    note: str = "",
    *,
    via: Mapping[str, object] | None = None,
) -> LogRow:
    return _advance(journal, incident_id, who, note, via, _CLOSE)


@dataclass(frozen=True, slots=True)
class _Step:
    """A step after the ruling: who may take it, from which state, and the row it leaves."""

    roles: frozenset[ActorRole]
    needs: str  # said when the role may not: "a review needs floor or admin"
    after: IncidentState
    only: str  # said when the state is not `after`: "only a ruled incident is reviewed"
    code: Code
    done: str  # for the log: "reviewed"


_REVIEW: Final = _Step(
    REVIEW_ROLES,
    "a review needs floor or admin",
    IncidentState.RULED,
    "only a ruled incident is reviewed",
    Code.INCIDENT_REVIEWED,
    "reviewed",
)
_CLOSE: Final = _Step(
    CLOSE_ROLES,
    "closing needs floor or admin",
    IncidentState.REVIEWED,
    "only a reviewed incident is closed",
    Code.INCIDENT_CLOSED,
    "closed",
)


def _advance(
    journal: Journal,
    incident_id: int,
    who: Authenticated,
    note: str,
    via: Mapping[str, object] | None,
    step: _Step,
    check: Callable[[IncidentRecord], None] | None = None,
) -> LogRow:
    """Review or close: the note cleaned, the role and state checked (and `check`), one row."""
    note = _clean(note, "the note")
    if who.role not in step.roles:
        raise TransitionError(f"{who.person} is {who.role.value}: {step.needs}")
    with journal.transaction() as txn:
        rec = _current(txn, journal, incident_id)
        if rec.state is not step.after:
            raise TransitionError(f"incident {incident_id} is {rec.state.value}: {step.only}")
        if check is not None:
            check(rec)
        payload = {"incident": incident_id, "note": note, **(via or {})}
        row = txn.add(who.entry(step.code, payload, hand=rec.hand))
    log.info("incident %d %s by %s", incident_id, step.done, who.person)
    return row
