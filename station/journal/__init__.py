"""The journal: the station's record of truth, an append-only, hash-chained SQLite log of every
input event, decision and operational event. See JOURNAL.md for the design.

The daemon's core uses, in order:

    journal = Journal.open(path, clock=SystemClock(), station_id="T01", create=True)
    recorder = Recorder(journal, registry=registry)
    table, last_seq = recorder.recover()           # replay; CALL FLOOR and tilts come back
    ops = StationOps(recorder)                     # logins, modes, CALL FLOOR, tilts, links
    decisions = recorder.record(event, actor="shoe", role=ActorRole.DEVICE, at=t)
    snapshot = recorder.snapshot()                 # only after record() returned (committed)
"""

from station.journal.clock import Clock, ManualClock, SystemClock
from station.journal.codes import ActorRole, Code, IncidentState, Mode, TiltCode
from station.journal.hands import load_hand, recent_hands
from station.journal.operations import StationOps
from station.journal.people import Authenticated, add_person, authenticate
from station.journal.recall import HandRecall, RecallStep, recall_hand
from station.journal.recorder import Recorder
from station.journal.recovery_rows import RecoveryReport
from station.journal.store import Journal
from station.journal.verify import VerifyReport, verify_file

__all__ = [
    "ActorRole",
    "Authenticated",
    "Clock",
    "Code",
    "HandRecall",
    "IncidentState",
    "Journal",
    "ManualClock",
    "Mode",
    "RecallStep",
    "Recorder",
    "RecoveryReport",
    "StationOps",
    "SystemClock",
    "TiltCode",
    "VerifyReport",
    "add_person",
    "authenticate",
    "load_hand",
    "recall_hand",
    "recent_hands",
    "verify_file",
]
