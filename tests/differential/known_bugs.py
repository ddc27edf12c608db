"""Engine disagreements already found, diagnosed and filed: NOT allowed differences.

Each entry is a disagreement with PokerKit where the rulebook (or the engine's own stated rule)
sides with PokerKit, i.e. an engine bug. It has a minimal session under cases/ whose first '#'
line states the expected value and the reason, and a strict-xfail test in test_cases.py that
starts failing (XPASS) the day the engine is fixed, so the entry is then removed from here and
the differential test checks the point again.

The driver counts every hit as a disagreement (it is one) but steers the hand past it (no raise at
that point), so that the rest of the hand is still compared and other bugs are not hidden behind a
known one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.differential.allowlist import Context


@dataclass(frozen=True, slots=True)
class KnownBug:
    case: str  # tests/differential/cases/<case>.jsonl
    rule: str
    diagnosis: str
    applies: Callable[[Context], bool]


# Open engine bugs. The three found by the first 10,000-hand run (min-raise-lowered-to-opponent-
# stack, limit-reopened-player-completes-short-allin, raise-with-every-opponent-covered) are
# fixed; their case files under cases/ stay as regression tests.
KNOWN_BUGS: tuple[KnownBug, ...] = ()


def match(c: Context) -> KnownBug | None:
    for bug in KNOWN_BUGS:
        if bug.applies(c):
            return bug
    return None
