"""The emulated dealer (and floor supervisor): performs each planned step with its hands on the
emulated hardware, then waits until the station has journaled what the step produced, as a
dealer watches the screen before the next card. Edge adapter (threads, emulators, mock pins).

Cards go through the emulated shoe's mouth, chips into the emulated board's zones, keys are
pressed (with contact bounce) on the mock pins the daemon reads; the dealer signs in before the
first hand, and the floor when it clears CALL FLOOR, on the same path as the display's PIN pad
and sign-in (the PIN check the core answers, then the display's command). Nothing reaches the
engine any other way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import assert_never

from station.daemon.items import (
    Device,
    DisplayCommand,
    Inbox,
    PinCheck,
    Reply,
)
from station.daemon.items import (
    Reseat as ReseatItem,
)
from station.daemon.news import LinkNews, News, OpsNews, PanelNews, Recorded
from station.demo.livelog import LiveLog
from station.demo.plan import PlannedHand
from station.demo.rig import DEALER_NAME, Rig
from station.demo.steps import (
    Chips,
    Collect,
    Deal,
    DealTag,
    DropRake,
    FloorClears,
    MovePuck,
    Narrate,
    Press,
    RakeChips,
    Replug,
    Reseat,
    Sit,
    Step,
    Unplug,
    buttons,
    chip_split,
    expected_events,
)
from station.display.nav import ClearFloorCall, SignedIn, SignedOut
from station.display.pinpad import PadAccess
from station.engine.decisions import HandEnd
from station.engine.events import (
    ClockSet,
    Draw,
    InputEvent,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Zone,
)

STEP_TIMEOUT_S = 10.0
HOLD_S = 0.04  # a key press: longer than the 20 ms debounce
BURST_S = 0.01  # contact bounce of one press or release, driven in one go
LOOK_S = 1.0  # a dealer who sees nothing happen on the screen presses again
PRESSES = 3
PACE_S = 0.8  # a live dealer's step at --speed 1
MAX_BACKLOG = 16


class DealerError(RuntimeError):
    """A step did not produce what it should have within the time limit."""


def matches(expected: InputEvent, got: InputEvent) -> bool:
    match expected:
        case Draw():
            return isinstance(got, Draw) and (got.tag, got.face_up) == (
                expected.tag,
                expected.face_up,
            )
        case Zone():
            return isinstance(got, Zone) and (got.seat, got.amount) == (
                expected.seat,
                expected.amount,
            )
        case KeyPress():
            return (
                isinstance(got, KeyPress)
                and got.key is expected.key
                and (expected.seat is None or got.seat == expected.seat)
                and (expected.action is None or got.action is expected.action)
            )
        case Puck():
            return isinstance(got, Puck) and got.seat == expected.seat
        case RakeZone():
            return isinstance(got, RakeZone) and got.amount == expected.amount
        case Setup() | SeatSensor() | ClockSet():
            return got == expected
        case _:
            assert_never(expected)


class Watcher:
    """The core's news as a list the dealer can wait on (fed on the core thread)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.news: list[News] = []

    def __call__(self, news: News) -> None:
        with self.cond:
            self.news.append(news)
            self.cond.notify_all()

    def wait(
        self, start: int, found: Callable[[Sequence[News]], int | None], timeout_s: float
    ) -> int:
        """Wait until `found(news[start:])` gives an index; returns the absolute index after."""
        deadline = time.monotonic() + timeout_s
        with self.cond:
            while True:
                hit = found(self.news[start:])
                if hit is not None:
                    return start + hit + 1
                left = deadline - time.monotonic()
                timed_out = left <= 0 or not self.cond.wait(left)
                if timed_out and found(self.news[start:]) is None:
                    raise DealerError("timed out")


class Dealer:
    def __init__(
        self,
        rig: Rig,
        inbox: Inbox,
        watcher: Watcher,
        livelog: LiveLog,
        *,
        speed: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        hold_s: float = HOLD_S,
    ) -> None:
        self.rig = rig
        self.inbox = inbox
        self.watcher = watcher
        self.log = livelog
        self.speed = speed
        self.clock = clock
        self.hold_s = hold_s  # a key press (more than the pin map's key debounce)
        self.cursor = 0
        self.blind: list[InputEvent] = []
        self.puck: int | None = None
        self.stopping = threading.Event()

    # --- the programme ----------------------------------------------------------------------

    def wait_links(self) -> None:
        for device in (Device.SHOE, Device.BETZONES):
            self._wait_link(device, up=True, since=0)

    def play(self, hands: Sequence[PlannedHand]) -> None:
        for hand in hands:
            self.log.hand_start(hand)
            for step in hand.steps:
                if self.stopping.is_set():
                    raise DealerError("stopped")
                try:
                    self.step(step)
                except DealerError as exc:
                    raise DealerError(f"hand {hand.number}: {_describe(step)}: {exc}") from None
                if self.speed > 0:
                    self.stopping.wait(PACE_S / self.speed)
            self.log.hand_done(hand)

    def step(self, step: Step) -> None:
        match step:
            case Narrate(text=text):
                self.log.narrate(text)
                return
            case Reseat(setup=setup):
                self.inbox.put(ReseatItem(setup, actor="floor"))
            case Chips(seat=seat):
                self.rig.zones.set_chips(seat, list(step.stack))
            case Collect(seats=seats):
                for seat in seats:
                    self.rig.zones.set_chips(seat, [])
            case Deal():
                if not self.rig.shoe.wait_for_room(MAX_BACKLOG, STEP_TIMEOUT_S):
                    raise DealerError("the shoe does not take cards")
                self.rig.shoe.draw(bytes.fromhex(step.tag), step.face_up)
                if not step.wait:
                    self.blind.extend(expected_events(step))
                    return
            case DealTag(tag=tag, face_up=face_up):
                if not self.rig.shoe.wait_for_room(MAX_BACKLOG, STEP_TIMEOUT_S):
                    raise DealerError("the shoe does not take cards")
                self.rig.shoe.draw(bytes.fromhex(tag), face_up)
            case Sit(seat=seat, occupied=occupied):
                panel = self.rig.panel
                assert panel is not None
                panel.level(f"occupancy.{seat}", occupied, self.clock())
                self._drive()
            case RakeChips(amount=amount):
                self.rig.zones.set_rake(list(chip_split(amount)))
            case Press(key=key):
                self._press(buttons(key), expected_events(step))
                return
            case MovePuck(seat=seat):
                self._move_puck(seat)
            case Unplug():
                start = len(self.watcher.news)
                self.log.unplugged()
                self.rig.shoe.unplug()
                self._wait_link(Device.SHOE, up=False, since=start)
                return
            case Replug():
                start = len(self.watcher.news)
                self.rig.shoe.replug()
                self._wait_link(Device.SHOE, up=True, since=start)
                self._wait_inputs(tuple(self.blind), ordered=True)
                self.blind = []
                return
            case FloorClears():
                self._floor_clears()
                return
            case DropRake():
                self._drop_rake()
                return
        self._wait_inputs(expected_events(step))

    # --- hands on the hardware --------------------------------------------------------------

    def _drive(self) -> None:
        """Drive the scheduled pin changes at their times. A press's or release's bounce burst
        goes out in one go: a thread held up in the middle of a burst would stretch the
        chatter into a real (and debounced-away) release."""
        panel = self.rig.panel
        assert panel is not None
        while (due := panel.next_due()) is not None:
            wait = due - self.clock()
            if wait > 0:
                self.stopping.wait(wait)  # a finger's pace, not a wait for a thread
            panel.run_until(max(self.clock(), due + BURST_S))

    def _tap(self, name: str) -> None:
        panel = self.rig.panel
        assert panel is not None
        panel.press(name, self.clock(), self.hold_s)
        self._drive()

    def _press(self, names: Sequence[str], expected: Sequence[InputEvent]) -> None:
        """Enter `names` on the panel, looking at the screen as a dealer does: a seat key
        again when the seat does not show as selected, the entry again when nothing happened."""
        for _ in range(PRESSES):
            start = len(self.watcher.news)
            for name in names:
                if name.startswith("SEAT_"):
                    self._select(int(name.removeprefix("SEAT_")))
                else:
                    self._tap(name)
            try:
                self._wait_inputs(expected, timeout_s=LOOK_S)
                return
            except DealerError:
                if any(isinstance(n, Recorded) for n in self.watcher.news[start:]):
                    raise  # something else was journaled: pressing again would be wrong
                self.log.line(f"  dealer sees no reaction and presses {' '.join(names)} again")
        raise DealerError(f"the panel did not take {' '.join(names)}")

    def _select(self, seat: int) -> None:
        for _ in range(PRESSES):
            start = len(self.watcher.news)
            self._tap(f"SEAT_{seat}")

            def shown(news: Sequence[News]) -> int | None:
                for i, n in enumerate(news):
                    if isinstance(n, PanelNews) and n.status.selected == seat:
                        return i
                return None

            try:
                self.watcher.wait(start, shown, LOOK_S)
                return
            except DealerError:
                continue
        raise DealerError(f"seat {seat} does not show as selected")

    def _move_puck(self, seat: int) -> None:
        panel = self.rig.panel
        assert panel is not None
        now = self.clock()
        if self.puck is not None:
            panel.level(f"puck.{self.puck}", False, now)
        panel.level(f"puck.{seat}", True, now + 0.01)
        self.puck = seat
        self._drive()

    def sign_in(self) -> None:
        """The demo's dealer signs in as the table's dealer, as on the dealer screen: the name
        picked, the PIN checked by the core (which journals the LOGIN), then SignedIn."""
        reply = Reply()
        self.inbox.put(PinCheck(PadAccess.DEALER, self.rig.dealer_pin, reply, person=DEALER_NAME))
        if not reply.wait(STEP_TIMEOUT_S):
            raise DealerError(f"the dealer sign-in was refused: {reply.words or 'no answer'}")
        self.inbox.put(DisplayCommand(SignedIn(PadAccess.DEALER)))
        self.log.line(f"  {DEALER_NAME} signs in as the dealer with a PIN")

    def _floor_clears(self) -> None:
        reply = Reply()
        self.inbox.put(PinCheck(PadAccess.FLOOR, self.rig.floor_pin, reply))
        if not reply.wait(STEP_TIMEOUT_S):
            raise DealerError("the floor PIN was refused")
        start = len(self.watcher.news)
        self.inbox.put(DisplayCommand(SignedIn(PadAccess.FLOOR)))
        self.inbox.put(DisplayCommand(ClearFloorCall(PadAccess.FLOOR)))
        self.cursor = self.watcher.wait(
            start,
            lambda news: next(
                (
                    i
                    for i, n in enumerate(news)
                    if isinstance(n, OpsNews) and not n.snapshot.floor_call
                ),
                None,
            ),
            STEP_TIMEOUT_S,
        )
        self.inbox.put(DisplayCommand(SignedOut(PadAccess.FLOOR)))
        self.log.floor_cleared()

    def _drop_rake(self) -> None:
        """Set aside what the house is due from the hand just ended (its DROP prompt and any
        time collected with it) in the rake zone, then drop it into the box."""
        ends = [
            d
            for n in self.watcher.news
            if isinstance(n, Recorded)
            for d in n.decisions
            if isinstance(d, HandEnd)
        ]
        rake = ends[-1].rake if ends else None
        due = rake.total + sum(rake.time.values()) if rake is not None else 0
        if due == 0:
            return
        self.rig.zones.set_rake(list(chip_split(due)))
        self._wait_inputs((RakeZone(due),))
        self.rig.zones.set_rake([])
        self._wait_inputs((RakeZone(0),))
        self.log.dropped(due)

    # --- waiting for the station ------------------------------------------------------------

    def _wait_link(self, device: Device, *, up: bool, since: int) -> None:
        def found(news: Sequence[News]) -> int | None:
            for i, n in enumerate(news):
                if isinstance(n, LinkNews) and n.device is device and n.up is up:
                    return i
            return None

        try:
            self.watcher.wait(since, found, STEP_TIMEOUT_S)
        except DealerError:
            state = "up" if up else "down"
            raise DealerError(f"the {device.value} link did not go {state}") from None

    def _wait_inputs(
        self,
        expected: Sequence[InputEvent],
        *,
        ordered: bool = False,
        timeout_s: float = STEP_TIMEOUT_S,
    ) -> None:
        """Wait until every expected input is journaled (after the cursor); in `ordered`
        mode they must arrive in this order (draws delivered after a replug)."""
        if not expected:
            return

        def found(news: Sequence[News]) -> int | None:
            left = list(expected)
            last = None
            for i, n in enumerate(news):
                if not isinstance(n, Recorded):
                    continue
                hit = next((j for j, e in enumerate(left) if matches(e, n.event)), None)
                if hit is None or (ordered and hit != 0):
                    continue
                left.pop(hit)
                last = i
                if not left:
                    return last
            return None

        try:
            self.cursor = self.watcher.wait(self.cursor, found, timeout_s)
        except DealerError:
            raise DealerError(f"the station did not journal {list(expected)}") from None


def _describe(step: Step) -> str:
    return type(step).__name__.lower()
