"""Who may act at the station, as the journal says: a fold over `people.*` rows. Pure.

The people table holds the credentials; the journal holds every change to who exists, their role
and whether they are active, with a digest that binds each credential to the row that set it.
`journal verify` compares the two.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final

from station.journal.codes import Code
from station.journal.rows import LogRow

PEOPLE_CODES: Final = frozenset(
    {Code.PERSON_ADDED, Code.PIN_CHANGED, Code.ROLE_CHANGED, Code.PERSON_DISABLED}
)
NAME_RE: Final = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{0,31}$")


def valid_name(name: str) -> bool:
    return NAME_RE.match(name) is not None


@dataclass(frozen=True, slots=True)
class PersonRecord:
    name: str
    role: str
    active: bool
    added_seq: int
    changed_seq: int  # the last row that changed the credential, role or activity
    credential: str  # digest of the credential set by the journal (pins.credential_digest)


def fold_people(rows: Iterable[LogRow]) -> dict[str, PersonRecord]:
    people: dict[str, PersonRecord] = {}
    for row in rows:
        if row.code not in PEOPLE_CODES:
            continue
        d = row.data()
        name = str(d["name"])
        if row.code == Code.PERSON_ADDED:
            people[name] = PersonRecord(
                name, str(d["role"]), True, row.seq, row.seq, str(d["credential"])
            )
            continue
        old = people.get(name)
        if old is None:
            continue  # verify reports the table/journal disagreement
        if row.code == Code.PIN_CHANGED:
            people[name] = replace(old, credential=str(d["credential"]), changed_seq=row.seq)
        elif row.code == Code.ROLE_CHANGED:
            people[name] = replace(old, role=str(d["role"]), changed_seq=row.seq)
        else:
            people[name] = replace(old, active=False, changed_seq=row.seq)
    return people
