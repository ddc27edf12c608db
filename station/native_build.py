"""`python -m station.native_build status|current|build|ensure|clean`: compile the rules engine
with mypyc (`ensure`: only when the build is not current), or say which engine runs
(`current`: exit 0 when the build matches the source). Edge adapter (the C compiler, files).
See `station.native`.

A failed build leaves the pure engine in use and writes `station/_native/FAILED` (the source
digest it failed on and why): the test that compares both engines says why there is only one."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from station.native import (
    DIGEST,
    ENGINE,
    FAILED,
    GROUP,
    NATIVE,
    PACKAGE,
    built_digest,
    engine_kind,
    extension_modules,
    failed_build,
    source_digest,
    sources,
)


def build(*, quiet: bool = True) -> Path:
    """Compile the engine with mypyc into NATIVE (replacing any earlier build)."""
    from mypyc.build import mypycify  # noqa: PLC0415 - build-time only (the `mypy` package)
    from setuptools import Distribution  # type: ignore[import-untyped]  # noqa: PLC0415

    digest = source_digest()
    root = PACKAGE.parent
    with tempfile.TemporaryDirectory(prefix="station-native-") as tmp:
        work = Path(tmp)
        out = work / "lib"
        # mypyc compiles a copy of the engine alone (station/__init__.py left empty): run in an
        # installed package's site-packages, mypy would take every library there for our own.
        src = work / "src"
        for path in sorted(ENGINE.rglob("*.py")):
            dest = src / path.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        (src / "station" / "__init__.py").write_text("", encoding="utf-8")
        paths = [str(p.relative_to(root)) for p in sources()]
        cwd = Path.cwd()
        os.chdir(src)  # mypyc names the modules after their paths: station/engine/x.py
        try:
            modules = mypycify(
                paths, group_name=GROUP, target_dir=str(work / "c"), opt_level="3", verbose=False
            )
            dist = Distribution({"name": "station-native", "ext_modules": modules})
            dist.script_args = [
                "build_ext",
                "--build-lib",
                str(out),
                "--build-temp",
                str(work / "temp"),
                *(["--quiet"] if quiet else []),
            ]
            dist.parse_command_line()
            dist.run_commands()
        finally:
            os.chdir(cwd)
        staged = work / "native"
        for name, path in extension_modules(out).items():
            dest = staged.joinpath(*name.split(".")[:-1], path.name)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        (staged / DIGEST).write_text(digest + "\n", encoding="ascii")
        shutil.rmtree(NATIVE, ignore_errors=True)
        shutil.copytree(staged, NATIVE)
    return NATIVE


def _failed(digest: str, why: str) -> None:
    try:
        NATIVE.mkdir(parents=True, exist_ok=True)
        (NATIVE / FAILED).write_text(f"{digest}\n{why}\n", encoding="utf-8")
    except OSError:
        pass  # a read-only install: nothing to remember it in


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "status"
    digest = source_digest()
    if command == "current":
        return 0 if built_digest() == digest else 1
    if command == "ensure" and built_digest() == digest:
        return 0  # the build is current
    if command in ("build", "ensure"):
        try:
            build(quiet="--verbose" not in args)
        except ImportError as exc:
            why = f"cannot build ({exc})"
            _failed(digest, why)
            print(f"station.native_build: {why}: the engine runs as Python", file=sys.stderr)
            return 2
        except BaseException as exc:  # a compiler error (setuptools exits): the pure engine stays
            if isinstance(exc, KeyboardInterrupt):
                raise
            _failed(digest, f"build failed: {type(exc).__name__}: {exc}")
            print(f"station.native_build: build failed: {exc}", file=sys.stderr)
            return 1
        print(f"station.native_build: built {NATIVE}")
        return 0
    if command == "status":
        want, have = built_digest(), source_digest()
        state = "none" if want is None else ("current" if want == have else "stale")
        failure = failed_build()
        if failure is not None and failure[0] == have:
            state += f"; this source failed to build: {failure[1]}"
        print(f"engine: {engine_kind()}; build: {state} ({NATIVE})")
        return 0
    if command == "clean":
        shutil.rmtree(NATIVE, ignore_errors=True)
        return 0
    usage = "usage: python -m station.native_build [status|current|build|ensure|clean]"
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
