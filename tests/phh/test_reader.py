"""The PHH reader and action grammar: fields, bundles, exact amounts, problems named by file."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from station.engine.cards import Card
from station.phh.actions import Act, ActionError, parse_action
from station.phh.reader import PhhError, find_phh_files, loads_phh, read_phh

HAND = """
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 150.5]
actions = ["d dh p1 AcKd", "d dh p2 ????", "p2 cbr 6  # open", "p1 f"]
_custom = "ignored"
"""


def test_actions_follow_the_phh_grammar() -> None:
    a = parse_action("d dh p1 AcKd")
    assert a is not None and a.act is Act.DEAL_HOLE and a.player == 1
    assert a.cards == (Card.parse("Ac"), Card.parse("Kd"))
    unknown = parse_action("d dh p3 ????")
    assert unknown is not None and unknown.cards == (None, None)
    bet = parse_action("p2 cbr 10112.5 # half chips")
    assert bet is not None and bet.amount == Fraction(20225, 2)
    shown = parse_action("p3 sm -")
    assert shown is not None and shown.act is Act.SHOW and not shown.muck
    mucked = parse_action("p3 sm")
    assert mucked is not None and mucked.muck
    pat = parse_action("p1 sd")
    assert pat is not None and pat.act is Act.DISCARD and pat.cards == ()
    assert parse_action("# only a comment") is None
    for bad in ("p1 raise 10", "q1 f", "d dh p1 AcK", "p1 cbr lots", "d dh p1 XxKd"):
        with pytest.raises(ActionError):
            parse_action(bad)


def test_a_hand_reads_exactly_and_ignores_unknown_optional_fields() -> None:
    (hand,) = loads_phh(HAND, "x.phh", "x")
    assert hand.game == "nlhe"
    assert hand.starting_stacks == (Fraction(200), Fraction(301, 2))
    assert hand.min_bet == 2
    assert [a.act for a in hand.actions] == [Act.DEAL_HOLE, Act.DEAL_HOLE, Act.BET_RAISE, Act.FOLD]
    assert hand.finishing_stacks is None


def test_a_bundle_holds_one_hand_per_table(tmp_path: Path) -> None:
    bundle = tmp_path / "day" / "t.phhs"
    bundle.parent.mkdir()
    bundle.write_text(f"[2]\n{HAND}\n[1]\n{HAND}\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a hand")
    found = list(find_phh_files([tmp_path]))
    assert found == [(bundle, "day/t")]
    hands = read_phh(bundle, "day/t")
    assert [h.name for h in hands] == ["day/t/1", "day/t/2"]
    assert hands[0].source == f"{bundle}[1]"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("variant = 'XX'", "variant 'XX' is not supported"),
        (HAND.replace("antes = [0, 0]\n", ""), "missing field 'antes'"),
        (HAND.replace("min_bet = 2\n", ""), "missing field 'min_bet'"),
        (HAND.replace('"p1 f"', '"p1 wins"'), "'p1 wins' is not a PHH action"),
        (HAND.replace('"p1 f"', '"p3 f"'), "there are only 2 players"),
        ("variant = ", "not valid TOML"),
    ],
)
def test_problems_name_the_file(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PhhError) as err:
        read_phh(path, "bad")
    assert str(err.value).startswith(f"{path}: ")
    assert problem in str(err.value)


def test_an_unreadable_file_is_a_problem_too(tmp_path: Path) -> None:
    with pytest.raises(PhhError, match="cannot read"):
        read_phh(tmp_path / "missing.phh", "missing")
