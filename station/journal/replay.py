"""Replaying input events through the rules engine: what the recorder derives from one input,
and one pass over a journal that re-derives everything and compares. Pure (the engine is pure;
the rows are given).

`derive` is the single place where an input becomes rows, used live and in replay alike, so the
two cannot drift apart. An exception from the engine is a bug, not a table irregularity: it
becomes an engine-fault row (a critical tilt) and replays identically, the engine being
deterministic.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from station.engine.cards import DeckRegistry
from station.engine.decisions import Decision
from station.engine.events import InputEvent
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.decisions import decision_to_dict
from station.formats.payload import PayloadError, input_from_dict
from station.journal.checkpoint import RecorderState
from station.journal.codes import (
    DECISION_CODE_BY_TYPE,
    DERIVED_CODES,
    ENGINE_ACTOR,
    INPUT_CODES,
    ActorRole,
    Code,
)
from station.journal.ops import OpsTracker
from station.journal.rows import Entry, LogRow, canonical_json
from station.journal.verify import ChainChecker

MAX_REPORTED = 20


@dataclass(frozen=True, slots=True)
class Mismatch:
    seq: int
    text: str


def derive(
    table: Table, event: InputEvent | None, seq: int, at: float | None, hand: int
) -> tuple[list[Entry], list[Decision], int]:
    """Feed one input to the engine: (derived rows, decisions, hand after). An exception from
    the engine is a bug, not a table irregularity: it becomes an engine-fault row (a critical
    tilt) and replays identically, since the engine is deterministic."""
    try:
        if event is None:
            decisions = table.finish(seq=seq)
        else:
            decisions = table.feed(event, seq=seq, at=at)
        number = table.hand_number()
        snap = table.snapshot() if number != hand and number > 0 else None
    except Exception as exc:
        fault = {"error": type(exc).__name__, "message": str(exc)[:300], "input": seq}
        entry = Entry(Code.ENGINE_FAULT, fault, ENGINE_ACTOR, ActorRole.ENGINE, hand=hand, ref=seq)
        return [entry], [], hand
    entries: list[Entry] = []
    if snap is not None:
        entries.append(
            Entry(
                Code.HAND_START,
                hand_start_payload(snap),
                ENGINE_ACTOR,
                ActorRole.ENGINE,
                hand=snap.hand,
                ref=seq,
            )
        )
    for d in decisions:
        payload = decision_to_dict(d)
        code = DECISION_CODE_BY_TYPE[payload["type"]]
        entries.append(Entry(code, payload, ENGINE_ACTOR, ActorRole.ENGINE, hand=d.hand, ref=seq))
    return entries, decisions, number


def hand_start_payload(snap: TableSnapshot) -> dict[str, Any]:
    """What the PHH export and recall need that no decision carries: button and stacks (and
    money forfeited to this deal, when there is any: DECK-DEFECT-FREEROLL); at a tournament
    table the hand's stakes and level (its setup names no stakes of its own)."""
    extra = {"carry": snap.carry} if snap.carry else {}
    out: dict[str, Any] = {
        **extra,
        "hand": snap.hand,
        "game": snap.game,
        "profile": snap.profile,
        "button": snap.button,
        "seats": {
            str(s.seat): {
                "stack": s.stack,
                "bet": s.bet,
                "status": s.status.value,
                "blind": s.blind,
            }
            for s in snap.seats
        },
    }
    if snap.tournament is not None:
        out["stakes"] = dict(snap.tournament.hand_stakes)
        out["level"] = snap.tournament.deal_label
    return out


def _same(entry: Entry, row: LogRow) -> bool:
    return (
        entry.code == row.code
        and canonical_json(dict(entry.payload)) == row.payload
        and entry.hand == row.hand
        and entry.ref == row.ref
        and entry.actor == row.actor
        and entry.role == row.role
    )


class Replay:
    """One pass over the journal: every input fed to a fresh table, every derived row compared
    with what the table derives again, the operational state folded, the chain checked.

    With `start` (a checkpoint's seq, the hash of that row, and its state) the pass begins on
    the row after it, from that state, and the chain must join that row."""

    def __init__(
        self,
        registry: DeckRegistry | None,
        station_id: str,
        start: tuple[int, str, RecorderState] | None = None,
    ) -> None:
        self.table = Table(registry)
        self.ops = OpsTracker()
        self.chain = ChainChecker(station_id)
        self.mismatches: list[Mismatch] = []
        self.count = 0
        self.expected: deque[Entry] = deque()
        self.cause = self.inputs = self.last_input = self.rows = self.hand = 0
        if start is not None:
            seq, row_hash, state = start
            self.table, self.ops, self.hand = state.table, state.ops, state.hand
            self.chain.expected, self.chain.prev_hash = seq + 1, row_hash

    def mismatch(self, seq: int, text: str) -> None:
        self.count += 1
        if len(self.mismatches) < MAX_REPORTED:
            self.mismatches.append(Mismatch(seq, text))

    def row(self, row: LogRow) -> None:
        self.rows += 1
        self.chain.check(row)
        self.ops.apply(row)
        if row.code in DERIVED_CODES:
            if not self.expected:
                self.mismatch(row.seq, f"{row.code} row that replay does not derive")
            elif not _same(want := self.expected.popleft(), row):
                self.mismatch(row.seq, f"replay derives a different {want.code.value} row")
            return
        self.finish()
        if row.code not in INPUT_CODES:
            return
        try:
            event, at = input_from_dict(row.data())
        except (PayloadError, ValueError) as exc:
            self.mismatch(row.seq, f"input payload cannot be replayed: {exc}")
            return
        entries, _, self.hand = derive(self.table, event, row.seq, at, self.hand)
        if row.hand != self.hand:
            self.mismatch(row.seq, f"input row says hand {row.hand}, replay says {self.hand}")
        self.expected.extend(entries)
        self.cause = self.last_input = row.seq
        self.inputs += 1

    def finish(self) -> None:
        """Derived rows the journal should have held after the last input, but does not."""
        if self.expected:
            self.mismatch(
                self.cause, f"replay derives {len(self.expected)} more row(s) from seq {self.cause}"
            )
            self.expected.clear()
