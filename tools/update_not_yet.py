#!/usr/bin/env python3
"""Rewrite NOT_YET in tests/test_rule_coverage.py from the scenarios that exist now.

A rule is covered when at least one scenario naming it is not pending. Run it after adding or
fixing scenarios:  .venv/bin/python tools/update_not_yet.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from station.engine.rulebook_data import RULES  # noqa: E402
from tests.scenario_kit import all_scenarios  # noqa: E402

TEST = ROOT / "tests" / "test_rule_coverage.py"


def main() -> int:
    covered = {r for sc in all_scenarios() if not sc.pending for r in sc.rules}
    text = TEST.read_text(encoding="utf-8")
    scope = set(re.findall(r'^\s+"([A-Z0-9-]+)": "', text.split("NOT_YET")[0], re.M))
    missing = sorted(
        r
        for r, v in RULES.items()
        if v[2] in ("OBS", "OBS+D") and r not in covered and r not in scope
    )
    lines, line = [], "    "
    for rule in missing:
        item = f'"{rule}", '
        if len(line) + len(item) > 99:
            lines.append(line.rstrip())
            line = "    "
        line += item
    lines.append(line.rstrip())
    block = "NOT_YET = {\n" + "\n".join(x for x in lines if x.strip()) + "\n}"
    text = re.sub(r"NOT_YET = \{.*?\n\}", block, text, flags=re.S)
    TEST.write_text(text, encoding="utf-8")
    print(f"{len(missing)} observable rules still without a passing scenario", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
