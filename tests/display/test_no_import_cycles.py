"""The display package has no import cycle (docs/rules-engine.md: no import cycle anywhere in
`station/`), counting imports made only for type checking: a cycle there is a cycle in the
design all the same (it was `floor_keys` <-> `floor_view`)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_layering import ROOT, _imports, _module_name

PACKAGE = "station.display"


def _graph() -> dict[str, set[str]]:
    root = ROOT / "station" / "display"
    modules = {_module_name(ROOT, p): p for p in root.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _, imported in _imports(path, name):
            # "from station.display import floor_keys" names a module too
            for candidate in (imported, *(f"{imported}.{n}" for n in _names(path, imported))):
                if candidate in modules and candidate not in (name, PACKAGE):
                    targets.add(candidate)
        graph[name] = targets
    return graph


def _names(path: Path, module: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    ]


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_display_package_has_no_import_cycle() -> None:
    graph = _graph()
    assert "station.display.floor_view" in graph, "the walk finds the modules"
    assert _cycle(graph) == [], " -> ".join(_cycle(graph))


def test_a_cycle_would_be_found() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []
