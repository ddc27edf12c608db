"""What the console keeps of the station's folds, as JSON and back: incident records, the
incident fold's context and the operational state of a table; and an incident's severity.
Pure.

The records are the station's own (`station.incidents.records.IncidentRecord`, folded by the
station's `IncidentFold` from the stored rows); this only stores them and brings them back
exactly (a round trip gives an equal record).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Final

from station.incidents.records import IncidentFold, IncidentRecord, RulingStep, Step
from station.journal.codes import Mode
from station.journal.ops import FloorCall, OpenTilt, OpsTracker, SessionInfo

# Severity, for sorting the queue: 3 the game stopped or the floor is needed, 2 the station
# corrected something, 1 noted only. By the ruling the engine gave (the rulebook's remedy).
SEVERITY: Final = {
    "floor": 3,
    "void": 3,
    "misdeal": 3,
    "dead_hand": 3,
    "stop": 3,
    "redeal": 2,
    "replace": 2,
    "correct_bet": 2,
    "burn": 2,
    "forfeit": 2,
    "technical": 2,
    "warning": 1,
    "play_on": 1,
}
SEVERITY_NAMES: Final = {3: "high", 2: "medium", 1: "low"}


def severity(rec: IncidentRecord) -> int:
    if rec.source == "floor_call":
        return 3
    return SEVERITY.get(rec.engine_ruling, 2)


def people(rec: IncidentRecord) -> list[str]:
    """The dealer at the time and everyone who acted on the incident."""
    names = [rec.dealer] if rec.dealer else []
    names += [r.person for r in rec.rulings]
    names += [s.person for s in (rec.review, rec.close) if s is not None]
    return sorted(set(names))


def record_to_json(rec: IncidentRecord) -> dict[str, Any]:
    return asdict(rec)


def record_from_json(d: dict[str, Any]) -> IncidentRecord:
    step = d.get("review")
    close = d.get("close")
    return IncidentRecord(
        id=int(d["id"]),
        source=str(d["source"]),
        hand=int(d["hand"]),
        rule=str(d["rule"]),
        citation=str(d["citation"]),
        engine_ruling=str(d["engine_ruling"]),
        text=str(d["text"]),
        seat=d["seat"],
        seats=tuple(d["seats"]),
        events=tuple(d["events"]),
        detected_utc=str(d["detected_utc"]),
        hand_start_utc=d["hand_start_utc"],
        dealer=d["dealer"],
        floor_called_seq=d["floor_called_seq"],
        next_deal_seq=d["next_deal_seq"],
        rulings=tuple(RulingStep(**r) for r in d["rulings"]),
        review=None if step is None else Step(**step),
        close=None if close is None else Step(**close),
    )


def fold_to_json(fold: IncidentFold, floor_keys_after: int) -> dict[str, Any]:
    """The fold's context (not its incidents, which are stored one by one). FLOOR key presses
    at or before `floor_keys_after` can no longer be matched by an engine incident (that row
    comes in the key's own transaction): they are dropped."""
    return {
        "dealer": fold.dealer,
        "hand_start_utc": {str(k): v for k, v in fold.hand_start_utc.items()},
        "floor_keys": sorted(k for k in fold.floor_keys if k > floor_keys_after),
    }


def fold_from_json(d: dict[str, Any], live: list[IncidentRecord]) -> IncidentFold:
    fold = IncidentFold()
    fold.dealer = d.get("dealer")
    fold.hand_start_utc = {int(k): str(v) for k, v in d.get("hand_start_utc", {}).items()}
    fold.floor_keys = {int(k) for k in d.get("floor_keys", ())}
    fold.resume(live)
    return fold


def ops_to_json(ops: OpsTracker) -> dict[str, Any]:
    return {
        "mode": ops.mode.value,
        "sessions": [asdict(s) for s in ops.sessions.values()],
        "floor_call": None if ops.floor_call is None else asdict(ops.floor_call),
        "tilts": [asdict(t) for t in ops.tilts.values()],
        "last_seq": ops.last_seq,
    }


def ops_from_json(d: dict[str, Any]) -> OpsTracker:
    ops = OpsTracker()
    if not d:
        return ops
    ops.mode = Mode(d["mode"])
    ops.sessions = {s["person"]: SessionInfo(**s) for s in d["sessions"]}
    ops.floor_call = None if d["floor_call"] is None else FloorCall(**d["floor_call"])
    ops.tilts = {t["key"]: OpenTilt(**t) for t in d["tilts"]}
    ops.last_seq = int(d["last_seq"])
    return ops
