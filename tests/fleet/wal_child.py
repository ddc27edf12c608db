"""A station process for the rollback test: journal rows, forward them until the centre has
acknowledged them all, say so, then wait to be killed (`kill -9`, so the WAL is never merged
into the journal file). Usage: python -m tests.fleet.wal_child JOURNAL STATION ROWS HOST PORT
CA CERT KEY SITE."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from station.config.model import FleetConfig
from station.fleet.factory import paho_factory
from station.fleet.forwarder import Forwarder
from station.journal.clock import SystemClock
from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry
from station.journal.store import Journal


def main(argv: list[str]) -> None:
    path, station, rows, host, port, ca, cert, key, site = argv
    journal = Journal.open(Path(path), clock=SystemClock(), station_id=station, create=True)
    for i in range(int(rows)):
        journal.append([Entry(Code.TILT_CLEARED, {"i": i}, "t", ActorRole.STATION)])
    cfg = FleetConfig(site, host, int(port), Path(ca), Path(cert), Path(key))
    fwd = Forwarder(Path(path), station, cfg, paho_factory)
    fwd.start()
    head = journal.head()[0]
    while fwd.status().acked_seq < head:
        time.sleep(0.05)
    print(f"acked {head}", flush=True)
    time.sleep(3600)


if __name__ == "__main__":
    main(sys.argv[1:])
