"""The dealer signs in at the table: the name picked on the dealer screen, the PIN on the PIN
pad, a LOGIN row of role dealer (the dealer before logged out as replaced), the name on the
status strip, the hands they deal in the rake report under their name; dealing keeps the
session, 120 s without any input ends it (standards-ux requirements 6 and 30).

The first test drives the real path: a daemon on its thread with a real SQLite journal and the
pygame-ce display thread (SDL dummy driver) as its screen, touched where the screen drew its
buttons. The others run the core on the test's thread (real journal, recorder and commands;
a `NullSink` for the screen, `FakeClock` and the journal's `ManualClock` for time)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Sequence
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from hardware.inputs.clock import FakeClock
from station.cli import main as station_main
from station.daemon.core import IDLE_CHECK_S, Core
from station.daemon.daemon import Overrides
from station.daemon.items import GpioEdges, Inbox, PinCheck, Reply, Stop
from station.daemon.operations import IDLE_LOGOUT_S, StationOps
from station.daemon.sink import NullSink
from station.display.dealer_signin import AFTER_THIS_HAND, SIGN_IN, WRONG_PIN, pick_action
from station.display.model import ScreenModel
from station.display.nav import KeyIn, NavKey, Screen, Tap
from station.display.panel import PANEL_7
from station.display.pinpad import PadAccess
from station.display.thread import DisplayThread
from station.engine.events import InputEvent
from station.formats.session import read_session
from station.journal import ActorRole, Code, Journal, Recorder
from station.journal.clock import ManualClock
from station.journal.rows import LogRow
from station.people.staff import add_person
from station.people.staff import authenticate as auth
from tests.daemon.conftest import Running, offline_core, start_daemon, write_config
from tests.display.screen_check import problems, reads

ROOT = Path(__file__).resolve().parents[1]
# Hand 1 rakes 2 (dropped right), hand 2 rakes 3 with 5 dropped (a wrong drop).
RAKED = ROOT / "scenarios/MISC-TIME-COLLECTION/gn_wrong_drop_is_a_floor_matter.jsonl"
ADMIN_PIN, DANA_PIN, ED_PIN, FLOOR_PIN = "48151623", "27093614", "31852047", "16470293"


def _staff(journal: Journal) -> None:
    add_person(journal, "boss", ActorRole.ADMIN, ADMIN_PIN, by=None)
    admin = auth(journal, "boss", ADMIN_PIN, purpose="test")
    add_person(journal, "DANA", ActorRole.DEALER, DANA_PIN, by=admin)
    add_person(journal, "ED", ActorRole.DEALER, ED_PIN, by=admin)
    add_person(journal, "flo", ActorRole.FLOOR, FLOOR_PIN, by=admin)


def _rows(path: Path, code: Code) -> list[LogRow]:
    with Journal.open(path, clock=ManualClock()) as journal:
        return [r for r in journal.rows() if r.code == code]


# --- the whole path: screen, core, journal, report ------------------------------------------


class Screen7:
    """The display thread as a dealer uses it: touch what is drawn, then look again."""

    def __init__(self, thread: DisplayThread) -> None:
        self.thread = thread

    def on(self) -> Screen:
        return self.thread.nav.screen

    def model(self) -> ScreenModel:
        model = self.thread.last_model
        assert model is not None
        return model

    def touch(self, action: str) -> None:
        """A finger on the button drawn for `action` (look with `shows` for what it did)."""
        x, y = self.model().target(action).rect.center
        self.thread.post_input(Tap(x, y))

    def pin(self, digits: str) -> None:
        """Digits keyed on the PIN pad, each seen as one more star, then OK."""
        for n, digit in enumerate(digits, start=1):
            self.thread.post_input(KeyIn(digit))
            assert self.shows(" ".join("*" * n)), n
        self.thread.post_input(KeyIn(NavKey.SELECT))

    def shows(self, text: str, timeout_s: float = 10.0) -> bool:
        """`text` comes on the screen (the core publishes, the thread redraws) in time."""
        for _ in range(int(timeout_s / 0.05)):
            model = self.thread.last_model
            if model is not None and reads(model, text):
                return True
            self.thread.wait_frames(self.thread.frames + 1, timeout=0.05)
        return False


def test_a_dealer_signs_in_by_name_and_pin_on_the_screen_and_the_rake_report_names_them(
    tmp_path: Path, daemons: list[Running]
) -> None:
    journal_path = tmp_path / "journal.sqlite"
    with Journal.open(journal_path, clock=ManualClock(), station_id="T07", create=True) as j:
        _staff(j)
        StationOps(Recorder(j)).login("ED", ED_PIN)  # the dealer going on break
    thread = DisplayThread(PANEL_7, "dummy").start()
    try:
        running = start_daemon(write_config(tmp_path), Overrides(display=thread, environ={}))
        daemons.append(running)
        thread.sign_in = running.daemon.sign_in_dealer  # as `Daemon._open_display` wires it
        screen = Screen7(thread)
        assert screen.shows("ED"), "the dealer signed in shows on the status strip"
        assert "nav:signin" in screen.model().actions()

        screen.touch("nav:signin")  # the name on the strip opens the sign-in
        assert screen.shows("DEALER NOW: ED") and screen.on() is Screen.SIGNIN
        assert reads(screen.model(), "TAP YOUR NAME")
        assert problems(screen.model(), PANEL_7) == []
        screen.touch(pick_action(0))  # DANA (the names in order)
        assert screen.shows("DEALER PIN · DANA") and screen.on() is Screen.PIN

        screen.pin("11223344")  # a wrong PIN: said in words, nobody signed in
        assert screen.shows(WRONG_PIN) and screen.on() is Screen.PIN
        assert problems(screen.model(), PANEL_7) == []
        screen.pin(DANA_PIN)
        assert screen.shows("DANA"), "the new dealer's name on the strip"
        assert screen.on() is Screen.DEALER
        assert not reads(screen.model(), "ED") and not reads(screen.model(), SIGN_IN)
        assert problems(screen.model(), PANEL_7) == []
        assert running.stop() == "test over"
    finally:
        thread.stop()

    logins = [(r.actor, r.data()["role"]) for r in _rows(journal_path, Code.LOGIN)]
    assert logins == [("ED", "dealer"), ("DANA", "dealer")]
    assert [(r.actor, r.data()["reason"]) for r in _rows(journal_path, Code.LOGOUT)] == [
        ("ED", "replaced")
    ]
    failed = _rows(journal_path, Code.AUTH_FAILED)
    assert [(r.actor, r.data()["purpose"]) for r in failed] == [("DANA", "dealer sign-in")]

    # DANA deals two raked hands (the station restarted: her session goes on); the report.
    clock = ManualClock()
    with Journal.open(journal_path, clock=clock) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        assert recorder.op_state().dealer == "DANA"
        for line in read_session(RAKED).lines:
            recorder.record(line.event, actor="table", role=ActorRole.DEVICE, at=line.t)
    out = io.StringIO()
    with redirect_stdout(out):
        code = station_main(
            ["report", "rake", "--journal", str(journal_path), "--tz", "UTC", "--by", "dealer",
             "--format", "json"]
        )  # fmt: skip
    assert code == 0
    rows = json.loads(out.getvalue())["rows"]
    assert [(r["dealer"], r["hands_raked"], r["rake"], r["wrong_drops"]) for r in rows] == [
        ("DANA", 2, 5, 1)
    ]


# --- the core on the test's thread ---------------------------------------------------------


@dataclass
class Station:
    journal: Journal
    core: Core
    inbox: Inbox
    sink: NullSink
    clock: FakeClock  # the core's
    jclock: ManualClock  # the journal's

    def wait(self, seconds: float) -> None:
        """Time passes with nothing happening at the table, then the core's timers run."""
        self.clock.advance(seconds)
        self.jclock.advance(seconds)
        self.serve()

    def deal(self, events: Sequence[InputEvent], every_s: float) -> None:
        """The table's inputs, one each `every_s`, recorded by the core as they arrive."""
        for event in events:
            self.clock.advance(every_s)
            self.jclock.advance(every_s)
            self.core.record(event, "table", self.clock())
            self.serve()

    def serve(self, *items: object) -> str:
        """Run the core loop over the items, and its timers once after them (an item that
        does nothing here, GPIO edges without GPIO, stands in when there are none)."""
        for item in items or (GpioEdges(),):
            self.inbox.put(item)  # type: ignore[arg-type]
        self.inbox.put(Stop("served"))
        return self.core.run()

    def sign_in(self, name: str, pin: str) -> Reply:
        reply = Reply()
        self.serve(PinCheck(PadAccess.DEALER, pin, reply, person=name))
        return reply


@pytest.fixture
def station(tmp_path: Path) -> Iterator[Station]:
    jclock = ManualClock()
    journal = Journal.open(tmp_path / "journal.sqlite", clock=jclock, station_id="T07", create=True)
    try:
        _staff(journal)
        recorder = Recorder(journal)
        recorder.recover()
        core, inbox, sink, clock = offline_core(recorder)
        yield Station(journal, core, inbox, sink, clock, jclock)
    finally:
        journal.close()


def _logouts(station: Station) -> list[tuple[str, str]]:
    return [(r.actor, r.data()["reason"]) for r in station.journal.rows() if r.code == Code.LOGOUT]


def test_dealing_keeps_the_dealer_signed_in_and_120_s_without_any_input_signs_them_out(
    station: Station,
) -> None:
    assert station.sign_in("DANA", DANA_PIN).ok
    assert station.sink.status.dealer == "DANA"
    assert station.sink.status.dealers == ("DANA", "ED")  # whom the sign-in page offers
    events = [line.event for line in read_session(RAKED).lines]
    # Two hands over ten minutes, never more than 100 s between the table's inputs.
    station.deal(events, every_s=min(100.0, 600.0 / len(events)))
    station.wait(IDLE_CHECK_S)
    assert station.sink.status.dealer == "DANA" and _logouts(station) == []
    station.wait(IDLE_LOGOUT_S - 2 * IDLE_CHECK_S)  # quiet, but not yet for 120 s
    assert station.sink.status.dealer == "DANA"
    station.wait(2 * IDLE_CHECK_S)  # now 120 s and more without an input or a key
    assert _logouts(station) == [("DANA", "idle")]
    assert station.sink.status.dealer == ""
    assert station.core.recorder.op_state().dealer is None


def test_a_wrong_pin_a_lockout_a_floor_person_and_a_hand_in_play_are_refused_in_words(
    station: Station,
) -> None:
    wrong = station.sign_in("DANA", "99887766")
    assert (wrong.ok, wrong.words) == (False, WRONG_PIN)
    for _ in range(4):
        station.sign_in("DANA", "99887766")
    locked = station.sign_in("DANA", DANA_PIN)  # the right PIN, while locked out
    assert (locked.ok, locked.words) == (False, "LOCKED OUT · TRY IN 30 S")  # 5 wrong: 30 s
    floor = station.sign_in("flo", FLOOR_PIN)
    assert (floor.ok, floor.words) == (False, "NOT A DEALER")
    assert station.core.recorder.op_state().dealer is None and station.sink.status.dealer == ""

    assert station.sign_in("ED", ED_PIN).ok
    events = [line.event for line in read_session(RAKED).lines]
    station.deal(events[:8], every_s=1.0)  # the first hand is dealt
    midhand = station.sign_in("DANA", DANA_PIN)
    assert (midhand.ok, midhand.words) == (False, AFTER_THIS_HAND)
    assert station.core.recorder.op_state().dealer == "ED"
    logins = [r.actor for r in station.journal.rows() if r.code == Code.LOGIN]
    assert logins == ["ED"]
