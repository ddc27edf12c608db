"""Which rules engine runs: the one compiled with mypyc, when a build of exactly this source is
present, or the pure Python one. Edge adapter (files, the import system).

The engine (`station/engine`, pure and fully typed) runs as it is written. `python -m
station.native_build build` compiles it with mypyc (a C compiler and the `mypy` package are needed:
`./dev setup` builds it where they are; `systemd/install.sh` builds it on the Pi) into
`station/_native/`, beside a digest of the sources it was built from. At `import station`,
`activate()` puts the compiled modules in front of the pure ones only when that digest matches
the source now on disk (and this interpreter), so an engine edited since the build runs as
Python until it is built again, never as stale C. `STATION_ENGINE=pure` keeps the pure engine.

Both are the same program: the replay corpus (tests/corpus) is replayed by each and must be
byte-identical (tests/test_native.py). The compiled engine replays hands about twice as fast.

The build also compiles `ALSO`, the chain walk's inner loop (`station.journal.chainfast`), under
the same digest and the same switch: it runs compiled exactly when the engine does, and its two
forms are held to the same verdicts (tests/journal/test_chainwalk.py).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

PACKAGE = Path(__file__).resolve().parent  # station/
ENGINE = PACKAGE / "engine"
# Compiled with the engine: modules outside it whose loops are hot and that import only the
# standard library (the chain walk's inner loop, `station bench history`).
ALSO: Final = (PACKAGE / "journal" / "chainfast.py",)
NATIVE = PACKAGE / "_native"  # the build: station/engine/**.so and DIGEST
DIGEST = "DIGEST"
FAILED = "FAILED"  # the source digest a build failed on, and why (station.native_build)
GROUP = "station.engine._native"  # mypyc's shared library: station.engine._native__mypyc
ENV = "STATION_ENGINE"  # "pure": never the compiled engine

_active = False


def sources() -> list[Path]:
    """The modules that are compiled: the engine's (package __init__ files stay Python), and
    `ALSO`."""
    return sorted(p for p in ENGINE.rglob("*.py") if p.name != "__init__.py") + list(ALSO)


def source_digest() -> str:
    """What a build must have been made from: every engine source file, the interpreter."""
    h = hashlib.sha256(f"{sys.version}|{os.uname().machine}\0".encode())
    for path in [*sorted(ENGINE.rglob("*.py")), *ALSO]:
        h.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def built_digest() -> str | None:
    try:
        return (NATIVE / DIGEST).read_text(encoding="ascii").strip()
    except OSError:
        return None


def failed_build() -> tuple[str, str] | None:
    """(source digest, why) of the last build that failed, if one did since the last success."""
    try:
        digest, _, why = (NATIVE / FAILED).read_text(encoding="utf-8").partition("\n")
    except OSError:
        return None
    return digest.strip(), why.strip()


def engine_kind() -> str:
    """ "native" when the compiled engine is the one running, else "pure"."""
    return "native" if _active else "pure"


def engine_reason() -> str:
    """Which engine runs and why, in words (`station diag`, the boot row)."""
    if _active:
        return "native (compiled with mypyc from this source)"
    if os.environ.get(ENV, "").lower() == "pure":
        return f"pure ({ENV}=pure)"
    want = built_digest()
    try:
        have = source_digest()
    except OSError:
        have = ""
    failure = failed_build()
    if failure is not None and failure[0] == have:
        return f"pure (the compiled engine could not be built here: {failure[1]})"
    if want is None:
        return "pure (the compiled engine was not built: python -m station.native_build build)"
    if want != have:
        return "pure (the compiled engine was built from another source or Python: rebuild it)"
    return "pure (the compiled engine was not loaded)"


class _Finder:
    """Finds the compiled engine modules (and mypyc's shared library) in the build: a meta path
    finder (importlib.abc is not imported for it: it costs every `station` command 10 ms)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        found = self.files.get(fullname)
        if found is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(found))
        return importlib.util.spec_from_file_location(fullname, found, loader=loader)


def extension_modules(root: Path) -> dict[str, Path]:
    """Module name -> extension file, for every compiled module under `root`."""
    files: dict[str, Path] = {}
    for path in sorted(root.rglob("*.so")) + sorted(root.rglob("*.pyd")):
        suffix = next(
            (s for s in importlib.machinery.EXTENSION_SUFFIXES if path.name.endswith(s)), ""
        )
        if not suffix:
            continue
        rel = path.relative_to(root)
        files.setdefault(".".join((*rel.parent.parts, path.name[: -len(suffix)])), path)
    return files


def _module(path: Path) -> str:
    return ".".join(("station", *path.relative_to(PACKAGE).with_suffix("").parts))


def activate() -> bool:
    """Put the compiled engine in front, if it was built from exactly this source. Must run
    before any engine module is imported (station/__init__.py calls it)."""
    global _active
    if _active:
        return True
    if os.environ.get(ENV, "").lower() == "pure":
        return False
    want = built_digest()
    compiled = {_module(p) for p in ALSO}
    if want is None or any(m.startswith("station.engine.") or m in compiled for m in sys.modules):
        return False
    try:
        if want != source_digest():
            return False  # the engine changed since the build: run it as Python
    except OSError:
        return False
    files = extension_modules(NATIVE)
    if not any(name.startswith("station.engine.") for name in files):
        return False
    sys.meta_path.insert(0, _Finder(files))
    _active = True
    return True
