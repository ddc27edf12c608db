"""Histories that cannot become a session: a clear `ConvertError`, never a crash."""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from station.phh.convert import ConvertError, convert_hand
from station.phh.reader import loads_phh, read_phh

from .helpers import sample

HEAD = """
variant = "{variant}"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = [{actions}]
"""


def _convert(actions: str, variant: str = "NT") -> None:
    (hand,) = loads_phh(HEAD.format(variant=variant, actions=actions), "p.phh", "p")
    convert_hand(hand)


@pytest.mark.parametrize(
    ("actions", "variant", "problem"),
    [
        ('"d dh p1 AcAc", "d dh p2 KdKs"', "NT", "Ac appear twice"),
        ('"d dh p1 AcKc", "d dh p2 AcKs"', "NT", "Ac appear twice"),
        ('"d dh p1 AcKc", "d dh p2 QdKs", "p2 cbr 500"', "NT", "p2 puts in 499 with 199 behind"),
        ('"d dh p1 AcKc", "d dh p2 QdKs", "p2 cbr 1"', "NT", "not more than the 1 in front"),
        ('"d dh p1 Ac2c", "d dh p2 QdKs"', "NS", "2c are not in the deck"),
        ('"d dh p1 AcKcQcJc9c", "d dh p2 2d3d4d5d7h", "p2 cc", "p1 cc", "p2 sd 8s"', "N2L1D",
         "discards 8s, which is not in the hand"),
        ('"d dh p1 AcKcQcJc9c", "d dh p2 2d3d4d5d7h", "p2 cc", "p1 cc", "p2 sd 7h", "p1 sd"',
         "N2L1D", "p2 discards 1 cards and receives 0"),
        ('"d dh p1 AcKc", "d dh p2 QdKs", "p2 cc", "p1 cc", "d dh p1 2c"', "NT",
         "hole cards outside the deal"),
        ('"d dh p1 AcKc", "d dh p2 QdKs", "p2 f", "p1 sm 2c3c"', "NT", "shows 2c, which is not"),
    ],
)  # fmt: skip
def test_contradictions_are_convert_errors(actions: str, variant: str, problem: str) -> None:
    with pytest.raises(ConvertError, match=problem):
        _convert(actions, variant)


MUTABLE = ["pluribus/30/12", "alice-carol-wikipedia", "wsop/2023/43/5/00-22-43", "dwan-ivey-2009"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(MUTABLE),
    st.lists(st.tuples(st.sampled_from(["drop", "dup", "swap"]), st.integers(0, 60)), max_size=4),
)
def test_mangled_real_histories_never_crash(rel: str, edits: list[tuple[str, int]]) -> None:
    # Malformed input gives a clear error or a session, never a crash (docs/performance.md).
    (hand,) = read_phh(sample(rel), rel)
    actions = list(hand.actions)
    for op, where in edits:
        if not actions:
            break
        i = where % len(actions)
        if op == "drop":
            del actions[i]
        elif op == "dup":
            actions.insert(i, actions[i])
        else:
            j = (i + 1) % len(actions)
            actions[i], actions[j] = actions[j], actions[i]
    with contextlib.suppress(ConvertError):
        convert_hand(dataclasses.replace(hand, actions=tuple(actions)))
