"""Stud rules of catalog §7 (STUD-BRINGIN, STUD-ACTION-LATER-STREETS, STUD-COMPLETION-NOT-A-RAISE)
on hands dealt through the table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.tablekit import Run, draw, key, setup, zone

STAKES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}


def _third_street(game: str, downs: list[str], ups: list[str]) -> Run:
    """Three players in seats 1-3; antes collected; two down cards each, then the up-cards."""
    run = Run()
    lines: list[dict[str, Any]] = [setup(game, {1: 100, 2: 100, 3: 100}, stakes=STAKES)]
    lines += [zone(s, 1) for s in (1, 2, 3)] + [zone(s, 0) for s in (1, 2, 3)]
    lines.append(key("NEW_HAND"))
    lines += [draw(c) for c in downs] + [draw(c) for c in ups]
    run.feed(lines)
    return run


def _bring_in_prompt(run: Run) -> str:
    prompts = [d["text"] for d in run.out if d["type"] == "prompt" and "BRING-IN" in d["text"]]
    assert len(prompts) == 1
    return prompts[0]


DOWNS = ["9c", "9d", "9h", "Tc", "Td", "Th"]


@pytest.mark.parametrize(
    ("game", "ups", "seat"),
    [
        # 001-RR11 §8 r2: lowest up-card by suit; clubs lowest (SUIT-RANKING).
        ("stud", ["3s", "3c", "3h"], 2),
        # 001-RR11 §9: razz brings in with the highest card, aces low; the king of spades is the
        # highest card by rank and suit (004-GN §IX Razz).
        ("razz", ["Kc", "Ks", "Ac"], 2),
        # 001-RR11 §10 r4: stud/8, the ace counts high for the bring-in.
        ("stud8", ["Ac", "2d", "5s"], 2),
    ],
)
def test_STUD_BRINGIN_by_rank_and_suit(game: str, ups: list[str], seat: int) -> None:
    run = _third_street(game, DOWNS, ups)
    assert _bring_in_prompt(run).startswith(f"BRING-IN: SEAT {seat} ")
    assert run.snap.to_act == seat


def test_STUD_COMPLETION_NOT_A_RAISE_then_three_raises() -> None:
    # 001-RR11 §8 r6: completing the bring-in is not a raise; three raises may follow (RR).
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(2, 2), zone(3, 5), zone(1, 10), zone(2, 15), zone(3, 20))
    snap = run.snap
    assert snap.capped
    assert snap.to_act == 1
    assert snap.to_call == 10


def test_STUD_ACTION_LATER_STREETS_high_hand_showing_starts() -> None:
    # 001-RR11 §8 r2: from 4th street the highest hand showing acts first.
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(2, 2), zone(3, 2), zone(1, 2))
    run.feed([zone(s, 0) for s in (1, 2, 3)])
    # burn, then 4th street up-cards to seats 1, 2, 3: seat 2 pairs its three.
    run.feed(draw("2c"), draw("Kd"), draw("3d"), draw("Qs"))
    assert run.snap.to_act == 2


def test_STUD_ACTION_LATER_STREETS_razz_low_hand_showing_starts() -> None:
    # 001-RR11 §9 r2: in razz the lowest hand showing acts first.
    run = _third_street("razz", DOWNS, ["Kc", "Ks", "Ac"])
    run.feed(zone(2, 2), zone(3, 2), zone(1, 2))
    run.feed([zone(s, 0) for s in (1, 2, 3)])
    # burn, then seat 1 (K, 2), seat 2 (K, 4), seat 3 (A, 7): seat 3 shows 7-A, the lowest.
    run.feed(draw("2c"), draw("2h"), draw("4d"), draw("7s"))
    assert run.snap.to_act == 3


def test_STUD_BRINGIN_WRONG_PLAYER_is_corrected() -> None:
    # 001-RR11 §8 r5: the wrong player designated low takes the wager back.
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(1, 2))
    assert [i["rule"] for i in run.incidents()] == ["STUD-BRINGIN-WRONG-PLAYER"]
    assert run.snap.to_act == 2
