"""The dealer screen is true at every moment: over every input of every rule scenario and every
hand of the PHH sample, what the dealer view shows (each seat's stack, bet, state, the button
and blind markers, every pot, the board) is the engine's snapshot of that same moment; while a
hand's result is on show every marker is that hand's own; and posted blinds stay on the felt
from the post to the push (the chips a seat has out never vanish between NEW_HAND and the
first action)."""

from __future__ import annotations

import pytest

from station.formats.session import parse_session
from tests.corpus.corpus import read_part
from tests.display.engine_texts import replayed
from tests.display.screen_truth import Truth
from tests.fuzz.budget import SCALE


def _report(failures: list[str]) -> str:
    return f"{len(failures)} moments differ; the first 20:\n" + "\n".join(failures[:20])


# Checked during the replay the every-engine-text tests make of the same sessions (one worker,
# the xdist group: the sessions are read and replayed once).
@pytest.mark.xdist_group("engine_texts")
@pytest.mark.timeout(600)  # every input of every session: minutes on a loaded machine
def test_the_dealer_view_is_the_snapshot_of_every_moment() -> None:
    """Every input of every rule scenario and every PHH sample hand."""
    _, _, truth = replayed()
    assert truth.moments > 5000 and truth.results > 100, (truth.moments, truth.results)
    assert not truth.failures, _report(truth.failures)


# The replay corpus's real hands with a dealer's mistakes in them (tests/corpus): every tenth
# by default; FUZZ_SCALE=10 (or more) checks all of them.
EVERY = max(1, round(10 / max(1.0, SCALE)))


@pytest.mark.timeout(600)
def test_the_dealer_view_is_the_snapshot_of_every_moment_of_hands_with_mistakes() -> None:
    truth = Truth()
    entries = read_part("mistakes")[::EVERY]
    for entry in entries:
        truth.replay(entry.name, parse_session("\n".join(entry.inputs) + "\n", entry.name))
    assert len(entries) >= 60 and truth.moments > 2000 and truth.results > 30, (
        len(entries), truth.moments, truth.results)  # fmt: skip
    assert not truth.failures, _report(truth.failures)
