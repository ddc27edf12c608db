"""The whole public PHH sample converts, and the sessions replay in PokerKit to the recorded stacks.

`benchmarks/check_phh_conversion.py` runs the PokerKit replay on every hand of the sample; here it
runs on every non-Pluribus hand (all eleven variants), the Pluribus half-chip split pots and a
seeded draw of Pluribus hands, so it stays fast.
"""

from __future__ import annotations

import json
import random

import pytest

pokerkit = pytest.importorskip("pokerkit")

from benchmarks.check_phh_conversion import (  # noqa: E402
    EXPECTED_FAILURES,
    pokerkit_phh_stacks,
    replay_session,
)
from station.formats.session import parse_session  # noqa: E402
from station.phh.convert import chip_scale, convert_hand  # noqa: E402
from station.phh.reader import PhhHand, find_phh_files, read_phh  # noqa: E402

from .helpers import STRADDLE, convert_text, sample_dir  # noqa: E402

PLURIBUS_DRAWN = 150


@pytest.fixture(scope="module")
def all_hands() -> list[tuple[str, PhhHand]]:
    folder = sample_dir()
    return [(str(p), h) for p, name in find_phh_files([folder]) for h in read_phh(p, name)]


def test_every_file_of_the_sample_converts_into_a_valid_session(
    all_hands: list[tuple[str, PhhHand]],
) -> None:
    assert len(all_hands) == 2590
    variants = set()
    for _, hand in all_hands:
        text = convert_hand(hand).text()
        parse_session(text, hand.name)  # raises on any problem
        variants.add(hand.variant)
    assert variants == {
        "NT",
        "NS",
        "PO",
        "FT",
        "FO/8",
        "F7S",
        "F7S/8",
        "FR",
        "N2L1D",
        "F2L3D",
        "FB",
    }


def _subset(all_hands: list[tuple[str, PhhHand]]) -> list[tuple[str, PhhHand]]:
    others = [(p, h) for p, h in all_hands if not h.name.startswith("pluribus/")]
    pluribus = [(p, h) for p, h in all_hands if h.name.startswith("pluribus/")]
    halves = [(p, h) for p, h in pluribus if chip_scale(h) > 1]
    drawn = random.Random(20260101).sample(pluribus, PLURIBUS_DRAWN)
    return others + halves + drawn


def test_sessions_replay_in_pokerkit_to_the_recorded_stacks(
    all_hands: list[tuple[str, PhhHand]],
) -> None:
    checked = 0
    for path, hand in _subset(all_hands):
        result = replay_session(convert_hand(hand).text())
        if hand.name in EXPECTED_FAILURES:
            continue
        assert result.ok, f"{hand.source}: {result.reason}"
        if result.expected is None:  # no finishing_stacks: PokerKit replaying the PHH itself
            assert result.stacks == pokerkit_phh_stacks(path, 0, chip_scale(hand)), hand.source
        checked += 1
    assert checked >= 88 - 1 + PLURIBUS_DRAWN


def test_the_razz_hand_pokerkit_0_7_7_rejects(all_hands: list[tuple[str, PhhHand]]) -> None:
    # reference/pokerkit.md §5: "p2 cbr 750000" puts the opponent all in; PokerKit 0.7.4+ refuses
    # it as below the minimum raise (0.7.3 replays it to the recorded stacks). The session is
    # still valid; only the oracle cannot follow it.
    (hand,) = [h for _, h in all_hands if h.name == "wsop/2023/43/5/03-50-24"]
    text = convert_hand(hand).text()
    parse_session(text)
    result = replay_session(text)
    assert not result.ok
    assert "750000 is below the minimum allowed" in result.reason


def test_the_straddle_hand_replays_in_pokerkit() -> None:
    text = "".join(json.dumps(x) + "\n" for x in convert_text(STRADDLE, "straddle"))
    result = replay_session(text)
    assert result.ok, result.reason
    assert result.stacks == [199, 198, 235, 168, 200, 200]
