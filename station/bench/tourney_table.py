"""An emulated tournament table: the demo's rig (the emulated shoe and bet-zone board behind real
ptys, the key panel, puck and seat sensors on mock pins) with `station run`'s own Daemon on it
forwarding its journal to a site's broker, and a worker that is the table's dealer and players.
Edge adapter (threads, ptys, mock pins).

The worker seats and unseats players as the station's tournament desk says (a player ordered
out stands up between hands, a player sent here sits down in his seat, a player out leaves:
the seat sensors, which the station confirms moves by), and deals the hands it is asked for
(`deal`): the next hand as the station's screen shows it (button, seats dealt in, blinds due,
chips), planned by `station.bench.tourney_hands`, carried out step by step on the emulated
hardware by the demo's dealer, which waits for each step's input to be journaled. While the
table holds for hand-for-hand it waits for the centre's release before NEW_HAND.
"""

from __future__ import annotations

import io
import queue
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from station.bench.tourney_hands import PlannedHand, lineup, play, posting, started
from station.daemon.daemon import Daemon, Overrides
from station.daemon.news import News, OpsNews, Recorded
from station.demo.dealer import HOLD_S, Dealer, DealerError, Watcher
from station.demo.livelog import LiveLog
from station.demo.rig import FleetLink, Rig, RigOptions
from station.demo.steps import (
    Chips,
    Collect,
    Deal,
    MovePuck,
    Press,
    Step,
    chip_unit,
    forced_bet_chips,
)
from station.engine.cards import STANDARD_DECK
from station.engine.decisions import HandEnd
from station.engine.events import (
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    SeatSensor,
    Setup,
    Stakes,
    Zone,
)
from station.engine.lineup import button_draw_due
from station.engine.snapshot import TableSnapshot

TIME_SCALE = 0.1  # debounces and the board's and seat sensors' stable windows, compressed
WAIT_S = 60.0
SENSOR_S = 5.0


class TableError(RuntimeError):
    """The emulated table could not do what it was asked (the message says what)."""


@dataclass
class _Request:
    bust: bool
    loser: str = "shortest"
    done: threading.Event = field(default_factory=threading.Event)
    hand: PlannedHand | None = None
    error: str = ""


class _Latest:
    """The station's latest snapshot and hand ends, as its news tells (core thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.snapshot: TableSnapshot | None = None
        self.ends: list[HandEnd] = []

    def __call__(self, news: News) -> None:
        if isinstance(news, Recorded | OpsNews):
            with self.lock:
                self.snapshot = news.snapshot
                if isinstance(news, Recorded):
                    self.ends += [d for d in news.decisions if isinstance(d, HandEnd)]


class TourneyTable:
    def __init__(
        self,
        folder: Path,
        station_id: str,
        fleet: FleetLink | None,
        *,
        seats: int = 4,
        seed: int = 1,
        time_scale: float = TIME_SCALE,
    ) -> None:
        setup = Setup(
            game="nlhe",
            profile="RR11",
            stakes=Stakes(sb=25, bb=50),
            seats=dict.fromkeys(range(1, seats + 1), 1000),
            button=1,
        )
        options = RigOptions(
            settle_ms=40, display="none", time_scale=time_scale, station_id=station_id, fleet=fleet
        )
        self.station = station_id
        self.rig = Rig(folder, setup, options)
        self.rng = random.Random(seed)
        self.watcher = Watcher()
        self.livelog = LiveLog(io.StringIO())
        self.latest = _Latest()
        self.daemon: Daemon | None = None
        self.dealer: Dealer | None = None
        self.requests: queue.SimpleQueue[_Request] = queue.SimpleQueue()
        self.asked: list[_Request] = []
        self.sat: set[int] = set()  # seats whose sensor says a player sits there
        self.stopping = threading.Event()
        self.opened = threading.Event()
        self.errors: list[str] = []
        self._core: threading.Thread | None = None
        self._worker: threading.Thread | None = None
        self.hold_s = max(HOLD_S * time_scale, 0.02)

    # --- life -------------------------------------------------------------------------------

    def start(self) -> None:
        self.rig.start()
        self.rig.enrol_people()
        self.daemon = Daemon(
            self.rig.loaded,
            Overrides(
                factories=self.rig.factories,
                environ={},
                observers=[self.latest, self.watcher, self.livelog],  # latest first: it is read
                # as soon as the dealer sees the news
            ),
        )
        self._core = threading.Thread(target=self._serve, name=f"core-{self.station}", daemon=True)
        self._core.start()
        if not self.opened.wait(30) or self.errors:
            raise TableError(f"{self.station}: the daemon did not open: {self.errors}")
        self.dealer = Dealer(self.rig, self.daemon.inbox, self.watcher, self.livelog,
                             hold_s=self.hold_s)  # fmt: skip
        self.dealer.wait_links()
        self.dealer.sign_in()
        self._worker = threading.Thread(target=self._work, name=f"dealer-{self.station}",
                                        daemon=True)  # fmt: skip
        self._worker.start()

    def _serve(self) -> None:
        assert self.daemon is not None
        try:
            self.daemon.open()
            self.opened.set()
            self.daemon.run()
        except BaseException as exc:  # thread boundary: the test reads it
            self.errors.append(f"daemon: {exc!r}")
        finally:
            self.opened.set()
            self.daemon.close()

    def stop(self) -> None:
        self.stopping.set()
        if self.dealer is not None:
            self.dealer.stopping.set()
        if self._worker is not None:
            self._worker.join(15)
        if self.daemon is not None:
            self.daemon.stop("test over")
        if self._core is not None:
            self._core.join(15)
        self.rig.stop()

    # --- asking -----------------------------------------------------------------------------

    def deal(self, *, bust: bool, loser: str = "shortest") -> threading.Event:
        """Ask for the next hand (busting a player or not: `tourney_hands.play`); the
        event is set once it ended."""
        req = _Request(bust, loser)
        self.asked.append(req)
        self.requests.put(req)
        return req.done

    def results(self) -> list[PlannedHand | None]:
        """The hands dealt so far (raises the first dealing error)."""
        for req in self.asked:
            if req.error:
                raise TableError(f"{self.station}: {req.error}")
        return [r.hand for r in self.asked if r.done.is_set()]

    def describe(self) -> str:
        """The table as its screen and tournament desk stand (for a failure's message)."""
        snap = self.snapshot()
        state = self._desk().state  # type: ignore[attr-defined]
        return (
            f"{self.station}: {snap.next_step if snap else '?'}; hold {state.hold()}"
            f" (h4h {state.h4h}, next round {state.next_round}, released {state.released},"
            f" holding {state.holding}); seated sensors {sorted(self.sat)}; errors {self.errors}"
        )

    def snapshot(self) -> TableSnapshot | None:
        with self.latest.lock:
            return self.latest.snapshot

    # --- the worker -------------------------------------------------------------------------

    def _work(self) -> None:
        while not self.stopping.is_set():
            try:
                self._seats()
                self._draw_for_button()
                try:
                    req = self.requests.get(timeout=0.05)
                except queue.Empty:
                    continue
                try:
                    req.hand = self._hand(req.bust, req.loser)
                except (DealerError, TableError) as exc:
                    req.error = str(exc)
                finally:
                    req.done.set()
            except Exception as exc:  # thread boundary: keep the table alive, report it once
                said = f"dealer: {exc!r}"
                if said not in self.errors:
                    self.errors.append(said)
                time.sleep(0.1)

    def _desk(self) -> object:
        assert self.daemon is not None
        assert self.daemon.core is not None
        return self.daemon.core.tourney

    def _seats(self) -> None:
        """Players sit down and stand up as the tournament desk says (between hands)."""
        desk = self._desk()
        state = desk.state  # type: ignore[attr-defined]
        roster, leaving, arriving = dict(state.roster), dict(state.leaving), dict(state.arriving)
        want = (set(roster) | set(arriving)) - set(leaving)
        # a seat whose old player is still there waits for him to leave first
        want -= {s for s in arriving if s in leaving}
        for seat in sorted(self.sat - want):
            self._sensor(seat, False)
        for seat in sorted(want - self.sat):
            self._sensor(seat, True)

    def _sensor(self, seat: int, sits: bool) -> None:
        """A player sits down (or stands up) at `seat`; returns once the station journaled the
        seat sensor's change."""
        panel = self.rig.panel
        assert panel is not None
        start = len(self.watcher.news)
        panel.level(f"occupancy.{seat}", sits, time.monotonic())
        while (due := panel.next_due()) is not None:
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            panel.run_until(max(time.monotonic(), due + 0.01))
        if sits:
            self.sat.add(seat)
        else:
            self.sat.discard(seat)

        def seen(news: Sequence[News]) -> int | None:
            for i, n in enumerate(news):
                if isinstance(n, Recorded) and n.event == SeatSensor(seat, sits):
                    return i
            return None

        try:
            self.watcher.wait(start, seen, SENSOR_S)
        except DealerError:
            raise TableError(f"the seat sensor of seat {seat} was not journaled") from None

    def _hand(self, bust: bool, loser: str) -> PlannedHand:
        assert self.dealer is not None
        desk = self._desk()
        deadline = time.monotonic() + WAIT_S
        while desk.state.hold() or not self._ready():  # type: ignore[attr-defined]
            if time.monotonic() > deadline or self.stopping.is_set():
                raise TableError("the table never got ready to deal")
            self._seats()
            self._draw_for_button()
            time.sleep(0.05)
        snap = self.snapshot()
        assert snap is not None
        line = lineup(snap)
        if line is None:
            raise TableError("no hand to deal")
        ends = len(self.latest.ends)
        for step in self._steps(posting(line)):
            self.dealer.step(step)
        now = self.snapshot()
        assert now is not None
        if now.hand == snap.hand:
            raise TableError(f"NEW_HAND did not start hand {snap.hand + 1}: {now.next_step}")
        planned = play(started(line, now), self.rng, bust=bust, loser=loser)
        for step in self._steps(planned.events, forced=False):
            self.dealer.step(step)
        deadline = time.monotonic() + WAIT_S
        while len(self.latest.ends) <= ends:
            if time.monotonic() > deadline:
                raise TableError("the hand did not end")
            time.sleep(0.02)
        return planned

    def _draw_for_button(self) -> None:
        """A table seated by a draw has no button: the dealer turns a card face up to each
        player from the shoe, the high card takes it (TOURN-BUTTON), as the station asks."""
        assert self.dealer is not None
        snap = self.snapshot()
        if snap is None or snap.tournament is None or snap.next_hand is None:
            return
        nh = snap.next_hand
        if nh.button is not None or len(nh.dealt) < 2 or not all(s in self.sat for s in nh.dealt):
            return
        if not snap.next_step.startswith("DRAW FOR THE BUTTON"):
            return
        assert self.daemon is not None
        assert self.daemon.core is not None
        table = self.daemon.core.recorder.table
        for card in self.rng.sample(STANDARD_DECK, len(STANDARD_DECK)):
            if not button_draw_due(table):
                return
            self.dealer.step(Deal(card, face_up=True))  # returns once the station journaled it

    def _ready(self) -> bool:
        snap = self.snapshot()
        if snap is None or snap.next_hand is None or snap.next_hand.button is None:
            return False
        if len(snap.next_hand.dealt) < 2 or snap.tournament is None:
            return False
        return all(s in self.sat for s in snap.next_hand.dealt)

    def _steps(self, events: Sequence[InputEvent], *, forced: bool = True) -> list[Step]:
        """The dealer's steps for `events`; `forced`: the zones before NEW_HAND are the
        blinds (they show the hand's smallest chip)."""
        assert self.dealer is not None
        steps: list[Step] = []
        amounts = [e.amount for e in events if isinstance(e, Zone) and e.amount > 0]
        unit = chip_unit(amounts)
        for e in events:
            match e:
                case Puck(seat=seat):
                    if self.dealer.puck != seat:
                        steps.append(MovePuck(seat))
                case Zone(seat=seat, amount=0):
                    if steps and isinstance(steps[-1], Collect):
                        steps[-1] = Collect((*steps[-1].seats, seat))
                    else:
                        steps.append(Collect((seat,)))
                case Zone(seat=seat, amount=amount):
                    chips = forced_bet_chips(amount, unit) if forced else None
                    steps.append(Chips(seat, amount, chips))
                case Draw(card=card) if card is not None:
                    steps.append(Deal(card))
                case KeyPress(key=key):
                    forced = forced and key is not Key.NEW_HAND
                    steps.append(Press(e))
                case _:
                    raise TableError(f"no step for {e}")
        return steps
