"""Real hands: every hand of the PHH sample, converted into a recorded session and replayed
through the engine, reproduces its recorded finishing stacks exactly and raises no incident.

The sample ships inside the package (station/data/phh-sample.tar.xz, MIT licence): 2,590 hands
of NLHE (Pluribus, historical), the 2023 WSOP $50k Players Championship final table (limit and
big-bet hold'em and Omaha hi-lo, stud, stud hi-lo, razz, 2-7 single and triple draw) and
short-deck and badugi hands.

Pluribus convention: its logs split odd chips fractionally (half chips). The importer scales such
a hand's chip unit (`_chip_scale` 2: one table chip is half a Pluribus chip), so the split is
exact and the stacks compare exactly; see station/phh/convert.py.
"""

from __future__ import annotations

import io
import warnings
from fractions import Fraction
from typing import Any

import pytest

from station.data import phh_sample
from station.formats.decisions import decision_to_dict
from station.formats.replay import replay_lines
from station.formats.session import parse_session
from station.phh.convert import convert_hand
from station.phh.reader import loads_phh

HANDS = list(phh_sample())


def _replay(name: str, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    (hand,) = loads_phh(text, name, name)
    conversion = convert_hand(hand, seed=0)
    session = parse_session(conversion.text(), name)
    out = [decision_to_dict(d) for d in replay_lines(session.lines)]
    return conversion.lines[0], out


def _final_stacks(out: list[dict[str, Any]]) -> dict[str, int]:
    ends = [d for d in out if d["type"] == "hand_end"]
    assert ends, "the hand never ended"
    return dict(ends[-1]["stacks"])


def test_the_sample_is_complete() -> None:
    assert len(HANDS) == 2590
    games = {_replay(n, t)[0]["game"] for n, t in HANDS if n.startswith("wsop")}
    assert games == {"nlhe", "flhe", "plo", "flo8", "stud", "stud8", "razz", "27sd", "27td"}


def test_every_recorded_hand_reproduces_its_finishing_stacks_without_incidents() -> None:
    checked, failures = 0, []
    for name, text in HANDS:
        setup, out = _replay(name, text)
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
        setup, out = _replay(name, text)
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
    setup, out = _replay(name, text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(HandHistory.load(io.BytesIO(text.encode())))
    scale = setup["_chip_scale"]
    theirs = {str(i + 1): int(x * scale) for i, x in enumerate(states[-1].stacks)}
    assert _final_stacks(out) == theirs
