"""Incident records as the journal holds them: a fold over rows into open -> ruled -> reviewed ->
closed, with who acted at each step. Pure.

An incident is identified by the sequence number of the row that opened it: an engine
`decision.incident`, a `floor.call_raised` row, or a FLOOR key press the engine did not turn
into an incident of its own. Each record carries what a floor report needs (standards-ux
section 2.3): rule and citation, triggering events, the dealer logged in at the time, the camera
time window, whether the ruling was asked for before the next deal, and every workflow step
with the person, their role and the time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Final

from station.journal.clock import format_utc, parse_utc
from station.journal.codes import ActorRole, Code, IncidentState
from station.journal.rows import LogRow

WINDOW_BEFORE_S: Final = 60.0  # camera window: hand start minus 60 s ...
WINDOW_AFTER_S: Final = 120.0  # ... to the incident plus 120 s
FLOOR_CALL_RULE: Final = "FLOOR-CALL"
FOLD_CODES: Final = frozenset(
    {
        Code.DECISION_INCIDENT,
        Code.FLOOR_CALL_RAISED,
        Code.INPUT_KEY,
        Code.HAND_START,
        Code.LOGIN,
        Code.LOGOUT,
        Code.INCIDENT_RULED,
        Code.INCIDENT_REVIEWED,
        Code.INCIDENT_CLOSED,
    }
)


@dataclass(frozen=True, slots=True)
class Step:
    person: str
    role: str
    seq: int
    utc: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class RulingStep:
    person: str
    role: str
    seq: int
    utc: str
    text: str
    camera: str
    window_start_utc: str
    window_end_utc: str
    asked_before_next_deal: bool


@dataclass(frozen=True, slots=True)
class IncidentRecord:
    id: int
    source: str  # "engine" or "floor_call"
    hand: int
    rule: str
    citation: str
    engine_ruling: str
    text: str
    seat: int | None
    seats: tuple[int, ...]
    events: tuple[int, ...]
    detected_utc: str
    hand_start_utc: str | None
    dealer: str | None
    floor_called_seq: int | None = None
    next_deal_seq: int | None = None
    rulings: tuple[RulingStep, ...] = ()
    review: Step | None = None
    close: Step | None = None

    @property
    def state(self) -> IncidentState:
        if self.close is not None:
            return IncidentState.CLOSED
        if self.review is not None:
            return IncidentState.REVIEWED
        return IncidentState.RULED if self.rulings else IncidentState.OPEN

    @property
    def ruling(self) -> RulingStep | None:
        """The ruling in force (a later ruling before review amends an earlier one)."""
        return self.rulings[-1] if self.rulings else None

    def camera_window(self) -> tuple[str, str]:
        start = parse_utc(self.hand_start_utc or self.detected_utc)
        end = parse_utc(self.detected_utc)
        return (
            format_utc(start - timedelta(seconds=WINDOW_BEFORE_S)),
            format_utc(end + timedelta(seconds=WINDOW_AFTER_S)),
        )

    def asked_before_next_deal(self) -> bool:
        """Default answer from the journal: no new deal has started since the incident, or the
        floor was called before it did."""
        if self.next_deal_seq is None:
            return True
        return self.floor_called_seq is not None and self.floor_called_seq < self.next_deal_seq


class IncidentFold:
    """The fold itself: feed rows of FOLD_CODES in sequence order to `row()`; `incidents` is
    the state so far. Feeding the rows in pieces (the daemon folds only the rows that are new
    since its last look) gives exactly what one pass gives."""

    KEEP_HAND_STARTS = 4  # an incident belongs to the hand in progress: older starts are done

    def __init__(self, keep: int | None = None) -> None:
        """`keep`: only the newest this many incidents are kept (the daemon's floor screen
        shows the newest few; a whole journal's incidents grew with it), else all."""
        self.incidents: dict[int, IncidentRecord] = {}  # by id, in the order opened
        self.dealer: str | None = None
        self.hand_start_utc: dict[int, str] = {}
        self.floor_keys: set[int] = set()
        self.keep = keep
        # Ids still waiting for the next deal, and for a floor call: each is visited once when
        # it comes, so a hand with thousands of incidents (a stuck key) costs O(1) per row.
        self._before_deal: list[int] = []
        self._before_call: list[int] = []

    def resume(self, records: Iterable[IncidentRecord]) -> None:
        """Carry on from incidents folded earlier (the console's state stored beside its
        cursor): those not yet past the next deal wait for it again, and for a floor call."""
        self.incidents = {rec.id: rec for rec in sorted(records, key=lambda r: r.id)}
        self._before_deal = [i for i, r in self.incidents.items() if r.next_deal_seq is None]
        self._before_call = [
            i for i in self._before_deal if self.incidents[i].floor_called_seq is None
        ]

    def row(self, row: LogRow) -> None:
        code = row.code
        if code == Code.DECISION_INCIDENT:
            d = row.data()
            if row.ref in self.floor_keys:  # the engine made its own incident of the key
                self.incidents.pop(row.ref, None)
                self.floor_keys.discard(row.ref)
            self._open(
                row,
                "engine",
                str(d["rule"]),
                str(d.get("citation", "")),
                str(d["ruling"]),
                str(d["text"]),
                d.get("seat"),
                tuple(d.get("seats", ())),
                tuple(d.get("events", (row.ref,))),
            )
        elif code == Code.FLOOR_CALL_RAISED:
            self._floor_called(row.seq)
            reason = str(row.data().get("reason", ""))
            self._open(
                row,
                "floor_call",
                FLOOR_CALL_RULE,
                "",
                "floor",
                f"CALL FLOOR: {reason}".rstrip(": "),
                None,
                (),
                (),
            )
        elif code == Code.INPUT_KEY:
            key = row.data().get("key")
            if key == "FLOOR":
                self._floor_called(row.seq)
                self.floor_keys.add(row.seq)
                self._open(
                    row,
                    "floor_call",
                    FLOOR_CALL_RULE,
                    "",
                    "floor",
                    "CALL FLOOR (key)",
                    row.data().get("seat"),
                    (),
                    (row.seq,),
                )
            elif key == "NEW_HAND":
                for i in self._before_deal:
                    rec = self.incidents.get(i)
                    if rec is not None and rec.next_deal_seq is None and i < row.seq:
                        self.incidents[i] = replace(rec, next_deal_seq=row.seq)
                self._before_deal, self._before_call = [], []
        elif code == Code.HAND_START:
            self.hand_start_utc[row.hand] = row.recorded_utc
            for old in [h for h in self.hand_start_utc if h <= row.hand - self.KEEP_HAND_STARTS]:
                del self.hand_start_utc[old]
        elif code == Code.LOGIN:
            if row.data().get("role") == ActorRole.DEALER:
                self.dealer = str(row.data()["person"])
        elif code == Code.LOGOUT:
            if self.dealer == row.data().get("person"):
                self.dealer = None
        elif code in (Code.INCIDENT_RULED, Code.INCIDENT_REVIEWED, Code.INCIDENT_CLOSED):
            self._step(row)

    def _open(
        self,
        row: LogRow,
        source: str,
        rule: str,
        citation: str,
        ruling: str,
        text: str,
        seat: object,
        seats: tuple[object, ...],
        events: tuple[object, ...],
    ) -> None:
        self.incidents[row.seq] = IncidentRecord(
            id=row.seq,
            source=source,
            hand=row.hand,
            rule=rule,
            citation=citation,
            engine_ruling=ruling,
            text=text,
            seat=seat if isinstance(seat, int) else None,
            seats=tuple(s for s in seats if isinstance(s, int)),
            events=tuple(e for e in events if isinstance(e, int)),
            detected_utc=row.recorded_utc,
            hand_start_utc=self.hand_start_utc.get(row.hand),
            dealer=self.dealer,
            floor_called_seq=_floor_called_at(row, source, ruling),
        )
        self._before_deal.append(row.seq)
        if self.incidents[row.seq].floor_called_seq is None:
            self._before_call.append(row.seq)
        if self.keep is not None and len(self.incidents) > 2 * self.keep:
            for old in list(self.incidents)[: -self.keep]:  # in steps: O(1) per row on average
                del self.incidents[old]
            self._before_deal = [i for i in self._before_deal if i in self.incidents]
            self._before_call = [i for i in self._before_call if i in self.incidents]

    def _floor_called(self, seq: int) -> None:
        for i in self._before_call:
            rec = self.incidents.get(i)
            if rec is None or rec.floor_called_seq is not None or rec.next_deal_seq is not None:
                continue
            if i < seq:
                self.incidents[i] = replace(rec, floor_called_seq=seq)
        self._before_call = []

    def _step(self, row: LogRow) -> None:
        d = row.data()
        rec = self.incidents.get(int(d["incident"]))
        if rec is None:
            return
        if row.code == Code.INCIDENT_RULED:
            step = RulingStep(
                row.actor,
                row.role,
                row.seq,
                row.recorded_utc,
                str(d["ruling"]),
                str(d.get("camera", "")),
                str(d["window_start_utc"]),
                str(d["window_end_utc"]),
                bool(d["asked_before_next_deal"]),
            )
            self.incidents[rec.id] = replace(rec, rulings=(*rec.rulings, step))
            return
        simple = Step(row.actor, row.role, row.seq, row.recorded_utc, str(d.get("note", "")))
        if row.code == Code.INCIDENT_REVIEWED:
            self.incidents[rec.id] = replace(rec, review=simple)
        else:
            self.incidents[rec.id] = replace(rec, close=simple)


def _floor_called_at(row: LogRow, source: str, ruling: str) -> int | None:
    """A floor call opens its own incident; an engine incident ruled `floor` calls the floor
    with the input that caused it."""
    if source == "floor_call":
        return row.seq
    return row.ref if ruling == "floor" else None


def fold_incidents(rows: Iterable[LogRow]) -> dict[int, IncidentRecord]:
    """Every incident in the rows, by id, in the order they were opened."""
    fold = IncidentFold()
    for row in rows:
        fold.row(row)
    return fold.incidents
