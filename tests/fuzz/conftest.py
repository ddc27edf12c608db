"""The fuzz campaigns allocate enough to run the garbage collector, which then finalises what an
earlier test on the same worker left open (a socket, a database session) and reports it as an
unraisable ResourceWarning inside the campaign: a warning that belongs to that earlier test, not
to the fuzzing. Here only, such reports do not fail the campaign; everywhere else they do
(`filterwarnings = ["error"]`)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.parent.name == "fuzz":
            item.add_marker(
                pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
            )
