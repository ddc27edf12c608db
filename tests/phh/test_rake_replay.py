"""Real hands with a rake: the PHH sample replayed under a rake schedule keeps every chip.

MISC-TIME-COLLECTION / RAKE (004-GN §I r28 "House Rake is 10%, up to $6 maximum"). Each hand of
the shipped sample is replayed twice, without a schedule (the replay that reproduces every
recorded finishing stack, `tests/test_phh_replay.py`) and with one drawn by hypothesis. For every
hand: payouts + rake total = every chip put in (the unraked payouts), each pot's winners get its
amount less what the house took from it, the chips that left the players' stacks are the rake,
no seat is paid more than without the rake, and the rake is what the schedule says: the whole
pot counted in its steps, the percentage rounded down, never above a cap that applies.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from station.data import phh_sample
from station.engine.games import Family, game_spec
from station.formats.decisions import decision_to_dict
from station.formats.replay import replay_lines
from station.formats.session import parse_session
from station.phh.convert import convert_hand
from station.phh.reader import loads_phh

HANDS = list(phh_sample())
GAMES = ("nlhe", "flhe", "plo", "flo8", "stud", "stud8", "razz", "27sd", "27td")


@cache
def _lines(index: int) -> tuple[dict[str, Any], ...]:
    name, text = HANDS[index]
    (hand,) = loads_phh(text, name, name)
    return convert_hand(hand, seed=0).lines


def _replay(index: int, rake: dict[str, Any] | None) -> list[dict[str, Any]]:
    lines = [dict(line) for line in _lines(index)]
    if rake is not None:
        lines[0]["rake"] = rake
    text = "".join(json.dumps(line) + "\n" for line in lines)
    session = parse_session(text, HANDS[index][0])
    return [decision_to_dict(d) for d in replay_lines(session.lines)]


@cache
def _plain_end(index: int) -> dict[str, Any]:
    (end,) = [d for d in _replay(index, None) if d["type"] == "hand_end"]
    return end


def _caps(rake: dict[str, Any], game: str, players: int) -> list[int]:
    caps = [rake["cap"]] if rake.get("cap") is not None else []
    caps += [c for g, c in rake.get("cap_by_game", {}).items() if g == game]
    by_players = sorted((int(n), c) for n, c in rake.get("cap_by_players", {}).items())
    fitting = [c for n, c in by_players if n <= players]
    return caps + fitting[-1:]


def _expected(rake: dict[str, Any], pot: int, game: str, players: int, past_flop: bool) -> int:
    """The schedule read afresh: whole steps of the pot, the share rounded down, the caps."""
    if pot < rake.get("min_pot", 0) or (rake.get("no_flop_no_drop") and not past_flop):
        return 0
    every = rake.get("every", 1)
    share = Fraction(str(rake["percent"])) / 100
    taken = int((pot // every) * every * share)  # int() rounds a non-negative share down
    return min([taken, pot, *_caps(rake, game, players)])


def check_hand(index: int, rake: dict[str, Any]) -> int:
    """Check one hand under `rake`; returns what the house took."""
    name = HANDS[index][0]
    out = _replay(index, rake)
    incidents = [d["rule"] for d in out if d["type"] == "incident"]
    assert not incidents, f"{name}: {incidents}"
    (end,) = [d for d in out if d["type"] == "hand_end"]
    plain = _plain_end(index)
    taken = end["rake"]
    setup = _lines(index)[0]
    game, players = setup["game"], len(setup["seats"])

    assert len(taken["pots"]) == len(end["pots"]) and sum(taken["pots"]) == taken["total"]
    for pot, cut in zip(end["pots"], taken["pots"], strict=True):
        assert sum(pot["won"].values()) + cut == pot["amount"], name
    # payouts + rake = every chip put in (the unraked replay pays out exactly that).
    assert sum(end["payouts"].values()) + taken["total"] == sum(plain["payouts"].values()), name
    assert all(end["payouts"].get(s, 0) <= paid for s, paid in plain["payouts"].items()), name
    if None not in setup["seats"].values() and None not in end["stacks"].values():
        before = sum(setup["seats"].values())
        assert before - sum(end["stacks"].values()) == taken["total"], name

    pot = sum(p["amount"] for p in end["pots"])
    caps = _caps(rake, game, players)
    assert all(taken["total"] <= cap for cap in caps), (name, taken, caps)
    if game_spec(game).family is Family.FLOP:
        past_flop = len(end["board"]) >= 3
        assert taken["total"] == _expected(rake, pot, game, players, past_flop), (name, pot)
    else:  # whether a stud or draw hand got past its first round is not in hand_end
        assert taken["total"] in {
            _expected(rake, pot, game, players, True),
            _expected(rake, pot, game, players, False),
        }, (name, pot)
    return int(taken["total"])


def _valid(rake: dict[str, Any]) -> bool:
    share = Fraction(str(rake["percent"])) * rake.get("every", 1)
    return rake.get("every", 1) == 1 or (share.denominator == 1 and share % 100 == 0)


schedules = st.fixed_dictionaries(
    {"percent": st.integers(0, 10_000).map(lambda bp: bp // 100 if bp % 100 == 0 else bp / 100)},
    optional={
        "cap": st.integers(0, 20_000),
        "min_pot": st.integers(0, 5_000),
        "every": st.sampled_from([1, 5, 10, 20, 100]),
        "no_flop_no_drop": st.booleans(),
        "cap_by_players": st.dictionaries(
            st.integers(2, 9).map(str), st.integers(0, 20_000), max_size=3
        ),
        "cap_by_game": st.dictionaries(st.sampled_from(GAMES), st.integers(0, 20_000), max_size=3),
    },
).filter(_valid)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    schedules,
    st.lists(st.integers(0, len(HANDS) - 1), min_size=1, max_size=12, unique=True),
)
def test_every_hand_of_the_sample_keeps_every_chip_under_any_schedule(
    rake: dict[str, Any], hands: list[int]
) -> None:
    for index in hands:
        check_hand(index, rake)


def test_the_whole_sample_under_the_golden_nugget_placard() -> None:
    """Every hand once, at GN's 10% with a cap (scaled to the sample's chips), no flop no drop."""
    rake = {"percent": 10, "cap": 600, "no_flop_no_drop": True}
    raked = sum(check_hand(index, rake) > 0 for index in range(len(HANDS)))
    assert len(HANDS) == 2590
    assert raked > 1000, f"only {raked} hands paid any rake: the check would be hollow"
