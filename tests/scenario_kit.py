"""Reading rule scenarios: a recorded session with `# rule/cite/expect` header lines."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from station.formats.decisions import decision_to_dict
from station.formats.replay import replay_lines
from station.formats.session import read_session

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


@dataclass
class Scenario:
    path: Path
    rules: list[str] = field(default_factory=list)
    profile: str = ""
    cites: list[str] = field(default_factory=list)
    expect: list[dict[str, Any]] = field(default_factory=list)
    expect_not: list[dict[str, Any]] = field(default_factory=list)
    pending: bool = False

    @property
    def name(self) -> str:
        return str(self.path.relative_to(SCENARIOS))


def load(path: Path) -> Scenario:
    sc = Scenario(path)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            continue
        body = line[1:].strip()
        tag, _, value = body.partition(":")
        value = value.strip()
        match tag.strip():
            case "rule":
                sc.rules += [r.strip() for r in value.split(",") if r.strip()]
            case "profile":
                sc.profile = value
            case "cite":
                sc.cites.append(value)
            case "expect":
                sc.expect.append(json.loads(value))
            case "expect-not":
                sc.expect_not.append(json.loads(value))
            case "status":
                sc.pending = value == "pending"
            case _:
                pass
    return sc


def all_scenarios() -> list[Scenario]:
    return [load(p) for p in sorted(SCENARIOS.rglob("*.jsonl"))]


def outputs(sc: Scenario) -> list[dict[str, Any]]:
    session = read_session(sc.path)
    return [decision_to_dict(d) for d in replay_lines(session.lines)]


def matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    return all(k in actual and actual[k] == v for k, v in expected.items())


def check(sc: Scenario) -> list[str]:
    """Problems with the scenario's expectations against the engine (empty when it passes)."""
    problems: list[str] = []
    out = outputs(sc)
    i = 0
    for exp in sc.expect:
        while i < len(out) and not matches(exp, out[i]):
            i += 1
        if i == len(out):
            problems.append(f"expected, in order, but not found: {json.dumps(exp)}")
            break
        i += 1
    for exp in sc.expect_not:
        hit = next((o for o in out if matches(exp, o)), None)
        if hit is not None:
            problems.append(f"must not appear: {json.dumps(exp)}; found {json.dumps(hit)}")
    return problems
