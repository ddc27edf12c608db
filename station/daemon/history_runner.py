"""The daemon's side of the history work: the check after a start and the scrub, each run by a
child process (`station.daemon.history_child`) whose reports reach the core's queue. Edge
adapter (processes, a reader thread per child).

One child at a time: the check first (when the start took a resume row on trust), the scrub
when it is due (`station.journal.scrub.due`, asked by the core every minute). The core journals
what they report (`HistoryChecked`, `ScrubProgressed`); `stop()` ends a child with SIGTERM (a
scrub stopped says where it was, and goes on from there at the next start).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from station.daemon.items import HistoryChecked, Item, ScrubProgressed
from station.journal.history import HistoryPlan, report_from_dict
from station.journal.scrub import ScrubProgress

log = logging.getLogger(__name__)

STOP_TIMEOUT_S = 5.0


class HistoryRunner:
    """Starts the history children and hands their reports to `post` (the core's inbox)."""

    def __init__(
        self,
        journal: Path,
        station_id: str,
        registry: Path | None,
        post: Callable[[Item], None],
    ) -> None:
        self.journal = journal
        self.station_id = station_id
        self.registry = registry
        self.post = post
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None
        self.kind = ""  # "check" | "scrub" while a child runs
        self.last_scrub: ScrubProgress | None = None  # what the scrub child said last
        self._stopping = False

    @property
    def busy(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def check(self, plan: HistoryPlan) -> None:
        args = [
            "check",
            f"--anchor={plan.anchor[0]}:{plan.anchor[1]}",
            f"--start={plan.start[0]}:{plan.start[1]}",
            f"--upto={plan.upto[0]}:{plan.upto[1]}",
        ]
        self._spawn("check", args)

    def scrub(self, start: ScrubProgress, duty: float) -> None:
        progress = json.dumps(start.to_dict(), separators=(",", ":"))
        self._spawn("scrub", ["scrub", f"--progress={progress}", f"--duty={duty}"])

    def _spawn(self, kind: str, args: list[str]) -> None:
        if self.busy:
            raise RuntimeError(f"the {self.kind} is still running")
        command = [
            sys.executable,
            "-m",
            "station.daemon.history_child",
            *args,
            f"--journal={self.journal}",
            f"--station={self.station_id}",
        ]
        if self.registry is not None:
            command.append(f"--registry={self.registry}")
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        self._proc, self.kind = proc, kind
        self._reader = threading.Thread(
            target=self._read, args=(proc, kind), name=f"history-{kind}", daemon=True
        )
        self._reader.start()
        log.info("history %s started (pid %d)", kind, proc.pid)

    def _read(self, proc: subprocess.Popen[bytes], kind: str) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            try:
                obj = json.loads(raw)
                if "check" in obj:
                    self.post(HistoryChecked(report_from_dict(obj["check"])))
                elif "scrub" in obj:
                    last = ScrubProgress.from_dict(obj["scrub"])
                    self.last_scrub = last
                    self.post(ScrubProgressed(last))
            except (ValueError, TypeError, KeyError) as exc:
                log.error("history %s: a report that cannot be read (%s)", kind, exc)
        proc.stdout.close()
        code = proc.wait()
        if code != 0 and not self._stopping:
            log.error("the history %s stopped with exit status %d", kind, code)

    def stop(self) -> None:
        proc, reader = self._proc, self._reader
        if proc is None:
            return
        self._stopping = True
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if reader is not None:
            reader.join(STOP_TIMEOUT_S)
        self._proc = self._reader = None
