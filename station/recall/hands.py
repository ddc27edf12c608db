"""Loading hands from the journal for recall and export. Edge adapter (reads the journal).

A hand's rows are those `station.recall.hand_rows` assigns to it, the one definition every view
uses; its incident count in the hand list is the number of incident rows naming it, which that
definition puts in its recall.

The journal keeps every hand; the index on `(hand, seq)` makes any one of them, and so the last
100, quick to load.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from station.journal.codes import INPUT_CODES, Code
from station.journal.queries import count, ended_hands, latest, rows_of_hands
from station.journal.rows import LogRow
from station.journal.store import Journal
from station.recall.hand_rows import candidates, rows_of_hand
from station.recall.steps import HandRecall, recall_hand

RECALL_DEPTH = 100  # hands kept ready for the floor screen (standards-ux requirement 9)


@dataclass(frozen=True, slots=True)
class HandSummary:
    hand: int
    end_seq: int
    end_utc: str
    pot: int
    void: bool
    incidents: int


class RowSource(Protocol):
    """Where a hand's rows are read from: the station's journal (`JournalRows`), or the central
    store's copy of it (the floor console's). `recall_from` builds the same recall from
    either."""

    def rows_of_hands(self, hands: Iterable[int]) -> list[LogRow]: ...
    def latest(self, codes: Iterable[str], before_seq: int) -> LogRow | None: ...


@dataclass(frozen=True, slots=True)
class JournalRows:
    journal: Journal

    def rows_of_hands(self, hands: Iterable[int]) -> list[LogRow]:
        return rows_of_hands(self.journal, hands)

    def latest(self, codes: Iterable[str], before_seq: int) -> LogRow | None:
        return latest(self.journal, codes, before_seq)


def load_hand(journal: Journal, hand: int) -> HandRecall | None:
    return recall_from(JournalRows(journal), hand)


def recall_from(source: RowSource, hand: int) -> HandRecall | None:
    """The recall of `hand` from its rows, wherever they are kept."""
    span = rows_of_hand(source.rows_of_hands(candidates(hand)), hand)
    if not span:
        return None
    own = next((r.seq for r in span if r.hand == hand and r.code in INPUT_CODES), span[-1].seq)
    setup = source.latest([Code.INPUT_SETUP], own)
    before = source.latest([Code.INPUT_SETUP, Code.DECISION_HAND_END], own)
    return recall_hand(
        span,
        hand,
        setup=None if setup is None else setup.data(),
        previous_stacks=_stacks(before),
    )


def _stacks(row: LogRow | None) -> Mapping[int, int | None] | None:
    if row is None:
        return None
    d: dict[str, Any] = row.data()
    source = d.get("seats") if row.code == Code.INPUT_SETUP else d.get("stacks")
    if not source:
        return None
    return {int(s): (None if v is None else int(v)) for s, v in source.items()}


def recent_hands(journal: Journal, last: int = RECALL_DEPTH) -> list[HandSummary]:
    out = []
    for hand, end_seq in ended_hands(journal, last):
        row = journal.row(end_seq)
        if row is None:
            continue
        d = row.data()
        incidents = count(journal, Code.DECISION_INCIDENT, hand)
        pot = sum(int(p["amount"]) for p in d.get("pots", ()))
        out.append(
            HandSummary(hand, end_seq, row.recorded_utc, pot, bool(d.get("void")), incidents)
        )
    return out
