"""Console accounts, sign-in with lockout, sessions and the audit log. Edge adapter
(PostgreSQL through psycopg 3; OS randomness for salts and tokens).

- Roles: `floor` (rules, reviews, closes, clears CALL FLOOR and chain alarms), `tech` (clears
  chain alarms), `admin` (reviews, closes, manages accounts), `auditor` (reads everything,
  changes nothing) and `dealer` (reads; may never rule). What each may do is
  `may(role, action)`. A chain alarm is cleared by a floor or technician credential, as a
  critical tilt is at the table (standards-ux.md requirement 12).
- Passwords: scrypt (`passwords.py`); the policy is checked when one is set.
- Lockout: `lockout_after` wrong passwords in a row lock the account for `lockout_min`
  minutes; while locked even the right password is refused (and audited); a success resets
  the count; an admin may unlock sooner.
- Sessions: a random token in an HttpOnly cookie, only its SHA-256 stored; a CSRF token per
  session; ended after `session_idle_min` without a request or `session_max_h` after sign-in,
  on sign-out, or when the account is disabled or its password changed.
- Every sign-in, failure, lockout, sign-out and account change is a `console_audit` row.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

import psycopg

from station.central.config import ConsoleConfig
from station.central.console.passwords import (
    DUMMY,
    SALT_BYTES,
    check_policy,
    hash_password,
    password_matches,
)

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

NAME_RE: Final = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{0,31}$")  # as station people names
SEEN_EVERY_S: Final = 15  # last_seen is written at most this often per session


class Role(StrEnum):
    FLOOR = "floor"
    TECH = "tech"
    ADMIN = "admin"
    AUDITOR = "auditor"
    DEALER = "dealer"


class Action(StrEnum):
    VIEW = "view"
    RULE = "rule"
    REVIEW = "review"
    CLOSE = "close"
    CLEAR_CALL = "clear_call"
    CLEAR_ALARM = "clear_alarm"
    REVEAL = "reveal"
    EXPORT = "export"
    AUDIT = "audit"
    ACCOUNTS = "accounts"
    TOURNAMENT = "tournament"


_MAY: Final = {
    Action.VIEW: frozenset(Role),
    Action.RULE: frozenset({Role.FLOOR}),
    Action.REVIEW: frozenset({Role.FLOOR, Role.ADMIN}),
    Action.CLOSE: frozenset({Role.FLOOR, Role.ADMIN}),
    Action.CLEAR_CALL: frozenset({Role.FLOOR}),
    Action.CLEAR_ALARM: frozenset({Role.FLOOR, Role.TECH}),
    Action.REVEAL: frozenset({Role.FLOOR, Role.TECH, Role.ADMIN, Role.AUDITOR}),
    Action.EXPORT: frozenset({Role.FLOOR, Role.ADMIN, Role.AUDITOR}),
    Action.AUDIT: frozenset({Role.ADMIN, Role.AUDITOR}),
    Action.ACCOUNTS: frozenset({Role.ADMIN}),
    Action.TOURNAMENT: frozenset({Role.FLOOR, Role.ADMIN}),
}
# The station's actor role for a console role (what the station's journal records).
STATION_ROLE: Final = {
    Role.FLOOR: "floor",
    Role.TECH: "technician",
    Role.ADMIN: "admin",
    Role.DEALER: "dealer",
}


# What an action is, in words (the refusal a page shows).
DOING: Final = {
    Action.VIEW: "use the console",
    Action.RULE: "rule on incidents",
    Action.REVIEW: "review rulings",
    Action.CLOSE: "close incidents",
    Action.CLEAR_CALL: "clear CALL FLOOR",
    Action.CLEAR_ALARM: "clear chain alarms",
    Action.REVEAL: "see hole cards",
    Action.EXPORT: "export",
    Action.AUDIT: "read the audit log",
    Action.ACCOUNTS: "manage accounts",
    Action.TOURNAMENT: "run tournaments",
}


def may(role: Role, action: Action) -> bool:
    return role in _MAY[action]


def refusal(role: Role, action: Action) -> str:
    """Why `role` is refused `action`, in words: `floor accounts may not manage accounts (admin
    accounts may)`."""
    allowed = " and ".join(r.value for r in Role if r in _MAY[action])
    return f"{role.value} accounts may not {DOING[action]} ({allowed} accounts may)"


class AccountError(ValueError):
    """A refused account change (the message says why)."""


class SignInError(PermissionError):
    """A refused sign-in. The message is what the person is shown: it never says whether the
    name exists."""


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    role: Role
    active: bool
    failures: int
    locked_until: datetime | None
    created_at: datetime
    created_by: str


@dataclass(frozen=True, slots=True)
class Session:
    token_hash: str
    account: str
    role: Role
    csrf: str
    expires_at: datetime


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def audit(
    conn: Conn,
    account: str,
    role: str,
    action: str,
    *,
    station: str | None = None,
    target: str = "",
    detail: dict[str, Any] | None = None,
    address: str = "",
) -> None:
    conn.execute(
        "INSERT INTO console_audit (account, role, action, station_id, target, detail, address)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (account, role, action, station, target, json.dumps(detail or {}), address),
    )


# --- accounts ---------------------------------------------------------------------------------


def _account(row: tuple[Any, ...]) -> Account:
    return Account(str(row[0]), Role(row[1]), bool(row[2]), int(row[3]), row[4], row[5], row[6])


_ACCOUNT_COLS = "name, role, active, failures, locked_until, created_at, created_by"


def get_account(conn: Conn, name: str) -> Account | None:
    row = conn.execute(
        f"SELECT {_ACCOUNT_COLS} FROM console_accounts WHERE name = %s", (name,)
    ).fetchone()
    return None if row is None else _account(row)


def list_accounts(conn: Conn) -> list[Account]:
    rows = conn.execute(f"SELECT {_ACCOUNT_COLS} FROM console_accounts ORDER BY name")
    return [_account(r) for r in rows]


def count_admins(conn: Conn) -> int:
    row = conn.execute(
        "SELECT count(*) FROM console_accounts WHERE role = 'admin' AND active"
    ).fetchone()
    return int(row[0]) if row else 0


def add_account(
    conn: Conn, name: str, role: Role, password: str, *, by: str, by_role: str = "admin"
) -> None:
    """Create an account (`by` is the admin, or `cli` for the first admin from the command
    line). The caller commits."""
    if not NAME_RE.match(name):
        raise AccountError("a name is a letter then up to 31 letters, digits, '.', '_' or '-'")
    check_policy(password, name)
    stored = hash_password(password, os.urandom(SALT_BYTES))
    try:
        with conn.transaction():
            conn.execute(
                "INSERT INTO console_accounts (name, role, password, created_by)"
                " VALUES (%s, %s, %s, %s)",
                (name, role.value, stored, by),
            )
    except psycopg.errors.UniqueViolation:
        raise AccountError(f"{name} already has an account") from None
    audit(conn, by, by_role, "account.added", target=name, detail={"role": role.value})
    log.info("console account %s (%s) added by %s", name, role.value, by)


def set_password(conn: Conn, name: str, password: str, *, by: str, by_role: str) -> None:
    check_policy(password, name)
    stored = hash_password(password, os.urandom(SALT_BYTES))
    done = conn.execute(
        "UPDATE console_accounts SET password = %s, failures = 0, locked_until = NULL,"
        " changed_at = now() WHERE name = %s",
        (stored, name),
    )
    if done.rowcount != 1:
        raise AccountError(f"no account {name}")
    _end_sessions(conn, name)
    audit(conn, by, by_role, "account.password", target=name)


def unlock(conn: Conn, name: str, *, by: str, by_role: str) -> None:
    done = conn.execute(
        "UPDATE console_accounts SET failures = 0, locked_until = NULL, changed_at = now()"
        " WHERE name = %s",
        (name,),
    )
    if done.rowcount != 1:
        raise AccountError(f"no account {name}")
    audit(conn, by, by_role, "account.unlocked", target=name)


def set_active(conn: Conn, name: str, active: bool, *, by: str, by_role: str) -> None:
    account = get_account(conn, name)
    if account is None:
        raise AccountError(f"no account {name}")
    if not active and account.role is Role.ADMIN and count_admins(conn) <= 1:
        raise AccountError("the console must keep at least one active admin")
    conn.execute(
        "UPDATE console_accounts SET active = %s, changed_at = now() WHERE name = %s",
        (active, name),
    )
    if not active:
        _end_sessions(conn, name)
    audit(conn, by, by_role, "account.enabled" if active else "account.disabled", target=name)


def _end_sessions(conn: Conn, name: str) -> None:
    conn.execute(
        "UPDATE console_sessions SET ended_at = now() WHERE account = %s AND ended_at IS NULL",
        (name,),
    )


# --- sign-in and sessions ---------------------------------------------------------------------


def sign_in(
    conn: Conn, name: str, password: str, cfg: ConsoleConfig, address: str = ""
) -> tuple[str, Session]:
    """Check the password and open a session: (cookie token, session). Raises SignInError
    (audited, and the failure counted, both committed) for a wrong name or password, a locked
    or disabled account."""
    with conn.transaction():
        refused = _check_sign_in(conn, name, password, cfg, address)
        opened = None if refused else _open_session(conn, name, cfg, address)
    if opened is None:
        raise SignInError(refused)
    return opened


def _open_session(conn: Conn, name: str, cfg: ConsoleConfig, address: str) -> tuple[str, Session]:
    conn.execute(
        "UPDATE console_accounts SET failures = 0, locked_until = NULL WHERE name = %s", (name,)
    )
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    found = conn.execute(
        "INSERT INTO console_sessions (token_hash, account, csrf, expires_at, address)"
        " VALUES (%s, %s, %s, now() + make_interval(hours => %s), %s)"
        " RETURNING expires_at, (SELECT role FROM console_accounts WHERE name = %s)",
        (token_hash(token), name, csrf, cfg.session_max_h, address, name),
    ).fetchone()
    assert found is not None
    role = Role(found[1])
    audit(conn, name, role.value, "sign_in", address=address)
    return token, Session(token_hash(token), name, role, csrf, found[0])


def _check_sign_in(conn: Conn, name: str, password: str, cfg: ConsoleConfig, address: str) -> str:
    """Why the sign-in is refused ('' when it is not); failures counted and audited."""
    row = conn.execute(
        "SELECT role, password, active, coalesce(locked_until > now(), false), failures"
        " FROM console_accounts WHERE name = %s FOR UPDATE",
        (name,),
    ).fetchone()
    if row is None or not NAME_RE.match(name):
        password_matches(password, DUMMY)  # the same time for an unknown name
        audit(conn, "?", "", "sign_in.failed", target=name[:64], address=address)
        return "wrong name or password"
    role, stored, active, locked, failures = row
    if locked:
        audit(conn, name, role, "sign_in.locked", address=address)
        return "this account is locked after too many wrong passwords"
    if not password_matches(password, stored):
        failures = int(failures) + 1
        lock = failures >= cfg.lockout_after
        conn.execute(
            "UPDATE console_accounts SET failures = %s, locked_until = CASE WHEN %s"
            " THEN now() + make_interval(mins => %s) ELSE locked_until END WHERE name = %s",
            (failures, lock, cfg.lockout_min, name),
        )
        audit(conn, name, role, "sign_in.failed", detail={"failures": failures}, address=address)
        if not lock:
            return "wrong name or password"
        audit(
            conn,
            name,
            role,
            "account.locked",
            detail={"failures": failures, "minutes": cfg.lockout_min},
            address=address,
        )
        log.warning("console account %s locked after %d failures", name, failures)
        return "this account is locked after too many wrong passwords"
    if not active:
        audit(conn, name, role, "sign_in.disabled", address=address)
        return "this account is disabled"
    return ""


def session(conn: Conn, token: str, cfg: ConsoleConfig) -> Session | None:
    """The live session of a cookie token (None when unknown, ended, expired or idle too long,
    or when its account was disabled)."""
    digest = token_hash(token)
    row = conn.execute(
        "SELECT s.account, a.role, s.csrf, s.expires_at,"
        " s.last_seen < now() - make_interval(secs => %s)"
        " FROM console_sessions s JOIN console_accounts a ON a.name = s.account"
        " WHERE s.token_hash = %s AND s.ended_at IS NULL AND s.expires_at > now()"
        " AND s.last_seen > now() - make_interval(mins => %s) AND a.active",
        (SEEN_EVERY_S, digest, cfg.session_idle_min),
    ).fetchone()
    if row is None:
        return None
    if row[4]:
        conn.execute(
            "UPDATE console_sessions SET last_seen = now() WHERE token_hash = %s", (digest,)
        )
    return Session(digest, str(row[0]), Role(row[1]), str(row[2]), row[3])


def sign_out(conn: Conn, current: Session, address: str = "") -> None:
    conn.execute(
        "UPDATE console_sessions SET ended_at = now() WHERE token_hash = %s",
        (current.token_hash,),
    )
    audit(conn, current.account, current.role.value, "sign_out", address=address)


def check_password(
    conn: Conn, current: Session, password: str, cfg: ConsoleConfig, *, purpose: str, address: str
) -> bool:
    """Ask the signed-in person's password again (to reveal hole cards). A wrong one counts
    towards the lockout like a sign-in's; locking the account ends its sessions."""
    row = conn.execute(
        "SELECT password FROM console_accounts WHERE name = %s", (current.account,)
    ).fetchone()
    if row is not None and password_matches(password, str(row[0])):
        conn.execute("UPDATE console_accounts SET failures = 0 WHERE name = %s", (current.account,))
        return True
    found = conn.execute(
        "UPDATE console_accounts SET failures = failures + 1 WHERE name = %s RETURNING failures",
        (current.account,),
    ).fetchone()
    failures = int(found[0]) if found else 0
    role = current.role.value
    audit(
        conn,
        current.account,
        role,
        "password.failed",
        target=purpose,
        detail={"failures": failures},
        address=address,
    )
    if failures >= cfg.lockout_after:
        conn.execute(
            "UPDATE console_accounts SET locked_until = now() + make_interval(mins => %s)"
            " WHERE name = %s",
            (cfg.lockout_min, current.account),
        )
        _end_sessions(conn, current.account)
        audit(conn, current.account, role, "account.locked", detail={"failures": failures})
    return False
