"""The light tournament station of `station bench tournament`: the station's own core parts - a
real SQLite journal, the recorder with the real rules engine, the real tournament desk that
carries out the centre's commands, and a real fleet forwarder (paho-mqtt, TLS client
certificate) - without the devices, the screens or the daemon's loop; the dealer's and the
sensors' inputs are recorded as the daemon records theirs (`Recorder.record`, then the desk's
`settle`). Edge adapter (threads, files, network).

`python -m station.bench.tourney_station SPEC WORKER` runs a group of them (SPEC is the bench's
JSON spec): each table deals a hand every `pace_s` once it is seated, a player going broke in a
`bust` share of them (`station.bench.tourney_hands`), seats and unseats players as its desk says
(the seat sensors' inputs), and holds while hand-for-hand says so. It prints `ready` once every
table is up, and stops on SIGTERM.
"""

from __future__ import annotations

import json
import queue
import random
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from station.bench.tourney_hands import lineup, play, posting, started
from station.config.model import FleetConfig
from station.daemon.tourney_desk import TourneyDesk
from station.engine.cards import STANDARD_DECK
from station.engine.decisions import Decision
from station.engine.events import Draw, InputEvent, SeatSensor, Setup, Stakes
from station.engine.lineup import button_draw_due
from station.fleet.factory import paho_factory
from station.fleet.forwarder import Forwarder
from station.fleet.messages import Command
from station.journal.clock import SystemClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal

SEATS = 10


class LightStation:
    def __init__(self, spec: dict[str, Any], station: str, seed: int) -> None:
        self.spec = spec
        self.id = station
        self.path = Path(spec["folder"]) / f"{station}.sqlite"
        certs = Path(spec["certs"])
        self.cfg = FleetConfig(
            spec["site"], "127.0.0.1", int(spec["port"]), certs / "ca.crt",
            certs / f"{station}.crt", certs / f"{station}.key",
        )  # fmt: skip
        self.rng = random.Random(seed)
        self.commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self.sat: set[int] = set()
        self.started = time.monotonic()
        self.last_t = 0.0
        self.ready = threading.Event()
        self.hands = 0

    def t(self) -> float:
        self.last_t = max(self.last_t, round(time.monotonic() - self.started, 3))
        return self.last_t

    def run(self, stop: threading.Event) -> None:
        journal = Journal.open(self.path, clock=SystemClock(), station_id=self.id, create=True)
        fwd = Forwarder(self.path, self.id, self.cfg, paho_factory, on_command=self.commands.put)
        journal.subscribe(lambda _row, _own: fwd.wake())
        try:
            recorder = Recorder(journal)
            recorder.recover()
            self.recorder = recorder
            self.desk = TourneyDesk(
                recorder, lambda e, actor: self._input(e, actor, ActorRole.STATION), self.t
            )
            if recorder.table.setup is None:  # the station's config: its table, before the draw
                seats = dict.fromkeys(range(1, SEATS + 1), 1000)
                setup = Setup("nlhe", "RR11", Stakes(sb=25, bb=50), seats, button=1)
                self._input(setup, "floor", ActorRole.STATION)
            fwd.start()
            self.ready.set()
            next_hand = time.monotonic()
            while not stop.is_set():
                self._commands(fwd)
                self._seats()
                self._draw_for_button()
                if time.monotonic() >= next_hand and self._ready():
                    self._hand()
                    next_hand = time.monotonic() + float(self.spec["pace_s"])
                else:
                    stop.wait(0.02)
        except Exception as exc:  # thread boundary: the bench's log says which table stopped
            print(f"table {self.id} stopped: {exc!r}", file=sys.stderr, flush=True)
            raise
        finally:
            fwd.stop()
            journal.close()

    def _input(self, event: InputEvent, actor: str, role: ActorRole) -> list[Decision]:
        decisions = self.recorder.record(event, actor=actor, role=role, at=self.t())
        self.desk.settle(decisions)
        return decisions

    def _commands(self, fwd: Forwarder) -> None:
        while True:
            try:
                command = self.commands.get_nowait()
            except queue.Empty:
                return
            fwd.reply(self.desk.carry_out(command))

    def _seats(self) -> None:
        """The seat sensors: players sit and stand as the desk says, between hands."""
        if self._in_hand():
            return
        state = self.desk.state
        leaving, arriving = dict(state.leaving), dict(state.arriving)
        want = (set(state.roster) | set(arriving)) - set(leaving)
        want -= {s for s in arriving if s in leaving}
        for seat in sorted(self.sat - want):
            self.sat.discard(seat)
            self._input(SeatSensor(seat, False), "table", ActorRole.DEVICE)
        for seat in sorted(want - self.sat):
            self.sat.add(seat)
            self._input(SeatSensor(seat, True), "table", ActorRole.DEVICE)

    def _draw_for_button(self) -> None:
        """A table seated by a draw has no button: the dealer turns a card face up to each
        player, the high card takes it (TOURN-BUTTON), as the station's prompt asks."""
        table = self.recorder.table
        if self._in_hand() or not button_draw_due(table):
            return
        nh = self.recorder.snapshot().next_hand
        if nh is None or len(nh.dealt) < 2 or not all(s in self.sat for s in nh.dealt):
            return
        for card in self.rng.sample(STANDARD_DECK, len(STANDARD_DECK)):
            self._input(Draw(card, face_up=True), "table", ActorRole.DEVICE)
            if table.button is not None:
                return

    def _in_hand(self) -> bool:
        hand = self.recorder.table.hand
        return hand is not None and hand.result is None

    def _ready(self) -> bool:
        if self.desk.state.hold() or self._in_hand():
            return False
        snap = self.recorder.snapshot()
        nh = snap.next_hand
        if snap.tournament is None or nh is None or nh.button is None or len(nh.dealt) < 2:
            return False
        if snap.tournament.waiting or (snap.tournament.paused and self.hands == 0):
            return False  # the floor has not started the clock: no shuffle-up-and-deal yet
        return all(s in self.sat for s in nh.dealt)

    def _hand(self) -> None:
        line = lineup(self.recorder.snapshot())
        if line is None:
            return
        for event in posting(line):
            self._input(event, "table", ActorRole.DEVICE)
        bust = self.rng.random() < float(self.spec["bust"])
        hand = started(line, self.recorder.snapshot())
        for event in play(hand, self.rng, bust=bust).events:
            self._input(event, "table", ActorRole.DEVICE)
        self.hands += 1
        if self._in_hand():  # the station saw another hand than the one dealt: say so, once
            snap = self.recorder.snapshot()
            print(f"table {self.id}: hand {snap.hand} did not end ({snap.next_step}); the table"
                  " stops dealing", file=sys.stderr, flush=True)  # fmt: skip


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    worker = int(argv[1])
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    names = spec["workers"][worker]
    stations = [LightStation(spec, s, seed=int(spec["seed"]) * 1000 + i) for i, s in
                enumerate(names)]  # fmt: skip
    threads = [
        threading.Thread(target=s.run, args=(stop,), name=f"table-{s.id}", daemon=True)
        for s in stations
    ]
    for th in threads:
        th.start()
    for s in stations:
        if not s.ready.wait(60):
            print(f"table {s.id} did not start", file=sys.stderr)
            return 1
    print("ready", flush=True)
    stop.wait()
    for th in threads:
        th.join(30)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
