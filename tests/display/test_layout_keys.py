"""The dealer layout keeps the heights of what lies in the middle of the felt under the view's
fields `felt` reads (`dealer_layout._middle_key`), so that a screen whose seats or prompt
changed finds them made: the key must name every field `felt` reads, or a screen would be laid
out with another screen's heights. Read from felt's source, so a new field read fails here."""

from __future__ import annotations

import ast
import inspect

from station.display import dealer_layout, felt


class _Reads:
    """Records the attributes read of it."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def __getattr__(self, name: str) -> object:
        self.names.add(name)
        return None


def _felt_tree() -> ast.Module:
    return ast.parse(inspect.getsource(felt))


def test_every_field_felt_reads_of_a_view_is_in_the_middle_key() -> None:
    reads = _Reads()
    dealer_layout._middle_key(reads)  # type: ignore[arg-type]
    read = {node.attr for node in ast.walk(_felt_tree()) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "view"}  # fmt: skip
    assert read, "felt reads no field of a view: this test no longer looks at the right name"
    assert read <= reads.names, f"felt reads {sorted(read - reads.names)}, not in the key"
    assert "middle" in reads.names  # (the layout picks the need by it)


def test_felt_names_every_view_it_takes_view_and_keeps_it_to_itself() -> None:
    """The scan above sees every view: each parameter typed DealerView is called `view`, and a
    view is passed on only to felt's own functions."""
    tree = _felt_tree()
    own = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for arg in fn.args.args:
            if isinstance(arg.annotation, ast.Name) and arg.annotation.id == "DealerView":
                assert arg.arg == "view", f"{fn.name}({arg.arg}: DealerView)"
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        if any(isinstance(a, ast.Name) and a.id == "view" for a in call.args):
            assert isinstance(call.func, ast.Name) and call.func.id in own, ast.unparse(call)
