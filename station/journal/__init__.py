"""The journal: the station's record of truth, an append-only, hash-chained SQLite log of every
input event, decision and operational event. See JOURNAL.md for the design.

This room is the log only: the store, its rows and schema, the head witness, verifying the
chain, the recorder with its replay, resume rows, the history check and the scrub, and the
operational fold.
It imports none of the rooms built on it (`station.people`, `station.incidents`,
`station.recall`); they pass in what the log must check of their tables.

The daemon's core uses, in order:

    journal = Journal.open(path, clock=SystemClock(), station_id="T01", create=True)
    recorder = Recorder(journal, registry=registry, checks=PEOPLE_CHECKS)
    table, last_seq = recorder.recover()           # replay; CALL FLOOR and tilts come back
    ops = StationOps(recorder)                     # logins, modes, CALL FLOOR, tilts, links
    decisions = recorder.record(event, actor="shoe", role=ActorRole.DEVICE, at=t)
    snapshot = recorder.snapshot()                 # only after record() returned (committed)
"""

from station.journal.clock import Clock, ManualClock, SystemClock
from station.journal.codes import ActorRole, Code, IncidentState, Mode, TiltCode
from station.journal.recorder import Recorder
from station.journal.recovery_rows import RecoveryReport
from station.journal.store import Journal
from station.journal.verify import VerifyReport, verify_file

__all__ = [
    "ActorRole",
    "Clock",
    "Code",
    "IncidentState",
    "Journal",
    "ManualClock",
    "Mode",
    "Recorder",
    "RecoveryReport",
    "SystemClock",
    "TiltCode",
    "VerifyReport",
    "verify_file",
]
