"""The fuzz campaign's budget: bounded in CI (the whole of tests/fuzz runs in well under 30 s on
the development machine), longer on demand: `FUZZ_SCALE=20 pytest tests/fuzz` tries twenty
times as many examples of each property."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


def budget(examples: int) -> settings:
    """Hypothesis settings for `examples` examples (times FUZZ_SCALE), with no per-example
    deadline: a loaded CI machine must not turn a slow example into a failure (the tests carry
    pytest-timeout marks against hangs instead)."""
    return settings(
        max_examples=max(1, round(examples * SCALE)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# The suite's workers share the machine's cores (`./dev test` runs several: tests/conftest.py),
# and a busy machine's other work shares them too: a guard bounds a hang, it is no speed bar.
SHARED_CORES = 4


def hang_guard(seconds: float) -> pytest.MarkDecorator:
    """A pytest-timeout mark for a property that must finish (scaled with FUZZ_SCALE): a hang
    in the code under test fails the test instead of stalling the suite. `seconds` is what it
    may take alone on the development machine; the mark allows SHARED_CORES times that."""
    return pytest.mark.timeout(seconds * max(1.0, SCALE) * SHARED_CORES)
