"""Console passwords: the policy and scrypt hashing with constant-time checking. Pure (CPU
only; the salt is passed in).

Stored as `scrypt$N$r$p$<salt b64>$<hash b64>` (N=2^15, r=8, p=1, 32 bytes, 16-byte salt), so the
cost can be raised later without breaking stored passwords. scrypt is in the standard library
(`hashlib.scrypt`, OpenSSL's): no extra dependency.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Final

N: Final = 1 << 15
R: Final = 8
P: Final = 1
LENGTH: Final = 32
SALT_BYTES: Final = 16
MIN_LENGTH: Final = 10
MAX_LENGTH: Final = 200
# A stored hash nobody's password matches: an unknown name costs the same time as a known one.
DUMMY: Final = "scrypt$32768$8$1$" + "A" * 22 + "==$" + "A" * 43 + "="


class WeakPasswordError(ValueError):
    """A password the policy refuses (the message never contains it)."""


def check_policy(password: str, name: str) -> None:
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise WeakPasswordError(f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters")
    if len(set(password)) < 4:
        raise WeakPasswordError("a password needs at least 4 different characters")
    if len(name) >= 4 and name.lower() in password.lower():
        raise WeakPasswordError("a password may not contain the account's name")


def _derive(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    derived: bytes = hashlib.scrypt(
        password.encode("utf-8"),
        salt=salt,
        n=n,
        r=r,
        p=p,
        dklen=length,
        maxmem=256 * n * r + (1 << 20),
    )
    return derived


def hash_password(password: str, salt: bytes) -> str:
    digest = _derive(password, salt, N, R, P, LENGTH)
    b64 = base64.b64encode
    return f"scrypt${N}${R}${P}${b64(salt).decode()}${b64(digest).decode()}"


def password_matches(password: str, stored: str) -> bool:
    """Constant-time check of `password` against a stored hash (False for a malformed one)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        want = base64.b64decode(digest, validate=True)
        raw_salt = base64.b64decode(salt, validate=True)
        got = _derive(password, raw_salt, int(n), int(r), int(p), len(want))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)
