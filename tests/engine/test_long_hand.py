"""A hand that never ends (a stuck FOLD key, a long tournament hand) costs the same per input at
the 20,000th input as at the 2,000th: nothing the table keeps grows with the inputs of one
hand (issue 27, item 6). Measured without a clock: the size of the table's state, which the
engine walks on every input and the daemon copies into every snapshot."""

from __future__ import annotations

import pickle

from station.engine.table import Table
from tests.engine.tablekit import Run, cards, key, setup, zone


def _dealt() -> Run:
    run = Run()
    run.feed(
        setup("nlhe", dict.fromkeys(range(1, 7), 10_000), stakes={"sb": 50, "bb": 100}, button=6),
        zone(1, 50),
        zone(2, 100),
        key("NEW_HAND"),
        cards(12),
        key("FOLD", 3),  # the first fold counts; every later one is a "does not apply" warning
    )
    return run


def _size(table: Table) -> int:
    return len(pickle.dumps(table))


def test_a_stuck_fold_key_keeps_the_tables_state_the_same_size() -> None:
    run = _dealt()
    stuck = key("FOLD", 3)
    run.feed([stuck] * 2000)
    at_2k = _size(run.table)
    run.feed([stuck] * 18_000)
    at_20k = _size(run.table)
    assert at_20k <= at_2k * 1.01, (at_2k, at_20k)
    # Every one of them is still an incident (the journal keeps them all) ...
    warned = [d for d in run.out if d.get("rule") == "STATION-UNEXPECTED-KEY"]
    assert len(warned) == 20_000
    # ... and the screen shows the warning once, for the newest press.
    snap = run.table.snapshot()
    assert [a.incident.rule for a in snap.alerts] == ["STATION-UNEXPECTED-KEY"]
    assert snap.alerts[0].incident.event == warned[-1]["event"]


def test_many_different_warnings_in_one_hand_leave_a_bounded_screen() -> None:
    run = _dealt()
    # Out-of-turn folds of seats that already folded, and amounts in folded seats' zones:
    # different texts, each "does not apply", thousands of them in one street.
    for n in range(3000):
        run.feed(key("FOLD", 3), zone(3, 100 + n))
    snap = run.table.snapshot()
    assert 1 <= len(snap.alerts) <= 16  # the screen shows a few
    assert len(snap.incidents) <= 32
    newest = max(a.incident.event for a in snap.alerts)
    assert newest == run.out[-1]["event"] or newest >= len(run.lines) - 2
