"""One worker process of `station bench fleet`: a group of stations, each with its own SQLite
journal, a writer thread appending rows at the bench's rate and a real fleet forwarder (paho,
TLS, the site ACL) delivering them. Edge adapter (threads, files, network).

`python -m station.bench.fleet_station SPEC WORKER`: SPEC is the bench's JSON spec. The worker
writes until the spec's `end_wall` and forwards until SIGTERM. It appends to `acks-W.log`: `A
station first last wall` for every acknowledgement (the first and last seq it covers and when
it arrived) and `O max_outbox wall` twice a second. A `kill -9` loses nothing of that log that
was written (it is flushed, the kernel keeps it); the bench restarts the worker, which reopens
its journals and goes on from each ack cursor.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from station.config.model import FleetConfig
from station.fleet.factory import paho_factory
from station.fleet.forwarder import Forwarder
from station.journal.clock import SystemClock
from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry
from station.journal.store import Journal


class Station:
    def __init__(self, spec: dict[str, Any], station: str, log: IO[str], lock: threading.Lock):
        self.spec = spec
        self.id = station
        self.path = Path(spec["folder"]) / f"{station}.sqlite"
        self.log = log
        self.lock = lock
        certs = Path(spec["certs"])
        self.cfg = FleetConfig(
            spec["site"],
            "127.0.0.1",
            int(spec["port"]),
            certs / "ca.crt",
            certs / f"{station}.crt",
            certs / f"{station}.key",
        )
        self.ready = threading.Event()
        self.forwarder: Forwarder | None = None

    def on_acked(self, first: int, last: int, at: float) -> None:
        with self.lock:
            self.log.write(f"A {self.id} {first} {last} {at:.6f}\n")
            self.log.flush()

    def write(self, stop: threading.Event) -> None:
        """Open (or create) the journal, start the forwarder, append a row every 1/rate s."""
        journal = Journal.open(self.path, clock=SystemClock(), station_id=self.id, create=True)
        fwd = Forwarder(self.path, self.id, self.cfg, paho_factory, on_acked=self.on_acked)
        journal.subscribe(lambda _row, _own: fwd.wake())
        fwd.start()
        self.forwarder = fwd
        self.ready.set()
        period = 1.0 / float(self.spec["rate"])
        end = float(self.spec["end_wall"])
        i = 0
        begin = max(float(self.spec["start_wall"]), time.time())
        due = begin + period * (hash(self.id) % 1000) / 1000
        try:
            while not stop.is_set():
                now = time.time()
                if now >= end:
                    break
                if now < due:
                    stop.wait(min(due - now, end - now))
                    continue
                journal.append([Entry(Code.TILT_CLEARED, {"bench": i}, "bench", ActorRole.STATION)])
                i += 1
                due += period
                if due < now - 1.0:  # far behind (the machine was busy): do not burst
                    due = now + period
            stop.wait()
        finally:
            journal.close()


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    worker = int(argv[1])
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    lock = threading.Lock()
    with (Path(spec["folder"]) / f"acks-{worker}.log").open("a", encoding="ascii") as log:
        stations = [Station(spec, s, log, lock) for s in spec["workers"][worker]]
        threads = [
            threading.Thread(target=s.write, args=(stop,), name=f"writer-{s.id}", daemon=True)
            for s in stations
        ]
        for t in threads:
            t.start()
        print("ready", flush=True)
        while not stop.wait(0.5):
            outbox = max(
                (s.forwarder.status().outbox_rows for s in stations if s.forwarder), default=0
            )
            with lock:
                log.write(f"O {outbox} {time.time():.3f}\n")
                log.flush()
        for s in stations:
            if s.forwarder is not None:
                s.forwarder.stop()
        for t in threads:
            t.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
