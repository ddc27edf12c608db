"""Journal payloads back into engine records: input events (`input_from_dict`, the lenient mode
of the one event decoder, `formats.events.decode_event`) and decisions (`decision_from_dict`,
the inverse of `formats.decisions.decision_to_dict`). Pure.

The recorder feeds the engine the event decoded from the payload it journals, so a live run and
a replay of the journal see exactly the same input (including the time rounded to milliseconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from station.engine.decisions import (
    Action,
    ActionKind,
    DealSlot,
    Decision,
    DrawRole,
    HandEnd,
    Incident,
    PotPart,
    PotResult,
    Prompt,
    PromptCode,
    Ruling,
)
from station.engine.events import InputEvent
from station.engine.rake import RakeResult
from station.formats.events import END_TYPE, decode_event

END_PAYLOAD = {"type": END_TYPE}


class PayloadError(ValueError):
    """A payload that is not the canonical form of an event or decision."""


def input_from_dict(d: Mapping[str, Any]) -> tuple[InputEvent | None, float | None]:
    """(event, t) for an input payload; the event is None for the end-of-input marker."""
    try:
        t, event = decode_event(d, strict=False)
    except (KeyError, TypeError, ValueError) as exc:
        raise PayloadError(f"not an input event payload: {exc}") from exc
    return event, t


def decision_from_dict(d: Mapping[str, Any]) -> Decision:
    try:
        return _decision(d)
    except (KeyError, TypeError, ValueError) as exc:
        raise PayloadError(f"not a decision payload: {exc}") from exc


def _decision(d: Mapping[str, Any]) -> Decision:
    kind = d["type"]
    if kind == "incident":
        return Incident(
            hand=int(d["hand"]),
            rule=str(d["rule"]),
            ruling=Ruling(d["ruling"]),
            text=str(d["text"]),
            event=int(d["event"]),
            seat=_opt_int(d.get("seat")),
            seats=tuple(int(s) for s in d.get("seats", ())),
            citation=str(d.get("citation", "")),
            events=tuple(int(e) for e in d.get("events", ())),
        )
    if kind == "prompt":
        return Prompt(
            hand=int(d["hand"]),
            text=str(d["text"]),
            event=int(d["event"]),
            code=PromptCode(d.get("code", PromptCode.INFO.value)),
        )
    if kind == "hand_end":
        parts: dict[int, list[PotPart]] = {}
        for sp in d.get("splits", ()):
            parts.setdefault(int(sp["pot"]), []).append(
                PotPart(
                    name=str(sp["part"]),
                    amount=int(sp["amount"]),
                    won={int(s): int(a) for s, a in sp["won"].items()},
                )
            )
        return HandEnd(
            hand=int(d["hand"]),
            event=int(d["event"]),
            board=tuple(str(c) for c in d["board"]),
            pots=tuple(
                PotResult(
                    amount=int(p["amount"]),
                    eligible=tuple(int(s) for s in p["eligible"]),
                    won={int(s): int(a) for s, a in p["won"].items()},
                    parts=tuple(parts.get(i, ())),
                )
                for i, p in enumerate(d["pots"])
            ),
            payouts={int(s): int(a) for s, a in d["payouts"].items()},
            void=bool(d.get("void", False)),
            stacks={int(s): _opt_int(a) for s, a in d.get("stacks", {}).items()},
            boards=tuple(tuple(str(c) for c in b) for b in d.get("boards", ())),
            shown={int(s): tuple(str(c) for c in cs) for s, cs in d.get("shown", {}).items()},
            rake=_rake(d.get("rake")),
            carried=int(d.get("carried", 0)),
        )
    if kind == "draw":
        return DrawRole(
            hand=int(d["hand"]),
            event=int(d["event"]),
            card=str(d["card"]),
            role=DealSlot(d["role"]),
            seat=_opt_int(d.get("seat")),
            street=int(d.get("street", 0)),
            board=int(d.get("board", 1)) - 1,
        )
    if kind == "action":
        return Action(
            hand=int(d["hand"]),
            event=int(d["event"]),
            seat=int(d["seat"]),
            action=ActionKind(d["action"]),
            amount=int(d.get("amount", 0)),
            allin=bool(d.get("allin", False)),
        )
    raise ValueError(f"unknown decision type {kind!r}")


def _rake(d: Mapping[str, Any] | None) -> RakeResult | None:
    if d is None:
        return None
    return RakeResult(
        total=int(d["total"]),
        pots=tuple(int(a) for a in d["pots"]),
        time={int(s): int(a) for s, a in d.get("time", {}).items()},
        time_pot=bool(d.get("time_pot", False)),
    )


def _opt_int(v: object) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"expected a whole number, not {v!r}")
    return v
