"""The PIN policy and enrolment, second round (issue 27, item 8): common PINs and dates are
refused, as is a PIN another active person already has (without saying whose)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from station.journal.codes import ActorRole
from station.journal.store import Journal
from station.people.exc import PinInUseError, WeakPinError
from station.people.pins import check_pin_policy, common_pins, is_date
from station.people.staff import add_person, authenticate, change_pin

from .conftest import PINS, enrol


@pytest.mark.parametrize(
    "pin",
    [
        "19283746",  # two runs woven together (1234 and 9876)
        "24681357",  # two runs one after the other
        "31415926",  # the start of pi
        "20261129",  # a date, YYYYMMDD
        "29112026",  # DDMMYYYY
        "11292026",  # MMDDYYYY
        "8675309",  # on the list of common PINs
        "315475",
    ],
)
def test_guessable_pins_of_the_issue_are_refused(pin: str) -> None:
    with pytest.raises(WeakPinError) as caught:
        check_pin_policy(pin, "T-01")
    assert pin not in str(caught.value)


def test_every_day_of_two_centuries_is_a_date_in_each_form() -> None:
    day = date(1900, 1, 1)
    while day.year < 2100:
        for text in (day.strftime("%d%m%Y"), day.strftime("%m%d%Y"), day.strftime("%Y%m%d")):
            assert is_date(text), text
        day += timedelta(days=37)
    assert not is_date("31022026")  # no 31 February
    assert not is_date("58203917")


def test_the_list_of_common_pins_ships_with_the_package() -> None:
    pins = common_pins()
    assert len(pins) > 100
    assert all(p.isascii() and p.isdigit() and 6 <= len(p) <= 12 for p in pins)


def test_two_active_people_may_not_share_a_pin(journal: Journal) -> None:
    enrol(journal, "flo")
    admin = authenticate(journal, "ada", PINS["ada"], purpose="enrol")
    with pytest.raises(PinInUseError) as caught:
        add_person(journal, "bea", ActorRole.DEALER, PINS["flo"], by=admin)
    assert "flo" not in str(caught.value) and PINS["flo"] not in str(caught.value)
    add_person(journal, "bea", ActorRole.DEALER, "604917", by=admin)
    bea = authenticate(journal, "bea", "604917", purpose="change PIN")
    with pytest.raises(PinInUseError):
        change_pin(journal, "bea", PINS["ada"], by=bea)
    change_pin(journal, "bea", "604917", by=bea)  # her own PIN again is hers
