"""`station bench latency [--draws N]`: from a card frame written to the shoe's serial line to the
draw committed to the journal and published to the display. Edge adapter (threads, ptys).

The table is `station.bench.table`: the daemon in this process on the emulated shoe, bet-zone
board and key panel, the real journal and the real display thread (SDL dummy driver), dealt
clean hands of the PHH sample by the demo's dealer (cards in dealing order, bets as chips in the
zones, checks and folds on the keys), so every draw is a real decision of the engine. The dealer
waits for each card to be journaled before the next, as a dealer glances at the screen.

Every draw is measured, from two probes:
- the emulated shoe's `on_frame_sent`: the time just before the CARD_DRAWN frame's first byte
  is written to the pty (its first sending; a retransmission does not restart the clock);
- the core's publish hook (the display sink): the time the snapshot after the journal's commit
  was handed to the display thread; the core publishes only after the commit.
The two are matched by the shoe's event id, which the journal keeps in the row's actor.
`drawn_*` go on to the display thread's flip of a frame showing that snapshot (a bench thread
waits for it, so they include that thread's wake-up).

Then the cost of the head witness per commit (`commit_*`): one-row journal transactions on a
scratch journal in the same folder, alternately with the head witness checked and written as
the station does (its flush on a thread of its own) and without it, `COMMITS` of each;
`witness_p50_ms` is the difference of the medians.

Bar (docs/performance.md): `p99_ms` <= 20.

`--fleet-offline` gives the station a `[fleet]` whose broker is down: the daemon's forwarder
keeps reconnecting and every row stays in the outbox (`outbox_rows` in the line), which must
not cost the table its latency.

`--scrub` runs the scrub beside the table the whole time, as the daemon runs it (its child
process at idle priority, `[journal] scrub_duty` 0.5), over a journal of `SCRUB_HANDS` hands
written first (`station.bench.make_journal`), again each time it ends: `scrub_hands` in the line
is how many hands it re-derived meanwhile. The scrub must not cost the table its latency.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from queue import SimpleQueue
from typing import TYPE_CHECKING

from station.bench.report import Bar, emit, ms, percentile, say

if TYPE_CHECKING:
    from station.bench.table import BenchTable, TimedDisplay
    from station.daemon.news import News

BARS = (Bar("p99_ms", "<=", 20),)
DRAWN_TIMEOUT_S = 5.0
COMMITS = 1000
SCRUB_HANDS = 1000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--draws", type=int, default=2000, help="card draws to measure, at least (default 2000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="hand choice seed (default 1)")
    parser.add_argument(
        "--scrub",
        action="store_true",
        help="with the scrub running beside the table (its child process, idle priority)",
    )
    parser.add_argument(
        "--fleet-offline",
        action="store_true",
        help="with a [fleet] whose broker is down: the forwarder retries, the outbox grows",
    )


class Probe:
    """Both ends of every draw. `on_frame_sent` runs on the shoe's thread, the observer on the
    core's, the drawn waiter on its own; each only appends to its own list."""

    def __init__(self, display: TimedDisplay) -> None:
        self.display = display
        self.sent: list[tuple[bytes, float]] = []
        self.published: list[tuple[str, float]] = []  # (actor, published_at)
        self.drawn: list[tuple[str, float]] = []  # (actor, drawn_at)
        self._waits: SimpleQueue[tuple[str, int] | None] = SimpleQueue()
        self._waiter = threading.Thread(target=self._wait_drawn, name="drawn-probe", daemon=True)

    def start(self) -> None:
        self._waiter.start()

    def stop(self) -> None:
        self._waits.put(None)
        self._waiter.join(DRAWN_TIMEOUT_S * 2)

    def on_frame_sent(self, frame: bytes, at: float) -> None:
        self.sent.append((frame, at))

    def __call__(self, news: News) -> None:
        from station.daemon.news import Recorded  # noqa: PLC0415 (the CLI parser stays light)
        from station.engine.events import Draw  # noqa: PLC0415

        if isinstance(news, Recorded) and isinstance(news.event, Draw):
            self.published.append((news.actor, self.display.published_at))
            self._waits.put((news.actor, self.display.version))

    def _wait_drawn(self) -> None:
        thread = self.display.thread
        while (item := self._waits.get()) is not None:
            actor, version = item
            if thread.wait_drawn(version, DRAWN_TIMEOUT_S):
                self.drawn.append((actor, time.monotonic()))

    def first_sent(self) -> dict[int, float]:
        """Shoe event id -> when its CARD_DRAWN frame was first written."""
        from firmware_bridge import wire  # noqa: PLC0415
        from station.bench.table import device_events  # noqa: PLC0415

        out: dict[int, float] = {}
        for data, at in self.sent:
            for etype, header, _body in device_events(data):
                if etype == wire.E_CARD_DRAWN and header.event_id not in out:
                    out[header.event_id] = at
        return out


def _event_id(actor: str) -> int | None:
    from station.daemon.translate import parse_actor  # noqa: PLC0415

    prov = parse_actor(actor)
    return prov.event_id if prov is not None else None


def figures(probe: Probe, hands: int, seconds: float) -> dict[str, object]:
    sent = probe.first_sent()
    latencies: list[float] = []
    unmatched = 0
    for actor, at in probe.published:
        event_id = _event_id(actor)
        if event_id is None or event_id not in sent:
            unmatched += 1
            continue
        latencies.append(at - sent[event_id])
    drawn = [
        at - sent[e]
        for actor, at in probe.drawn
        if (e := _event_id(actor)) is not None and e in sent
    ]

    def pct(values: list[float], p: float) -> float | None:
        return ms(percentile(values, p)) if values else None

    return {
        "draws": len(latencies),
        "hands": hands,
        "seconds": round(seconds, 1),
        "p50_ms": pct(latencies, 50),
        "p95_ms": pct(latencies, 95),
        "p99_ms": pct(latencies, 99),
        "max_ms": pct(latencies, 100),
        "mean_ms": ms(sum(latencies) / len(latencies)) if latencies else None,
        "drawn_p50_ms": pct(drawn, 50),
        "drawn_p99_ms": pct(drawn, 99),
        "drawn_max_ms": pct(drawn, 100),
        "unmatched": unmatched,
    }


def offline_fleet(table: BenchTable, folder: Path) -> Path:
    """Give the table a `[fleet]` whose broker is not there (a free loopback port nobody
    listens on, real certificates): the daemon's forwarder keeps trying to connect while the
    bench deals. Returns the journal's path (its outbox is read at the end)."""
    import dataclasses  # noqa: PLC0415

    from station.central.certs import issue  # noqa: PLC0415
    from station.central.services import free_port  # noqa: PLC0415
    from station.config.model import FleetConfig  # noqa: PLC0415

    loaded = table.rig.loaded
    ident = issue(folder / "certs", "bench", loaded.config.station_id)
    fleet = FleetConfig("bench", "127.0.0.1", free_port(), ident.ca, ident.cert, ident.key)
    config = dataclasses.replace(loaded.config, fleet=fleet)
    table.rig.loaded = dataclasses.replace(loaded, config=config)
    return config.journal


class Scrubbing:
    """The scrub over a journal of its own, started again each time it ends."""

    def __init__(self, folder: Path) -> None:
        from station.bench.make_journal import write_journal  # noqa: PLC0415
        from station.daemon.history_runner import HistoryRunner  # noqa: PLC0415

        self.path = folder / "scrubbed.sqlite"
        say(f"latency: writing {SCRUB_HANDS} hands for the scrub")
        self.head = int(str(write_journal(self.path, SCRUB_HANDS, "SCRUB")["rows"]))
        self.runner = HistoryRunner(self.path, "SCRUB", None, self._post)
        self.hands = 0  # re-derived in runs that ended
        self.last = 0  # of the run going on
        self.busy_s = 0.0
        self._stopped = False
        self._thread: threading.Thread | None = None

    def _post(self, item: object) -> None:
        from station.daemon.items import ScrubProgressed  # noqa: PLC0415

        if not isinstance(item, ScrubProgressed):
            return
        self.last = item.progress.hands
        if item.progress.done:
            self.hands += self.last
            self.busy_s += item.progress.busy_s
            self.last = 0

    def start(self) -> None:
        from station.journal.scrub import ScrubProgress  # noqa: PLC0415

        def loop() -> None:
            while not self._stopped:
                self.runner.scrub(ScrubProgress(run=1, target_seq=self.head), duty=0.5)
                while self.runner.busy and not self._stopped:
                    time.sleep(0.2)
                self.runner.stop()

        self._thread = threading.Thread(target=loop, name="bench-scrub", daemon=True)
        self._thread.start()

    def stop(self) -> dict[str, object]:
        self._stopped = True
        self.runner.stop()
        if self._thread is not None:
            self._thread.join(30.0)
        self.runner.stop()
        return {"scrub": "running", "scrub_hands": self.hands + self.last}


def measure(
    draws: int, seed: int, folder: Path, fleet_offline: bool = False, scrub: bool = False
) -> tuple[dict[str, object], str]:
    from station.bench.table import BenchTable, Played  # noqa: PLC0415 (the CLI stays light)

    scrubbing = Scrubbing(folder) if scrub else None
    table = BenchTable(folder, seed)
    journal = offline_fleet(table, folder) if fleet_offline else None
    probe = Probe(table.display)
    table.observers.append(probe)
    table.rig.shoe.on_frame_sent = probe.on_frame_sent

    def keep_going(played: Played) -> bool:
        return len(probe.published) < draws

    def progress(hand: object, played: Played) -> None:
        if played.hands % 20 == 0:
            say(f"latency: {played.hands} hands, {len(probe.published)} draws")

    probe.start()
    if scrubbing is not None:
        scrubbing.start()
    started = time.monotonic()
    try:
        played = table.play(keep_going, progress)
    finally:
        probe.stop()
        scrubbed = scrubbing.stop() if scrubbing is not None else {}
    result = figures(probe, played.hands, time.monotonic() - started)
    result.update(scrubbed)
    if journal is not None:
        from station.fleet.outbox import outbox_status  # noqa: PLC0415

        box = outbox_status(journal)
        result["fleet"] = "broker down"
        result["outbox_rows"] = box.rows  # every row: nothing could be delivered
        result["journal_rows"] = box.head_seq
    return result, played.error


def commit_cost(folder: Path, commits: int = COMMITS) -> dict[str, object]:
    """Milliseconds per one-row commit with and without the head witness, interleaved so that
    both see the same disk and the same neighbours."""
    from station.journal import ActorRole, Code, Journal, SystemClock  # noqa: PLC0415
    from station.journal.rows import Entry  # noqa: PLC0415

    path = folder / "commit-cost.sqlite"
    entry = Entry(Code.CONFIG_LOADED, {"path": "bench"}, "station", ActorRole.STATION)
    timed: dict[bool, list[float]] = {True: [], False: []}
    with Journal.open(path, clock=SystemClock(), station_id="bench", create=True) as journal:
        witness = journal.witness
        for i in range(2 * commits):
            with_witness = i % 2 == 0
            journal.witness = witness if with_witness else None
            started = time.perf_counter()
            journal.append([entry])
            timed[with_witness].append(time.perf_counter() - started)
        journal.witness = witness
    p50 = {k: percentile(v, 50) for k, v in timed.items()}
    return {
        "commit_p50_ms": ms(p50[True]),
        "commit_p99_ms": ms(percentile(timed[True], 99)),
        "commit_nowitness_p50_ms": ms(p50[False]),
        "commit_nowitness_p99_ms": ms(percentile(timed[False], 99)),
        "witness_p50_ms": ms(p50[True] - p50[False]),
    }


def run(args: argparse.Namespace) -> int:
    if args.draws < 1:
        print("station bench latency: --draws must be at least 1", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
            result, error = measure(
                args.draws, args.seed, Path(tmp), args.fleet_offline, args.scrub
            )
            say("latency: the head witness's cost per commit")
            result.update(commit_cost(Path(tmp)))
    except RuntimeError as exc:  # the table did not come up (the display, say)
        print(f"station bench latency: {exc}", file=sys.stderr)
        return 1
    if error:
        say(f"station bench latency: the dealer stopped: {error}")
        result["error"] = error
    emit("latency", result, BARS)
    return 1 if error else 0
