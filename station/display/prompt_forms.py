"""Short forms of the engine's prompts, one per prompt code, built from typed snapshot data. Pure.

The NEXT band shows a prompt's full text whenever it fits (wrapped, at the text size the bars
allow); only when it does not is the prompt's short form shown instead, a form designed for its
code and built from the snapshot's typed fields (the seat to act, the STOP, the next hand's
posts), never by cutting the text or reading it back. A code with no entry has no short form:
its texts must fit in full, which the render-every-text test checks for every text the engine
produces.

To add a form: write a function of the snapshot that returns the short text (or "" when it has
nothing better than the full text) and list it in `SHORT_FORMS` under its `PromptCode` (the
rake's DROP is one: "DROP 6: MAIN 4, SIDE 1 2" is "DROP 6", from the snapshot's `drop`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from station.display import rule_words
from station.engine.decisions import PromptCode
from station.engine.snapshot import PostKind, TableSnapshot

ShortForm = Callable[[TableSnapshot], str]


def _action(snap: TableSnapshot) -> str:
    """A long opening prompt (stud: the high hand acts first, with every hand read out)."""
    return f"ACTION: SEAT {snap.to_act}" if snap.to_act is not None else ""


def _post(snap: TableSnapshot) -> str:
    """The blinds due (the between-hands panel lists them in full), or what a seat owes."""
    nh = snap.next_hand
    if nh is None:
        return ""
    due = [p for p in nh.posts if p.kind is not PostKind.ANTE and p.posted < p.amount]
    if due:
        return "POST " + " · ".join(f"{p.kind.value} SEAT {p.seat}" for p in due)
    if nh.missed:
        seat, owed = nh.missed[0]
        return f"SEAT {seat}: POST {owed} OR WAIT FOR BB"
    return "POSTS IN: NEW HAND"


def _recovery(snap: TableSnapshot) -> str:
    """A recovery prompt said with a STOP (the face-up question): the STOP says it shorter."""
    if snap.stop is not None:
        return snap.stop.text
    if snap.recovery is not None:
        rec = snap.recovery
        return f"{rule_words.cause(rec.rule)}: DO STEP {rec.current + 1} OF {len(rec.steps)}"
    return ""


def _collect(snap: TableSnapshot) -> str:
    """A push: the result panel lists every pot and who it goes to."""
    return "PUSH THE POTS AS SHOWN" if snap.result is not None else ""


def _drop(snap: TableSnapshot) -> str:
    """The house's rake before the push: the total (the result panel names the pots it came
    from)."""
    return f"DROP {snap.drop}" if snap.drop else ""


SHORT_FORMS: Mapping[PromptCode, ShortForm] = MappingProxyType(
    {
        PromptCode.ACTION: _action,
        PromptCode.POST: _post,
        PromptCode.RECOVERY: _recovery,
        PromptCode.COLLECT: _collect,
        PromptCode.DROP: _drop,
    }
)


def short_form(code: PromptCode, snap: TableSnapshot) -> str:
    """The designed short form of a prompt of `code` in this state; "" when there is none."""
    form = SHORT_FORMS.get(code)
    return form(snap) if form is not None else ""
