"""The import layering: the tree shows the architecture, and this test keeps it honest.

- `station.engine` (the rules engine) is pure: it imports only an allow-list of standard-library
  modules with no I/O, and nothing from the rest of `station`.
- `firmware_bridge` and `hardware` import nothing from `station`.
- `station.journal` imports, of `station`, only the engine, the formats (`station.formats`: the
  session, decision and payload codecs), the version, the engine selector (`station.native`)
  and the PHH exporter (`station.phh`, for `station journal export --phh`): never the station's
  root (the CLI, `station/__init__`) nor the benches (the crash test lives in `station.bench`).
- The fleet's client library stays optional: `paho` is imported by
  `station.fleet.paho_transport` only (which is imported lazily, when a `[fleet]` is
  configured); `psycopg` and `station.central` (the central services) by `station.central`,
  the benches and the tests only, so a station never needs them. The floor console's web
  libraries (Starlette, uvicorn, Jinja2, the psycopg pool, python-multipart) likewise.

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


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                keep = len(base) - node.level + (1 if is_package else 0)
                prefix = ".".join(base[:keep])
                name = f"{prefix}.{node.module}" if node.module else prefix
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def layering_violations(root: Path) -> list[Violation]:
    out: list[Violation] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] not in ("station", "firmware_bridge", "hardware"):
            continue
        module = _module_name(root, path)
        for line, name in _imports(path, module):
            top = name.split(".")[0]
            if module.startswith("station.engine"):
                if top == "station":
                    if not name.startswith("station.engine"):
                        out.append(Violation(str(rel), line, name, "the engine imports no app"))
                elif top not in ENGINE_ALLOWED:
                    out.append(
                        Violation(str(rel), line, name, "the rules engine must stay free of I/O")
                    )
            elif module.startswith("station.journal") and top == "station":
                central_only = name.startswith("station.central")  # its own rule, below
                if not central_only and not name.startswith(JOURNAL_MAY_USE):
                    out.append(
                        Violation(str(rel), line, name, "the journal imports no app or bench")
                    )
            elif rel.parts[0] in ("firmware_bridge", "hardware") and top == "station":
                out.append(
                    Violation(str(rel), line, name, f"{rel.parts[0]} must not import station")
                )
            if top == "paho" and module != "station.fleet.paho_transport":
                out.append(Violation(str(rel), line, name, "paho only in the fleet's transport"))
            central = top in CENTRAL_LIBRARIES or name.startswith("station.central")
            if central and not module.startswith(CENTRAL_USERS):
                out.append(Violation(str(rel), line, name, "central-only: never on a station"))
    return out


# What of `station` the journal may import (a name equal to one or below it).
JOURNAL_MAY_USE = tuple(
    f"station.{p}{end}"
    for p in ("engine", "formats", "journal", "version", "native", "phh")
    for end in ("", ".")
)

# Modules that may import the central side (psycopg, the web libraries, station.central).
CENTRAL_USERS = ("station.central", "station.bench")
CENTRAL_LIBRARIES = frozenset(
    {"psycopg", "psycopg_pool", "starlette", "uvicorn", "jinja2", "multipart", "python_multipart"}
)


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
    assert sorted(v.path for v in violations) == [
        "station/daemon/core.py",
        "station/display/web.py",
        "station/fleet/forwarder.py",
        "station/journal/x.py",
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
