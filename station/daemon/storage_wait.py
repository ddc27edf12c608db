"""A station that starts on a full disk: up, saying JOURNAL FULL, refusing play, until the
journal can be opened. Application service (the daemon's thread, before the core exists).

Without room, SQLite cannot open the journal (its `-wal` and `-shm` need space) and recovery
cannot put its boot rows on record. Exiting would make systemd restart the station in a loop, so
the daemon waits here instead:

- systemd hears READY=1 with STATUS=JOURNAL FULL (`systemctl status` says so) and the watchdog
  is petted;
- the dealer screen shows JOURNAL FULL on its status strip, the diagnostics screen and
  `station diag` (the status socket) DISK FULL;
- every input of the key panel and the seat and puck sensors is refused and listed
  (`station.daemon.outage.Outage`), PIN pads are answered JOURNAL FULL; the card shoe and the
  bet-zone board are not connected yet, so they keep their events and deliver them once the
  station is up (nothing drawn is lost);
- every `retry_s` the caller tries to open the journal again; once it can, the core starts with
  the outage, and its first write puts it on record (a critical `storage_full` tilt naming what
  was refused), so new hands stay refused until a technician has checked the table.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from hardware.inputs.events import KeyPressed, PuckMoved, SeatChanged
from hardware.inputs.table import TableInputs
from station.daemon.items import GpioEdges, Inbox, PinCheck, Stop
from station.daemon.notify import Notifier
from station.daemon.outage import Outage
from station.daemon.sink import DisplaySink
from station.daemon.storage_fault import StorageFault
from station.diag.server import LiveStatus, StatusServer
from station.display.dealer_view import StationStatus
from station.display.diag_view import DiagnosticsData, JournalHealthView

log = logging.getLogger(__name__)

ALERT = "JOURNAL FULL"


class StorageWait:
    """The daemon before its journal opens on a full disk (see the module's doc)."""

    def __init__(
        self,
        journal: Path,
        fault: StorageFault,
        since_utc: str,
        *,
        inbox: Inbox,
        display: DisplaySink,
        notifier: Notifier,
        clock: Callable[[], float],
        utc: Callable[[], str],
        inputs: TableInputs | None = None,
        status: StatusServer | None = None,
        gpio_pending: threading.Event | None = None,
    ) -> None:
        self.journal = journal
        self.outage = Outage(fault, since_utc)
        self.inbox, self.display, self.notifier = inbox, display, notifier
        self.clock, self.utc = clock, utc
        self.inputs, self.status, self.gpio_pending = inputs, status, gpio_pending
        self._next_pet = clock()
        words = "JOURNAL FULL" if fault.disk_full else "JOURNAL CANNOT BE OPENED"
        self.line = f"{words} ({fault}): no play until the journal can be written; {journal}"
        log.critical(
            "%s: the station waits for room, trying again every few seconds; nothing is "
            "recorded and the table's inputs are refused meanwhile",
            self.line,
        )
        notifier.ready(self.line)
        self._show()

    def _show(self) -> None:
        problem = "DISK FULL" if self.outage.fault.disk_full else "CANNOT OPEN"
        alert = ALERT if self.outage.fault.disk_full else "JOURNAL FAULT"
        self.display.publish_status(StationStatus(alert=alert))
        data = DiagnosticsData(journal=JournalHealthView(ok=False, problem=problem))
        self.display.publish_diagnostics(data)
        if self.status is not None:
            self.status.publish(
                LiveStatus(
                    at=self.clock(),
                    links={},
                    gpio=self.inputs.believed() if self.inputs is not None else {},
                    data=data,
                    hand=0,
                    phase="",
                    status=self.line,
                )
            )

    def pause(self, seconds: float) -> bool:
        """Serve the inbox for `seconds`; False when the daemon was asked to stop."""
        until = self.clock() + seconds
        while (left := until - self.clock()) > 0:
            pet = self.notifier.watchdog_s
            if pet is not None and self.clock() >= self._next_pet:
                self.notifier.watchdog()
                self._next_pet = self.clock() + pet
            wait = min(left, pet) if pet is not None else left
            item = self.inbox.get(max(0.0, min(wait, 1.0)))
            match item:
                case Stop():
                    return False
                case GpioEdges() if self.inputs is not None:
                    if self.gpio_pending is not None:
                        self.gpio_pending.clear()  # edges after this point queue a new item
                    self._refuse(self.inputs.poll())
                case PinCheck(reply=reply):
                    reply.answer(False, ALERT)
                case _:
                    pass  # screen commands: nothing can be recorded
            if self.inputs is not None:
                due = self.inputs.next_deadline()
                if due is not None and self.clock() >= due:
                    self._refuse(self.inputs.poll())
        self._show()
        return True

    def _refuse(self, events: Sequence[object]) -> None:
        for ev in events:
            match ev:
                case KeyPressed(key=key, seat=seat):
                    what = f"key {key}" + (f" seat {seat}" if seat is not None else "")
                case PuckMoved(seat=seat):
                    what = f"puck to seat {seat}"
                case SeatChanged(seat=seat, occupied=occupied):
                    what = f"seat {seat} {'taken' if occupied else 'left'}"
                case _:
                    continue
            log.warning("%s refused: %s", what, self.line)
            self.outage.note(f"{what} refused", self.utc())
