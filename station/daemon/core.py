"""The core loop: one thread, one queue, the journal first. Application service (single-threaded).

Every input reaches the engine here and only here: an item is taken from the `Inbox`, turned
into an engine event, recorded through the journal's `Recorder` (event and decisions committed
in one transaction), and only then is the new snapshot published to the display, the LEDs and
buzzer set from it, the systemd status updated and the observers told. Timers (debounce and
panel deadlines, bet-zone settling, LED patterns, the watchdog, the diagnostics refresh) run
between items on the same thread, from one injected monotonic clock.

The watchdog is petted from here only, after a health check, at half of `WATCHDOG_USEC`: a
wedged core stops petting, and systemd restarts the station, which replays the journal.

A journal that cannot be written (disk full, I/O error: `JournalStorageError`) does not stop the
core: what was committed stays committed, the recorder puts the engine back where the journal
is, the display and `systemctl status` say JOURNAL FULL, a NEW_HAND key is refused, and every
`STORAGE_RETRY_S` the core tries to put the outage on record (a critical `storage_full` tilt
naming how many inputs went unrecorded); the first write that succeeds ends it. Before it comes
to that, the free space is checked every `STORAGE_CHECK_S`: below the reserve the same critical
tilt stops new hands while there is still room for the hand in play. NEW_HAND is refused under
any critical tilt (journal integrity, replay mismatch, storage, engine fault), each refusal
journaled (`station.input_refused`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from firmware_bridge import (
    BetZoneTotals,
    CardDrawn,
    DeckScan,
    DeviceIdentity,
    DeviceRebooted,
    EventsLost,
    LinkState,
    Message,
    SensorFault,
    ShoeStatus,
    Snapshot,
)
from hardware.betzone.settling import ZoneEvent, ZoneFault, ZoneSettled, ZoneSettler
from hardware.inputs.events import (
    InputStuck,
    KeyPressed,
    LevelMismatch,
    PanelMode,
    PanelRejected,
    PanelStatus,
    PuckConflict,
    PuckMoved,
    SeatChanged,
    TableInputEvent,
)
from hardware.inputs.signals import Signal, SignalDriver
from hardware.inputs.table import TableInputs
from station.daemon.display_requests import DisplayCommands
from station.daemon.fleet_commands import carry_out
from station.daemon.history_work import HistoryWork
from station.daemon.items import (
    Device,
    DisplayCommand,
    FleetAlarmed,
    FleetCommandReceived,
    GpioEdges,
    HistoryChecked,
    Inbox,
    Item,
    LinkChanged,
    LinkMessage,
    PinCheck,
    Reseat,
    ScrubProgressed,
    Stop,
)
from station.daemon.news import (
    LinkNews,
    LinkPort,
    Observer,
    OpsNews,
    PanelNews,
    Recorded,
)
from station.daemon.notify import Notifier
from station.daemon.operations import STORAGE_RESERVE_BYTES, StationOps
from station.daemon.outage import Outage, input_words
from station.daemon.sink import DisplaySink
from station.daemon.storage_fault import StorageFault
from station.daemon.tourney_desk import TourneyDesk
from station.daemon.translate import (
    Provenance,
    draw_event,
    key_event,
    panel_entry,
    panel_entry_short,
    sensor_event,
    status_line,
    wanted_signals,
    zone_event,
)
from station.daemon.views import FloorViews, absent_link, diagnostics, link_view
from station.diag.server import LiveStatus, StatusServer
from station.display.clock_view import clock_line
from station.display.dealer_view import StationStatus
from station.display.diag_view import EnrolmentView, FleetView
from station.display.floor_keys import ScreenKey
from station.display.pinpad import PadAccess
from station.engine.cards import STANDARD_DECK
from station.engine.decisions import Decision, HandEnd, Incident
from station.engine.events import ClockSet, InputEvent, Key, KeyPress, Setup
from station.engine.snapshot import Phase, SeatStatus, TableSnapshot
from station.fleet.forwarder import FleetAlarm, FleetState, FleetStatus
from station.fleet.messages import Reply, ReplyStatus
from station.journal import ActorRole, Recorder
from station.journal.clock import format_utc
from station.journal.codes import Code, TiltCode
from station.journal.exc import JournalStorageError
from station.journal.rows import Entry
from station.journal.witness import Head

log = logging.getLogger(__name__)

LINK_GRACE_S = 2.0  # a device not up this long after start is reported down
DIAG_EVERY_S = 1.0
IDLE_CHECK_S = 5.0
MAX_WAIT_S = 0.5
STORAGE_RETRY_S = 5.0  # a journal that could not be written is tried again this often
STORAGE_CHECK_S = 30.0  # free space on the journal's disk
WITNESS_TOUCH_S = 60.0  # the head witness records the wall time (clock steps at the next start)
BETWEEN_HANDS = frozenset({Phase.IDLE, Phase.BETWEEN, Phase.ENDED})


CENTRAL_TILT_DEVICE = "central"  # the key of the tilt a fleet alarm raises


class FleetPort(Protocol):
    """The fleet forwarder as the core sees it (`station.fleet.forwarder.Forwarder`)."""

    def status(self) -> FleetStatus: ...
    def reply(self, reply: Reply) -> bool: ...


@dataclass
class CoreParts:
    """Everything the core drives; built by the composition root (or a test)."""

    recorder: Recorder
    inbox: Inbox
    display: DisplaySink
    notifier: Notifier
    commands: DisplayCommands
    settler: ZoneSettler
    clock: Callable[[], float]
    inputs: TableInputs | None = None
    signals: SignalDriver | None = None
    links: dict[Device, LinkPort] = field(default_factory=dict)
    observers: list[Observer] = field(default_factory=list)
    on_item: Callable[[Item], None] | None = None  # test hook, called before each item
    pending_setup: Setup | None = None  # the config's table, applied between hands
    initial_inputs: list[TableInputEvent] = field(default_factory=list)  # sensors at start
    t_base: float = 0.0  # session time of the last journaled input (t goes on from there)
    gpio_pending: threading.Event | None = None  # a GpioEdges item is queued (one is enough)
    fleet: FleetPort | None = None  # forwarding to the central store; None: not configured
    storage_reserve_bytes: int = STORAGE_RESERVE_BYTES  # less free than this: no new hands
    status: StatusServer | None = None  # the read-only status socket of `station diag`
    history: HistoryWork | None = None  # the history check and the scrub (child processes)
    outage: Outage | None = None  # the journal could not be opened at start (a full disk)


class Core:
    def __init__(self, parts: CoreParts, devices: tuple[Device, ...]) -> None:
        # The collaborators the composition root built (CoreParts), each by its name.
        self.inbox = parts.inbox
        self.display = parts.display
        self.notifier = parts.notifier
        self.commands = parts.commands
        self.settler = parts.settler
        self.clock = parts.clock
        self.inputs = parts.inputs
        self.signals = parts.signals
        self.links = parts.links
        self.observers = parts.observers
        self.on_item = parts.on_item
        self.pending_setup = parts.pending_setup
        self.initial_inputs = parts.initial_inputs
        self.t_base = parts.t_base
        self.gpio_pending = parts.gpio_pending
        self.fleet = parts.fleet
        self.storage_reserve_bytes = parts.storage_reserve_bytes
        self.status_server = parts.status
        self.history = parts.history
        self.recorder = parts.recorder
        self.ops = StationOps(parts.recorder)
        self.devices = devices  # configured devices (a table may lack one)
        self.started_at = parts.clock()
        self.identity: dict[Device, DeviceIdentity] = {}
        self.link_up: dict[Device, bool | None] = dict.fromkeys(devices)
        self.last_t = parts.t_base
        self.zone_source: dict[int, Provenance] = {}
        self.enrolment: EnrolmentView | None = None
        self.floor = FloorViews(parts.recorder)
        self._signals: frozenset[Signal] = frozenset()
        self._next_pet: float | None = None
        self._next_diag = self.started_at
        self._next_idle = self.started_at + IDLE_CHECK_S
        self._floor_dirty = True
        self._unhealthy = ""
        # Why the journal cannot be written now, since when and what was lost meanwhile; a
        # station that started on a full disk (`parts.outage`) begins with it.
        self.outage: Outage | None = parts.outage
        self._attempt = ""  # the input being recorded, in words (an outage lists it)
        self._next_retry = self.started_at
        self._next_storage = self.started_at
        self._next_touch = self.started_at + WITNESS_TOUCH_S
        self._panel = PanelStatus(None, PanelMode.IDLE, None, "", 0.0)  # the key panel's entry
        self._shown: TableSnapshot | None = None
        self._dealers = parts.commands.dealers()  # whom the dealer sign-in offers
        tilts = parts.recorder.op_state().tilts
        self._down_journaled = {d: f"link_lost:{d.value}" in tilts for d in devices}
        # The centre's tournament commands and what the table does about them.
        self.tourney = TourneyDesk(
            parts.recorder,
            lambda event, actor: self.record(event, actor, self.clock(), ActorRole.STATION),
            self.session_t,
        )
        self._level_ended: float | None = None  # the level end a clock input was recorded for

    # --- the loop ---------------------------------------------------------------------------

    def run(self) -> str:
        """Serve until a `Stop` item; returns its reason. READY=1 goes out first."""
        snapshot = self.recorder.snapshot()
        self.notifier.ready(self._status(snapshot))
        self._publish(snapshot)
        self._publish_status()
        self._refresh_diag(self.clock())
        if self.notifier.watchdog_s is not None:
            self._next_pet = self.clock()
        log.info("station ready (hand %d, %s)", snapshot.hand, snapshot.phase.value)
        if self.history is not None:
            self.history.begin()  # after READY: what the start took on trust
        if self.recorder.clock_warning:
            log.warning("diagnostics: %s", self.recorder.clock_warning)
        try:
            self._storage_back()  # a start that waited for room: its outage first, on record
            self._initial_sensors(snapshot)
            self._apply_pending_setup(self.recorder.snapshot())
        except JournalStorageError as exc:
            self._journal_failed(exc, counts=True)
        while True:
            now = self.clock()
            item = self.inbox.get(max(0.0, min(self._deadline(now), now + MAX_WAIT_S) - now))
            if item is not None:
                if self.on_item is not None:
                    self.on_item(item)
                if isinstance(item, Stop):
                    return item.reason
                try:
                    self._handle(item)
                except JournalStorageError as exc:
                    what = type(item).__name__
                    self._journal_failed(exc, counts=not isinstance(item, PinCheck), what=what)
            try:
                self._timers(self.clock())
            except JournalStorageError as exc:
                self._journal_failed(exc, counts=False)

    def _deadline(self, now: float) -> float:
        times = [now + MAX_WAIT_S, self._next_diag]
        if self._next_pet is not None:
            times.append(self._next_pet)
        if self.inputs is not None:
            due = self.inputs.next_deadline()
            if due is not None:
                times.append(due)
        due = self.settler.deadline()
        if due is not None:
            times.append(due)
        if self.signals is not None:
            due = self.signals.next_deadline(now)
            if due is not None:
                times.append(due)
        return min(times)

    def _timers(self, now: float) -> None:
        if self.inputs is not None:
            due = self.inputs.next_deadline()
            if due is not None and now >= due:
                self._table_inputs(self.inputs.poll())
        self._zone_events(self.settler.advance(now))
        if self.signals is not None:
            self.signals.tick(now)
        if now >= self._next_diag:
            self._link_grace(now)
            self._refresh_diag(now)
            self._next_diag = now + DIAG_EVERY_S
        if now >= self._next_idle:
            self._next_idle = now + IDLE_CHECK_S
            dealers = self.commands.dealers()  # `station people` may have changed them
            if self.ops.expire_idle() or dealers != self._dealers:
                self._dealers = dealers
                self._after_ops()
        if self._floor_dirty:
            self._floor_dirty = False
            self.display.publish_floor(self.floor.build())
        self._level_end()
        self._pet(now)
        self._storage_timers(now)
        if self.history is not None and not self.storage_fault:
            self.history.tick(now)

    # --- the journal's storage --------------------------------------------------------------

    def _storage_timers(self, now: float) -> None:
        if self.storage_fault is not None:
            if now >= self._next_retry:
                self._next_retry = now + STORAGE_RETRY_S
                self._storage_back()
            return
        if now >= self._next_touch:
            self._next_touch = now + WITNESS_TOUCH_S
            self.recorder.journal.touch_witness()
        if now >= self._next_storage and self.storage_reserve_bytes > 0:
            self._next_storage = now + STORAGE_CHECK_S
            if self.ops.check_storage(self.storage_reserve_bytes) is not None:
                log.error("journal disk low: new hands are refused until a technician clears it")
                self._after_ops()

    @property
    def storage_fault(self) -> StorageFault | None:
        """Why the journal cannot be written now (None: it can)."""
        return self.outage.fault if self.outage is not None else None

    def _journal_failed(self, exc: JournalStorageError, *, counts: bool, what: str = "") -> None:
        """A write failed: stay up for the display, refuse new hands, try again later."""
        journal = self.recorder.journal
        utc = format_utc(journal.clock.utc())
        what, self._attempt = self._attempt or what, ""
        if self.outage is not None:
            if counts:
                self.outage.note(what, utc)
            return
        self.outage = Outage(StorageFault.of(exc, journal.path.parent), utc)
        if counts:
            self.outage.note(what, utc)
        self._next_retry = self.clock() + STORAGE_RETRY_S
        try:
            kept = f"everything up to seq {journal.head()[0]} is kept"
        except Exception:
            kept = "everything committed is kept"
        log.critical(
            "JOURNAL CANNOT BE WRITTEN (%s): new hands are refused and nothing more is recorded "
            "until there is room for it; %s (journal %s)",
            self.storage_fault,
            kept,
            journal.path,
        )
        self._refresh_diag(self.clock())
        self._after_ops()

    def _storage_back(self) -> None:
        """Try to put the outage on record (`Outage.entry`: a critical tilt with what was
        refused); the first write that succeeds ends it (a failure raises JournalStorageError,
        and the core tries again later)."""
        outage = self.outage
        if outage is None:
            return
        row = self.recorder.journal.append([outage.entry()])[0]
        log.warning("journal written again at seq %d: %s", row.seq, outage.detail())
        self.outage = None
        self._refresh_diag(self.clock())
        self._after_ops()

    def why_no_new_hand(self) -> tuple[str, ...]:
        """Why a new hand may not start now (empty: it may): the journal cannot be written, or
        a critical tilt is open."""
        reasons = (
            [f"journal cannot be written ({self.storage_fault})"]
            if self.storage_fault is not None
            else []
        )
        tilts = self.recorder.op_state().tilts.values()
        reasons.extend(f"tilt {t.key}" for t in tilts if t.critical)
        hold = self.tourney.hold_reason()
        if hold:
            reasons.append(hold)
        return tuple(reasons)

    def _refuse(self, event: KeyPress, reasons: tuple[str, ...]) -> None:
        if self.signals is not None:
            self.signals.play(Signal.KEY_REJECT, self.clock())
        log.warning("%s refused: %s", event.key.value, "; ".join(reasons))
        if self.outage is None:
            payload = {"key": event.key.value, "blocked": list(reasons)}
            entry = Entry(Code.INPUT_REFUSED, payload, "panel", ActorRole.DEVICE)
            self.recorder.journal.append([entry])
        else:  # no room to journal the refusal: the outage's record lists it
            utc = format_utc(self.recorder.journal.clock.utc())
            self.outage.note(f"{input_words(event)} refused", utc)
        self._after_ops()

    def _pet(self, now: float) -> None:
        interval = self.notifier.watchdog_s
        if self._next_pet is None or interval is None or now < self._next_pet:
            return
        late_s = now - self._next_pet
        if late_s > interval / 2:  # one item took long (a slow disk?): alive, but say so
            log.warning("core loop %.2f s late for the watchdog", late_s)
        problem = self.health()
        if problem:
            if problem != self._unhealthy:
                log.error("health check failed, not petting the watchdog: %s", problem)
            self._unhealthy = problem
        else:
            self._unhealthy = ""
            self.notifier.watchdog()
        self._next_pet = now + interval

    def health(self) -> str:
        """Empty when the station is sound; else what is wrong (a dead adapter thread)."""
        for device, link in self.links.items():
            if not link.alive:
                return f"the {device.value} link thread has stopped"
        alive = getattr(self.display, "alive", True)
        if not alive:
            return "the display thread has stopped"
        return ""

    # --- items ------------------------------------------------------------------------------

    def _handle(self, item: Item) -> None:
        match item:
            case LinkMessage(device=device, message=message):
                self._link_message(device, message)
            case LinkChanged(device=device, change=change):
                self._link_changed(device, change.state, change.reason, change.identity)
            case GpioEdges():
                if self.gpio_pending is not None:
                    self.gpio_pending.clear()  # edges after this point queue a new item
                if self.inputs is not None:
                    self._table_inputs(self.inputs.poll())
            case DisplayCommand(command=ScreenKey() as key):
                self._screen_key(key)
            case DisplayCommand(command=command):
                self.commands.handle(command)
                self._after_ops()
            case PinCheck(role=PadAccess.DEALER, pin=pin, reply=reply, person=person):
                words = self.commands.sign_in_dealer(person or "", pin)
                reply.answer(not words, words)
                if not words:
                    self._after_ops()  # the name on the status strip
            case PinCheck(role=role, pin=pin, reply=reply):
                reply.answer(self.commands.check_pin(role, pin))
            case Reseat(setup=setup, actor=actor):
                self.record(setup, actor, self.clock(), ActorRole.STATION)
            case HistoryChecked(report=report):
                if self.history is not None:
                    self.history.checked(report)
                else:
                    self.recorder.journal_history(report)
                self._after_ops()
            case ScrubProgressed(progress=progress):
                if self.history is not None:
                    self.history.progressed(progress)
                if progress.done:
                    self._after_ops()
            case FleetAlarmed(alarm=alarm):
                self._fleet_alarm(alarm)
            case FleetCommandReceived(command=command):
                # The floor console's rulings: journaled here, by the workflow's own code; the
                # tournament's commands by the tournament desk.
                if command.kind.startswith("tournament."):
                    answer = self.tourney.carry_out(command)
                else:
                    answer = carry_out(command, self.recorder.journal, self.ops)
                if self.fleet is not None:
                    self.fleet.reply(answer)
                if answer.status is ReplyStatus.DONE:
                    self._after_ops()
            case Stop():
                pass

    def _fleet_alarm(self, alarm: FleetAlarm) -> None:
        """The central store holds more of this journal than it has (rollback), or another
        history of it: the journal checks the centre's head (`Journal.check_head`, the same
        critical tilt as its own head witness raises, source "central store"). When the
        journal holds that head after all (the centre refused a row further on), the tilt is
        raised here, keyed to the centre."""
        found = self.recorder.journal.check_head(
            Head(alarm.central_seq, alarm.central_hash, source="the central store")
        )
        if found is None:
            key = f"{TiltCode.JOURNAL_INTEGRITY.value}:{CENTRAL_TILT_DEVICE}"
            if key not in self.recorder.op_state().tilts:
                self.ops.raise_tilt(
                    TiltCode.JOURNAL_INTEGRITY,
                    f"central store: {alarm.kind.value}: {alarm.detail}",
                    CENTRAL_TILT_DEVICE,
                )
        self._after_ops()

    def session_t(self) -> float:
        """The session time (`t`) of an input recorded now."""
        return max(self.last_t, round(self.t_base + (self.clock() - self.started_at), 3))

    def record(
        self, event: InputEvent, actor: str, at: float, role: ActorRole = ActorRole.DEVICE
    ) -> list[Decision]:
        """Journal one input with its decisions, then show the result (never before)."""
        t = max(self.last_t, round(self.t_base + (at - self.started_at), 3))
        self.last_t = t
        self._attempt = input_words(event)
        decisions = self.recorder.record(event, actor=actor, role=role, at=t)
        self._attempt = ""
        self.ops.table_active()  # the dealer is dealing: not idle
        if self.storage_fault is not None:
            self._storage_back()  # the journal takes rows again
        snapshot = self.recorder.snapshot()
        self._publish(snapshot)
        if any(isinstance(d, Incident | HandEnd) for d in decisions):
            self._floor_dirty = True
        for decision in decisions:
            if isinstance(decision, Incident):
                log.info(
                    "hand %d: incident %s (%s) at input %d",
                    decision.hand,
                    decision.rule,
                    decision.ruling.value,
                    self.recorder.last_input_seq,
                )
        news = Recorded(self.recorder.last_input_seq, event, actor, tuple(decisions), snapshot)
        for observer in self.observers:
            observer(news)
        self._apply_pending_setup(snapshot)
        self.tourney.settle(decisions)
        return decisions

    def _screen_key(self, key: ScreenKey) -> None:
        """A key the floor entered on the screen (CHIP RACE, FORFEIT): an input like a panel
        key's, journaled with the signed-in person as its actor."""
        who = self.commands.signed_in(key.role)
        if who is None:
            return
        log.info("%s entered %s on the %s screen", who.person, key.key.value, key.role.value)
        self.record(key.event(), who.person, self.clock(), who.role)

    def _apply_pending_setup(self, snapshot: TableSnapshot) -> None:
        setup = self.pending_setup
        if setup is not None and snapshot.phase in BETWEEN_HANDS:
            self.pending_setup = None
            log.info("table set up from the config: %s %s", setup.game, setup.profile)
            if setup.tournament is not None:
                # The config's tournament clock starts now (its level, elapsed_s into it).
                start = replace(setup.tournament, start_t=self.session_t())
                setup = replace(setup, tournament=start)
            self.record(setup, "config", self.clock(), ActorRole.STATION)

    def _level_end(self) -> None:
        """The station's own clock reached the end of a level between hands: the signal is
        recorded as a `clock` input at that moment, so the posting prompt names the new level
        at once (001-RR11 §15 r10: "a signal designating the end of a betting level")."""
        view = self._shown.tournament if self._shown is not None else None
        if view is None or view.ends_t is None or view.next_level is None:
            return
        if self._shown is not None and self._shown.phase not in BETWEEN_HANDS:
            return  # a hand in play keeps its level; the next deal's is settled at its end
        now = self.session_t()
        if now < view.ends_t or self._level_ended == view.ends_t:
            return
        self._level_ended = view.ends_t
        left = max(0.0, view.next_duration_s - (now - view.ends_t))
        self.record(
            ClockSet(view.next_level, round(left, 3)), "clock", self.clock(), ActorRole.STATION
        )

    def _publish(self, snapshot: TableSnapshot) -> None:
        self._shown = snapshot
        self.display.publish(snapshot)
        attention = bool(self.recorder.op_state().tilts) or any(
            up is False for up in self.link_up.values()
        )
        wanted = wanted_signals(snapshot, attention)
        signals = self.signals
        if signals is not None and wanted != self._signals:
            now = self.clock()
            for signal in sorted(wanted - self._signals):
                signals.play(signal, now)
            for signal in sorted(self._signals - wanted):
                signals.stop(signal, now)
        self._signals = wanted
        self.notifier.status(self._status(snapshot))

    def _status(self, snapshot: TableSnapshot) -> str:
        blocked = self.recorder.op_state().why_play_stops
        if self.storage_fault is not None:
            blocked = (f"JOURNAL CANNOT BE WRITTEN ({self.storage_fault})", *blocked)
        return status_line(snapshot, self.link_up, blocked)

    def _after_ops(self) -> None:
        """An operational row was journaled (floor call cleared, link, login), or the journal
        could not be written: show it."""
        self._floor_dirty = True
        snapshot = self.recorder.snapshot()
        self._publish(snapshot)
        self._publish_status()
        blocked = self.recorder.op_state().why_play_stops
        if self.storage_fault is not None:
            blocked = (f"journal cannot be written ({self.storage_fault})", *blocked)
        news = OpsNews(snapshot, blocked)
        for observer in self.observers:
            observer(news)

    # --- the links --------------------------------------------------------------------------

    def _link_message(self, device: Device, message: Message) -> None:
        serial = self.identity[device].serial if device in self.identity else "?"
        match message:
            case CardDrawn():
                prov = Provenance(device, serial, message.event_id)
                self.record(draw_event(message), prov.actor, message.at)
            case BetZoneTotals():
                self.zone_source[message.seat] = Provenance(device, serial, message.event_id)
                self._zone_events(
                    self.settler.reading(message.seat, message.amount, message.at, message.chips)
                )
            case Snapshot(zones=zones, at=at):
                for z in zones:  # the board's state after a (re)connect: changes while away
                    self._zone_events(self.settler.reading(z.seat, z.amount, at, z.chips))
            case DeckScan(tags=tags, complete=complete):
                pairs = tuple((t, c.code) for t, c in zip(tags, STANDARD_DECK, strict=False))
                self.enrolment = EnrolmentView("new deck", pairs, scanning=not complete)
                log.info("deck scan: %d tags (%s)", len(tags), "complete" if complete else "part")
            case ShoeStatus():
                log.info("shoe status: deck %s, lid %s", message.deck_present, message.lid_closed)
            case DeviceRebooted():
                log.info("%s booted (boot %d)", device.value, message.boot_id)
            case EventsLost():
                log.error(
                    "%s: events lost from %d (%s)",
                    device.value,
                    message.first_event_id,
                    message.reason,
                )
                self.ops.raise_tilt(
                    TiltCode.LINK_LOST, f"events lost: {message.reason}", f"{device.value}-events"
                )
                self._after_ops()
            case SensorFault():
                log.warning("%s: sensor %s %s fault", device.value, message.sensor, message.fault)

    def _link_changed(
        self, device: Device, state: LinkState, reason: str, identity: DeviceIdentity | None
    ) -> None:
        up = state is LinkState.UP
        if identity is not None:
            self.identity[device] = identity
        was = self.link_up.get(device)
        self.link_up[device] = up
        if up:
            assert identity is not None
            self.ops.link_up(
                device.value, f"{identity.serial} firmware {identity.firmware_version}"
            )
            self._down_journaled[device] = False
        elif was is not False and not self._down_journaled.get(device):
            self.ops.link_down(device.value, reason, never_up=was is None)
            self._down_journaled[device] = True
        if state is LinkState.REFUSED:
            log.error("%s refused: %s", device.value, reason)
        self._publish_status()
        self._refresh_diag(self.clock())
        self._after_ops()
        for observer in self.observers:
            observer(LinkNews(device, up, reason))

    def _link_grace(self, now: float) -> None:
        if now - self.started_at < LINK_GRACE_S:
            return
        for device in self.devices:
            if self.link_up.get(device) is None and not self._down_journaled[device]:
                link = self.links.get(device)
                reason = link.stats().reason if link is not None else "not started"
                self._link_changed(device, LinkState.DOWN, f"not found at start: {reason}", None)

    def _publish_status(self) -> None:
        shoe = self.link_up.get(Device.SHOE) if Device.SHOE in self.devices else None
        zones = self.link_up.get(Device.BETZONES) if Device.BETZONES in self.devices else None
        panel = self._panel
        self.display.publish_status(
            StationStatus(
                shoe_ok=shoe,
                zones_ok=zones,
                alert=self._alert(),
                selected=panel.selected,
                entry=panel_entry(panel),
                entry_short=panel_entry_short(panel),
                dealer=self.recorder.op_state().dealer or "",
                dealers=self._dealers,
                tournament=self.tourney.banner(),
                clock_source=self._clock_source(),
                session_t=self.session_t(),
            )
        )

    def _clock_words(self) -> str:
        """The tournament clock for the diagnostics: its longest form, with its source."""
        shown = self._shown
        line = clock_line(
            shown.tournament if shown is not None else None,
            self.session_t(),
            self._clock_source(),
        )
        if line is None:
            return ""
        text = line.forms[0]
        source = self._clock_source()
        return text if source in text else f"{text} · {source}"

    def _clock_source(self) -> str:
        online = None if self.fleet is None else self.fleet.status().state is FleetState.ONLINE
        shown = self._shown
        return self.tourney.clock_source(shown is not None and shown.tournament is not None, online)

    def _alert(self) -> str:
        """The few words the dealer screen's status strip shows instead of the links when play
        is blocked by the station itself."""
        if self.storage_fault is not None:
            return "JOURNAL FULL" if self.storage_fault.disk_full else "JOURNAL FAULT"
        tilts = [t for t in self.recorder.op_state().tilts.values() if t.critical]
        if not tilts:
            return ""
        codes = {t.code for t in tilts}
        if TiltCode.STORAGE_FULL in codes:
            return "JOURNAL DISK LOW"
        if codes & {TiltCode.JOURNAL_INTEGRITY, TiltCode.REPLAY_MISMATCH}:
            return "JOURNAL ALARM"
        return "PLAY BLOCKED"

    def _refresh_diag(self, now: float) -> None:
        """The diagnostics screen's records, and the same data (with every link counter) for
        the status socket of `station diag`: one source for both."""
        views = []
        stats = {d: link.stats() for d, link in self.links.items()}
        for device in (Device.SHOE, Device.BETZONES):
            found = stats.get(device)
            views.append(link_view(device, found, now) if found else absent_link(device))
        if self.fleet is not None:
            online = self.fleet.status().state is FleetState.ONLINE
            hhmm = self.recorder.journal.clock.utc().astimezone().strftime("%H:%M")
            self.tourney.note_link(online, hhmm)
        if self._shown is not None and self._shown.tournament is not None:
            self._publish_status()  # the level clock's time runs down on the screens
        levels = self.inputs.believed() if self.inputs is not None else {}
        data = diagnostics(
            self.recorder,
            tuple(views),
            levels,
            self.enrolment,
            self.fleet_view(),
            self._journal_words(),
            self._clock_words(),
        )
        self.display.publish_diagnostics(data)
        if self.status_server is not None:
            snapshot = self._shown
            self.status_server.publish(
                LiveStatus(
                    at=now,
                    links={d.value: stats.get(d) for d in (Device.SHOE, Device.BETZONES)},
                    gpio=levels,
                    data=data,
                    hand=snapshot.hand if snapshot is not None else 0,
                    phase=snapshot.phase.value if snapshot is not None else "",
                    status=self._status(snapshot) if snapshot is not None else "",
                    extra=self._history_status(),
                )
            )

    def _history_status(self) -> dict[str, object]:
        """The history check and the scrub, for `station diag` (its "history" object)."""
        work = self.history
        scrub = work.scrub if work is not None else None
        last = self.recorder.last_history
        return {
            "history": {
                "checking": self.recorder.history is not None,
                "last_check": None
                if last is None
                else {
                    "ok": last.ok,
                    "rows": last.rows,
                    "rederived_rows": last.rederived_rows,
                    "mismatches": last.mismatch_count,
                    "drift": last.drift_count,
                    "duration_s": last.duration_s,
                },
                "scrub": None if scrub is None else {**scrub.to_dict(), "running": not scrub.done},
            }
        }

    def fleet_view(self) -> FleetView | None:
        """Forwarding to the central store, for the screens (None: no `[fleet]`)."""
        if self.fleet is None:
            return None
        s = self.fleet.status()
        return FleetView(s.state.value, s.outbox_rows, s.outbox_age_s, s.central_seq, s.detail)

    def _journal_words(self) -> str:
        """The journal's problem for the diagnostics page, in a few words."""
        if self.storage_fault is not None:
            return "DISK FULL" if self.storage_fault.disk_full else "CANNOT WRITE"
        if self.recorder.journal.witness_fault:
            return "HEAD WITNESS NOT WRITTEN"
        return ""

    # --- bet zones and table inputs ---------------------------------------------------------

    def _initial_sensors(self, snapshot: TableSnapshot) -> None:
        """The seat and puck sensors at start, journaled where they differ from the table the
        journal rebuilt (a player left while the station was down)."""
        occupied = {v.seat for v in snapshot.seats if v.status is not SeatStatus.EMPTY}
        puck = self.recorder.table.puck
        for ev in self.initial_inputs:
            seat_moved = isinstance(ev, SeatChanged) and (ev.seat in occupied) != ev.occupied
            puck_moved = isinstance(ev, PuckMoved) and ev.seat != puck
            if seat_moved or puck_moved:
                assert isinstance(ev, SeatChanged | PuckMoved)
                self.record(sensor_event(ev), "sensors", ev.at)
        self.initial_inputs = []

    def _zone_events(self, events: list[ZoneEvent]) -> None:
        for ev in events:
            if isinstance(ev, ZoneSettled):
                prov = self.zone_source.get(ev.seat)
                actor = prov.actor if prov is not None else Device.BETZONES.value
                self.record(zone_event(ev), actor, ev.at)
            elif isinstance(ev, ZoneFault):
                log.warning("bet zone reading refused: %s", ev.reason)
            else:
                log.info("bet zone seat %s: %s", ev.seat, type(ev).__name__)

    def _table_inputs(self, events: list[TableInputEvent]) -> None:
        for ev in events:
            match ev:
                case KeyPressed():
                    event = key_event(ev, self.recorder.snapshot())
                    blocked = self.why_no_new_hand() if event.key is Key.NEW_HAND else ()
                    if blocked:
                        self._refuse(event, blocked)
                        continue
                    if self.signals is not None:
                        self.signals.play(Signal.KEY_ACK, self.clock())
                    self.record(event, "panel", ev.at)
                case PuckMoved() | SeatChanged():
                    self.record(sensor_event(ev), "sensors", ev.at)
                case PanelRejected():
                    if self.signals is not None:
                        self.signals.play(Signal.KEY_REJECT, self.clock())
                    log.info("panel: %s refused (%s)", ev.button, ev.reason.value)
                case PanelStatus():
                    log.debug("panel: %s %s", ev.mode.value, ev.pending or "")
                    self._panel = ev  # the display shows it, and a seat key turns its pages
                    self._publish_status()
                    for observer in self.observers:
                        observer(PanelNews(ev))
                case PuckConflict() | InputStuck() | LevelMismatch():
                    log.warning("table input: %s", ev)
