"""`python -m station.native_build status|current|build|ensure|clean`: compile the rules engine
with mypyc (`ensure`: only when the build is not current), or say which engine runs
(`current`: exit 0 when the build matches the source). Edge adapter (the C compiler, files).
See `station.native`.

The build fits a small machine (a 2 GB Raspberry Pi 4): each engine module is its own C file
(mypyc's `multi_file`), compiled one after the other, without debug information, so the
compiler holds one module at a time instead of the whole engine in one translation unit (which
took about 780 MB at -O3). `--opt N` (or `$STATION_NATIVE_OPT`) sets the C optimisation level
(default 2); `--measure` prints the build's peak memory (the whole process tree, sampled) and
its time as one JSON line.

A failed build leaves the pure engine in use and writes `station/_native/FAILED` (the source
digest it failed on and why): the test that compares both engines says why there is only one."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from station.native import (
    ALSO,
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

DEFAULT_OPT = "2"
OPT_ENV = "STATION_NATIVE_OPT"


def build(*, quiet: bool = True, opt_level: str = DEFAULT_OPT, multi_file: bool = True) -> Path:
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
        for path in [*sorted(ENGINE.rglob("*.py")), *ALSO]:
            dest = src / path.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        for path in ALSO:  # their packages, empty like station/__init__.py
            package = src / path.parent.relative_to(root) / "__init__.py"
            package.write_text("", encoding="utf-8")
        (src / "station" / "__init__.py").write_text("", encoding="utf-8")
        paths = [str(p.relative_to(root)) for p in sources()]
        cwd = Path.cwd()
        os.chdir(src)  # mypyc names the modules after their paths: station/engine/x.py
        try:
            modules = mypycify(
                paths,
                group_name=GROUP,
                target_dir=str(work / "c"),
                opt_level=opt_level,
                debug_level="0",
                multi_file=multi_file,
                verbose=False,
            )
            # mypyc writes the group's headers under the group's folder (station/engine/) but,
            # with one C file per module, the modules' files beside it: let them find them.
            for module in modules:
                module.include_dirs.append(str(work / "c" / Path(*GROUP.split(".")[:-1])))
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


def _option(args: list[str], name: str) -> str | None:
    if name in args:
        at = args.index(name)
        return args[at + 1] if at + 1 < len(args) else ""
    return None


class PeakMemory:
    """Samples the resident memory of this process and all its descendants (the C compiler)
    every 50 ms from /proc: the peak of their sum is what the machine must hold."""

    def __init__(self, every_s: float = 0.05) -> None:
        self.started = time.monotonic()
        self.peak_kb = 0
        self.peak_one_kb = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every_s,), daemon=True)
        self._thread.start()

    def _run(self, every_s: float) -> None:
        me = os.getpid()
        while not self._done.wait(every_s):
            sizes = [_rss_kb(pid) for pid in _tree(me)]
            self.peak_kb = max(self.peak_kb, sum(sizes))
            self.peak_one_kb = max([self.peak_one_kb, *sizes])

    def stop(self, opt: str, multi_file: bool) -> str:
        self._done.set()
        self._thread.join()
        return json.dumps(
            {
                "bench": "native_build",
                "machine": os.uname().machine,
                "opt_level": opt,
                "multi_file": multi_file,
                "peak_tree_rss_mb": round(self.peak_kb / 1024, 1),
                "peak_process_rss_mb": round(self.peak_one_kb / 1024, 1),
                "seconds": round(time.monotonic() - self.started, 1),
            }
        )


def _tree(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
    found, todo = [root], [root]
    while todo:
        parent = todo.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        todo += children
    return found


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


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
        opt = _option(args, "--opt") or os.environ.get(OPT_ENV) or DEFAULT_OPT
        if opt not in ("0", "1", "2", "3"):
            print(f"station.native_build: --opt {opt}: 0, 1, 2 or 3", file=sys.stderr)
            return 2
        sampler = PeakMemory() if "--measure" in args else None
        try:
            build(quiet="--verbose" not in args, opt_level=opt, multi_file="--one-file" not in args)
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
        finally:
            if sampler is not None:
                print(sampler.stop(opt, "--one-file" not in args))
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
    usage = (
        "usage: python -m station.native_build [status|current|build|ensure|clean] "
        "[--opt N] [--one-file] [--measure] [--verbose]"
    )
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
