"""Replaying input events through the rules engine: what the recorder derives from one input,
and one pass over a journal that re-derives everything and compares. Pure (the engine is pure;
the rows are given).

`derive` is the single place where an input becomes rows, used live and in replay alike, so the
two cannot drift apart. An exception from the engine is a bug, not a table irregularity: it
becomes an engine-fault row (a critical tilt) and replays identically, the engine being
deterministic.

A difference is a mismatch (tampering, or a bug: a critical tilt) only in a stretch of the
journal written by the code now running; in a stretch another engine wrote (`station.boot` and
`table.resume` rows name it: `engine_id`) it is engine drift, counted and reported but expected
after an upgrade, and replay then goes on from the state that stretch's resume rows record, as
the station itself did when it started on them (JOURNAL.md, "Engine drift").
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from station.engine.cards import DeckRegistry
from station.engine.decisions import Decision
from station.engine.events import InputEvent
from station.engine.resume import ResumeError
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.decisions import decision_to_dict
from station.formats.payload import PayloadError, input_from_dict
from station.journal.codes import (
    DECISION_CODE_BY_TYPE,
    DERIVED_CODES,
    ENGINE_ACTOR,
    INPUT_CODES,
    ActorRole,
    Code,
)
from station.journal.engine_id import UNKNOWN, code_of, deriving_code
from station.journal.ops import OpsTracker
from station.journal.resume_rows import ResumePoint, difference, load
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
    with what the table derives again, every resume row compared with the state replay holds
    there, the operational state folded, the chain checked.

    With `start` (a resume row read back) the pass begins at that row, from its state: the row
    itself is checked for the chain only, and the chain must go on from it."""

    def __init__(
        self,
        registry: DeckRegistry | None,
        station_id: str,
        start: ResumePoint | None = None,
        *,
        running: str | None = None,
    ) -> None:
        self.registry = registry
        self.table = Table(registry)
        self.ops = OpsTracker()
        self.chain = ChainChecker(station_id)
        self.mismatches: list[Mismatch] = []  # in stretches the running code wrote
        self.count = 0
        self.drifts: list[Mismatch] = []  # in stretches other code wrote
        self.drift = 0
        self.expected: deque[Entry] = deque()
        self.cause = self.inputs = self.last_input = self.rows = self.hand = 0
        self.running = running if running is not None else deriving_code()
        self.writer: str | None = None  # the code that wrote the stretch being read
        self.resumes = 0  # resume rows compared
        self.resumed: tuple[int, str] | None = None  # the last one equal to replay: (seq, hash)
        self.resumed_at = (0, 0, 0, 0, 0)  # rows, inputs, resumes, count, drift when it was
        self._start = 0
        if start is not None:
            self.table, self.ops, self.hand = start.table, start.ops, start.hand
            self.writer = start.writer
            self.chain.expected, self.chain.prev_hash = start.seq, start.prev_hash
            self._start = start.seq
            self.resumed = (start.seq, start.row_hash)
            self.resumed_at = (1, 0, 0, 0, 0)  # once that row is read

    @property
    def exact(self) -> bool:
        """The stretch being read was written by the code now running."""
        return self.writer == self.running and self.running != UNKNOWN

    def mismatch(self, seq: int, text: str) -> None:
        if self.exact:
            self.count += 1
            if len(self.mismatches) < MAX_REPORTED:
                self.mismatches.append(Mismatch(seq, text))
        else:
            self.drift += 1
            if len(self.drifts) < MAX_REPORTED:
                self.drifts.append(Mismatch(seq, text))

    def row(self, row: LogRow) -> None:
        self.rows += 1
        self.chain.check(row)
        self.ops.apply(row)
        code = row.code
        if code in DERIVED_CODES:
            if not self.expected:
                self.mismatch(row.seq, f"{code} row that replay does not derive")
            elif not _same(want := self.expected.popleft(), row):
                self.mismatch(row.seq, f"replay derives a different {want.code.value} row")
            return
        self.finish()
        if code in INPUT_CODES:
            self._input(row)
        elif code == Code.TABLE_RESUME:
            self._resume(row)
        elif code == Code.BOOT:
            self.writer = code_of(row.data())  # None: a boot from before engine identities

    def _input(self, row: LogRow) -> None:
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

    def _resume(self, row: LogRow) -> None:
        if row.seq == self._start:
            return  # the row replay started from: its state is the one replay holds
        try:
            data = row.data()
        except ValueError as exc:
            self.mismatch(row.seq, f"resume row cannot be read: {exc}")
            return
        self.resumes += 1
        found = difference(data, self.table, self.ops)
        if found is None:
            self._resumed(row)
            return
        self.mismatch(row.seq, f"the resume document differs from replay at {found}")
        if not self.exact:  # drift: go on as the station did, from what the row records
            try:
                point = load(row, self.registry, self.writer)
            except ResumeError:
                return
            self.table, self.ops, self.hand = point.table, point.ops, point.hand
            self.ops.last_seq = row.seq
            self._resumed(row)

    def _resumed(self, row: LogRow) -> None:
        self.resumed = (row.seq, row.hash)
        self.resumed_at = (self.rows, self.inputs, self.resumes, self.count, self.drift)

    def finish(self) -> None:
        """Derived rows the journal should have held after the last input, but does not."""
        if self.expected:
            self.mismatch(
                self.cause, f"replay derives {len(self.expected)} more row(s) from seq {self.cause}"
            )
            self.expected.clear()
