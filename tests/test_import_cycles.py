"""No import cycle inside `station/` (the engine, the display, the journal, every package).

A cycle makes the import order matter and hides run-time call cycles; the engine had a 14-module
circle and one of 8 around `table.py`, the display one between `floor_keys` and `floor_view`.
The checker reads the source with `ast` (no code runs) and builds the graph of module-level
imports: every `import` / `from ... import` executed when a module is first imported, also inside
a module-level `if` or `try`. Two kinds of import are left out, on purpose:

- imports inside a function or method (run later, at the call: the lazy loading of an optional
  adapter such as `station.fleet.paho_transport`, the journal's `code_digest` reading its own
  package's path);
- imports under `if TYPE_CHECKING:` (never run; they exist for the type checker only).

`from pkg import name` is an edge to the submodule `pkg.name` when there is one, else to `pkg`;
the implicit import of a module's parent packages is not an edge (every module would otherwise
form a cycle with a package `__init__` that imports it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _module_level(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported (not in functions, not TYPE_CHECKING)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _module_level(node.body)
            yield from _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _module_level(block)
            for handler in node.handlers:
                yield from _module_level(handler.body)


def import_graph(root: Path, package: str = "station") -> dict[str, set[str]]:
    """Module -> the modules of `package` it imports at module level."""
    files = {_module_name(root, p): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _module_level(tree.body):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in files)
                continue
            if node.level:
                base = module.split(".")
                prefix = ".".join(base[: len(base) - node.level + (1 if is_package else 0)])
                name = f"{prefix}.{node.module}" if node.module else prefix
            else:
                name = node.module or ""
            for alias in node.names:
                if f"{name}.{alias.name}" in files:
                    edges.add(f"{name}.{alias.name}")
                elif name in files:
                    edges.add(name)
        edges.discard(module)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _describe(graph: dict[str, set[str]], component: list[str]) -> str:
    members = set(component)
    lines = [f"a cycle of {len(component)} modules:"]
    lines += [f"  {m} -> {', '.join(sorted(graph[m] & members))}" for m in component]
    return "\n".join(lines)


def test_station_has_no_import_cycle() -> None:
    graph = import_graph(ROOT)
    assert "station.engine.table" in graph and "station.display.floor_keys" in graph
    found = cycles(graph)
    assert not found, "\n".join(_describe(graph, c) for c in found)


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_cycle_through_three_modules_is_caught(tmp_path: Path) -> None:
    _write(tmp_path, "station/__init__.py", "")
    _write(tmp_path, "station/engine/__init__.py", "")
    _write(tmp_path, "station/engine/a.py", "from station.engine.b import x\n")
    _write(tmp_path, "station/engine/b.py", "from . import c\nx = 1\n")
    _write(
        tmp_path,
        "station/engine/c.py",
        "try:\n    import station.engine.a\nexcept ImportError:\n    pass\n",
    )
    _write(tmp_path, "station/engine/d.py", "from station.engine import a\n")  # into it, not in it
    assert cycles(import_graph(tmp_path)) == [
        ["station.engine.a", "station.engine.b", "station.engine.c"]
    ]


def test_a_two_module_cycle_in_the_display_is_caught(tmp_path: Path) -> None:
    _write(tmp_path, "station/display/floor_keys.py", "from .floor_view import View\n")
    _write(tmp_path, "station/display/floor_view.py", "from station.display.floor_keys import K\n")
    assert cycles(import_graph(tmp_path)) == [
        ["station.display.floor_keys", "station.display.floor_view"]
    ]


def test_lazy_and_type_checking_imports_are_not_edges(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "station/a.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from station.b import B\n",
    )
    _write(tmp_path, "station/b.py", "def f():\n    from station import a\n    return a\n")
    graph = import_graph(tmp_path)
    assert graph["station.a"] == set() and graph["station.b"] == set()
    assert cycles(graph) == []
