"""The recorded session of what the demo played, recovered from its journal, and the proof that
it replays to the decisions the journal holds. Edge adapter (reads the journal, writes a file).

The session holds every hole and burn card, so writing it is a read of hidden cards like any
other: the demo's floor supervisor signs in (`reader`) and the read is journaled
(`station.people.access`) before the file is written.

The journal keeps each draw as the tag the shoe read. The session written here resolves tags
through the table's deck registry into cards (with `back` when the card's back is not the deck
in play), so `station replay SESSION.jsonl` reproduces the station's decisions with no registry
file; an unknown tag stays a tag.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from station.engine.cards import DeckRegistry
from station.engine.table import Table
from station.formats.decisions import decision_to_dict, is_public
from station.formats.session import parse_session
from station.journal import Code, Journal, SystemClock
from station.journal.codes import DECISION_CODE_BY_TYPE, INPUT_CODES
from station.journal.queries import ended_hands
from station.output import Guard, check_target, write_output
from station.people.access import REVEAL_ROLES, journal_reveal
from station.people.staff import authenticate

_PUBLIC = frozenset(DECISION_CODE_BY_TYPE[t] for t in ("incident", "prompt", "hand_end"))
_IGNORED = frozenset({"event", "events", "citation"})  # line numbers differ from journal seqs


@dataclass(frozen=True, slots=True)
class Exported:
    path: Path
    inputs: int
    decisions: int
    replay_matches: bool
    first_difference: str = ""


def _card_lines(journal: Journal, registry: DeckRegistry) -> Iterator[dict[str, Any]]:
    back = registry.decks[0].back if registry.decks else None
    for row in journal.rows(codes=INPUT_CODES - {Code.INPUT_END}):
        obj = row.data()
        if obj["type"] == "setup" and obj.get("deck"):
            back = obj["deck"]
        if obj["type"] == "draw" and "tag" in obj:
            info = registry.lookup(str(obj["tag"]))
            if info is not None:
                out = {"type": "draw", "t": obj.get("t"), "card": info.card.code}
                out["face_up"] = bool(obj.get("face_up", False))
                if info.back != back:
                    out["back"] = info.back
                obj = {k: v for k, v in out.items() if v is not None}
        yield obj


def _comparable(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in _IGNORED}


def export_session(
    journal_path: Path, registry: DeckRegistry, out: Path, reader: tuple[str, str]
) -> Exported:
    """`reader`: (name, PIN) of the floor supervisor, technician or admin who reads it. The
    file holds every hole and burn card: it is written owner-only, never over a file already
    there or the journal (`station.output`), and checked before the read is journaled."""
    guard = Guard((journal_path,))
    check_target(out, guard)
    journal = Journal.open(journal_path, clock=SystemClock())
    try:
        name, pin = reader
        who = authenticate(journal, name, pin, purpose="export the session", allowed=REVEAL_ROLES)
        hands = [hand for hand, _ in ended_hands(journal)]
        journal_reveal(journal, who, hands, export="session", to=str(out))
        lines = list(_card_lines(journal, registry))
        journaled = [
            _comparable(row.data()) for row in journal.rows(codes=_PUBLIC) if row.ref is not None
        ]
    finally:
        journal.close()
    header = f"# the demo's table session, recovered from {journal_path.name}\n"
    text = header + "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    write_output(out, text, guard, private=True)
    session = parse_session(text, str(out))
    table = Table()  # the embedded registry, as `station replay` uses
    replayed = [
        _comparable(decision_to_dict(d))
        for line in session.lines
        for d in table.feed(line.event, seq=line.line, at=line.t)
        if is_public(d)
    ]
    difference = ""
    for i, (a, b) in enumerate(zip(journaled, replayed, strict=False)):
        if a != b:
            difference = f"decision {i + 1}: journal {a} / replay {b}"
            break
    if not difference and len(journaled) != len(replayed):
        difference = f"{len(journaled)} decisions journaled, {len(replayed)} replayed"
    return Exported(out, len(lines), len(journaled), not difference, difference)
