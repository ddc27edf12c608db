"""The composition root: the one place where the real adapters are built from the config and
wired to the core. Edge adapter.

Order of opening (each step is closed again, in reverse, if a later one fails):
the journal's daemon lock (a second `station run` on it exits 2) -> journal (recover by replay,
journal the config) -> display -> GPIO inputs and outputs -> the
shoe and bet-zone links (resuming each device after its last journaled event) -> the core.
READY=1 goes out from the core's first loop, once all of these are up; a missing shoe is not a
reason to wait (it shows as link down). `close()` stops threads first, then closes the journal.
`open`, `run` and `close` are called on one thread, the core's: the journal's SQLite connection
belongs to the thread that opened it.

Threads and what each may touch:
- core (the caller of `run`, the main thread under `station run`): the journal's connection, the
  engine, `TableInputs.poll`, the LED/buzzer driver, the bet-zone settler, the notify socket;
- one link thread per device: its serial port; hands items to the `Inbox` only;
- the GPIO back end's callback thread (lgpio): `TableInputs`' edge queue, then the `Inbox`;
- the display thread: pygame; reads `LatestBox`es, puts commands and PIN checks on the `Inbox`.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from firmware_bridge import DeviceKind, DeviceLink, LinkStateChange, Message, SerialOpener
from hardware.betzone.settling import ZoneSettler
from hardware.inputs.events import TableInputEvent
from hardware.inputs.factories import close_factories, lgpio_factories, mock_factories
from hardware.inputs.gpio import GpioOutputs, PinFactory
from hardware.inputs.signals import SignalDriver
from hardware.inputs.table import TableInputs
from station import __version__
from station.config.model import DisplayDriver, GpioBackend
from station.config.station_toml import LoadedConfig
from station.daemon.core import STORAGE_RETRY_S, Core, CoreParts, FleetPort
from station.daemon.display_requests import DisplayCommands
from station.daemon.history_runner import HistoryRunner
from station.daemon.history_work import HistoryWork
from station.daemon.items import (
    Device,
    DisplayCommand,
    FleetAlarmed,
    FleetCommandReceived,
    GpioEdges,
    Inbox,
    Item,
    LinkChanged,
    LinkMessage,
    PinCheck,
    Reply,
    Stop,
)
from station.daemon.lock import DaemonLock
from station.daemon.news import LinkPort, Observer
from station.daemon.notify import Notifier
from station.daemon.operations import StationOps
from station.daemon.outage import Outage
from station.daemon.resume import device_cursors, last_input_t, setup_differs
from station.daemon.sink import DisplaySink, FanOut, NullSink
from station.daemon.storage_fault import StorageFault
from station.daemon.storage_wait import StorageWait
from station.diag.server import StatusServer, socket_path
from station.display.nav import Command
from station.display.pinpad import PadAccess
from station.fleet.forwarder import FleetState, FleetStatus, Forwarder
from station.fleet.messages import Reply as FleetReply
from station.fleet.outbox import outbox_status
from station.fleet.transport import TransportFactory
from station.journal import Journal, Recorder, SystemClock
from station.journal.clock import Clock, format_utc
from station.journal.exc import JournalAccessError, JournalStorageError
from station.native import engine_reason
from station.people.check import PEOPLE_CHECKS

log = logging.getLogger(__name__)

FIRST_FRAME_S = 2.0
PIN_CHECK_S = 5.0
KINDS = {Device.SHOE: DeviceKind.SHOE, Device.BETZONES: DeviceKind.BET_ZONES}


@dataclass
class Overrides:
    """What a test or the demo supplies instead of the real thing."""

    factories: Mapping[str, PinFactory] | None = None  # mock pins shared with an emulator
    display: DisplaySink | None = None  # replaces the configured display
    extra_display: DisplaySink | None = None  # in addition to it (the demo's frames)
    environ: Mapping[str, str] | None = None  # NOTIFY_SOCKET, WATCHDOG_USEC
    clock: Callable[[], float] = time.monotonic
    journal_clock: Clock | None = None
    observers: list[Observer] = field(default_factory=list)
    on_item: Callable[[Item], None] | None = None
    fleet_transport: TransportFactory | None = None  # default: paho-mqtt
    storage_reserve_bytes: int | None = None  # free space below which new hands stop


class Daemon:
    def __init__(self, loaded: LoadedConfig, overrides: Overrides | None = None) -> None:
        self.loaded = loaded
        self.config = loaded.config
        self.o = overrides or Overrides()
        self.inbox = Inbox()
        self.core: Core | None = None
        self.journal: Journal | None = None
        self.recorder: Recorder | None = None
        self.links: dict[Device, DeviceLink] = {}
        self.display: DisplaySink | None = None
        self.forwarder: Forwarder | None = None
        self.opened_at = self.o.clock()
        self.ready_s: float | None = None
        self._stack = ExitStack()
        self._gpio_pending = threading.Event()
        self._notify: Notifier | None = None
        self._status: StatusServer | None = None
        self._inputs: tuple[TableInputs, GpioOutputs, list[TableInputEvent]] | None = None

    # --- opening ----------------------------------------------------------------------------

    def open(self) -> Core | None:
        """The core, ready to run; None when asked to stop while waiting for room for the
        journal (a full disk at start: `StorageWait`)."""
        try:
            return self._open()
        except BaseException:
            self._stack.close()
            raise

    def _open(self) -> Core | None:
        cfg, stack = self.config, self._stack
        lock = DaemonLock(cfg.journal, cfg.journal_mode)  # one `station run` per journal
        lock.acquire()
        stack.callback(lock.release)
        found = self._open_journal()
        if found is None:  # asked to stop while waiting for room
            return None
        journal, recorder, outage = found
        lock.hold_journal()  # a journal made just now: its file is locked from here on
        head = journal.head()[0]
        runner = HistoryRunner(cfg.journal, journal.station_id, cfg.registry_in_use, self.inbox.put)
        history = HistoryWork(recorder, runner, cfg.scrub, self.o.clock)
        stack.callback(history.stop)
        ops = StationOps(recorder)
        ops.config_loaded(str(cfg.source), cfg.sha256, __version__)
        log.info("journal %s recovered to seq %d", cfg.journal, head)
        fleet = self._open_fleet(journal)

        status = self._status_server()

        commands = DisplayCommands(
            ops,
            cfg.people,
            deck_scan=self._deck_scan,
            registry_file=cfg.registry or cfg.enrolled_registry,
            deck_back=cfg.table.deck or self.loaded.registry.decks[0].back,
        )
        display = self._the_display()
        inputs, outputs, initial = self._the_inputs()

        settler = self._settler(recorder)
        cursors = device_cursors(recorder)
        devices: list[Device] = []
        for device, dev_cfg in ((Device.SHOE, cfg.shoe), (Device.BETZONES, cfg.betzones.device)):
            if dev_cfg.port is None:
                continue
            devices.append(device)
            self.links[device] = self._link(device, dev_cfg.port, dev_cfg.baudrate, cursors)
        for link in self.links.values():
            link.start()
            stack.callback(link.stop)

        setup = cfg.table.setup()
        parts = CoreParts(
            recorder=recorder,
            inbox=self.inbox,
            display=display,
            notifier=self._notifier(),
            commands=commands,
            settler=settler,
            clock=self.o.clock,
            inputs=inputs,
            signals=SignalDriver(outputs),
            links=dict[Device, LinkPort](self.links.items()),
            observers=list(self.o.observers),
            on_item=self.o.on_item,
            pending_setup=setup if setup_differs(journal, setup) else None,
            t_base=last_input_t(journal, recorder.last_input_seq),
            initial_inputs=initial,
            gpio_pending=self._gpio_pending,
            fleet=fleet,
            status=status if status.listening else None,
            history=history,
            outage=outage,
        )
        if self.o.storage_reserve_bytes is not None:
            parts.storage_reserve_bytes = self.o.storage_reserve_bytes
        self.core = Core(parts, tuple(devices))
        return self.core

    # --- the parts a station waiting for room opens first --------------------------------------

    def _notifier(self) -> Notifier:
        if self._notify is None:
            self._notify = Notifier(self.o.environ) if self.o.environ is not None else Notifier()
        return self._notify

    def _status_server(self) -> StatusServer:
        if self._status is None:
            cfg = self.config
            self._status = StatusServer(
                socket_path(cfg.journal),
                __version__,
                self.o.clock,
                mode=0o660 if cfg.journal_mode & 0o040 else 0o600,
                engine=engine_reason(),
            )
            if self._status.start():
                self._stack.callback(self._status.stop)
        return self._status

    def _the_display(self) -> DisplaySink:
        if self.display is None:
            self.display = self._open_display()
        return self.display

    def _the_inputs(self) -> tuple[TableInputs, GpioOutputs, list[TableInputEvent]]:
        if self._inputs is None:
            stack = self._stack
            factories = self.o.factories
            if factories is None:
                factories = self._factories()
                stack.callback(close_factories, factories)
            pinmap = self.loaded.pinmap
            inputs = TableInputs(pinmap, factories, self.o.clock, notify=self._gpio_edges)
            stack.callback(inputs.close)
            outputs = GpioOutputs(pinmap.outputs, factories)
            stack.callback(outputs.close)
            lgpio = self.config.inputs.backend is GpioBackend.LGPIO
            self._inputs = (inputs, outputs, inputs.start() if lgpio else [])
        return self._inputs

    def _open_journal(self) -> tuple[Journal, Recorder, Outage | None] | None:
        """The journal, opened and recovered; on a full disk the station waits for room
        (`StorageWait`: up, JOURNAL FULL, play refused) and tries again. None when asked to stop
        meanwhile."""
        cfg = self.config
        clock = self.o.journal_clock or SystemClock()
        wait: StorageWait | None = None
        while True:
            journal: Journal | None = None
            try:
                journal = Journal.open(
                    cfg.journal,
                    clock=clock,
                    station_id=cfg.station_id,
                    create=True,
                    file_mode=cfg.journal_mode,
                )
                recorder = Recorder(journal, registry=self.loaded.registry, checks=PEOPLE_CHECKS)
                recorder.recover()
            except (JournalStorageError, OSError) as exc:
                if journal is not None:
                    journal.close()
                fault = StorageFault.of(exc, cfg.journal.parent)
                if isinstance(exc, JournalAccessError) or not fault.disk_full:
                    raise
                if wait is None:
                    wait = self._wait_for_room(fault, format_utc(clock.utc()), clock)
                if not wait.pause(STORAGE_RETRY_S):
                    return None
                continue
            self._stack.callback(journal.close)
            self.journal, self.recorder = journal, recorder
            if wait is not None:
                log.warning("journal opened after %d refused input(s)", wait.outage.count)
            return journal, recorder, wait.outage if wait is not None else None

    def _wait_for_room(self, fault: StorageFault, since_utc: str, clock: Clock) -> StorageWait:
        inputs, _, _ = self._the_inputs()
        return StorageWait(
            self.config.journal,
            fault,
            since_utc,
            inbox=self.inbox,
            display=self._the_display(),
            notifier=self._notifier(),
            clock=self.o.clock,
            utc=lambda: format_utc(clock.utc()),
            inputs=inputs,
            status=self._status_server(),
            gpio_pending=self._gpio_pending,
        )

    def _open_fleet(self, journal: Journal) -> FleetPort | None:
        """The forwarder to the central store, when the config has `[fleet]`. Nothing here
        can stop the station dealing: without paho-mqtt the journal simply keeps the rows."""
        cfg = self.config.fleet
        if cfg is None:
            return None
        factory = self.o.fleet_transport
        if factory is None:
            if importlib.util.find_spec("paho") is None:
                log.error(
                    "[fleet] is configured but paho-mqtt is not installed (pip install "
                    "'.[fleet]'): the journal keeps every row until it is"
                )
                return UnsentOutbox(journal.path, "paho-mqtt is not installed")
            from station.fleet.factory import paho_factory  # noqa: PLC0415

            factory = paho_factory
        forwarder = Forwarder(
            journal.path,
            journal.station_id,
            cfg,
            factory,
            on_alarm=lambda alarm: self.inbox.put(FleetAlarmed(alarm)),
            on_command=lambda command: self.inbox.put(FleetCommandReceived(command)),
            boot_id=journal.boot_id,
        )
        journal.subscribe(lambda _row, _own: forwarder.wake())
        forwarder.start()
        self._stack.callback(forwarder.stop)
        self.forwarder = forwarder
        return forwarder

    def _open_display(self) -> DisplaySink:
        cfg = self.config.display
        if self.o.display is not None:
            main = self.o.display
        elif cfg.driver is DisplayDriver.NONE:
            main = NullSink()
        else:
            from station.display import DisplayThread  # noqa: PLC0415 (lazy: pygame)

            thread = DisplayThread(
                cfg.panel,
                None if cfg.driver is DisplayDriver.AUTO else cfg.driver.value,
                verify_pin=self.verify_pin,
                sign_in=self.sign_in_dealer,
                on_command=self._command,
                table=cfg.table,
                theme=cfg.theme,
            )
            thread.start()
            self._stack.callback(thread.stop)
            if not thread.wait_frames(1, FIRST_FRAME_S):
                log.warning("the display shows nothing yet (%s)", thread.last_fault or "slow")
            main = thread
        if self.o.extra_display is not None:
            return FanOut(main, self.o.extra_display)
        return main

    def _factories(self) -> Mapping[str, PinFactory]:
        if self.config.inputs.backend is GpioBackend.MOCK:
            return mock_factories(self.loaded.pinmap)
        return lgpio_factories(self.loaded.pinmap)

    def _settler(self, recorder: Recorder) -> ZoneSettler:
        cfg = self.config.betzones
        settler = ZoneSettler(10, settle_s=cfg.settle_s, unstable_s=cfg.unstable_s)
        # Start from what the engine holds, so a board that reports the same totals after a
        # restart settles nothing new.
        now = self.o.clock()
        for seat, amount in recorder.table.posting.zone.items():
            settler.reading(seat, amount, now)
        settler.advance(now + cfg.settle_s)
        return settler

    def _link(
        self, device: Device, port: str, baudrate: int, cursors: dict[Device, dict[str, int]]
    ) -> DeviceLink:
        resume = cursors.get(device) or None
        if resume:
            log.info("%s: resuming after event %s", device.value, resume)
        return DeviceLink(
            SerialOpener(port, baudrate),
            on_message=lambda m: self._put_message(device, m),
            on_link_state=lambda c: self._put_change(device, c),
            clock=self.o.clock,
            expect=KINDS[device],
            resume=resume,
            name=device.value,
        )

    def _gpio_edges(self) -> None:
        """On the GPIO back end's thread: wake the core once for a burst of edges (a bouncing
        contact makes a dozen)."""
        if not self._gpio_pending.is_set():
            self._gpio_pending.set()
            self.inbox.put(GpioEdges())

    def _put_message(self, device: Device, message: Message) -> None:
        self.inbox.put(LinkMessage(device, message))

    def _put_change(self, device: Device, change: LinkStateChange) -> None:
        self.inbox.put(LinkChanged(device, change))

    # --- the display thread's side ----------------------------------------------------------

    def verify_pin(self, role: PadAccess, pin: str) -> bool:
        """Called on the display thread: the core checks the PIN (it owns the journal)."""
        reply = Reply()
        self.inbox.put(PinCheck(role, pin, reply))
        return reply.wait(PIN_CHECK_S)

    def sign_in_dealer(self, name: str, pin: str) -> str:
        """Called on the display thread: the core signs `name` in as the table's dealer; ""
        when done, else why not in words."""
        reply = Reply()
        self.inbox.put(PinCheck(PadAccess.DEALER, pin, reply, person=name))
        if reply.wait(PIN_CHECK_S):
            return ""
        return reply.words or "NO ANSWER: TRY AGAIN"

    def _command(self, command: Command) -> None:
        self.inbox.put(DisplayCommand(command))

    def _deck_scan(self) -> None:
        link = self.links.get(Device.SHOE)
        if link is not None:
            link.request_deck_scan()

    # --- running and closing ----------------------------------------------------------------

    def run(self) -> str:
        core = self.core if self.core is not None else self.open()
        if core is None:
            return "stopped while waiting for room for the journal"
        self.ready_s = self.o.clock() - self.opened_at
        return core.run()

    def stop(self, reason: str) -> None:
        """Thread-safe (and signal-safe): the core finishes the item in hand, then returns."""
        self.inbox.put(Stop(reason))

    def close(self) -> None:
        if self._notify is not None:
            self._notify.stopping()
        self._stack.close()


class UnsentOutbox:
    """The fleet port of a station whose forwarder cannot run: the outbox as the journal holds
    it, state `disabled` and why."""

    def __init__(self, path: Path, why: str) -> None:
        self.path = path
        self.why = why

    def status(self) -> FleetStatus:
        box = outbox_status(self.path)
        return FleetStatus(
            FleetState.DISABLED,
            outbox_rows=box.rows,
            outbox_age_s=box.age_s(datetime.now(UTC)),
            head_seq=box.head_seq,
            acked_seq=box.acked_seq,
            detail=self.why,
        )

    def reply(self, reply: FleetReply) -> bool:
        return False
