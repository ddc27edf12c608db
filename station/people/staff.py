"""People and credentials: enrolment, PIN changes, roles, and checking a PIN with lockout.
Edge adapter (SQLite people table, OS randomness for salts, the journal's clock).

Every attempt is journaled: a failure as `auth.failed` (and `auth.lockout` when it starts one),
an attempt while locked out or with the wrong role as `auth.refused`, a success as
`auth.verified`; what the person then does is journaled by the caller under their name and role
(`Authenticated.entry`). The consecutive-failure count is folded from the person's own auth
rows, so the daemon and the CLI (another process) share one lockout. Nothing here logs or
journals a PIN, a hash or a salt.

One attempt is one atomic step across processes: the lockout check, the scrypt check and the
journal write run under an exclusive `flock` on the journal's `-auth` file, so attempts made in
parallel (the daemon's PIN pad, any number of CLI commands) are judged one after the other, each
seeing the rows of the one before. The lock is not SQLite's write lock: the table keeps
recording while a PIN (about 40 ms of scrypt here) is checked.
"""

from __future__ import annotations

import fcntl
import logging
import os
import secrets
import stat
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from station.journal.codes import PERSON_ROLES, ActorRole, Code
from station.journal.exc import JournalWriteError
from station.journal.files import AUTH, companion, open_private
from station.journal.queries import first_row_of_boot, rows_of_actor
from station.journal.rows import Entry, LogRow
from station.journal.store import Journal, Txn
from station.people.exc import (
    BadCredentialError,
    LockedOutError,
    PeopleError,
    PinInUseError,
    RoleRefusedError,
    WeakPinError,
)
from station.people.pins import (
    KDF,
    SALT_BYTES,
    Failures,
    check_pin_policy,
    credential_digest,
    hash_pin,
    locked_for_s,
    lockout_s,
    pin_matches,
)
from station.people.roster import same_looking, valid_name

log = logging.getLogger(__name__)

AUTH_CODES: Final = frozenset({Code.AUTH_FAILED, Code.LOGIN, Code.VERIFIED, Code.AUTH_REFUSED})
_DUMMY_SALT: Final = b"\0" * SALT_BYTES
_DUMMY_HASH: Final = b"\0" * 32
AUTH_LOCK_WAIT_S: Final = 15.0  # about 300 PIN checks queued ahead: something is wrong


@dataclass(frozen=True, slots=True)
class Person:
    name: str
    role: ActorRole
    active: bool


@dataclass(frozen=True, slots=True)
class Authenticated:
    """Proof that `person` gave the right PIN just now, in `role`."""

    person: str
    role: ActorRole

    def entry(self, code: Code, payload: dict[str, Any], hand: int | None = None) -> Entry:
        return Entry(code, payload, self.person, self.role, hand=hand)


def get_person(journal: Journal, name: str) -> Person | None:
    row = journal.conn.execute(
        "SELECT name, role, active FROM people WHERE name = ?", (name,)
    ).fetchone()
    return None if row is None else Person(str(row[0]), ActorRole(row[1]), bool(row[2]))


def list_people(journal: Journal) -> list[Person]:
    rows = journal.conn.execute("SELECT name, role, active FROM people ORDER BY name").fetchall()
    return [Person(str(r[0]), ActorRole(r[1]), bool(r[2])) for r in rows]


def fold_failures(rows: Iterable[LogRow]) -> Failures:
    """Consecutive failures in one person's auth rows (pure)."""
    failures = Failures()
    for row in rows:
        if row.code == Code.AUTH_FAILED:
            failures = Failures(failures.count + 1, row.recorded_at_ns, row.boot_id)
        elif row.code in (Code.LOGIN, Code.VERIFIED) or (
            row.code == Code.AUTH_REFUSED and row.data().get("pin_ok") is True
        ):
            failures = Failures()
    return failures


def locked_for(journal: Journal, name: str) -> float:
    """Seconds this person is still locked out for (0 when they may try)."""
    failures = fold_failures(rows_of_actor(journal, name, AUTH_CODES))
    now_ns = journal.clock.monotonic_ns()
    first = first_row_of_boot(journal, journal.boot_id)
    boot_start = first.recorded_at_ns if first is not None else now_ns
    return locked_for_s(failures, now_ns, journal.boot_id, boot_start)


@contextmanager
def auth_lock(journal: Journal) -> Iterator[None]:
    """Hold the journal's PIN-check lock (`<journal>-auth`, the journal's mode) for one attempt.
    Raises JournalWriteError when it cannot be had within AUTH_LOCK_WAIT_S."""
    try:
        mode = stat.S_IMODE(journal.path.stat().st_mode) & 0o660
        fd = open_private(companion(journal.path, AUTH), mode or 0o600)
    except OSError as exc:
        raise JournalWriteError(f"cannot open the PIN-check lock: {exc.strerror}") from exc
    try:
        deadline = time.monotonic() + AUTH_LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise JournalWriteError("PIN checks are blocked: try again") from None
                time.sleep(0.005)
        yield
    finally:
        os.close(fd)  # releases the lock


def authenticate(
    journal: Journal,
    name: str,
    pin: str,
    *,
    purpose: str,
    allowed: Iterable[ActorRole] = PERSON_ROLES,
) -> Authenticated:
    """Check a person's PIN and role. Raises BadCredentialError, LockedOutError or
    RoleRefusedError (each journaled). A success is journaled too (`auth.verified`, which also
    ends a run of failures); the caller then journals what the person did. One attempt at a
    time per journal, across processes (`auth_lock`)."""
    with auth_lock(journal):
        return _authenticate(journal, name, pin, purpose, frozenset(allowed))


def _authenticate(
    journal: Journal, name: str, pin: str, purpose: str, allowed_set: frozenset[ActorRole]
) -> Authenticated:
    if not valid_name(name):
        journal.append(
            [Entry(Code.AUTH_FAILED, {"person": None, "purpose": purpose}, "?", ActorRole.STATION)]
        )
        log.warning("authentication failed: malformed name (%s)", purpose)
        raise BadCredentialError("unknown person or wrong PIN")
    left = locked_for(journal, name)
    person = get_person(journal, name)
    role = person.role if person is not None else ActorRole.STATION
    if left > 0:
        journal.append(
            [
                Entry(
                    Code.AUTH_REFUSED,
                    {
                        "person": name,
                        "reason": "locked",
                        "remaining_s": round(left, 1),
                        "purpose": purpose,
                    },
                    name,
                    role,
                )
            ]
        )
        log.warning("%s is locked out for %.0f s more (%s)", name, left, purpose)
        raise LockedOutError(f"{name} is locked out for {left:.0f} s more", left)
    if not _pin_ok(journal, name, pin) or person is None or not person.active:
        failures = fold_failures(rows_of_actor(journal, name, AUTH_CODES)).count + 1
        entries = [
            Entry(
                Code.AUTH_FAILED,
                {"person": name, "failures": failures, "purpose": purpose},
                name,
                role,
            )
        ]
        lock_s = lockout_s(failures)
        if lock_s > 0:
            entries.append(
                Entry(
                    Code.LOCKOUT,
                    {"person": name, "failures": failures, "lockout_s": lock_s},
                    name,
                    role,
                )
            )
        journal.append(entries)
        log.warning("authentication failed for %s (%d in a row, %s)", name, failures, purpose)
        if lock_s > 0:
            log.warning("%s locked out for %.0f s", name, lock_s)
            raise LockedOutError(f"wrong PIN; {name} is locked out for {lock_s:.0f} s", lock_s)
        raise BadCredentialError("unknown person or wrong PIN")
    if person.role not in allowed_set:
        journal.append(
            [
                Entry(
                    Code.AUTH_REFUSED,
                    {"person": name, "reason": "role", "pin_ok": True, "purpose": purpose},
                    name,
                    person.role,
                )
            ]
        )
        wanted = " or ".join(sorted(r.value for r in allowed_set))
        log.warning("%s (%s) may not %s", name, person.role, purpose)
        raise RoleRefusedError(f"{name} is {person.role.value}; this needs {wanted}")
    journal.append([Entry(Code.VERIFIED, {"person": name, "purpose": purpose}, name, person.role)])
    return Authenticated(name, person.role)


def _pin_ok(journal: Journal, name: str, pin: str) -> bool:
    row = journal.conn.execute(
        "SELECT kdf, salt, pin_hash FROM people WHERE name = ?", (name,)
    ).fetchone()
    if row is None:
        pin_matches(pin, _DUMMY_SALT, _DUMMY_HASH, KDF)  # same time for unknown names
        return False
    return pin_matches(pin, bytes(row[1]), bytes(row[2]), str(row[0]))


# --- enrolment and changes --------------------------------------------------------------------


def _credential(journal: Journal, pin: str, name: str) -> tuple[bytes, bytes, str]:
    check_pin_policy(pin, journal.station_id)
    _not_in_use(journal, pin, name)
    salt = os.urandom(SALT_BYTES)
    pin_hash = hash_pin(pin, salt, KDF)
    return salt, pin_hash, credential_digest(KDF, salt, pin_hash)


def _not_in_use(journal: Journal, pin: str, name: str) -> None:
    """Refuse a PIN another active person has (a PIN identifies its holder at the table), without
    saying whose. Costs one scrypt per active person."""
    rows = journal.conn.execute(
        "SELECT kdf, salt, pin_hash FROM people WHERE active = 1 AND name != ?", (name,)
    ).fetchall()
    if any(pin_matches(pin, bytes(salt), bytes(h), str(kdf)) for kdf, salt, h in rows):
        raise PinInUseError("another person has that PIN: choose another")


def add_person(
    journal: Journal, name: str, role: ActorRole, pin: str, *, by: Authenticated | None
) -> LogRow:
    """Enrol a person. The very first person needs no credential and must be an admin; after
    that only an admin may enrol people."""
    if not valid_name(name):
        raise PeopleError(
            f"{name!r}: a name is a letter then up to 31 letters, digits, '.', '_' or '-' "
            "(the letters A-Z only: no accents or other alphabets, which can look alike)"
        )
    if role not in PERSON_ROLES:
        raise PeopleError(f"a person's role is one of {', '.join(sorted(PERSON_ROLES))}")
    salt, pin_hash, digest = _credential(journal, pin, name)
    with journal.transaction() as txn:
        count = int(txn.execute("SELECT COUNT(*) FROM people").fetchone()[0])
        if by is None and (count > 0 or role is not ActorRole.ADMIN):
            raise PeopleError("only an admin may enrol people (the first person is the admin)")
        if by is not None and by.role is not ActorRole.ADMIN:
            raise RoleRefusedError(f"{by.person} is {by.role.value}; enrolling needs admin")
        if txn.execute("SELECT 1 FROM people WHERE name = ?", (name,)).fetchone():
            raise PeopleError(f"{name} is already enrolled")
        names = [str(r[0]) for r in txn.execute("SELECT name FROM people")]
        alike = same_looking(name, names)
        if alike is not None:
            raise PeopleError(
                f"{name} looks like {alike}, who is already enrolled (names must differ by more "
                "than case or look-alike characters such as 0/O and 1/l/I): choose another name"
            )
        actor, actor_role = (by.person, by.role) if by else (name, role)
        row = txn.add(
            Entry(
                Code.PERSON_ADDED,
                {"name": name, "role": role.value, "credential": digest},
                actor,
                actor_role,
            )
        )
        txn.execute(
            "INSERT INTO people (name, role, active, kdf, salt, pin_hash, changed_seq) "
            "VALUES (?, ?, 1, ?, ?, ?, ?)",
            (name, role.value, KDF, salt, pin_hash, row.seq),
        )
    log.info("%s enrolled as %s by %s", name, role.value, actor)
    return row


def change_pin(journal: Journal, name: str, new_pin: str, *, by: Authenticated) -> LogRow:
    """A person changes their own PIN, or an admin resets someone's."""
    if by.person != name and by.role is not ActorRole.ADMIN:
        raise RoleRefusedError("only the person or an admin may change a PIN")
    salt, pin_hash, digest = _credential(journal, new_pin, name)
    with journal.transaction() as txn:
        _require(txn, name)
        row = txn.add(by.entry(Code.PIN_CHANGED, {"name": name, "credential": digest}))
        txn.execute(
            "UPDATE people SET kdf = ?, salt = ?, pin_hash = ?, changed_seq = ? WHERE name = ?",
            (KDF, salt, pin_hash, row.seq, name),
        )
    log.info("PIN of %s changed by %s", name, by.person)
    return row


def set_role(journal: Journal, name: str, role: ActorRole, *, by: Authenticated) -> LogRow:
    if by.role is not ActorRole.ADMIN:
        raise RoleRefusedError("only an admin may change roles")
    if role not in PERSON_ROLES:
        raise PeopleError(f"a person's role is one of {', '.join(sorted(PERSON_ROLES))}")
    with journal.transaction() as txn:
        previous = _require(txn, name)
        if previous == ActorRole.ADMIN and role is not ActorRole.ADMIN:
            _keep_an_admin(txn, name)
        row = txn.add(
            by.entry(Code.ROLE_CHANGED, {"name": name, "role": role.value, "previous": previous})
        )
        txn.execute(
            "UPDATE people SET role = ?, changed_seq = ? WHERE name = ?",
            (role.value, row.seq, name),
        )
    log.info("role of %s changed from %s to %s by %s", name, previous, role.value, by.person)
    return row


def disable_person(journal: Journal, name: str, *, by: Authenticated) -> LogRow:
    if by.role is not ActorRole.ADMIN:
        raise RoleRefusedError("only an admin may disable people")
    with journal.transaction() as txn:
        previous = _require(txn, name)
        if previous == ActorRole.ADMIN:
            _keep_an_admin(txn, name)
        row = txn.add(by.entry(Code.PERSON_DISABLED, {"name": name}))
        txn.execute("UPDATE people SET active = 0, changed_seq = ? WHERE name = ?", (row.seq, name))
    log.info("%s disabled by %s", name, by.person)
    return row


def _require(txn: Txn, name: str) -> str:
    found = txn.execute("SELECT role FROM people WHERE name = ? AND active = 1", (name,)).fetchone()
    if found is None:
        raise PeopleError(f"{name} is not an active enrolled person")
    return str(found[0])


def _keep_an_admin(txn: Txn, name: str) -> None:
    others = txn.execute(
        "SELECT COUNT(*) FROM people WHERE role = 'admin' AND active = 1 AND name != ?", (name,)
    ).fetchone()[0]
    if int(others) == 0:
        raise PeopleError("the station must keep at least one active admin")


def random_pin(station_id: str) -> str:
    """Eight random digits the PIN policy accepts (`station journal users add --generate-pin`)."""
    while True:
        pin = "".join(secrets.choice("0123456789") for _ in range(8))
        try:
            check_pin_policy(pin, station_id)
        except WeakPinError:
            continue
        return pin
