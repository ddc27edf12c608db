"""The tournament screenshots (the level clock on the dealer screen, the floor's list and the
diagnostics; the centre's words between hands), drawn from a tournament table run through the
daemon's own core. Edge adapter (a journal in a temporary folder).

The core runs on this thread with its real parts (SQLite journal, recorder, engine, the
tournament desk); the screens' sink records what it publishes, and time is a `FakeClock` moved
by the story: a table of six at level 1 of event E7, the centre's clock and seat draw, a hand
during which level 1 ends, a player moved out for balancing, hand-for-hand, the clock paused by
the floor, and the break that colours up the 25s. Every text on the shots comes from that run.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hardware.betzone.settling import ZoneSettler
from hardware.inputs.clock import FakeClock
from station.config.model import PeopleConfig
from station.daemon.core import Core, CoreParts
from station.daemon.display_requests import DisplayCommands
from station.daemon.fleet_commands import received
from station.daemon.items import Inbox, Stop
from station.daemon.notify import Notifier
from station.daemon.operations import StationOps
from station.demo.shots import Recording, Seen
from station.display.diag_view import DiagCursor
from station.display.floor_cursor import FloorCursor
from station.display.nav import NavState, Screen
from station.display.pinpad import PadAccess
from station.engine.cards import Card
from station.engine.events import Draw, InputEvent, Key, KeyPress, SeatSensor, Zone
from station.formats.session import event_from_dict
from station.journal import Journal, Recorder, SystemClock

SETUP: dict[str, Any] = {
    "type": "setup",
    "game": "nlhe",
    "profile": "RR11",
    "seats": {"1": 21400, "2": 18750, "3": 20000, "4": 9600, "5": 24300, "6": 20000},
    "button": 1,
    "tournament": {
        "event": "E7",
        "levels": [
            {"sb": 25, "bb": 50, "minutes": 20},
            {"sb": 50, "bb": 100, "ante": 100, "ante_type": "bb", "minutes": 20},
            {"break": True, "minutes": 10, "colour_up": 25, "colour_up_to": 100},
            {"sb": 100, "bb": 200, "ante": 200, "ante_type": "bb", "minutes": 20},
        ],
    },
}
PLAYERS = {"1": "ANA", "2": "BEN", "3": "CHO", "4": "DEV", "5": "EVA", "6": "FYN"}
HOLE = ("Ah", "Kd", "7c", "2s", "Qh", "Jd", "9c", "3s", "8h", "Td", "4c", "5s")


class _Story:
    def __init__(self, folder: Path) -> None:
        self.journal = Journal.open(
            folder / "journal.sqlite", clock=SystemClock(), station_id="T12", create=True
        )
        recorder = Recorder(self.journal)
        recorder.recover()
        self.clock = FakeClock(1000.0)
        self.inbox = Inbox()
        self.sink = Recording()
        self.core = Core(
            CoreParts(
                recorder=recorder,
                inbox=self.inbox,
                display=self.sink,
                notifier=Notifier({}),
                commands=DisplayCommands(StationOps(recorder), PeopleConfig()),
                settler=ZoneSettler(10),
                clock=self.clock,
            ),
            (),
        )
        self._ids = 0

    def table(self, *events: InputEvent, every: float = 2.0) -> None:
        for event in events:
            self.clock.advance(every)
            self.core.record(event, "table", self.clock())

    def centre(self, kind: str, **body: Any) -> None:
        self._ids += 1
        self.inbox.put(received(self._ids, kind, body))
        self.serve()

    def serve(self) -> None:
        """Let the core's loop run once: the status (the clock's time, the centre's words) is
        published as on a live table."""
        self.clock.advance(1.0)
        self.inbox.put(Stop("shot"))
        self.core.run()

    def now(self) -> Seen:
        """What the screens show now: the last snapshot with the latest status."""
        last = self.sink.seen[-1]
        return Seen(last.snapshot, self.sink.floor, self.sink.diag, self.sink.status)

    def close(self) -> None:
        self.journal.close()


def _deal(cards: Iterable[str]) -> list[InputEvent]:
    return [Draw(Card.parse(c)) for c in cards]


def tournament_cases() -> dict[str, tuple[NavState, Seen]]:
    """(screen, what it was given) for each tournament shot."""
    with tempfile.TemporaryDirectory(prefix="station-tournament-shots-") as tmp:
        story = _Story(Path(tmp))
        try:
            return _play(story)
        finally:
            story.close()


def _play(story: _Story) -> dict[str, tuple[NavState, Seen]]:
    dealer, shots = NavState(), {}
    _, setup = event_from_dict(SETUP)
    story.table(setup)
    story.centre("tournament.seat_draw", seats=PLAYERS, event="E7")
    story.centre("tournament.clock", event="E7", level=1, remaining_s=725, paused=False)
    story.table(Zone(2, 25), Zone(3, 50))
    story.serve()
    shots["tournament-clock"] = (dealer, story.now())
    story.table(KeyPress(Key.NEW_HAND), *_deal(HOLE), every=1.0)
    story.table(Zone(4, 150), KeyPress(Key.FOLD, seat=5))
    story.clock.advance(720.0)  # level 1 ends while the hand is played
    story.table(Zone(6, 150))
    story.serve()
    shots["tournament-level-ends-in-hand"] = (dealer, story.now())
    story.table(KeyPress(Key.FOLD, seat=1), KeyPress(Key.FOLD, seat=2), KeyPress(Key.FOLD, seat=3))
    story.table(Zone(4, 0), Zone(6, 0), *_deal(("6d", "Kh", "Ks", "2c")))
    story.table(KeyPress(Key.CHECK, seat=4), Zone(6, 300), KeyPress(Key.FOLD, seat=4), Zone(6, 0))
    story.centre("tournament.move_out", player="FYN", seat=6, to_table="T07", to_seat=2)
    story.centre("tournament.move_in", player="GUS", seat=6, from_table="T03", chips=12400)
    shots["tournament-move"] = (dealer, story.now())
    story.table(SeatSensor(6, False))
    story.table(SeatSensor(6, True))
    story.centre("tournament.hand_for_hand", on=True, round=1)
    shots["tournament-hand-for-hand"] = (dealer, story.now())
    story.centre("tournament.hand_for_hand", on=False)
    story.centre("tournament.clock", event="E7", level=2, remaining_s=312, paused=True)
    shots["tournament-clock-stopped"] = (dealer, story.now())  # the floor paused the event
    story.centre("tournament.clock", event="E7", level=3, remaining_s=484, paused=False)
    shots["tournament-break"] = (dealer, story.now())
    floor = NavState(Screen.FLOOR, role=PadAccess.FLOOR, floor=FloorCursor("incidents"))
    shots["tournament-floor-list"] = (floor, story.now())
    shots["tournament-diagnostics"] = (
        NavState(Screen.DIAG, role=PadAccess.TECHNICIAN, diag=DiagCursor("sys")),
        story.now(),
    )
    return shots
