"""The compiled engine (station.native, built by `python -m station.native_build build`) and the
pure Python one are the same program: each replays the whole corpus byte-identically, and the
compiled one runs only when it was built from exactly the source on disk.

The suite runs with whichever engine `import station` chose (`./dev test` builds the compiled
one when a C compiler is there); this test replays the corpus with the other one as well.
Under CI=true a missing or stale build is a failure (CI must exercise both), unless the build
was tried on this source and failed (station/_native/FAILED): a failed build falls back to the
pure engine and does not fail CI, and the skip says why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from station import native

ROOT = Path(__file__).resolve().parent.parent


def _build_state() -> str:
    built = native.built_digest()
    if built is None:
        return "none"
    return "current" if built == native.source_digest() else "stale"


def _failed_here() -> str | None:
    """Why the build of exactly this source failed, if it was tried and did."""
    failure = native.failed_build()
    return failure[1] if failure is not None and failure[0] == native.source_digest() else None


def _ci_wants_the_build() -> bool:
    forced_pure = os.environ.get(native.ENV, "").lower() == "pure"
    return os.environ.get("CI") == "true" and not forced_pure and _failed_here() is None


def test_the_compiled_engine_runs_exactly_when_its_build_is_current() -> None:
    state = _build_state()
    forced_pure = os.environ.get(native.ENV, "").lower() == "pure"
    if _ci_wants_the_build():
        assert state == "current", "CI builds the compiled engine (./dev test)"
    want = "native" if state == "current" and not forced_pure else "pure"
    assert native.engine_kind() == want
    table = sys.modules.get("station.engine.table")
    if table is not None and want == "native":
        assert Path(str(table.__file__)).is_relative_to(native.NATIVE)


def test_the_source_digest_follows_every_engine_file() -> None:
    digest = native.source_digest()
    assert digest == native.source_digest()
    files = {p.relative_to(native.PACKAGE) for p in native.sources()}
    assert Path("engine/table.py") in files and Path("engine/evaluate/high.py") in files
    assert Path("engine/__init__.py") not in files  # package files stay Python


def test_the_other_engine_replays_the_corpus_byte_identically() -> None:
    if _build_state() != "current":
        if _ci_wants_the_build():
            pytest.fail("no current build of the compiled engine to compare with the pure one")
        why = _failed_here() or "not built (python -m station.native_build build)"
        pytest.skip(f"the compiled engine: {why}")
    other = "pure" if native.engine_kind() == "native" else "native"
    env = {**os.environ, native.ENV: other}
    code = (
        "import sys\n"
        "from station import native\n"
        f"assert native.engine_kind() == {other!r}, native.engine_kind()\n"
        "from tests.corpus import corpus\n"
        "sys.exit(corpus.main(['check']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_engine_in_use_is_said_with_its_reason() -> None:
    """`station diag` (through the daemon) and the start rows say which engine runs and why; a
    station that falls back to the pure engine says so in words."""
    code = "from station.native import engine_reason; print(engine_reason())"
    forced = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, STATION_ENGINE="pure"),
        check=True,
    )  # fmt: skip
    assert forced.stdout.strip() == "pure (STATION_ENGINE=pure)"
    here = native.engine_reason()
    if native.engine_kind() == "native":
        assert here == "native (compiled with mypyc from this source)"
    elif _failed_here() is not None:
        assert here.startswith("pure (the compiled engine could not be built here: ")
    else:
        assert here.startswith("pure (")
