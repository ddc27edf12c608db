"""The floor's screen keys through the core: a CHIP RACE or FORFEIT entered on the floor screen
is journaled as an `input.key` row of the signed-in floor person, the engine decides on it like
on a recorded session's line, and a restart replays it identically.

The core runs on the test's thread with its real parts (SQLite journal, recorder, the floor's
PIN check and sessions); only the screen is a `NullSink` and time a `FakeClock`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hardware.inputs.clock import FakeClock
from station.daemon.core import Core
from station.daemon.items import DisplayCommand, Inbox, PinCheck, Reply, Stop
from station.daemon.sink import NullSink
from station.display.floor_keys import ScreenKey
from station.display.nav import SignedIn, SignedOut
from station.display.pinpad import PadAccess
from station.engine.events import Key, KeyPress
from station.engine.snapshot import TableSnapshot
from station.formats.session import read_session
from station.journal import ActorRole, Code, Journal, Recorder, SystemClock
from station.journal.rows import LogRow
from station.people.staff import add_person, authenticate
from tests.daemon.conftest import offline_core

ROOT = Path(__file__).resolve().parents[1]
FORFEIT_SCENARIO = (
    ROOT
    / "scenarios/DECK-FORFEITED-MONEY-ENTITLEMENT"
    / "rr11_forfeited_refund_plays_next_deal_new_player_waits.jsonl"
)
CHIP_RACE_SCENARIO = (
    ROOT / "scenarios/TOURN-CHIP-RACE/rr11_odd_chips_raced_off_nobody_raced_out.jsonl"
)
ADMIN_PIN, FLOOR_PIN = "48151623", "27093614"


@dataclass
class Station:
    journal: Journal
    core: Core
    inbox: Inbox
    sink: NullSink
    clock: FakeClock

    def table(self, events: list[Any]) -> None:
        """Inputs from the table's devices, recorded by the core as they arrive."""
        for event in events:
            self.clock.advance(0.5)
            self.core.record(event, "table", self.clock())

    def serve(self, *items: Any) -> str:
        """Put the items on the core's queue and run the core loop until it has served them."""
        for item in items:
            self.inbox.put(item)
        self.inbox.put(Stop("served"))
        return self.core.run()

    def snap(self) -> TableSnapshot:
        """What the core last published to the screens."""
        return self.sink.snapshot

    def rows(self, code: Code) -> list[LogRow]:
        return [r for r in self.journal.rows() if r.code == code]


@pytest.fixture
def station(tmp_path: Path) -> Iterator[Station]:
    journal = Journal.open(
        tmp_path / "journal.sqlite", clock=SystemClock(), station_id="T07", create=True
    )
    try:
        add_person(journal, "boss", ActorRole.ADMIN, ADMIN_PIN, by=None)
        admin = authenticate(journal, "boss", ADMIN_PIN, purpose="test")
        add_person(journal, "flo", ActorRole.FLOOR, FLOOR_PIN, by=admin)
        recorder = Recorder(journal)
        recorder.recover()
        core, inbox, sink, clock = offline_core(recorder)
        yield Station(journal, core, inbox, sink, clock)
    finally:
        journal.close()


def _sign_in() -> tuple[Reply, list[object]]:
    reply = Reply()
    return reply, [
        PinCheck(PadAccess.FLOOR, FLOOR_PIN, reply),
        DisplayCommand(SignedIn(PadAccess.FLOOR)),
    ]


def test_DECK_DEFECT_FREEROLL_a_forfeit_from_the_floor_screen_keeps_the_refund_in_the_next_pot(
    station: Station, tmp_path: Path
) -> None:
    # The scenario's story, with its FORFEIT line entered by the floor on the screen instead.
    lines = [line.event for line in read_session(FORFEIT_SCENARIO).lines]
    at = lines.index(KeyPress(Key.FORFEIT, seat=3))
    station.table(lines[:at])
    assert station.snap().refunds == ((1, 1), (2, 6), (3, 6), (5, 6))

    forfeit = DisplayCommand(ScreenKey(Key.FORFEIT, PadAccess.FLOOR, seat=3))
    station.serve(forfeit)  # nobody signed in: refused, nothing journaled
    assert station.rows(Code.INPUT_KEY)[-1].data()["key"] != "FORFEIT"
    reply, sign_in = _sign_in()
    station.serve(*sign_in, forfeit, DisplayCommand(SignedOut(PadAccess.FLOOR)))
    assert reply.ok

    (row,) = [r for r in station.rows(Code.INPUT_KEY) if r.data()["key"] == "FORFEIT"]
    assert (row.actor, row.role) == ("flo", ActorRole.FLOOR.value)
    assert row.data()["seat"] == 3 and "amount" not in row.data()  # the whole refund
    (ruling,) = [r for r in station.rows(Code.DECISION_INCIDENT) if r.ref == row.seq]
    assert ruling.data()["rule"] == "DECK-DEFECT-FREEROLL"
    assert (ruling.data()["ruling"], ruling.data()["seat"]) == ("forfeit", 3)
    # The screen sees the engine's answer: the 6 waits for the next deal, seat 3 has no refund.
    assert station.snap().carry == 6
    assert station.snap().refunds == ((1, 1), (2, 6), (5, 6))

    station.table(lines[at + 1 :])
    end = station.rows(Code.DECISION_HAND_END)[-1].data()
    assert end["hand"] == 2 and end["payouts"] == {"2": 9}  # the forfeited 6, SB 1, his BB 2
    assert end["stacks"] == {"1": 99, "2": 107, "3": 94, "5": 100}
    entitlement = [
        r.data() for r in station.rows(Code.DECISION_INCIDENT)
        if r.data()["rule"] == "DECK-FORFEITED-MONEY-ENTITLEMENT"
    ]  # fmt: skip
    assert [i["seat"] for i in entitlement] == [4]  # the newcomer waits

    # A restart replays the floor's input to the same table, strictly.
    live = station.core.recorder.snapshot()
    again = Recorder(station.journal)
    again.recover(strict=True, use_resume=False)
    assert again.snapshot() == live


def test_TOURN_CHIP_RACE_the_new_chip_keyed_on_the_floor_screen_starts_the_race(
    station: Station,
) -> None:
    lines = [line.event for line in read_session(CHIP_RACE_SCENARIO).lines]
    at = lines.index(KeyPress(Key.CHIP_RACE, amount=100))
    station.table(lines[:at])
    reply, sign_in = _sign_in()
    station.serve(*sign_in, DisplayCommand(ScreenKey(Key.CHIP_RACE, PadAccess.FLOOR, amount=100)))
    assert reply.ok

    row = station.rows(Code.INPUT_KEY)[-1]
    assert (row.actor, row.role) == ("flo", ActorRole.FLOOR.value)
    assert (row.data()["key"], row.data()["amount"]) == ("CHIP_RACE", 100)
    assert "seat" not in row.data()
    assert station.snap().chip_race == 100  # the floor screen shows the race under way

    station.table(lines[at + 1 :])
    texts = [r.data().get("text", "") for r in station.rows(Code.DECISION_PROMPT)]
    assert "CHIP RACE: ONE 100 CHIP EACH TO SEAT 4 (NO CHIPS LEFT), SEAT 2 (Ks)" in texts
    assert station.snap().chip_race is None
    stacks = {s.seat: s.stack for s in station.snap().seats}
    assert stacks == {1: 925, 2: 1075, 3: 950, 4: 100}
