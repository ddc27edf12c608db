"""The crash-test child: a scripted table that journals every event through the recorder and
says so after each commit. Edge adapter (process, stdout, the journal file).

    python -m station.bench.crash_child --journal J --hands H --seed S

Prints `start`, then `recovered <inputs> <snapshot digest> <ok> <from a resume row>` once the
journal is replayed (and, after a start from a resume row, the history before it checked),
then `ack <seq> <ordinal>` after each input event is committed, and `done <digest>` at the end.
On a restart it continues with the first event of the session that is not yet in the journal.
It feeds an event only while it holds credit: a line `go N` on stdin grants N more, so the
parent decides how far the table gets before the kill.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from station.bench.crashcheck import snapshot_digest
from station.bench.scripted import nlhe_session
from station.journal.clock import SystemClock
from station.journal.codes import INPUT_CODES, ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.people.check import PEOPLE_CHECKS

STATION = "crash-table"


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="crash_child")
    parser.add_argument("--journal", required=True)
    parser.add_argument("--hands", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    session = nlhe_session(args.hands, args.seed)
    _say("start")
    with Journal.open(
        args.journal, clock=SystemClock(), station_id=STATION, create=True
    ) as journal:
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        report = recorder.last_recovery
        assert report is not None
        ordinal_of = {r.seq: i + 1 for i, r in enumerate(journal.rows(codes=INPUT_CODES))}
        done = len(ordinal_of)
        digest = snapshot_digest(recorder.snapshot(), ordinal_of)
        history = recorder.check_history()  # what a start from a resume row took on trust
        ok = report.ok and (history is None or history.ok)
        _say(f"recovered {done} {digest} {int(ok)} {int(report.resume_seq > 0)}")
        credit = 0
        for ordinal, item in enumerate(session.events[done:], start=done + 1):
            while credit == 0:
                line = sys.stdin.readline()
                if not line:
                    return 0
                credit = int(line.split()[1])
            credit -= 1
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
            seq = recorder.last_input_seq
            ordinal_of[seq] = ordinal
            _say(f"ack {seq} {ordinal}")
        _say(f"done {snapshot_digest(recorder.snapshot(), ordinal_of)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
