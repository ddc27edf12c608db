"""The import layering: the tree shows the architecture, and this test keeps it honest.

`ROOMS` names every room (each top-level package or module under `station/`, and
`firmware_bridge`, `hardware`) and the rooms it may import; a room missing from the table, or an
import of a room it does not name, fails. Beside the table:

- `station.engine` (the rules engine) is pure: it imports only an allow-list of standard-library
  modules with no I/O, and nothing from the rest of `station`.
- `station.journal` is the log only: it imports none of the rooms built on it (people,
  incidents, recall, the commands); they pass in what it must check of their tables.
- The fleet's client library stays optional: `paho` is imported by
  `station.fleet.paho_transport` only (which is imported lazily, when a `[fleet]` is
  configured); `psycopg` and `station.central` (the central services) by `station.central`,
  the benches, the `station central` command (`station.cli.central`, `.central_console`: only
  inside functions, so the parser loads without them) and the tests only, so a station never
  needs them. The floor console's web libraries (Starlette, uvicorn, Jinja2, the psycopg pool,
  python-multipart) likewise.

The checker reads source with `ast`, so it sees every import (also inside functions) without
running any code.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Standard-library modules the pure core may use: none of them touches a clock, port, file or RNG.
ENGINE_ALLOWED = {
    "__future__",
    "abc",
    "bisect",
    "collections",
    "dataclasses",
    "enum",
    "fractions",
    "functools",
    "hashlib",
    "heapq",
    "itertools",
    "math",
    "operator",
    "re",
    "types",
    "typing",
}


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    module: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: imports {self.module}: {self.reason}"


def _module_name(root: Path, path: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# Room -> the rooms it may import (besides itself). A room is a top-level package or module of
# `station` ("station" is its root package: the version and the engine selector) or one of the
# two packages beside it.
ROOMS: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "engine": (),  # and ENGINE_ALLOWED of the standard library
        "version": (),
        "output": (),
        "native": (),
        "native_build": ("native",),
        "station": ("native", "version"),
        "__main__": ("cli",),
        "firmware_bridge": (),
        "hardware": ("firmware_bridge",),
        "data": (),
        "formats": ("engine",),
        "journal": ("engine", "formats", "native", "output", "version"),
        "people": ("journal",),
        "incidents": ("formats", "journal", "people"),
        "recall": ("engine", "formats", "journal"),
        "phh": ("engine", "formats", "recall"),
        "display": ("engine", "hardware", "output"),
        "config": ("display", "engine", "formats", "hardware"),
        "fleet": ("config", "journal"),
        "diag": ("display", "firmware_bridge", "fleet", "journal", "people"),
        "daemon": (
            "station", "config", "diag", "display", "engine", "firmware_bridge", "fleet",
            "formats", "hardware", "incidents", "journal", "native", "output", "people",
            "recall",
        ),
        "demo": (
            "config", "daemon", "data", "display", "engine", "formats", "hardware", "journal",
            "output", "people", "phh",
        ),
        "central": (
            "config", "daemon", "engine", "fleet", "incidents", "journal", "output", "phh",
            "recall",
        ),
        "bench": (
            "central", "config", "daemon", "data", "demo", "display", "engine",
            "firmware_bridge", "fleet", "formats", "hardware", "incidents", "journal", "native",
            "output", "people", "phh", "recall",
        ),
        "cli": (
            "station", "bench", "central", "config", "daemon", "demo", "diag", "formats",
            "hardware", "incidents", "journal", "output", "people", "phh", "recall",
        ),
    }.items()
}  # fmt: skip

# Modules that may import the central side (psycopg, the web libraries, station.central); the
# `station central` command's modules only inside functions (LAZY_CENTRAL_USERS).
CENTRAL_USERS = ("station.central", "station.bench")
LAZY_CENTRAL_USERS = frozenset({"station.cli.central", "station.cli.central_console"})
CENTRAL_LIBRARIES = frozenset(
    {"psycopg", "psycopg_pool", "starlette", "uvicorn", "jinja2", "multipart", "python_multipart"}
)
TOPS = ("station", "firmware_bridge", "hardware")


def _room(name: str) -> str:
    parts = name.split(".")
    if parts[0] != "station":
        return parts[0]
    return parts[1] if len(parts) > 1 else "station"


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, module imported) for every import of the file."""
    return [(line, name) for line, name, _ in _imports_where(path, module)]


def _imports_where(path: Path, module: str) -> list[tuple[int, str, bool]]:
    """(line, module imported, lazily: inside a function or for type checking only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, lazy) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                keep = len(base) - node.level + (1 if is_package else 0)
                prefix = ".".join(base[:keep])
                name = f"{prefix}.{node.module}" if node.module else prefix
            else:
                name = node.module or ""
            found.append((node.lineno, name, lazy))
        inner = (
            lazy
            or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
        )
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, False)
    return found


def layering_violations(root: Path) -> list[Violation]:
    out: list[Violation] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] not in TOPS:
            continue
        module = _module_name(root, path)
        room = _room(module)
        if room not in ROOMS:
            out.append(Violation(str(rel), 1, module, f"room {room} is not in the layering table"))
            continue
        for line, name, lazy in _imports_where(path, module):
            top = name.split(".")[0]
            if top in TOPS:
                other = _room(name)
                if other not in ROOMS:
                    out.append(Violation(str(rel), line, name, f"no room {other} in the table"))
                elif other != room and other not in ROOMS[room]:
                    out.append(Violation(str(rel), line, name, f"{room} may not import {other}"))
            elif room == "engine" and top not in ENGINE_ALLOWED:
                out.append(
                    Violation(str(rel), line, name, "the rules engine must stay free of I/O")
                )
            if top == "paho" and module != "station.fleet.paho_transport":
                out.append(Violation(str(rel), line, name, "paho only in the fleet's transport"))
            central = top in CENTRAL_LIBRARIES or name.startswith("station.central")
            if central and not module.startswith(CENTRAL_USERS):
                if module not in LAZY_CENTRAL_USERS:
                    out.append(Violation(str(rel), line, name, "central-only: never on a station"))
                elif not lazy:
                    out.append(Violation(str(rel), line, name, "central-only: import it lazily"))
    return out


def test_the_tree_respects_the_layers() -> None:
    violations = layering_violations(ROOT)
    assert not violations, "\n".join(map(str, violations))


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import sqlite3\n", "sqlite3"),
        ("import serial\n", "serial"),
        ("import pygame\n", "pygame"),
        ("import time\n", "time"),
        ("from time import monotonic\n", "time"),
        ("def f():\n    import time as clock\n    return clock\n", "time"),
        ("from serial.tools import list_ports\n", "serial.tools"),
    ],
)
def test_a_rules_module_importing_io_is_caught(tmp_path: Path, source: str, module: str) -> None:
    _write(tmp_path, "station/__init__.py", "")
    _write(tmp_path, "station/engine/__init__.py", "")
    _write(tmp_path, "station/engine/bad.py", source)
    violations = layering_violations(tmp_path)
    assert [(v.path, v.module) for v in violations] == [("station/engine/bad.py", module)]


def test_the_engine_reaching_into_the_app_is_caught(tmp_path: Path) -> None:
    _write(tmp_path, "station/engine/__init__.py", "")
    _write(tmp_path, "station/engine/bad.py", "from ..journal import store\n")
    violations = layering_violations(tmp_path)
    assert [v.module for v in violations] == ["station.journal"]


def test_the_journal_reaching_into_the_app_is_caught(tmp_path: Path) -> None:
    _write(tmp_path, "station/journal/recorder.py", "from station import __version__\n")
    _write(tmp_path, "station/journal/crashtest.py", "from station.bench.report import Bar\n")
    _write(tmp_path, "station/journal/replay.py", "from station.runner import TableRunner\n")
    _write(
        tmp_path,
        "station/journal/ok.py",
        "from station.version import VERSION\nfrom station.formats.payload import x\n"
        "from station.engine.table import Table\nfrom station.journal import rows\n",
    )
    violations = layering_violations(tmp_path)
    assert sorted((v.path, v.module) for v in violations) == [
        ("station/journal/crashtest.py", "station.bench.report"),
        ("station/journal/recorder.py", "station"),
        ("station/journal/replay.py", "station.runner"),
    ]


def test_hardware_importing_station_is_caught(tmp_path: Path) -> None:
    _write(tmp_path, "hardware/__init__.py", "")
    _write(tmp_path, "hardware/gpio.py", "from station.engine.cards import Card\n")
    _write(tmp_path, "firmware_bridge/__init__.py", "")
    _write(tmp_path, "firmware_bridge/codec.py", "import station\n")
    violations = layering_violations(tmp_path)
    assert sorted(v.path for v in violations) == ["firmware_bridge/codec.py", "hardware/gpio.py"]


def test_the_fleet_libraries_outside_their_adapters_are_caught(tmp_path: Path) -> None:
    _write(tmp_path, "station/daemon/core.py", "import paho.mqtt.client\n")
    _write(tmp_path, "station/fleet/forwarder.py", "import psycopg\n")
    _write(tmp_path, "station/journal/x.py", "from station.central.ingest import Ingest\n")
    _write(tmp_path, "station/fleet/paho_transport.py", "import paho.mqtt.client\n")
    _write(tmp_path, "station/central/ingest.py", "import psycopg\n")
    _write(tmp_path, "station/display/web.py", "from starlette.applications import Starlette\n")
    _write(tmp_path, "station/central/console/app.py", "import starlette, jinja2, uvicorn\n")
    violations = layering_violations(tmp_path)
    assert sorted(
        {v.path for v in violations if "central-only" in v.reason or "paho" in v.reason}
    ) == [
        "station/daemon/core.py",
        "station/display/web.py",
        "station/fleet/forwarder.py",
        "station/journal/x.py",
    ]


def test_every_room_of_the_tree_is_in_the_table() -> None:
    """The table names every room there is, and no room that is not there."""
    there = {_room(_module_name(ROOT, p)) for top in TOPS for p in (ROOT / top).rglob("*.py")}
    assert there == set(ROOMS)


def test_a_room_not_in_the_table_is_caught(tmp_path: Path) -> None:
    _write(tmp_path, "station/runner/loop.py", "from station.engine.table import Table\n")
    _write(tmp_path, "station/daemon/core.py", "from station.runner.loop import run\n")
    violations = layering_violations(tmp_path)
    assert sorted((v.path, v.reason) for v in violations) == [
        ("station/daemon/core.py", "no room runner in the table"),
        ("station/runner/loop.py", "room runner is not in the layering table"),
    ]


def test_the_log_reaching_into_the_rooms_built_on_it_is_caught(tmp_path: Path) -> None:
    _write(
        tmp_path, "station/journal/verify.py", "from station.people.check import PEOPLE_CHECKS\n"
    )
    _write(
        tmp_path, "station/journal/recorder.py", "from station.recall.steps import recall_hand\n"
    )
    _write(tmp_path, "station/journal/x.py", "from station.cli.journal import run\n")
    _write(tmp_path, "station/people/check.py", "from station.journal.verify import verify_file\n")
    _write(tmp_path, "station/phh/export.py", "from station.recall.steps import HandRecall\n")
    _write(tmp_path, "station/recall/steps.py", "from station.phh.export import hand_to_phh\n")
    violations = layering_violations(tmp_path)
    assert sorted((v.path, v.reason) for v in violations) == [
        ("station/journal/recorder.py", "journal may not import recall"),
        ("station/journal/verify.py", "journal may not import people"),
        ("station/journal/x.py", "journal may not import cli"),
        ("station/recall/steps.py", "recall may not import phh"),
    ]


def test_the_central_command_imports_the_central_side_only_lazily(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "station/cli/central.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from station.central.alarms "
        "import Alarm\ndef run():\n    import psycopg\n    from station.central import alarms\n",
    )
    _write(tmp_path, "station/cli/central_console.py", "import psycopg\n")
    _write(tmp_path, "station/cli/journal.py", "def run():\n    import psycopg\n")
    violations = layering_violations(tmp_path)
    assert sorted((v.path, v.reason) for v in violations) == [
        ("station/cli/central_console.py", "central-only: import it lazily"),
        ("station/cli/journal.py", "central-only: never on a station"),
    ]


def test_a_station_imports_no_fleet_library_when_it_starts() -> None:
    """The daemon, the forwarder and the CLI load without paho or psycopg being imported (a
    station without the extras runs; one with `[fleet]` loads paho when it starts it)."""
    code = (
        "import sys, station.cli, station.daemon.daemon, station.fleet.forwarder\n"
        "station.cli.build_parser()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "  ('paho', 'psycopg', 'starlette', 'uvicorn', 'jinja2', 'psycopg_pool'))\n"
        "print(bad)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_pure_imports_are_allowed(tmp_path: Path) -> None:
    _write(tmp_path, "station/engine/__init__.py", "")
    _write(
        tmp_path,
        "station/engine/good.py",
        "from dataclasses import dataclass\nfrom .cards import Card\nimport itertools\n",
    )
    _write(tmp_path, "station/engine/cards.py", "")
    assert layering_violations(tmp_path) == []
