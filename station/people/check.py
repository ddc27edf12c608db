"""The people table checked against the journal rows that vouch for it, and the journal verified
with that check (`verify_journal`: what `station journal verify` runs). Edge adapter (reads
the journal's SQLite file through the connection it is given).

The people table holds the credentials; the journal holds every change to who exists, their
role and whether they are active, with a digest binding each credential to the row that set it
(`roster.fold_people`). A PIN hash swapped in behind the journal's back, a person the journal
never enrolled, or one it enrolled who is missing from the table, is a problem. The log checks
its own chain and knows nothing of people: this room passes the check in, to `verify_file` and
to the recorder's recovery (`Recorder(checks=PEOPLE_CHECKS)`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from station.journal.rows import COLUMNS, LogRow
from station.journal.verify import Problem, TableCheck, VerifyReport, verify_file
from station.journal.witness import Head
from station.people.pins import credential_digest
from station.people.roster import PEOPLE_CODES, fold_people


def people_problems(conn: sqlite3.Connection) -> list[Problem]:
    """Every disagreement between the people table and the journal's `people.*` rows."""
    codes = sorted(PEOPLE_CODES)
    rows = [
        LogRow.from_tuple(raw)
        for raw in conn.execute(
            f"SELECT {', '.join(COLUMNS)} FROM log "
            f"WHERE code IN ({', '.join('?' * len(codes))}) ORDER BY seq",
            codes,
        )
    ]
    journaled = fold_people(rows)
    table: dict[str, tuple[Any, ...]] = {
        str(r[0]): r
        for r in conn.execute(
            "SELECT name, role, active, kdf, salt, pin_hash, changed_seq FROM people"
        )
    }
    problems: list[Problem] = []
    for name in sorted(set(journaled) | set(table)):
        record, found = journaled.get(name), table.get(name)
        if record is None:
            problems.append(
                Problem(None, f"people table holds {name}, whom the journal never enrolled")
            )
            continue
        if found is None:
            text = f"{name} is enrolled in the journal but missing from the people table"
            problems.append(Problem(record.added_seq, text))
            continue
        _, role, active, kdf, salt, pin_hash, changed_seq = found
        digest = credential_digest(str(kdf), bytes(salt), bytes(pin_hash))
        if (str(role), bool(active), digest, int(changed_seq)) != (
            record.role,
            record.active,
            record.credential,
            record.changed_seq,
        ):
            problems.append(
                Problem(
                    record.changed_seq,
                    f"people table entry of {name} does not match its journal row",
                )
            )
    return problems


PEOPLE_CHECKS: Final[tuple[TableCheck, ...]] = (people_problems,)


def verify_journal(
    path: str | Path, *, witness: Path | None = None, heads: Sequence[Head] = ()
) -> VerifyReport:
    """Everything `station journal verify` checks: the log's own checks (`verify_file`) and the
    people table against its rows."""
    return verify_file(path, witness=witness, heads=heads, checks=PEOPLE_CHECKS)
