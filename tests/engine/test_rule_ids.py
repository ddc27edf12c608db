"""Rule ids are constants (`station.engine.rule_ids.Rule`) checked against the catalog: every one
is a catalog rule (`rulebook_data.RULES`, generated from docs/RULES-CATALOG.md, itself the product
owner's catalog: tests/test_rule_coverage.py) or one of the station's own equipment and input
faults (`rulebook.STATION_RULES`), and no engine module names a rule by a bare string, so a
misspelt or renamed id is a type error instead of an incident nobody can look up."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from station.engine.rule_ids import Rule
from station.engine.rulebook import STATION_RULES
from station.engine.rulebook_data import RULES

ENGINE = Path(__file__).resolve().parents[2] / "station" / "engine"
# The catalog's data and text and the constants themselves are where the ids are written out.
SOURCES = {"rulebook_data.py", "rulebook_text.py", "rulebook.py", "rule_ids.py"}
RULE_SHAPED = re.compile(r"[A-Z][A-Z0-9]*(-[A-Z0-9]+)+")
RULEBOOK_TAGS = re.compile(r"00\d-[A-Z0-9]+|TDA-\d{4}")  # "001-RR11": a rulebook, not a rule


def bare_rule_ids(root: Path) -> list[str]:
    """`file:line: id` for every string literal in the engine shaped like a rule id."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name in SOURCES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and RULE_SHAPED.fullmatch(node.value)
                and not RULEBOOK_TAGS.fullmatch(node.value)
            ):
                found.append(f"{path.relative_to(root.parent.parent)}:{node.lineno}: {node.value}")
    return found


def test_every_rule_constant_is_a_catalog_rule_or_a_station_fault() -> None:
    unknown = [r.value for r in Rule if r.value not in RULES and r.value not in STATION_RULES]
    assert not unknown, f"not in the catalog (rulebook_data) nor a station fault: {unknown}"


def test_every_constant_is_named_after_its_id() -> None:
    for r in Rule:
        assert r.name == r.value.replace("-", "_"), r


def test_every_station_fault_has_a_constant() -> None:
    assert sorted(set(STATION_RULES) - {r.value for r in Rule}) == []


def test_no_engine_module_names_a_rule_by_a_bare_string() -> None:
    found = bare_rule_ids(ENGINE)
    assert not found, "use station.engine.rule_ids.Rule:\n" + "\n".join(found)


def test_a_bare_rule_id_is_caught(tmp_path: Path) -> None:
    engine = tmp_path / "station" / "engine"
    engine.mkdir(parents=True)
    (engine / "bad.py").write_text(
        'def f(hand):\n    hand.incident(1, "PREMATURE-FLOP", "stop", "STOP")\nCITE = "001-RR11"\n',
        encoding="utf-8",
    )
    assert bare_rule_ids(engine) == ["station/engine/bad.py:2: PREMATURE-FLOP"]
