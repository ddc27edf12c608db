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


# Characters that read alike on a panel or a printout: each maps to one representative before
# names are compared (after the sequences below). A name holds ASCII only (NAME_RE), so look-alikes
# from other alphabets (a Cyrillic a, U+0430, for a Latin a) cannot be enrolled at all.
_ALIKE: Final = str.maketrans({"0": "o", "O": "o", "1": "l", "I": "l", "|": "l"})
_ALIKE_RUNS: Final = (("rn", "m"), ("vv", "w"))


def valid_name(name: str) -> bool:
    return NAME_RE.match(name) is not None


def look_alike_key(name: str) -> str:
    """What a name looks like: `alice`, `Alice`, `ALICE`, `aIice` and `a1ice` share one key."""
    text = name.translate(_ALIKE).lower()
    for run, one in _ALIKE_RUNS:
        text = text.replace(run, one)
    return text


def same_looking(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that a reader could take for `name` (equal ignoring case, or
    equal once look-alike characters are folded), or None."""
    folded, key = name.casefold(), look_alike_key(name)
    for other in others:
        if other.casefold() == folded or look_alike_key(other) == key:
            return other
    return None


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
