"""Fixtures shared across the suites, and how the suite runs in parallel.

One run of the whole demo (six hands, every injected irregularity, a PNG frame of every screen
and everything the screens were given), kept for the tests that read its journal, frames or
recording (hand rows, PHH export, diagnostics, the floor commands, the frames and screenshots).
Tests copy what they change.

`./dev test` runs the suite in parallel processes (pytest-xdist, `--dist loadgroup`). A test
that uses a fixture shared by several tests (the demo run, the console's running fleet and
browser, a module's own fixture) is put in that fixture's group, so that the fixture is made
once, on one worker, and its tests run there in their file order. Groups and tests marked
`slow` are handed out first. Tests marked `full` (the benches at full size) run only with
`--full` (`./dev test --full`, run before a release; `.ci/run` runs `./dev test`).
"""

from __future__ import annotations

import io
import logging
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from subprocess import CompletedProcess
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from station.demo.shots import Recording

ROOT = Path(__file__).resolve().parent.parent

# Session fixtures whose tests must share one worker: the fixture is costly, or the tests use
# it in turn (the console's tests build on what the earlier ones did to the fleet).
SHARED = {
    "demo_run": "demo",
    "demo_table": "demo",
    "fleet": "console",
    "browser": "console",
    "scenario_journals": "scenario_journals",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="also run the tests marked full (the benches at full size)",
    )


def _group(item: pytest.Item) -> str | None:
    """The xdist group of `item`: that of a shared session fixture it uses, else its module's
    when it uses a module- or class-scoped fixture of ours."""
    names = list(getattr(item, "fixturenames", ()))
    for name in names:
        if name in SHARED:
            return SHARED[name]
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    for name in names:
        found = defs.get(name)
        ours = found and found[-1].baseid.startswith("tests")  # not a plugin's
        if ours and found[-1].scope in ("module", "class", "package"):
            return f"module:{item.nodeid.split('::')[0]}"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--full"):
        full = [item for item in items if item.get_closest_marker("full")]
        if full:
            config.hook.pytest_deselected(items=full)
            items[:] = [item for item in items if not item.get_closest_marker("full")]
    groups: dict[str, list[pytest.Item]] = {}
    slow: list[pytest.Item] = []
    rest: list[pytest.Item] = []
    for item in items:
        marked = item.get_closest_marker("xdist_group")
        group = (marked.args[0] if marked and marked.args else None) or _group(item)
        if group is not None:
            if marked is None:
                item.add_marker(pytest.mark.xdist_group(group))
            groups.setdefault(group, []).append(item)
        elif item.get_closest_marker("slow"):
            slow.append(item)
        else:
            rest.append(item)
    # The longest first (largest groups, then slow tests), so that no worker is left with a long
    # one at the end; within a group the file order stays (sorted() is stable).
    ordered = [i for g in sorted(groups.values(), key=len, reverse=True) for i in g]
    items[:] = [*ordered, *slow, *rest]
    if getattr(config.option, "loadgroup", False):  # an xdist worker of `--dist loadgroup`
        for group, members in groups.items():
            for item in members:
                _name_group(item, group)


def _name_group(item: pytest.Item, group: str) -> None:
    """Give `item` the node id `ID@GROUP` by which xdist's scheduler keeps a group on one worker.
    xdist 3.8 does it through `_nodeid`, an attribute pytest 9.2 no longer reads (its node ids
    are `_id`, a NodeId): without this, every group is spread over the workers."""
    nodeid = f"{item.nodeid}@{group}"
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(nodeid)
    else:
        item._nodeid = nodeid


@dataclass(frozen=True)
class DemoRun:
    """A finished `station demo --headless --out FRAMES` run: `folder` holds journal.sqlite,
    station.toml, decks.toml, session.jsonl and demo.log (what the demo printed); `out` the PNG
    frames and frames.jsonl; `recording` everything the core gave the screens."""

    folder: Path
    out: Path
    recording: Recording
    log: str


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """The demo's six hands, played once for the session (in this process: the demo as a
    process is tests/daemon/test_demo.py's)."""
    from station.demo import shots
    from station.demo.run import DemoOptions, run_demo

    base = tmp_path_factory.mktemp("demo")
    folder, out = base / "table", base / "frames"
    recording = shots.Recording()
    log = io.StringIO()
    status = run_demo(DemoOptions(6, folder, headless=True, out=out), log, watch=recording)
    assert status == 0, log.getvalue()
    (folder / "demo.log").write_text(log.getvalue(), encoding="utf-8")
    return DemoRun(folder, out, recording, log.getvalue())


@pytest.fixture(scope="session")
def demo_table(demo_run: DemoRun) -> Path:
    """The folder of the finished demo: journal.sqlite, station.toml, decks.toml,
    session.jsonl, demo.log."""
    return demo_run.folder


def demo_pins(folder: Path) -> dict[str, str]:
    """The demo's people and their PINs, as the demo printed them."""
    log = (folder / "demo.log").read_text(encoding="utf-8")
    found = re.search(
        r"demo credentials .*?: (\w+) \(admin\) PIN (\d+), (\w+) \(floor\) PIN (\d+)", log
    )
    assert found is not None, "the demo prints its credentials"
    return {found.group(1): found.group(2), found.group(3): found.group(4)}


StationRun = Callable[..., CompletedProcess[str]]


@pytest.fixture
def station_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> StationRun:
    """`station ARGS...` run in this process (`station.cli.main`), for the tests whose subject
    is what a command does rather than the process (each command family keeps a test of its
    own that starts `station` for real). `run(*args, stdin="", cwd=None)` gives the exit status,
    stdout and stderr as `subprocess.run` would; argparse's exit is its status too."""
    from station.cli import main

    def run(*args: str, stdin: str = "", cwd: Path | None = None) -> CompletedProcess[str]:
        capsys.readouterr()
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        with monkeypatch.context() as m:
            m.setattr(sys, "stdin", io.StringIO(stdin))
            if cwd is not None:
                m.chdir(cwd)
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            finally:  # a command's log handler writes to this test's captured stderr: not after
                for added in [h for h in root.handlers if h not in handlers]:
                    root.removeHandler(added)
                root.setLevel(level)
        out = capsys.readouterr()
        return CompletedProcess(["station", *args], code, out.out, out.err)

    return run
