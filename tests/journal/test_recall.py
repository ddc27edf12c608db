"""Hand recall: every step of a hand from the journal (burns, board, each action, collections,
pots, incidents, prompts), the last 100 hands at hand, hole cards hidden unless revealed."""

from __future__ import annotations

import pytest

from station.journal.clock import ManualClock
from station.journal.store import Journal
from station.recall.hands import RECALL_DEPTH, load_hand, recent_hands
from station.recall.steps import StepKind
from station.recall.text import render_hand

from .synth import BOARD, BURNS, HOLE, Writer, write_hand


@pytest.fixture
def one_hand(journal: Journal, clock: ManualClock) -> dict[str, int]:
    return write_hand(Writer(journal, clock), 1, setup=True)


def test_a_hand_is_recalled_step_by_step(journal: Journal, one_hand: dict[str, int]) -> None:
    recall = load_hand(journal, 1)
    assert recall is not None and recall.finished
    assert (recall.game, recall.button, recall.seats) == ("nlhe", 7, (2, 5, 7))
    assert recall.stakes == {"sb": 1, "bb": 2}
    assert recall.starting_stacks == {2: 200, 5: 200, 7: 200}
    kinds = [s.kind for s in recall.steps]
    assert kinds[:5] == [
        StepKind.SETUP,
        StepKind.ACTION,
        StepKind.ACTION,
        StepKind.KEY,
        StepKind.HAND_START,
    ]
    texts = [s.text for s in recall.steps]
    assert texts[:5] == [
        "table set up: nlhe RR11",
        "s2 sb 1",
        "s5 bb 2",
        "key NEW_HAND",
        "hand 1 starts, button s7",
    ]
    assert [s.card for s in recall.steps if s.kind is StepKind.BURN] == list(BURNS)
    assert [s.card for s in recall.steps if s.kind is StepKind.BOARD] == list(BOARD)
    dealt = [(s.seat, s.card) for s in recall.steps if s.kind is StepKind.DEAL]
    assert dealt == [(2, "Ah"), (5, "7c"), (7, "Qs"), (2, "Kh"), (5, "7d"), (7, "Js")]
    assert all(s.private for s in recall.steps if s.kind is StepKind.DEAL)
    assert [s.text for s in recall.steps if s.kind is StepKind.ACTION][2:6] == [
        "s7 raise 6",
        "s2 call 6",
        "s5 fold",
        "s2 check",
    ]
    assert [s.text for s in recall.steps if s.kind is StepKind.COLLECT][:3] == [
        "s2 zone collected",
        "s5 zone collected",
        "s7 zone collected",
    ]
    assert "prompt: BURN & FLOP" in texts
    incident = next(s for s in recall.steps if s.kind is StepKind.INCIDENT)
    assert incident.seq == one_hand["incident"] + 2  # after the draw role of that card
    assert incident.decision is not None and incident.decision.event == one_hand["incident"]
    assert incident.text == "INCIDENT DECK-BOXED-SINGLE (play_on) [001-RR11 §4 r1]: BOXED CARD"
    assert [i.rule for i in recall.incidents] == ["DECK-BOXED-SINGLE"]
    end = recall.hand_end
    assert end is not None and end.payouts == {2: 74} and end.pots[0].amount == 74
    assert recall.steps[-1].kind is StepKind.HAND_END


def test_the_text_hides_hole_cards_unless_revealed(
    journal: Journal, one_hand: dict[str, int]
) -> None:
    recall = load_hand(journal, 1)
    assert recall is not None
    hidden = "\n".join(render_hand(recall))
    for seat in (5, 7):
        for card in HOLE[seat]:
            assert card not in hidden.split()
    assert "s5 hole [hidden]" in hidden
    assert "main pot: 74 (eligible s2 s7) won by s2 74" in hidden
    assert "s2 showed Ah Kh" in hidden  # tabled at showdown: public
    assert "DECK-BOXED-SINGLE (play_on) [001-RR11 §4 r1] at seq" in hidden
    shown = "\n".join(render_hand(recall, reveal=True))
    assert "s5 hole 7c" in shown and "s7 hole Js" in shown


def test_the_last_hundred_hands_are_all_recallable(journal: Journal, clock: ManualClock) -> None:
    writer = Writer(journal, clock)
    for hand in range(1, RECALL_DEPTH + 6):
        write_hand(writer, hand, setup=True, incident=hand % 10 == 0)
    recent = recent_hands(journal)
    assert [h.hand for h in recent] == list(range(6, RECALL_DEPTH + 6))
    assert {h.pot for h in recent} == {74}
    assert [h.hand for h in recent if h.incidents] == list(range(10, RECALL_DEPTH + 6, 10))
    for hand in (6, 50, RECALL_DEPTH + 5, 1):
        recall = load_hand(journal, hand)
        assert recall is not None and recall.finished and recall.hand == hand
        assert [s.card for s in recall.steps if s.kind is StepKind.BOARD] == list(BOARD)
        assert recall.steps[0].text == "table set up: nlhe RR11"


def test_a_hand_in_progress_and_a_missing_hand(journal: Journal, clock: ManualClock) -> None:
    writer = Writer(journal, clock)
    write_hand(writer, 1, setup=True)
    assert load_hand(journal, 3) is None
    recall = load_hand(journal, 1)
    assert recall is not None and recall.finished
