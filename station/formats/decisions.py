"""Decisions as the JSON objects of `station replay --json` (docs/session-format.md). Pure."""

from __future__ import annotations

import json
from typing import Any

from station.engine.decisions import (
    Action,
    Decision,
    DrawRole,
    HandEnd,
    Incident,
    PotResult,
    Prompt,
)
from station.engine.rake import RakeResult


def decision_to_dict(d: Decision) -> dict[str, Any]:
    """The public object for one decision. Keys beyond the documented ones are extensions."""
    match d:
        case Incident():
            return {
                "type": "incident",
                "hand": d.hand,
                "rule": d.rule,
                "seat": d.seat,
                "ruling": d.ruling.value,
                "text": d.text,
                "event": d.event,
                "seats": list(d.seats),
                "citation": d.citation,
                "events": list(d.events),
            }
        case Prompt():
            return {
                "type": "prompt",
                "hand": d.hand,
                "text": d.text,
                "event": d.event,
                "code": d.code.value,
            }
        case HandEnd():
            out: dict[str, Any] = {
                "type": "hand_end",
                "hand": d.hand,
                "board": list(d.board),
                "pots": [
                    {
                        "amount": p.amount,
                        "eligible": list(p.eligible),
                        "won": {str(s): a for s, a in sorted(p.won.items())},
                    }
                    for p in d.pots
                ],
                "payouts": {str(s): a for s, a in sorted(d.payouts.items())},
                "void": d.void,
                "event": d.event,
                "stacks": {str(s): a for s, a in sorted(d.stacks.items())},
            }
            if d.boards:
                out["boards"] = [list(b) for b in d.boards]
            splits = _splits(d.pots)
            if splits:
                out["splits"] = splits
            if d.shown:
                out["shown"] = {str(s): list(c) for s, c in sorted(d.shown.items())}
            if d.rake is not None:
                out["rake"] = rake_to_dict(d.rake)
            if d.carried:
                out["carried"] = d.carried  # extension: a pass-out's antes, for the next deal
            if d.eliminated:
                out["eliminated"] = [{"seat": s, "start_stack": c} for s, c in d.eliminated]
            return out
        case DrawRole():
            draw: dict[str, Any] = {
                "type": "draw",
                "hand": d.hand,
                "event": d.event,
                "card": d.card,
                "role": d.role.value,
                "seat": d.seat,
                "street": d.street,
            }
            if d.board:
                draw["board"] = d.board + 1  # extension: the second board of a double-board game
            return draw
        case Action():
            return {
                "type": "action",
                "hand": d.hand,
                "event": d.event,
                "seat": d.seat,
                "action": d.action.value,
                "amount": d.amount,
                "allin": d.allin,
            }


def _splits(pots: tuple[PotResult, ...]) -> list[dict[str, Any]]:
    """`hand_end`'s `splits` (extension): each pot decided in parts - a hi-lo pot's halves, a
    double-board pot's boards, a pot split two other ways (Drawmaha's Omaha and draw halves,
    Badaci's ace-to-five and badugi) - with the pot's index (0 the main pot), the part's name, its
    amount and who won it."""
    return [
        {
            "pot": i,
            "part": part.name,
            "amount": part.amount,
            "won": {str(s): a for s, a in sorted(part.won.items())},
        }
        for i, p in enumerate(pots)
        for part in p.parts
    ]


def rake_to_dict(r: RakeResult) -> dict[str, Any]:
    """`hand_end`'s `rake`: `total` and `pots` (what each pot gave, main pot first) always;
    `time` (seat -> time collected with the hand) and `time_pot` only when they apply."""
    out: dict[str, Any] = {"total": r.total, "pots": list(r.pots)}
    if r.time:
        out["time"] = {str(s): a for s, a in sorted(r.time.items())}
    if r.time_pot:
        out["time_pot"] = True
    return out


def is_public(d: Decision) -> bool:
    return isinstance(d, Incident | Prompt | HandEnd)


def dumps(d: Decision) -> str:
    return json.dumps(decision_to_dict(d), separators=(",", ":"))
