"""The core's history work: the check after a start, then the scrub on its schedule, and their
results on record. Application service (called on the core's thread; the work itself runs in a
child process, `history_runner`).

- At start, when the recovery took a resume row on trust (`Recorder.history`), the check runs
  first; its report is journaled by the recorder (`station.history_checked`, tilts).
- Every `SCRUB_LOOK_S`, when nothing runs: is a scrub due (`scrub.due`: the newest
  `station.scrub` row, `[journal] scrub_every_h`, `scrub_after_upgrade`)? A new run is put on
  record first (its `station.scrub` row's seq names the run), then started.
- The scrub's progress is kept for diagnostics and put on record every `SCRUB_ROW_S` (what a
  restart goes on from) and when it ends, with a critical tilt for a mismatch in rows this code
  wrote or a damaged file (`scrub.progress_entries`).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import replace

from station.config.model import ScrubConfig
from station.daemon.history_runner import HistoryRunner
from station.journal import Recorder
from station.journal.clock import format_utc
from station.journal.engine_id import deriving_code
from station.journal.exc import JournalError
from station.journal.history import HistoryReport
from station.journal.scrub import (
    ScrubProgress,
    due,
    journal_began,
    last_scrub,
    progress_entries,
)

log = logging.getLogger(__name__)

SCRUB_LOOK_S = 60.0  # how often the core asks whether a scrub is due
SCRUB_ROW_S = 300.0  # a running scrub's progress is put on record this often


class HistoryWork:
    def __init__(
        self,
        recorder: Recorder,
        runner: HistoryRunner,
        cfg: ScrubConfig,
        clock: Callable[[], float],
    ) -> None:
        self.recorder = recorder
        self.runner = runner
        self.cfg = cfg
        self.clock = clock
        self.scrub: ScrubProgress | None = None  # the running (or last) run, as last reported
        self._next_look = clock()  # the first look right after the check
        self._next_row = 0.0

    def begin(self) -> None:
        """After recovery: check what the start took on trust, if anything."""
        plan = self.recorder.history
        if plan is not None:
            self.runner.check(plan)

    @property
    def checking(self) -> bool:
        return self.recorder.history is not None

    def checked(self, report: HistoryReport) -> None:
        self.recorder.journal_history(report)
        self._next_look = self.clock()

    def tick(self, now: float) -> None:
        if now < self._next_look:
            return
        self._next_look = now + SCRUB_LOOK_S
        if self.runner.busy or self.checking:
            return
        journal = self.recorder.journal
        start = due(
            last_scrub(journal.conn),
            now=journal.clock.utc(),
            every_h=self.cfg.every_h,
            after_upgrade=self.cfg.after_upgrade,
            running=deriving_code(),
            head_seq=journal.head()[0],
            journal_began=journal_began(journal.conn),
        )
        if start is None:
            return
        if start.run == 0:  # a new run: on record first, its row's seq names it
            start = replace(start, started_utc=format_utc(journal.clock.utc()))
            (row,) = journal.append(progress_entries(start))
            start = replace(start, run=row.seq)
            log.info("scrub %d started: rows 1-%d", start.run, start.target_seq)
        else:
            log.info("scrub %d goes on from seq %d", start.run, start.resume_seq)
        self.scrub = start
        self._next_row = now + SCRUB_ROW_S
        self.runner.scrub(start, self.cfg.duty)

    def progressed(self, progress: ScrubProgress) -> None:
        self.scrub = progress
        now = self.clock()
        if not progress.done and now < self._next_row:
            return
        self._next_row = now + SCRUB_ROW_S
        self.recorder.journal.append(progress_entries(progress))
        if progress.done:
            log.log(
                logging.INFO if progress.ok else logging.ERROR,
                "scrub %d ended: %d rows, %d hands at %.0f hands/s; %d mismatch(es), %d drift, "
                "chain %s, integrity %s",
                progress.run,
                progress.rows,
                progress.hands,
                progress.hands_per_s,
                progress.mismatches,
                progress.drift,
                "ok" if progress.chain_ok else "BROKEN",
                "ok" if not progress.integrity else "DAMAGED",
            )

    def stop(self) -> None:
        """Stop the child; a scrub stopped says where it was, and that goes on record (the
        next start goes on from it)."""
        self.runner.stop()
        last = self.runner.last_scrub
        if last is None or last.done or self.scrub is None or last.run != self.scrub.run:
            return
        try:
            self.recorder.journal.append(progress_entries(last))
        except (JournalError, sqlite3.Error) as exc:  # (a journal closed or unwritable)
            log.warning("the scrub's progress is not on record: %s", exc)
