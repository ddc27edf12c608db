"""Every rule scenario in tests/scenarios replays to the rulebook's ruling."""

from __future__ import annotations

import json

import pytest

from station.formats.session import read_session
from tests.scenario_kit import Scenario, all_scenarios, check

SCENARIOS = all_scenarios()


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scenario(sc: Scenario) -> None:
    assert sc.rules, "a scenario names the rule id(s) it encodes"
    assert sc.cites, "a scenario cites the rulebook clause its expectations come from"
    assert sc.expect, "a scenario expects something"
    setup = read_session(sc.path).lines[0].event
    assert sc.profile == getattr(setup, "profile", None), "the profile header matches setup"
    problems = check(sc)
    if sc.pending:
        assert problems, "a pending scenario passes: remove its 'status: pending' line"
        pytest.xfail("pending: " + "; ".join(problems))
    assert not problems, "\n".join(problems)


def test_scenario_folders_are_named_after_a_rule_they_cover() -> None:
    for sc in SCENARIOS:
        folder = sc.path.parent.name
        assert folder in sc.rules, f"{sc.name}: folder {folder} is not among {sc.rules}"


def test_expect_lines_are_json_objects() -> None:
    for sc in SCENARIOS:
        for exp in sc.expect + sc.expect_not:
            assert isinstance(exp, dict), f"{sc.name}: {json.dumps(exp)}"
            assert "type" in exp, f"{sc.name}: every expectation names its output type"
