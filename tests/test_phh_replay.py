"""Real hands: every hand of the PHH sample, converted into a recorded session and replayed
through the engine, reproduces its recorded finishing stacks exactly and raises no incident.

The sample ships inside the package (station/data/phh-sample.tar.xz, MIT licence): 2,590 hands
of NLHE (Pluribus, historical), the 2023 WSOP $50k Players Championship final table (limit and
big-bet hold'em and Omaha hi-lo, stud, stud hi-lo, razz, 2-7 single and triple draw) and
short-deck and badugi hands.

The replay is the replay corpus's (tests/corpus, part `phh`): tests/test_replay_corpus.py
replays every recorded session there and compares its output byte for byte. This file checks
what the corpus does not: that today's converter gives exactly the corpus's recorded sessions,
and that the recorded replay of each agrees with the hand history itself (its finishing stacks,
no incident) or, where the history records no stacks, with PokerKit. Together: the converter's
session of every hand, replayed by today's engine, ends as the hand did.

Pluribus convention: its logs split odd chips fractionally (half chips). The importer scales such
a hand's chip unit (`_chip_scale` 2: one table chip is half a Pluribus chip), so the split is
exact and the stacks compare exactly; see station/phh/convert.py.
"""

from __future__ import annotations

import io
import json
import warnings
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from station.data import phh_sample
from station.phh.convert import convert_hand
from station.phh.reader import loads_phh
from tests.corpus.corpus import read_part

HANDS = list(phh_sample())


@cache
def _recorded() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each hand's recorded session setup line and replay output (the corpus's `phh` part)."""
    return {
        e.name: (json.loads(e.inputs[0]), [json.loads(line) for line in e.outputs])
        for e in read_part("phh")
    }


def _final_stacks(out: list[dict[str, Any]]) -> dict[str, int]:
    ends = [d for d in out if d["type"] == "hand_end"]
    assert ends, "the hand never ended"
    return dict(ends[-1]["stacks"])


def test_the_sample_is_complete_and_converts_to_the_corpus_sessions() -> None:
    assert len(HANDS) == 2590
    corpus = {e.name: e.inputs for e in read_part("phh")}
    assert list(corpus) == [name for name, _ in HANDS]
    games = set()
    for name, text in HANDS:
        (hand,) = loads_phh(text, name, name)
        lines = convert_hand(hand, seed=0).lines
        assert [json.dumps(line) for line in lines] == corpus[name], name
        games |= {lines[0]["game"]} if name.startswith("wsop") else set()
    assert games == {"nlhe", "flhe", "plo", "flo8", "stud", "stud8", "razz", "27sd", "27td"}


def test_every_recorded_hand_reproduces_its_finishing_stacks_without_incidents() -> None:
    checked, failures = 0, []
    for name, (setup, out) in _recorded().items():
        incidents = [f"{d['rule']} at line {d['event']}" for d in out if d["type"] == "incident"]
        if incidents:
            failures.append(f"{name}: incidents on a clean hand: {incidents}")
        expected = setup.get("_finishing_stacks")
        if expected is None:
            continue
        checked += 1
        stacks = _final_stacks(out)
        if stacks != expected:
            failures.append(f"{name}: stacks {stacks} != recorded {expected}")
    assert not failures, "\n".join(failures[:20])
    assert checked == 2585


def test_pluribus_half_chips_are_exact_in_a_scaled_chip_unit() -> None:
    scaled = [
        (n, t) for n, t in HANDS if n.startswith("pluribus") and "." in t.split("finishing")[-1]
    ]
    assert scaled, "the sample has Pluribus hands with half-chip finishing stacks"
    for name, text in scaled:
        setup, out = _recorded()[name]
        assert setup["_chip_scale"] == 2
        (hand,) = loads_phh(text, name, name)
        assert hand.finishing_stacks is not None
        ours = _final_stacks(out)
        assert [Fraction(ours[str(i + 1)], 2) for i in range(len(ours))] == list(
            hand.finishing_stacks
        )


@pytest.mark.parametrize(
    "name", [n for n, t in HANDS if "finishing_stacks" not in t], ids=lambda n: n
)
def test_hands_without_recorded_stacks_agree_with_pokerkit(name: str) -> None:
    from pokerkit import HandHistory

    text = dict(HANDS)[name]
    setup, out = _recorded()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(HandHistory.load(io.BytesIO(text.encode())))
    scale = setup["_chip_scale"]
    theirs = {str(i + 1): int(x * scale) for i, x in enumerate(states[-1].stacks)}
    assert _final_stacks(out) == theirs
