"""A seat is named with ASCII digits only: the Arabic-Indic digit one (U+0661) is a decimal
digit to Python and int() reads it as 1, but no table has such a seat (issue 27, item 8)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from station.config.station_toml import ConfigError, parse_station
from station.formats.session import SessionFormatError, parse_session
from station.phh.actions import ActionError, parse_action

ARABIC_ONE = "\u0661"


def test_a_session_seat_in_arabic_indic_digits_is_refused() -> None:
    text = (
        '{"type":"setup","game":"nlhe","stakes":{"sb":1,"bb":2},'
        f'"seats":{{"{ARABIC_ONE}":100,"2":100}},"button":2}}\n'
    )
    with pytest.raises(SessionFormatError) as refused:
        parse_session(text, "s.jsonl")
    assert refused.value.problems == [f"s.jsonl:1: seat '{ARABIC_ONE}' is not a seat number 1-10"]


def test_a_config_stack_for_an_arabic_indic_seat_is_refused() -> None:
    example = resources.files("station.config").joinpath("example.toml").read_text("utf-8")
    marker = "\n[table.stacks]"
    assert marker in example
    text = example.replace(marker, f'{marker}\n"{ARABIC_ONE}" = 500', 1)
    with pytest.raises(ConfigError) as refused:
        parse_station(text.encode("utf-8"), Path("station.toml"))
    assert any(
        ARABIC_ONE in str(p) and "not one of the table's seats" in str(p)
        for p in refused.value.problems
    )


def test_a_phh_player_in_arabic_indic_digits_is_refused() -> None:
    with pytest.raises(ActionError):
        parse_action(f"p{ARABIC_ONE} f")
