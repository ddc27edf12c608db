"""PINs: the policy, scrypt hashing, constant-time checking and the lockout rule. Pure (CPU only;
no clock, file or randomness of its own: salts are passed in).

- A PIN is 6 to 12 digits and not trivially guessable: not a repeated block (111111, 121212,
  123123), fewer than three different digits (112112), a run with one step (123456, 135791,
  975319), two such runs one after the other (24681357) or woven together (19283746), a
  palindrome (123321), a well-known keypad pattern (147258, 159753), the start of a famous
  constant (31415926), a date as DDMMYYYY, MMDDYYYY or YYYYMMDD of the years 1900-2099
  (20261129), a PIN on the list of common PINs (`common_pins.txt`, its source in its header),
  or the digits of the station's id.
- Stored as scrypt(N=2^14, r=8, p=1, 32 bytes) with a 16-byte per-person salt; the parameters
  are stored beside the hash (`kdf`), so they can be raised later without breaking old PINs.
- Lockout: the 5th consecutive failure locks the person out for 30 s; every further failure
  doubles it (60 s, 120 s, ...) up to one hour. A success resets the count.

The common PINs are read once from the package (`common_pins.txt`); everything else is pure.
"""

from __future__ import annotations

import calendar
import functools
import hashlib
import hmac
import itertools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Final

from station.people.exc import WeakPinError

PIN_MIN_DIGITS: Final = 6
PIN_MAX_DIGITS: Final = 12
SALT_BYTES: Final = 16
KDF: Final = "scrypt:n=16384,r=8,p=1,len=32"
LOCKOUT_AFTER: Final = 5
LOCKOUT_BASE_S: Final = 30.0
LOCKOUT_MAX_S: Final = 3600.0
_KDF_RE = re.compile(r"^scrypt:n=(\d+),r=(\d+),p=(\d+),len=(\d+)$")
# Lines, columns and diagonals of a phone keypad (1 2 3 / 4 5 6 / 7 8 9 / 0), which people walk
# when they are asked for six digits; each is also refused backwards.
_KEYPAD_PATTERNS: Final = frozenset(
    {
        "147258",
        "258369",
        "147258369",
        "1472580369",
        "159357",
        "159753",
        "357159",
        "753159",
        "789456",
        "456123",
        "789456123",
        "741852",
        "852963",
        "741852963",
        "123789",
        "147369",
        "159951",
        "2580",
        "112233",
        "102030",
    }
)


# The first digits of constants people know by heart (pi, e, the golden ratio, the square root
# of two): any PIN that is the start of one is refused.
_CONSTANTS: Final = (
    "314159265358",
    "271828182845",
    "161803398874",
    "141421356237",
)
DATE_YEARS: Final = range(1900, 2100)


@functools.cache
def common_pins() -> frozenset[str]:
    """The list of common PINs shipped with the package (one a line, '#' comments)."""
    text = resources.files(__package__ or "station.people").joinpath("common_pins.txt")
    lines = text.read_text(encoding="ascii").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and line[0] != "#")


def check_pin_policy(pin: str, station_id: str = "") -> None:
    """Raise WeakPinError when the PIN may not be used. The message never contains the PIN."""
    if not pin.isascii() or not pin.isdigit():
        raise WeakPinError("a PIN is digits only")
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        raise WeakPinError(f"a PIN has {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits")
    if len(set(pin)) == 1:
        raise WeakPinError("a PIN may not repeat one digit")
    if _repeated_block(pin):
        raise WeakPinError("a PIN may not repeat a group of digits")
    if len(set(pin)) < 3:
        raise WeakPinError("a PIN needs at least three different digits")
    if _one_step(pin):
        raise WeakPinError("a PIN may not be a run of digits with one step (like 2468…)")
    if _two_runs(pin):
        raise WeakPinError("a PIN may not be two runs of digits (like 2468 1357, or woven)")
    if pin == pin[::-1]:
        raise WeakPinError("a PIN may not read the same backwards")
    if any(p in (pin, pin[::-1]) for p in _KEYPAD_PATTERNS) or pin in _KEYPAD_PATTERNS:
        raise WeakPinError("a PIN may not be a line or pattern of the keypad")
    if any(c.startswith(pin) for c in _CONSTANTS):
        raise WeakPinError("a PIN may not be the start of a famous number (like pi)")
    if is_date(pin):
        raise WeakPinError("a PIN may not be a date")
    if pin in common_pins():
        raise WeakPinError("that PIN is one of the most common: choose another")
    digits = "".join(c for c in station_id if c.isdigit())
    if len(digits) >= 3 and digits in pin:
        raise WeakPinError("a PIN may not contain the station's id")


def _repeated_block(pin: str) -> bool:
    n = len(pin)
    return any(n % k == 0 and pin == pin[:k] * (n // k) for k in range(1, n // 2 + 1))


def _one_step(pin: str) -> bool:
    """Every digit the one before plus the same step (mod 10): 123456, 987654, 135791, 890123."""
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    return len(steps) == 1


def _two_runs(pin: str) -> bool:
    """Two runs with one step, of three digits or more: one after the other (2468 1357) or
    woven together (1 9 2 8 3 7 4 6: 1234 and 9876)."""
    n = len(pin)
    halves = any(_one_step(pin[:k]) and _one_step(pin[k:]) for k in range(3, n - 2))
    return halves or (n >= 6 and _one_step(pin[0::2]) and _one_step(pin[1::2]))


def is_date(pin: str) -> bool:
    """An 8-digit PIN that reads as a date of 1900-2099: DDMMYYYY, MMDDYYYY or YYYYMMDD."""
    if len(pin) != 8:
        return False
    forms = (
        (pin[4:], pin[2:4], pin[:2]),  # DDMMYYYY
        (pin[4:], pin[:2], pin[2:4]),  # MMDDYYYY
        (pin[:4], pin[4:6], pin[6:]),  # YYYYMMDD
    )
    for year_text, month_text, day_text in forms:
        year, month, day = int(year_text), int(month_text), int(day_text)
        valid = year in DATE_YEARS and 1 <= month <= 12
        if valid and 1 <= day <= calendar.monthrange(year, month)[1]:
            return True
    return False


def hash_pin(pin: str, salt: bytes, kdf: str = KDF) -> bytes:
    m = _KDF_RE.match(kdf)
    if m is None:
        raise ValueError(f"unknown key-derivation setting {kdf!r}")
    n, r, p, length = (int(g) for g in m.groups())
    derived: bytes = hashlib.scrypt(
        pin.encode("ascii", "replace"),
        salt=salt,
        n=n,
        r=r,
        p=p,
        dklen=length,
        maxmem=256 * n * r + (1 << 20),
    )
    return derived


def pin_matches(pin: str, salt: bytes, pin_hash: bytes, kdf: str) -> bool:
    """Constant-time comparison of the derived key with the stored one."""
    return hmac.compare_digest(hash_pin(pin, salt, kdf), pin_hash)


def credential_digest(kdf: str, salt: bytes, pin_hash: bytes) -> str:
    """Binds a people-table credential to its journal row. Without the salt (which is not in the
    journal) the digest does not help anybody guess the PIN."""
    return hashlib.sha256(kdf.encode() + b"\0" + salt + b"\0" + pin_hash).hexdigest()


@dataclass(frozen=True, slots=True)
class Failures:
    """A person's consecutive failed PINs since their last success."""

    count: int = 0
    last_at_ns: int = 0  # monotonic time of the last failure
    boot_id: str = ""  # the monotonic time line `last_at_ns` belongs to


def lockout_s(count: int) -> float:
    """How long `count` consecutive failures lock a person out (0 below the threshold)."""
    if count < LOCKOUT_AFTER:
        return 0.0
    return min(LOCKOUT_BASE_S * float(2 ** (count - LOCKOUT_AFTER)), LOCKOUT_MAX_S)


def locked_for_s(failures: Failures, now_ns: int, boot_id: str, boot_start_ns: int) -> float:
    """Seconds of lockout left now. A lockout begun in an earlier boot cannot be measured on
    this boot's monotonic clock, so it runs again in full from the start of this boot."""
    duration = lockout_s(failures.count)
    if duration == 0.0:
        return 0.0
    start_ns = failures.last_at_ns if failures.boot_id == boot_id else boot_start_ns
    return max(0.0, start_ns / 1e9 + duration - now_ns / 1e9)
