"""EXPOSED / FLASH answering the station's "BOXED OR EXPOSED?" question (catalog §3 EXPOSE-*):
the answer is the same exposure the face-up draw raised, never a second one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.tablekit import Run, draw, key, setup, zone


def _face_up_second_card(answer: dict[str, Any]) -> Run:
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200, 3: 200, 4: 200}, stakes={"sb": 1, "bb": 2}, button=4))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw("Ah"), draw("Kd"), draw("Qs"), draw("Jc"))
    run.feed(draw("Td", face_up=True))  # the fifth card, seat 1's second, comes face up
    run.feed(answer)
    return run


@pytest.mark.parametrize(
    "answer",
    [key("EXPOSED"), key("EXPOSED", 1), key("EXPOSED", 1, card="Td"), key("FLASH", 1)],
    ids=["no-seat", "seat", "seat-and-card", "flash"],
)
def test_EXPOSE_HOLDEM_answer_to_the_face_up_question_is_one_exposure(
    answer: dict[str, Any],
) -> None:
    run = _face_up_second_card(answer)
    rules = [d["rule"] for d in run.incidents()]
    assert "MISDEAL-TWO-CARDS-EXPOSED" not in rules
    assert "STATION-UNEXPECTED-KEY" not in rules
    assert [r for r in rules if r.startswith("EXPOSE-")] == ["EXPOSE-HOLDEM-OTHER-HOLECARD"], rules
    assert run.snap.stop is None or "BOXED OR EXPOSED" not in run.snap.stop.text


def test_EXPOSED_without_a_seat_and_nothing_face_up_is_an_unexpected_key() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200, 3: 200}, stakes={"sb": 1, "bb": 2}, button=3))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"), draw("Ah"), key("EXPOSED"))
    assert run.incidents("STATION-UNEXPECTED-KEY")
