"""Decisions as the JSON objects of `station replay --json` (docs/session-format.md). Pure."""

from __future__ import annotations

import json
from typing import Any

from station.engine.decisions import Action, Decision, DrawRole, HandEnd, Incident, Prompt
from station.engine.resume_values import hand_end_to_dict, incident_to_dict, prompt_to_dict


def decision_to_dict(d: Decision) -> dict[str, Any]:
    """The public object for one decision. Keys beyond the documented ones are extensions."""
    match d:
        case Incident():
            return incident_to_dict(d)
        case Prompt():
            return prompt_to_dict(d)
        case HandEnd():
            return hand_end_to_dict(d, named=False)
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


def is_public(d: Decision) -> bool:
    return isinstance(d, Incident | Prompt | HandEnd)


def dumps(d: Decision) -> str:
    return json.dumps(decision_to_dict(d), separators=(",", ":"))
