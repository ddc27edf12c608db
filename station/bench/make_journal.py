"""Writing a long journal quickly, for `station bench startup --make`: the scripted table's hands
through the real recorder, in bulk. Edge adapter (a journal file, stdout).

    python -m station.bench.make_journal --out PATH --hands N [--station DEMO] [--seed S]

Every row is what a live table writes (the recorder: input rows, derived rows, a resume row at
each hand end, the chain, the head witness), only many inputs to one SQLite transaction
(`Journal.bulk`) and `synchronous = OFF`: nothing is bypassed but the wait for the disk. The
session is the scripted four-seat hold'em table (`station.bench.scripted`) streamed hand by
hand, ending halfway through hand N + 1 (a start then has a hand in progress to replay). Prints
progress on stderr and one JSON line at the end. The engine is whichever this process imports:
`station bench startup --make` runs it from an altered copy of the package (see there).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from station.bench.scripted import nlhe_stream
from station.engine.events import Key, KeyPress
from station.journal.clock import SystemClock
from station.journal.codes import ActorRole
from station.journal.engine_id import deriving_code
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.native import engine_kind

HALF_HAND = 20  # events of hand N + 1 written


def write_journal(out: Path, hands: int, station: str = "DEMO", seed: int = 1) -> dict[str, object]:
    """Write the journal (see the module); what was written."""
    started = time.monotonic()
    events = nlhe_stream(hands + 1, seed)
    dealt = 0
    with Journal.open(out, clock=SystemClock(), station_id=station, create=True) as journal:
        journal.conn.execute("PRAGMA synchronous = OFF")
        recorder = Recorder(journal)
        recorder.recover()
        with journal.bulk():
            for item in events:
                if isinstance(item.event, KeyPress) and item.event.key is Key.NEW_HAND:
                    dealt += 1
                    if dealt % 5000 == 0:
                        rate = dealt / (time.monotonic() - started)
                        print(f"{dealt} hands ({rate:.0f}/s)", file=sys.stderr, flush=True)
                    if dealt > hands:
                        for tail in (item, *itertools.islice(events, HALF_HAND)):
                            recorder.record(
                                tail.event, actor="table", role=ActorRole.DEVICE, at=tail.t
                            )
                        break
                recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
        rows = journal.head()[0]
    return {
        "made": str(out),
        "hands": hands,
        "rows": rows,
        "size_mb": round(out.stat().st_size / 1e6, 1),
        "seconds": round(time.monotonic() - started, 1),
        "engine": engine_kind(),
        "code": deriving_code(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make_journal")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--hands", required=True, type=int)
    parser.add_argument("--station", default="DEMO")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.out.exists():
        print(f"make_journal: {args.out} exists", file=sys.stderr)
        return 2
    print(json.dumps(write_journal(args.out, args.hands, args.station, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
