"""Journal payloads back into engine records: the inverse of `formats.session.event_to_dict` and
`formats.decisions.decision_to_dict`. Pure.

The recorder feeds the engine the event decoded from the payload it journals, so a live run and
a replay of the journal see exactly the same input (including the time rounded to milliseconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from station.engine.cards import Card
from station.engine.decisions import (
    Action,
    ActionKind,
    Decision,
    DrawRole,
    HandEnd,
    Incident,
    PotResult,
    Prompt,
    PromptCode,
    Role,
    Ruling,
)
from station.engine.events import (
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Stakes,
    VerbalAction,
    Zone,
)
from station.engine.rake import RakeResult, schedule_from_dict

END_PAYLOAD = {"type": "end"}


class PayloadError(ValueError):
    """A payload that is not the canonical form of an event or decision."""


def input_from_dict(d: Mapping[str, Any]) -> tuple[InputEvent | None, float | None]:
    """(event, t) for an input payload; the event is None for the end-of-input marker."""
    try:
        return _input(d), (float(d["t"]) if d.get("t") is not None else None)
    except (KeyError, TypeError, ValueError) as exc:
        raise PayloadError(f"not an input event payload: {exc}") from exc


def _input(d: Mapping[str, Any]) -> InputEvent | None:
    kind = d["type"]
    if kind == "end":
        return None
    if kind == "setup":
        return Setup(
            game=str(d["game"]),
            profile=str(d["profile"]),
            stakes=Stakes(**{str(k): int(v) for k, v in d.get("stakes", {}).items()}),
            seats={int(s): (None if v is None else int(v)) for s, v in d["seats"].items()},
            button=_opt_int(d.get("button")),
            deck=d.get("deck"),
            rules=dict(d.get("rules", {})),
            rake=None if d.get("rake") is None else schedule_from_dict(d["rake"]),
        )
    if kind == "seat":
        return SeatSensor(int(d["seat"]), bool(d["occupied"]))
    if kind == "puck":
        return Puck(int(d["seat"]))
    if kind == "key":
        action = d.get("action")
        card = d.get("card")
        return KeyPress(
            key=Key(d["key"]),
            seat=_opt_int(d.get("seat")),
            count=_opt_int(d.get("count")),
            action=None if action is None else VerbalAction(action),
            amount=_opt_int(d.get("amount")),
            card=None if card is None else Card.parse(card),
            to_seat=_opt_int(d.get("to_seat")),
            cards=tuple(Card.parse(c) for c in d.get("cards", ())),
        )
    if kind == "draw":
        card = d.get("card")
        return Draw(
            card=None if card is None else Card.parse(card),
            face_up=bool(d.get("face_up", False)),
            tag=d.get("tag"),
            back=d.get("back"),
        )
    if kind == "zone":
        chips = d.get("chips")
        if d.get("zone") == "rake":
            return RakeZone(
                int(d["amount"]), None if chips is None else tuple(int(c) for c in chips)
            )
        return Zone(
            int(d["seat"]),
            int(d["amount"]),
            None if chips is None else tuple(int(c) for c in chips),
        )
    raise ValueError(f"unknown input type {kind!r}")


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
        return HandEnd(
            hand=int(d["hand"]),
            event=int(d["event"]),
            board=tuple(str(c) for c in d["board"]),
            pots=tuple(
                PotResult(
                    amount=int(p["amount"]),
                    eligible=tuple(int(s) for s in p["eligible"]),
                    won={int(s): int(a) for s, a in p["won"].items()},
                )
                for p in d["pots"]
            ),
            payouts={int(s): int(a) for s, a in d["payouts"].items()},
            void=bool(d.get("void", False)),
            stacks={int(s): _opt_int(a) for s, a in d.get("stacks", {}).items()},
            boards=tuple(tuple(str(c) for c in b) for b in d.get("boards", ())),
            shown={int(s): tuple(str(c) for c in cs) for s, cs in d.get("shown", {}).items()},
            rake=_rake(d.get("rake")),
        )
    if kind == "draw":
        return DrawRole(
            hand=int(d["hand"]),
            event=int(d["event"]),
            card=str(d["card"]),
            role=Role(d["role"]),
            seat=_opt_int(d.get("seat")),
            street=int(d.get("street", 0)),
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
