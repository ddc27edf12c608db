"""Differential test of the Omaha games of 004-GN §VIII against PokerKit 0.7.7 (issue 29).

PokerKit has no class for them, but its streets and hand types build them (pk_games.py): five-card
PLO, The Big O, The Big Easy (the cards by the number of players), Omaha hi-lo regular (the low
with no qualifier), Double Board Omaha (two boards, one burn a street) and the five-card
double-board bomb pot (antes, no betting before the flop, both flops with no burn). A seeded
sample is played in lockstep as in test_differential.py: after every action the seat to act, the
amount to call, the raise range and the pots agree, and at the end the final stacks, where a
pot is halved between the boards and between the high and the low (settle.rulebook_split_parts).

Not here, as PokerKit cannot deal them: Pineapple and Crazy Pineapple (a discard with no card in
return), Ultimate Big O (each hand's high and low on whichever board is better for it), the stud
games of §IX (Super Stud's discards, Mexican stud's joker and 41 cards, stud hi-lo with no
qualifier, Kansas City razz), kill pots and rotations; their scenarios (tests/scenarios) quote
the rule instead.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from station.engine.decisions import HandEnd
from tests.differential import harness
from tests.differential.harness import HandResult, Lockstep, random_deal

GAMES = ("plo5", "o8reg", "bigo", "bigeasy", "dbo", "bomb5")
SAMPLE_HANDS = 240
SEED = 20261129


@pytest.fixture(scope="module")
def played() -> list[tuple[Lockstep, HandResult]]:
    out = []
    for k in range(SAMPLE_HANDS):
        rng = random.Random(harness.hand_seed(SEED, k))
        step = Lockstep(random_deal(rng, GAMES[k % len(GAMES)]))
        out.append((step, step.run()))
    return out


def test_no_unexplained_disagreement_with_pokerkit(
    played: list[tuple[Lockstep, HandResult]],
) -> None:
    bad = [r for _, r in played if r.disagreement is not None]
    assert not bad, bad[0].session_text()
    assert not [r for _, r in played if r.known]


def test_the_sample_reaches_showdowns_side_pots_and_split_parts(
    played: list[tuple[Lockstep, HandResult]],
) -> None:
    seen: Counter[str] = Counter()
    for step, r in played:
        game = r.deal.game
        seen[game] += 1
        seen["compared"] += r.compared
        seen["showdown"] += r.showdown
        seen["side pots"] += r.side_pots
        end = step.hand_end
        assert isinstance(end, HandEnd)
        parts = {part.name for pot in end.pots for part in pot.parts}
        if game in ("dbo", "bomb5") and {"board 1", "board 2"} <= parts:
            seen["boards split"] += 1
        if "low" in parts or "board 1 low" in parts:
            seen["hi-lo split"] += 1
        if game == "bigeasy":
            seen[f"bigeasy {r.deal.n} players"] += 1
    assert all(seen[g] == SAMPLE_HANDS // len(GAMES) for g in GAMES)
    assert seen["compared"] > 8 * SAMPLE_HANDS
    assert seen["showdown"] > SAMPLE_HANDS // 2
    assert seen["side pots"] > SAMPLE_HANDS // 2
    assert seen["boards split"] > 0 and seen["hi-lo split"] > 0


@pytest.mark.parametrize(("players", "cards"), [(2, 7), (4, 7), (5, 6), (6, 6), (7, 5), (8, 5)])
def test_the_big_easy_deals_more_cards_to_fewer_players(players: int, cards: int) -> None:
    # 004-GN §VIII "The Big Easy": five or more cards by the number of players (the station's
    # schedule, docs/HOUSE-PRACTICE.md); PokerKit is dealt the same number.
    info = harness.GAMES["bigeasy"]
    assert info.hole_for(players) == cards
    assert info.pokerkit_for(players).hole_dealing_count == cards
