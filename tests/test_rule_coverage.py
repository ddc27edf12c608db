"""Every rule the catalog marks observable (OBS or OBS+D) has a passing scenario.

The catalog is the product owner's specification; docs/RULES-CATALOG.md is our snapshot of it
and station/engine/rulebook_data.py is generated from that snapshot (tools/gen_rulebook.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from station.engine.rulebook_data import RULES
from tests.scenario_kit import all_scenarios

ROOT = Path(__file__).resolve().parent.parent
SHARED_CATALOG = ROOT.parent / "shared" / "rules" / "RULES-CATALOG.md"

# Rules of game forms the engine does not deal: they cannot have a scenario until it does.
OUT_OF_SCOPE = {
    "MISDEAL-OTHER-FORMS": "Open-face Chinese and Chinese poker (004-GN) are not run yet "
    "(docs/CHINESE-POKER.md)",
}

# Observable rules still without a passing scenario. This list may only shrink: the test fails
# when a listed rule gains a scenario (take it off the list) and when an unlisted one lacks one.
NOT_YET: set[str] = set()


def _observable() -> list[str]:
    return sorted(k for k, v in RULES.items() if v[2] in ("OBS", "OBS+D"))


def _covered() -> set[str]:
    return {r for sc in all_scenarios() if not sc.pending for r in sc.rules}


def test_every_observable_rule_has_a_scenario() -> None:
    covered = _covered()
    missing = [r for r in _observable() if r not in covered and r not in OUT_OF_SCOPE]
    unlisted = [r for r in missing if r not in NOT_YET]
    assert not unlisted, f"observable rules without a scenario: {unlisted}"


def test_the_not_yet_list_only_shrinks() -> None:
    covered = _covered()
    done = sorted(r for r in NOT_YET if r in covered)
    assert not done, f"these now have scenarios: remove them from NOT_YET: {done}"
    unknown = sorted(r for r in NOT_YET | set(OUT_OF_SCOPE) if r not in RULES)
    assert not unknown, f"not catalog rule ids: {unknown}"


def test_scenarios_name_only_catalog_rules() -> None:
    for sc in all_scenarios():
        for rule in sc.rules:
            assert rule in RULES or rule.startswith("STATION-"), f"{sc.name}: unknown rule {rule}"


def test_rulebook_data_is_generated_from_the_catalog_snapshot() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen", ROOT / "tools" / "gen_rulebook.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    rules = gen.parse((ROOT / "docs" / "RULES-CATALOG.md").read_text(encoding="utf-8"))
    assert {r["id"] for r in rules} == set(RULES)


def test_the_catalog_snapshot_matches_the_product_owner_copy() -> None:
    if not SHARED_CATALOG.exists():
        pytest.skip(f"{SHARED_CATALOG} is not present on this machine (CI clones the repo alone)")
    ours = (ROOT / "docs" / "RULES-CATALOG.md").read_text(encoding="utf-8")
    assert ours == SHARED_CATALOG.read_text(encoding="utf-8"), "refresh docs/RULES-CATALOG.md"
