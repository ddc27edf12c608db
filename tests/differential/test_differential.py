"""Differential test against PokerKit 0.7.7 (pinned test oracle): a seeded sample of random hands.

The full run (10,000+ hands) is benchmarks/differential.py; this keeps a fixed sample in the
suite. Each hand is played in lockstep in PokerKit and in our engine (harness.py); after every
action the seat to act, the amount to call, the minimum and maximum raise and the collected pots
must agree, and at the end the final stacks, except where an allow-list entry (allowlist.py,
pinned in test_allowlist.py) explains a deliberate Robert's Rules difference. Engine bugs already
filed (known_bugs.py, cases/) are counted but do not fail this test: their strict-xfail cases in
test_cases.py track them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from station.engine.table import Table
from station.formats.session import parse_session
from tests.differential import harness
from tests.differential.harness import Summary, dump, play, random_deal, run_many

SAMPLE_HANDS = 1200
SEED = 20261122
GAMES = ("nlhe", "plo", "flhe")


@pytest.fixture(scope="module")
def summary() -> Summary:
    return run_many(SAMPLE_HANDS, SEED, GAMES)


def _report(s: Summary, limit: int = 3) -> str:
    bad = [r for r in s.failures if r.disagreement is not None][:limit]
    return "\n\n".join(r.session_text() for r in bad)


def test_no_unexplained_disagreement_with_pokerkit(summary: Summary) -> None:
    assert summary.unexplained == 0, _report(summary)


def test_the_sample_reaches_the_hard_cases(summary: Summary) -> None:
    assert summary.hands == SAMPLE_HANDS
    assert set(summary.by_game) == set(GAMES)
    assert summary.compared_actions > 10 * SAMPLE_HANDS
    assert summary.allins > SAMPLE_HANDS // 2
    assert summary.side_pots > SAMPLE_HANDS // 4
    assert summary.showdowns > SAMPLE_HANDS // 4
    # The generator meets the deliberate differences it is meant to meet.
    for key in (
        "BET-CAP-LIMIT:preflop",
        "BET-CAP-HEADS-UP",
        "BET-LIMIT-SHORT-ALLIN:complete",
        "BET-LIMIT-SHORT-ALLIN:half-bet",
        "BET-NL-SHORT-ALLIN-NO-REOPEN:first-wager",
        "BLIND-SHORT-BIG-BLIND",
    ):
        assert summary.allowed[key] > 0, key


def test_the_generator_deals_heads_up_and_full_tables() -> None:
    sizes = {random_deal(random.Random(k), "nlhe").n for k in range(300)}
    assert sizes == set(range(2, 10))


def test_a_hand_is_reproducible_from_its_seed() -> None:
    deal = random_deal(random.Random(7), "plo")
    first, second = play(deal), play(deal)
    assert first.lines == second.lines
    assert first.compared == second.compared > 0


# --- the comparison can fail: inject faults into what the engine reports -----------------------


def _with_fault(monkeypatch: pytest.MonkeyPatch, field: str, delta: int) -> None:
    real = Table.snapshot

    def faulty(self: Table) -> Any:
        snap = real(self)
        value = getattr(snap, field)
        if snap.to_act is None or value is None:
            return snap
        import dataclasses

        return dataclasses.replace(snap, **{field: value + delta})

    monkeypatch.setattr(Table, "snapshot", faulty)


@pytest.mark.parametrize(
    ("field", "kind"),
    [("to_call", "to_call"), ("to_act", "to_act"), ("max_raise_to", "raise")],
)
def test_a_wrong_engine_value_is_a_disagreement(
    monkeypatch: pytest.MonkeyPatch, field: str, kind: str
) -> None:
    _with_fault(monkeypatch, field, 1)
    s = run_many(20, SEED, GAMES)
    assert s.unexplained > 0
    assert {r.disagreement.kind for r in s.failures if r.disagreement is not None} == {kind}


def test_wrong_final_stacks_are_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    real = harness.Lockstep._finish

    def skewed(self: harness.Lockstep) -> None:
        self.state.stacks[0] += 1  # as if PokerKit had paid seat 1 one chip more
        real(self)

    monkeypatch.setattr(harness.Lockstep, "_finish", skewed)
    s = run_many(10, SEED, GAMES)
    assert s.unexplained == 10
    assert {r.disagreement.kind for r in s.failures if r.disagreement is not None} == {"stacks"}


def test_wrong_pots_are_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    real = harness.Lockstep.pk_view

    def skewed(self: harness.Lockstep) -> harness.PKView:
        view = real(self)
        view.pots = [(amount + 1, seats) for amount, seats in view.pots]
        return view

    monkeypatch.setattr(harness.Lockstep, "pk_view", skewed)
    s = run_many(30, SEED, GAMES)
    kinds = {r.disagreement.kind for r in s.failures if r.disagreement is not None}
    assert kinds == {"pots"}


def test_a_disagreement_is_dumped_as_a_replayable_session(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _with_fault(monkeypatch, "to_call", 1)
    s = run_many(3, SEED, GAMES)
    result = s.failures[0]
    path = dump(result, tmp_path, "case")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# pokerkit 0.7.7: {")
    assert '"disagreement":"to_call"' in text.splitlines()[0]
    session = parse_session(text, path.name)
    assert len(session.lines) == len(result.lines)
