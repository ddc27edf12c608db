"""The emulated table with the daemon in this process, dealt by the demo's emulated dealer: the
benches that look inside the daemon (latency, soak). Edge adapter (threads, ptys, files).

Everything `station demo` runs, nothing left out: the emulated shoe and bet-zone board behind
real ptys, the key panel and sensors on gpiozero mock pins, the real SQLite journal, and the
real display thread on SDL's dummy driver. The core runs on the calling thread, as under
`station run`; the dealer plays on a thread of its own, clean hands of the PHH sample without
end (planned in batches, each with a new seed), until the bench's `keep_going` says stop.

The dealer's own records (the news it waits on, the live log) are trimmed between hands, so a
long run's memory is the daemon's, the emulators' and a constant for the dealer.
"""

from __future__ import annotations

import io
import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import TextIO

from firmware_bridge import Frame, FrameDecoder, wire
from firmware_bridge.messages import EventHeader, parse_event_header
from station.daemon.daemon import Daemon, Overrides
from station.daemon.news import Observer
from station.demo.dealer import HOLD_S, Dealer, DealerError, Watcher
from station.demo.livelog import LiveLog
from station.demo.plan import PlannedHand, plan_hands
from station.demo.rig import Rig, RigOptions
from station.demo.steps import Chips, Collect, MovePuck, Reseat
from station.display import DisplayThread
from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagnosticsData
from station.display.floor_view import FloorData
from station.engine.snapshot import TableSnapshot

BATCH = 50  # hands planned at a time
SETTLE_MS = 40  # the host's bet-zone settling (the board itself waits 150 ms): as the demo
# A key's hold under time compression: it must outlast the contact's chatter (about 4 ms) and
# the compressed debounce after it, with a margin for the dealer thread's timing.
MIN_HOLD_S = 0.02


def endless_hands(seed: int = 1, batch: int = BATCH) -> Iterator[PlannedHand]:
    """Clean hands of the PHH sample, numbered from 1, for as long as they are wanted.

    `plan_hands` plans a batch from an empty table; between batches the dealer collects what
    the last hand left in the zones and leaves the puck where it already is."""
    zones: dict[int, int] = {}
    puck: int | None = None
    number = 0
    for k in itertools.count():
        for hand in plan_hands(batch, seed + k, inject=False):
            steps = list(hand.steps)
            if hand.number == 1:
                steps = [s for s in steps if not (isinstance(s, MovePuck) and s.seat == puck)]
                left = tuple(s for s, amount in sorted(zones.items()) if amount)
                if left:
                    steps.insert(0, Collect(left))
            for step in steps:
                if isinstance(step, Chips):
                    zones[step.seat] = step.amount
                elif isinstance(step, Collect):
                    zones.update(dict.fromkeys(step.seats, 0))
                elif isinstance(step, MovePuck):
                    puck = step.seat
            number += 1
            yield replace(hand, number=number, steps=tuple(steps))


def device_events(frame: bytes) -> list[tuple[int, EventHeader, bytes]]:
    """The device events in one frame an emulated device wrote: (type, header, body)."""
    out: list[tuple[int, EventHeader, bytes]] = []
    for item in FrameDecoder().feed(frame, 0.0):
        if isinstance(item, Frame) and item.type in wire.EVENT_TYPES:
            parsed = parse_event_header(item.payload)
            if parsed is not None:
                out.append((item.type, *parsed))
    return out


class TimedDisplay:
    """The real display thread behind the core's publish hook, with the time of each publish
    (`published_at`) and the display version it got, for the latency bench."""

    def __init__(self, thread: DisplayThread, clock: Callable[[], float]) -> None:
        self.thread = thread
        self.clock = clock
        self.published_at = 0.0
        self.version = 0

    def publish(self, snapshot: TableSnapshot) -> int:
        self.version = self.thread.publish(snapshot)
        self.published_at = self.clock()
        return self.version

    def publish_floor(self, data: FloorData) -> None:
        self.thread.publish_floor(data)

    def publish_diagnostics(self, data: DiagnosticsData) -> None:
        self.thread.publish_diagnostics(data)

    def publish_status(self, status: StationStatus) -> None:
        self.thread.publish_status(status)

    @property
    def alive(self) -> bool:
        return self.thread.alive


@dataclass
class Played:
    """What the dealer got through: the hands dealt, and why it stopped if it failed."""

    hands: int = 0
    error: str = ""


@dataclass
class BenchTable:
    """The emulated table in `folder` with the daemon on it; `play()` deals until told to stop."""

    folder: Path
    seed: int = 1
    observers: list[Observer] = field(default_factory=list)
    time_scale: float = 1.0  # RigOptions.time_scale: 1 deals at the table's own timing

    def __post_init__(self) -> None:
        self.clock: Callable[[], float] = time.monotonic
        self.hands = endless_hands(self.seed)
        self.first = next(self.hands)
        setup = next(s for s in self.first.steps if isinstance(s, Reseat)).setup
        options = RigOptions(settle_ms=SETTLE_MS, display="dummy", time_scale=self.time_scale)
        self.rig = Rig(self.folder, setup, options)
        self.display = TimedDisplay(
            DisplayThread(self.rig.loaded.config.display.panel, "dummy"), self.clock
        )
        self.watcher = Watcher()
        self._log_out: TextIO = io.StringIO()
        self.livelog = LiveLog(self._log_out)

    def play(
        self,
        keep_going: Callable[[Played], bool],
        on_hand: Callable[[PlannedHand, Played], None] | None = None,
    ) -> Played:
        """Deal hands while `keep_going(played)`; the core runs on this thread meanwhile."""
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        played = Played()
        daemon: Daemon | None = None
        dealer: Dealer | None = None

        def stop(signum: int, frame: FrameType | None) -> None:
            del frame
            played.error = f"stopped by {signal.Signals(signum).name}"
            if dealer is not None:
                dealer.stopping.set()
            if daemon is not None:
                daemon.stop(played.error)

        # Before SDL starts: it takes SIGTERM and SIGINT for itself when nobody else has.
        previous = (
            {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
            if threading.current_thread() is threading.main_thread()
            else {}
        )
        try:
            self.rig.start()
            self.display.thread.start()
            if not self.display.thread.wait_frames(1, 10.0):
                raise RuntimeError(f"the display drew nothing: {self.display.thread.last_fault}")
            daemon = Daemon(
                self.rig.loaded,
                Overrides(
                    factories=self.rig.factories,
                    display=self.display,
                    environ={},
                    observers=[self.watcher, self.livelog, *self.observers],
                ),
            )
            daemon.open()
            dealer = Dealer(
                self.rig,
                daemon.inbox,
                self.watcher,
                self.livelog,
                clock=self.clock,
                hold_s=max(HOLD_S * self.time_scale, MIN_HOLD_S),
            )
            thread = threading.Thread(
                target=self._deal,
                args=(dealer, daemon, played, keep_going, on_hand),
                name="dealer",
                daemon=True,
            )
            thread.start()
            try:
                daemon.run()
            finally:
                dealer.stopping.set()
                thread.join(30)
        finally:
            if daemon is not None:
                daemon.close()
            self.display.thread.stop()
            self.rig.stop()
            for s, handler in previous.items():
                signal.signal(s, handler)
        return played

    def _deal(
        self,
        dealer: Dealer,
        daemon: Daemon,
        played: Played,
        keep_going: Callable[[Played], bool],
        on_hand: Callable[[PlannedHand, Played], None] | None,
    ) -> None:
        try:
            dealer.wait_links()
            for hand in itertools.chain((self.first,), self.hands):
                if not keep_going(played):
                    break
                dealer.play([hand])
                played.hands += 1
                self._trim(dealer)
                if on_hand is not None:
                    on_hand(hand, played)
        except DealerError as exc:
            played.error = played.error or str(exc)
        except Exception as exc:  # thread boundary: report, and stop the core either way
            played.error = f"the dealer failed: {exc!r}"
        finally:
            daemon.stop("bench finished")

    def _trim(self, dealer: Dealer) -> None:
        """Forget the news the dealer has read, all but the current hand's log, and the
        history of level changes gpiozero's mock pins keep for tests' `assert_states` (a list
        per pin that grows with every edge; real pins keep none)."""
        for factory in self.rig.factories.values():
            for pin in getattr(factory, "pins", {}).values():
                pin.clear_states()
        with self.watcher.cond:
            del self.watcher.news[: dealer.cursor]
            dealer.cursor = 0
        with self.livelog.lock:
            del self.livelog.hands[:-1]
            self._log_out.seek(0)
            self._log_out.truncate()
