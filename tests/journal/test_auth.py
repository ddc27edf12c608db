"""People, PINs and lockout (standards-ux requirement 30): scrypt with per-person salts, at
least 6 digits, 5 failures lock for 30 s doubling, every attempt and change journaled."""

from __future__ import annotations

import pytest

from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.people.exc import (
    BadCredentialError,
    LockedOutError,
    PeopleError,
    RoleRefusedError,
    WeakPinError,
)
from station.people.pins import check_pin_policy, lockout_s
from station.people.staff import (
    add_person,
    authenticate,
    change_pin,
    disable_person,
    get_person,
    set_role,
)

from .conftest import PINS, STATION, enrol


def _codes(journal: Journal, start: int) -> list[str]:
    return [r.code for r in journal.rows(start)]


@pytest.mark.parametrize(
    "pin",
    [
        "12345",  # too short
        "abcdef",
        "4829 15",
        "000000",  # one digit
        "123456",  # runs, up and down, with a step, wrapping
        "987654",
        "890123",
        "135791",
        "24680246",
        "121212",  # repeated groups
        "123123",
        "10011001",
        "112112",  # two digits
        "122121",
        "123321",  # palindrome
        "147258",  # keypad patterns, both ways
        "852741",
        "159753",
        "112233",
        "904120",  # contains the station id's digits (station "T-0412")
    ],
)
def test_weak_pins_are_refused_without_echoing_them(pin: str) -> None:
    with pytest.raises(WeakPinError) as caught:
        check_pin_policy(pin, "T-0412")
    assert pin not in str(caught.value)


@pytest.mark.parametrize("pin", [*PINS.values(), "58203917", "830152", "620473"])
def test_ordinary_pins_are_accepted(pin: str) -> None:
    check_pin_policy(pin, "T-0412")


def test_pins_are_stored_with_scrypt_and_a_salt_per_person(journal: Journal) -> None:
    add_person(journal, "ada", ActorRole.ADMIN, "739514", by=None)
    admin = authenticate(journal, "ada", "739514", purpose="test")
    add_person(journal, "bea", ActorRole.FLOOR, "604917", by=admin)
    rows = journal.conn.execute("SELECT kdf, salt, pin_hash FROM people ORDER BY name").fetchall()
    assert [r[0] for r in rows] == ["scrypt:n=16384,r=8,p=1,len=32"] * 2
    assert all(len(r[1]) == 16 and len(r[2]) == 32 for r in rows)
    assert rows[0][1] != rows[1][1] and rows[0][2] != rows[1][2]
    assert all(b"739514" not in bytes(r[2]) for r in rows)


def test_the_first_person_must_be_an_admin_and_then_only_admins_enrol(journal: Journal) -> None:
    with pytest.raises(PeopleError, match="admin"):
        add_person(journal, "flo", ActorRole.FLOOR, PINS["flo"], by=None)
    enrol(journal, "flo")
    with pytest.raises(PeopleError):
        add_person(journal, "sam", ActorRole.DEALER, "564783", by=None)
    floor = authenticate(journal, "flo", PINS["flo"], purpose="test")
    with pytest.raises(RoleRefusedError):
        add_person(journal, "sam", ActorRole.DEALER, "564783", by=floor)
    added = [r for r in journal.rows() if r.code == Code.PERSON_ADDED]
    assert [(r.data()["name"], r.data()["role"], r.actor) for r in added] == [
        ("ada", "admin", "ada"),
        ("flo", "floor", "ada"),
    ]


def test_five_failures_lock_for_30_s_then_doubling(journal: Journal, clock: ManualClock) -> None:
    enrol(journal, "flo")
    start = journal.head()[0] + 1
    for _ in range(4):
        with pytest.raises(BadCredentialError):
            authenticate(journal, "flo", "111222", purpose="test")
    with pytest.raises(LockedOutError) as fifth:
        authenticate(journal, "flo", "111222", purpose="test")
    assert fifth.value.remaining_s == 30.0
    clock.advance(29)
    with pytest.raises(LockedOutError):  # even the right PIN is refused while locked out
        authenticate(journal, "flo", PINS["flo"], purpose="test")
    clock.advance(1.5)
    with pytest.raises(LockedOutError) as sixth:
        authenticate(journal, "flo", "111222", purpose="test")
    assert sixth.value.remaining_s == 60.0
    clock.advance(61)
    with pytest.raises(LockedOutError) as seventh:
        authenticate(journal, "flo", "111222", purpose="test")
    assert seventh.value.remaining_s == 120.0
    clock.advance(121)
    assert authenticate(journal, "flo", PINS["flo"], purpose="test").role is ActorRole.FLOOR
    with pytest.raises(BadCredentialError):  # a success starts the count again
        authenticate(journal, "flo", "111222", purpose="test")
    codes = _codes(journal, start)
    assert codes.count(Code.AUTH_FAILED) == 8
    assert codes.count(Code.LOCKOUT) == 3
    assert codes.count(Code.AUTH_REFUSED) == 1
    assert [lockout_s(n) for n in (4, 5, 6, 7, 20)] == [0.0, 30.0, 60.0, 120.0, 3600.0]


def test_the_lockout_is_shared_by_every_process_and_survives_a_reboot(
    journal: Journal, clock: ManualClock
) -> None:
    enrol(journal, "flo")
    for _ in range(4):
        with pytest.raises(BadCredentialError):
            authenticate(journal, "flo", "111222", purpose="daemon")
    with pytest.raises(LockedOutError):
        authenticate(journal, "flo", "111222", purpose="daemon")
    with Journal.open(journal.path, clock=clock) as cli, pytest.raises(LockedOutError):
        authenticate(cli, "flo", PINS["flo"], purpose="cli")
    clock.reboot("boot-2", down_s=600)  # monotonic time restarts: the lockout runs again
    with Journal.open(journal.path, clock=clock, station_id=STATION) as after:
        Recorder(after).recover()  # the daemon starts: the new boot's first rows
        clock.advance(20)
        with pytest.raises(LockedOutError) as caught:
            authenticate(after, "flo", PINS["flo"], purpose="after reboot")
        assert caught.value.remaining_s == pytest.approx(10.0)
        clock.advance(11)
        assert authenticate(after, "flo", PINS["flo"], purpose="after reboot").person == "flo"


def test_unknown_names_and_disabled_people_fail_alike(journal: Journal) -> None:
    enrol(journal, "flo")
    for name, pin in (("nobody", "739514"), ("bad name!", "739514"), ("flo", "999888")):
        with pytest.raises(BadCredentialError, match="unknown person or wrong PIN"):
            authenticate(journal, name, pin, purpose="test")
    admin = authenticate(journal, "ada", PINS["ada"], purpose="test")
    disable_person(journal, "flo", by=admin)
    with pytest.raises(BadCredentialError, match="unknown person or wrong PIN"):
        authenticate(journal, "flo", PINS["flo"], purpose="test")


def test_role_refusal_and_role_changes_are_journaled(journal: Journal) -> None:
    enrol(journal, "dan")
    with pytest.raises(RoleRefusedError, match="dealer"):
        authenticate(journal, "dan", PINS["dan"], purpose="rule", allowed={ActorRole.FLOOR})
    admin = authenticate(journal, "ada", PINS["ada"], purpose="test")
    set_role(journal, "dan", ActorRole.FLOOR, by=admin)
    assert get_person(journal, "dan") is not None
    assert authenticate(journal, "dan", PINS["dan"], purpose="rule", allowed={ActorRole.FLOOR})
    change = [r for r in journal.rows() if r.code == Code.ROLE_CHANGED][-1]
    assert change.data() == {"name": "dan", "role": "floor", "previous": "dealer"}
    assert (change.actor, change.role) == ("ada", "admin")
    with pytest.raises(PeopleError, match="at least one active admin"):
        set_role(journal, "ada", ActorRole.FLOOR, by=admin)


def test_a_pin_change_needs_the_person_or_an_admin(journal: Journal) -> None:
    enrol(journal, "flo", "fay")
    fay = authenticate(journal, "fay", PINS["fay"], purpose="test")
    with pytest.raises(RoleRefusedError):
        change_pin(journal, "flo", "564783", by=fay)
    flo = authenticate(journal, "flo", PINS["flo"], purpose="test")
    change_pin(journal, "flo", "564783", by=flo)
    with pytest.raises(BadCredentialError):
        authenticate(journal, "flo", PINS["flo"], purpose="test")
    assert authenticate(journal, "flo", "564783", purpose="test").person == "flo"
