"""The PIN lockout holds across processes: the lockout check, the scrypt check and the journal
write are one step (people.authenticate under the journal's `-auth` lock), so wrong PINs tried
in parallel by many processes (the daemon's PIN pad and any number of CLI commands share the
journal) are checked one after the other, and the fifth locks the person out for everyone.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from station.journal.clock import SystemClock
from station.journal.codes import Code
from station.journal.store import Journal
from station.people.exc import AuthError, LockedOutError
from station.people.pins import LOCKOUT_AFTER
from station.people.staff import authenticate, locked_for

from .conftest import PINS, STATION, enrol

RACERS = 24
WRONG = "581736"


def _try_pin(path: str, pin: str, barrier: Barrier, out: Queue[str]) -> None:
    """One process: open the journal, wait for the others, try the PIN."""
    with Journal.open(path, clock=SystemClock()) as journal:
        barrier.wait(60)
        try:
            authenticate(journal, "flo", pin, purpose="race")
        except LockedOutError:
            out.put("locked")
        except AuthError:
            out.put("refused")
        else:
            out.put("verified")


def _race(path: Path, pins: list[str]) -> list[str]:
    """Start one process per PIN, let them all try at once, return what each was told."""
    # A fork server (not `spawn`): each racer is forked from one process that imported the
    # station once, so 24 racers cost a fork each rather than an interpreter's start and
    # imports each (8 s of CPU); each still opens the journal on its own connection.
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    barrier = ctx.Barrier(len(pins))
    out: Queue[str] = ctx.Queue()
    procs = [ctx.Process(target=_try_pin, args=(str(path), pin, barrier, out)) for pin in pins]
    for proc in procs:
        proc.start()
    results = [out.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(30)
        assert proc.exitcode == 0
    return results


def test_parallel_wrong_pins_from_many_processes_cannot_get_past_the_lockout(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal.open(path, clock=SystemClock(), station_id=STATION, create=True) as journal:
        enrol(journal, "flo")
        start = journal.head()[0]
    results = _race(path, [WRONG] * RACERS)
    right = _race(path, [PINS["flo"]])
    assert right == ["locked"]  # the right PIN after the race is refused: the lockout held
    assert results.count("verified") == 0
    with Journal.open(path, clock=SystemClock()) as journal:
        rows = list(journal.rows(start + 1))
        codes = [r.code for r in rows]
        # Exactly as if the attempts had come one by one: LOCKOUT_AFTER failures were checked,
        # the last of them started the lockout, every later attempt was refused unchecked.
        assert codes.count(Code.AUTH_FAILED) == LOCKOUT_AFTER
        assert codes.count(Code.LOCKOUT) == 1
        assert codes.count(Code.AUTH_REFUSED) == RACERS - LOCKOUT_AFTER + 1
        assert Code.VERIFIED not in codes
        assert Code.RECALL_REVEALED not in codes
        failures = [r.data()["failures"] for r in rows if r.code == Code.AUTH_FAILED]
        assert failures == list(range(1, LOCKOUT_AFTER + 1))
        assert locked_for(journal, "flo") > 0
