"""Live updates for the console: one thread LISTENs to the central store's notifications
(`fleet_rows` from the ingest's commits, `fleet_alarms`, `fleet_commands` from the commands
table's trigger), folds the new rows (`Indexer`) and tells every open browser what changed
through a `Hub` (server-sent events). Edge adapter (a thread, PostgreSQL through psycopg 3).

Events, as `{"type": ..., "station": ...}`:
- `table`: something a table's tile shows changed; `urgent` when its operational state
  (CALL FLOOR, tilts, links, sign-ins) or its incidents did. A busy table's rows make a
  non-urgent event at most every `CALM_S`.
- `incident`: incidents opened or changed (`ids`).
- `command`: a console command was queued or answered (`id`, `state`).
- `alarm`: the ingest raised an alarm on a station's chain.
- `tournament`: an event changed (`event`): the tournament director
  (`station.central.tournament.director`) folded its tables' new rows and decided, or its clock
  moved on to a new level.

A notification lost while the connection was down is made up for by a full catch-up when the
thread reconnects and every `SWEEP_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Final

import psycopg

from station.central.console.indexer import CatchUp, Indexer
from station.central.tournament.director import Director

log = logging.getLogger(__name__)

CHANNELS: Final = ("fleet_rows", "fleet_alarms", "fleet_commands")
CALM_S: Final = 2.0
TICK_S: Final = 1.0  # the tournament clock's check for a new level
SWEEP_S: Final = 30.0
RETRY_MAX_S: Final = 5.0
QUEUE_SIZE: Final = 200

Event = dict[str, Any]


class Hub:
    """Fan-out of events to the browsers' event streams (each an asyncio queue on the server's
    event loop). `publish` may be called from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: dict[asyncio.Queue[Event], asyncio.AbstractEventLoop] = {}

    def subscribe(self) -> asyncio.Queue[Event]:
        queue: asyncio.Queue[Event] = asyncio.Queue(QUEUE_SIZE)
        with self._lock:
            self._clients[queue] = asyncio.get_running_loop()
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Event]) -> None:
        with self._lock:
            self._clients.pop(queue, None)

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def publish(self, event: Event) -> None:
        with self._lock:
            clients = list(self._clients.items())
        for queue, loop in clients:
            with contextlib.suppress(RuntimeError):  # that loop is closing
                loop.call_soon_threadsafe(_offer, queue, event)


def _offer(queue: asyncio.Queue[Event], event: Event) -> None:
    with contextlib.suppress(asyncio.QueueFull):  # a stalled browser refreshes on its next one
        queue.put_nowait(event)


class Listener:
    """The thread: LISTEN, fold, publish."""

    def __init__(
        self,
        conninfo: Callable[[], str],
        hub: Hub,
        indexer: Indexer | None = None,
        *,
        sweep_s: float = SWEEP_S,
        director: Director | None = None,
    ) -> None:
        self.conninfo = conninfo
        self.hub = hub
        self.indexer = indexer or Indexer()
        self.director = director or Director()
        self.sweep_s = sweep_s
        self.ready = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._calm_until: dict[str, float] = {}
        self.folded = 0  # rows folded since start (for the bench)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="console-live", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        delay = 0.2
        while not self._stop.is_set():
            try:
                self._serve()
                delay = 0.2
            except psycopg.Error as exc:
                log.warning("console: database connection lost (%s); again in %.1f s", exc, delay)
                self.indexer.forget()
                self._stop.wait(delay)
                delay = min(delay * 2, RETRY_MAX_S)
            except Exception:  # thread boundary: log, then start over
                log.exception("console: live updates failed; starting over")
                self.indexer.forget()
                self._stop.wait(1.0)

    def _serve(self) -> None:
        with (
            psycopg.connect(self.conninfo(), autocommit=True) as listen,
            psycopg.connect(self.conninfo(), autocommit=True) as work,
        ):
            for channel in CHANNELS:
                listen.execute(f"LISTEN {channel}")
            self._publish_catch_ups(self.indexer.catch_up_all(work))
            self._tournaments(partial(self.director.catch_up_all, work))
            self.ready.set()
            next_sweep = time.monotonic() + self.sweep_s
            next_tick = time.monotonic() + TICK_S
            while not self._stop.is_set():
                stations: set[str] = set()
                later: list[Event] = []
                for note in listen.notifies(timeout=0.5, stop_after=1):
                    self._note(note.channel, note.payload, stations, later)
                # what else arrived in the same moment
                for note in listen.notifies(timeout=0.0):
                    self._note(note.channel, note.payload, stations, later)
                # The tournament director first: a player out waits for his move instruction
                # only as long as the director takes, not the incident fold's catch-up too
                # (`station bench tournament`: up to 2 s of it per batch on a loaded machine).
                if stations:
                    self._tournaments(partial(self.director.on_rows, work, sorted(stations)))
                # rows first: a command's answer comes with the rows that carried it out
                for station in sorted(stations):
                    self._publish_catch_up(self.indexer.catch_up(work, station))
                for event in later:
                    self.hub.publish(event)
                if time.monotonic() >= next_tick:
                    next_tick = time.monotonic() + TICK_S
                    self._tournaments(partial(self.director.tick, work))
                if time.monotonic() >= next_sweep:
                    next_sweep = time.monotonic() + self.sweep_s
                    self._publish_catch_ups(self.indexer.catch_up_all(work))
                    # sessions long over (the audit log keeps who signed in when)
                    work.execute(
                        "DELETE FROM console_sessions WHERE expires_at < now() - interval '7 days'"
                    )

    def _tournaments(self, work: Callable[[], list[str]]) -> None:
        """Run the tournament director; tell the browsers which events changed. A bug in it is
        logged and never stops the incidents and the map (a lost database still reconnects)."""
        try:
            changed = work()
        except psycopg.OperationalError:
            raise
        except Exception:
            log.exception("console: the tournament director failed")
            return
        for event in changed:
            self.hub.publish({"type": "tournament", "event": event})

    def _note(self, channel: str, payload: str, stations: set[str], later: list[Event]) -> None:
        try:
            data = json.loads(payload)
        except json.JSONDecodeError:
            return
        if not isinstance(data, dict):
            return
        if channel == "fleet_rows":
            # the ingest's batch: {station: stored head, ...} (one notify per transaction)
            if set(data) == {"station", "head_seq"}:
                stations.add(str(data["station"]))
            else:
                stations.update(str(k) for k in data)
            return
        station = str(data.get("station", ""))
        if not station:
            return
        match channel:
            case "fleet_commands":
                if data.get("state") == "refused":
                    stations.add(station)  # a refused tournament move: the director re-plans
                later.append(
                    {"type": "command", "station": station, "id": data.get("id"),
                     "state": data.get("state")}
                )  # fmt: skip
            case "fleet_alarms":
                later.append({"type": "alarm", "station": station, "urgent": True})
                later.append({"type": "table", "station": station, "urgent": True})

    def _publish_catch_ups(self, found: list[CatchUp]) -> None:
        for c in found:
            self._publish_catch_up(c)

    def _publish_catch_up(self, c: CatchUp) -> None:
        self.folded += c.rows
        urgent = c.ops_changed or bool(c.incidents)
        if c.incidents:
            self.hub.publish({"type": "incident", "station": c.station, "ids": list(c.incidents)})
        now = time.monotonic()
        if urgent or now >= self._calm_until.get(c.station, 0.0):
            self._calm_until[c.station] = now + CALM_S
            self.hub.publish({"type": "table", "station": c.station, "urgent": urgent})
