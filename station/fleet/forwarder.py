"""The fleet forwarder: one thread that delivers the station's journal to the central store
over MQTT, row after row, and learns from the centre whether this journal was rolled back or
rewritten. Edge adapter (a thread; the journal file through `Outbox`, the network through a
`Transport`).

The journal is the outbox: the thread publishes the rows after the ack cursor (QoS 1, in
batches of `batch` rows, at most `window` rows unacknowledged), and moves the cursor only when
an `Ack` from the central ingest says they are committed there; a PUBACK means nothing. Rows
not acknowledged within `resend_s` are sent again from the cursor (go-back-N), the wait
doubling up to 60 s while nothing is acknowledged; a reconnect, a `gap` verdict or the ingest
coming back online (`_central/status`) resends at once. The centre absorbs duplicates. A second
resend in a row without an acknowledgement while the ingest says it is online starts a fresh
MQTT client (a connection that carries nothing, seen after a broker `kill -9`, is not waited out).

The station never waits for any of this: the core journals and deals whether the broker is
there or not, for days; the outbox just grows (`status()`: rows and age, for the screens).

Anchoring: at each connect the forwarder says its head (`Hello`); every `Ack` carries the
centre's head. A centre ahead of this journal (it holds rows we no longer have) is a rollback;
a centre head whose hash differs from our row of that seq, or a `fork`/`rollback`/
`chain_break` verdict, is a fork. Either way the forwarder stops sending (`FORKED`) and calls
`on_alarm` once; the daemon raises a critical tilt from it.

Threads: `wake()` and the transport's callbacks may be called from any thread; everything
else, the SQLite connection included, belongs to the forwarder's own thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from queue import Empty, SimpleQueue
from typing import Final

from station.config.model import FleetConfig
from station.fleet.messages import (
    BAD_VERDICTS,
    Ack,
    Command,
    Hello,
    MessageError,
    Reply,
    ReplyStatus,
    Status,
    Verdict,
    central_online,
    encode_rows,
)
from station.fleet.outbox import Outbox, OutboxStatus
from station.fleet.topics import StationTopics, central_status
from station.fleet.transport import TransportFactory, TransportSettings, Will
from station.journal.clock import format_utc

log = logging.getLogger(__name__)

POLL_S: Final = 1.0  # rows another process wrote (the CLI) are noticed within this
CURSOR_EVERY_S: Final = 1.0  # the ack cursor is written at most this often
STATUS_EVERY_S: Final = 10.0  # the retained status message to the centre
STATUS_REFRESH_S: Final = 0.5  # `status()` for the screens (it costs three queries)
MAX_RESEND_S: Final = 60.0
GAP_HOLDOFF_S: Final = 1.0  # the same gap sends the outbox again at most this often


class FleetState(StrEnum):
    DISABLED = "disabled"  # no [fleet] in the config, or the client library is missing
    CONNECTING = "connecting"  # never connected since start
    ONLINE = "online"  # connected to the broker
    OFFLINE = "offline"  # lost the broker: reconnecting with backoff, the outbox grows
    FORKED = "forked"  # the centre holds another history: not sending (critical tilt)


class AlarmKind(StrEnum):
    ROLLBACK = "rollback"  # the centre is ahead of this journal
    FORK = "fork"  # the centre holds another row at a seq we have


@dataclass(frozen=True, slots=True)
class FleetAlarm:
    kind: AlarmKind
    seq: int | None
    detail: str
    central_seq: int = 0  # the centre's head when it was found
    central_hash: str = ""


@dataclass(frozen=True, slots=True)
class FleetStatus:
    """The forwarder at a glance: what the dealer screen, the diagnostics screen and `station
    diag` show (the daemon's `DiagnosticsData.fleet`)."""

    state: FleetState
    outbox_rows: int = 0  # journal rows not yet acknowledged by the centre
    outbox_age_s: float | None = None  # how long the oldest of them has waited
    head_seq: int = 0
    acked_seq: int = 0
    central_seq: int | None = None  # the centre's head as last reported
    central_online: bool | None = None  # the ingest's presence message
    reconnects: int = 0
    detail: str = ""


@dataclass(frozen=True, slots=True)
class _Connected:
    pass


@dataclass(frozen=True, slots=True)
class _Disconnected:
    reason: str


@dataclass(frozen=True, slots=True)
class _Message:
    topic: str
    payload: bytes


class Forwarder:
    def __init__(
        self,
        journal_path: object,
        station_id: str,
        config: FleetConfig,
        transport: TransportFactory,
        *,
        on_alarm: Callable[[FleetAlarm], None] | None = None,
        on_command: Callable[[Command], None] | None = None,
        on_acked: Callable[[int, int, float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        utc: Callable[[], datetime] = lambda: datetime.now(UTC),
        boot_id: str = "",
    ) -> None:
        from pathlib import Path  # noqa: PLC0415

        self.path = Path(str(journal_path))
        self.station_id = station_id
        self.cfg = config
        self.topics = StationTopics(config.site, station_id)
        self._central_topic = central_status(config.site)
        self.on_alarm = on_alarm
        self.on_command = on_command
        self.on_acked = on_acked  # (first seq, last seq, at): the bench's latency probe
        self.clock = clock
        self.utc = utc
        self.boot_id = boot_id
        self._events: SimpleQueue[_Connected | _Disconnected | _Message] = SimpleQueue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._status = FleetStatus(FleetState.CONNECTING)
        settings = TransportSettings(
            host=config.host,
            port=config.port,
            client_id=f"station-{station_id}",
            ca=config.ca,
            cert=config.cert,
            key=config.key,
            subscriptions=(self.topics.acks, self.topics.commands, self._central_topic),
            will=Will(self.topics.status, Status(online=False).encode()),
            keepalive_s=config.keepalive_s,
        )
        self._transport_factory = transport
        self._settings = settings
        self.transport = transport(settings, self)
        # forwarder-thread state
        self._outbox: Outbox | None = None
        self._state = FleetState.CONNECTING
        self._connected = False
        self._cursor = (0, "")
        self._cursor_saved = 0
        self._cursor_due: float | None = None
        self._next_seq = 1
        self._waiting_since: float | None = None  # oldest unacknowledged send
        self._resend_s = config.resend_s
        self._central_seq: int | None = None
        self._central_online: bool | None = None
        self._last_ack_utc: str | None = None
        self._reconnects = 0
        self._status_due = 0.0
        self._detail = ""
        self._alarmed = False
        self.steps = 0  # passes of the loop (a test sees that an outage does not spin it)
        self._gap_at = (-1, 0.0)  # (centre head, when) of the last time we sent again
        self._shown: tuple[object, ...] = ()
        self._shown_at = 0.0

    # --- any thread -------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="fleet-forwarder", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        """New rows were committed (the journal's subscriber calls this)."""
        self._wake.set()

    def status(self) -> FleetStatus:
        with self._lock:
            return self._status

    def reply(self, reply: Reply) -> bool:
        """Answer a command (from any thread; paho's publish is thread-safe)."""
        return self.transport.publish(self.topics.replies, reply.encode())

    # the transport's callbacks (its network thread)
    def connected(self) -> None:
        self._events.put(_Connected())
        self._wake.set()

    def disconnected(self, reason: str) -> None:
        self._events.put(_Disconnected(reason))
        self._wake.set()

    def message(self, topic: str, payload: bytes) -> None:
        self._events.put(_Message(topic, payload))
        self._wake.set()

    # --- the forwarder's thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._outbox = Outbox.open(self.path)
            self._cursor = self._outbox.cursor()
            self._cursor_saved = self._cursor[0]
            self._next_seq = self._cursor[0] + 1
            self._publish_status_locked()
            self.transport.start()
        except Exception as exc:  # thread boundary: the station deals on without forwarding
            log.exception("fleet forwarder could not start")
            self._detail = f"cannot start: {exc}"
            with self._lock:
                self._status = FleetStatus(FleetState.DISABLED, detail=self._detail)
            return
        try:
            while not self._stop.is_set():
                self._wake.wait(self._timeout())
                self._wake.clear()
                self.steps += 1
                self._step()
        except Exception as exc:  # thread boundary: log it; the watchdog sees `alive` False
            log.exception("fleet forwarder stopped")
            self._detail = f"stopped: {exc}"
        finally:
            self._save_cursor()
            self._publish_status_locked()
            try:
                if self._connected:
                    box = self._outbox_status()
                    offline = Status(False, box.head_seq, box.acked_seq, box.rows)
                    self.transport.publish(self.topics.status, offline.encode(), retain=True)
                self.transport.stop()
            finally:
                self._outbox.close()

    def _timeout(self) -> float:
        now = self.clock()
        due = [now + POLL_S]
        sending = self._connected and self._state is not FleetState.FORKED
        if self._waiting_since is not None and sending:  # else nothing is due: no busy loop
            due.append(self._waiting_since + self._resend_s)
        if self._cursor_due is not None:
            due.append(self._cursor_due)
        return max(0.0, min(due) - now)

    def _step(self) -> None:
        while True:
            try:
                event = self._events.get_nowait()
            except Empty:
                break
            match event:
                case _Connected():
                    self._on_connected()
                case _Disconnected(reason=reason):
                    self._connected = False
                    self._detail = reason
                    if self._state is not FleetState.FORKED:
                        self._state = FleetState.OFFLINE
                    log.warning("fleet: broker connection lost (%s)", reason)
                case _Message(topic=topic, payload=payload):
                    self._on_message(topic, payload)
        now = self.clock()
        if self._connected and self._state is not FleetState.FORKED:
            self._check_resend(now)
            self._send()
            if now >= self._status_due:
                self._publish_presence()
        if self._cursor_due is not None and now >= self._cursor_due:
            self._save_cursor()
        shown = (self._state, self._detail, self._cursor[0])
        if now >= self._shown_at + STATUS_REFRESH_S or shown != self._shown:
            self._publish_status_locked()
            self._shown, self._shown_at = shown, now

    def _on_connected(self) -> None:
        assert self._outbox is not None
        if self._state is not FleetState.CONNECTING:
            self._reconnects += 1
        self._connected = True
        self._detail = ""
        if self._state is not FleetState.FORKED:
            self._state = FleetState.ONLINE
        self._rewind()
        seq, digest = self._outbox.head()
        self.transport.publish(self.topics.hello, Hello(seq, digest, self.boot_id).encode())
        self._publish_presence()
        log.info("fleet: connected; journal head %d, acknowledged %d", seq, self._cursor[0])

    def _rewind(self) -> None:
        """Send again everything after the cursor, now."""
        self._gap_at = (self._cursor[0], self.clock())  # a gap at the cursor: this resend
        self._next_seq = self._cursor[0] + 1
        self._waiting_since = None
        self._resend_s = self.cfg.resend_s

    def _on_message(self, topic: str, payload: bytes) -> None:
        try:
            if topic == self.topics.acks:
                self._on_ack(Ack.decode(payload))
            elif topic == self.topics.commands:
                self._on_command(Command.decode(payload))
            elif topic == self._central_topic:
                online = central_online(payload)
                if online and self._central_online is False:
                    log.info("fleet: the central ingest is back: sending the outbox again")
                    self._rewind()
                self._central_online = online
        except MessageError as exc:
            log.warning("fleet: dropped a bad message on %s: %s", topic, exc)

    def _on_command(self, command: Command) -> None:
        if self.on_command is not None:
            self.on_command(command)
        else:
            self.reply(Reply(command.id, ReplyStatus.UNSUPPORTED, detail="no command handler"))

    def _on_ack(self, ack: Ack) -> None:
        assert self._outbox is not None
        self._central_seq = ack.head_seq
        if self._state is FleetState.FORKED:
            return
        head_seq, _ = self._outbox.head()
        if ack.head_seq > head_seq:
            self._alarm(
                AlarmKind.ROLLBACK,
                ack.head_seq,
                f"the central store holds this station's journal up to seq {ack.head_seq}; "
                f"this journal ends at seq {head_seq}: it was rolled back or cut short",
                ack,
            )
            return
        if ack.head_seq > 0 and self._outbox.row_hash(ack.head_seq) != ack.head_hash:
            self._alarm(
                AlarmKind.FORK,
                ack.head_seq,
                f"the central store's row {ack.head_seq} differs from this journal's: "
                "the journal was rolled back and written on, or rewritten",
                ack,
            )
            return
        if ack.verdict in BAD_VERDICTS:
            kind = AlarmKind.ROLLBACK if ack.verdict is Verdict.ROLLBACK else AlarmKind.FORK
            self._alarm(
                kind, ack.seq, f"the central store reports {ack.verdict}: {ack.detail}", ack
            )
            return
        now = self.clock()
        acked = self._cursor[0]
        if ack.head_seq > acked:
            self._cursor = (ack.head_seq, ack.head_hash)
            self._last_ack_utc = format_utc(self.utc())
            if self._cursor_due is None:
                self._cursor_due = now + CURSOR_EVERY_S
            if self.on_acked is not None:
                self.on_acked(acked + 1, ack.head_seq, time.time())
            self._resend_s = self.cfg.resend_s
            self._waiting_since = now if self._next_seq - 1 > ack.head_seq else None
        elif ack.hello and ack.head_seq < acked:
            # The centre has less than it acknowledged (restored from a backup): resend.
            log.warning("fleet: the centre holds %d rows, it acknowledged %d", ack.head_seq, acked)
            self._cursor = (ack.head_seq, ack.head_hash)
            self._cursor_due = now
        last_head, last_at = self._gap_at
        if ack.verdict is Verdict.GAP and (
            ack.head_seq != last_head or now - last_at >= GAP_HOLDOFF_S
        ):
            # The centre lost rows after its head: send again from there. Every message in
            # flight behind the hole answers with the same gap; rewinding for each of them would
            # send the whole window again as many times, so the same gap rewinds at most once a
            # GAP_HOLDOFF_S (never less: the resend itself may be lost too).
            self._gap_at = (ack.head_seq, now)
            self._next_seq = self._cursor[0] + 1
            self._waiting_since = None
        elif self._next_seq <= self._cursor[0]:
            self._next_seq = self._cursor[0] + 1

    def _alarm(self, kind: AlarmKind, seq: int | None, detail: str, central: Ack) -> None:
        self._state = FleetState.FORKED
        self._detail = detail
        log.error("FLEET %s: %s", kind.value.upper(), detail)
        if not self._alarmed:
            self._alarmed = True
            if self.on_alarm is not None:
                self.on_alarm(FleetAlarm(kind, seq, detail, central.head_seq, central.head_hash))

    def _check_resend(self, now: float) -> None:
        if self._waiting_since is None or now - self._waiting_since < self._resend_s:
            return
        log.info(
            "fleet: no acknowledgement for %.0f s: sending again from seq %d",
            now - self._waiting_since,
            self._cursor[0] + 1,
        )
        self._gap_at = (self._cursor[0], now)
        self._next_seq = self._cursor[0] + 1
        self._waiting_since = None
        if self._central_online and self._resend_s >= 2 * self.cfg.resend_s:
            # A second silent resend while the ingest says it is online: the connection is
            # what is stuck (measured after a broker kill -9: stations kept a connection that
            # carried nothing until their next reconnect). Start a fresh client; the reconnect
            # sends the outbox again.
            log.warning("fleet: no acknowledgement though the ingest is online: reconnecting")
            self._fresh_transport()
        self._resend_s = min(self._resend_s * 2, MAX_RESEND_S)

    def _fresh_transport(self) -> None:
        self._connected = False
        if self._state is not FleetState.FORKED:
            self._state = FleetState.OFFLINE
        try:
            self.transport.stop()
        finally:
            self.transport = self._transport_factory(self._settings, self)
            self.transport.start()

    def _send(self) -> None:
        assert self._outbox is not None
        acked = self._cursor[0]
        while self._next_seq - 1 - acked < self.cfg.window:
            room = self.cfg.window - (self._next_seq - 1 - acked)
            rows = self._outbox.rows_after(self._next_seq - 1, min(self.cfg.batch, room))
            if not rows:
                return
            if not self.transport.publish(self.topics.events, encode_rows(rows)):
                return  # lost the connection: the reconnect sends again
            if self._waiting_since is None:
                self._waiting_since = self.clock()
            self._next_seq = rows[-1].seq + 1

    def _save_cursor(self) -> None:
        self._cursor_due = None
        if self._outbox is None or self._cursor[0] == self._cursor_saved:
            return
        seq, digest = self._cursor
        self._outbox.set_cursor(seq, digest, self._last_ack_utc or "")
        self._cursor_saved = seq

    def _outbox_status(self) -> OutboxStatus:
        assert self._outbox is not None
        status = self._outbox.status()
        # the cursor in memory may be ahead of the saved one
        if self._cursor[0] > status.acked_seq:
            oldest = None
            if status.head_seq > self._cursor[0]:
                rows = self._outbox.rows_after(self._cursor[0], 1)
                oldest = rows[0].recorded_utc if rows else None
            status = OutboxStatus(status.head_seq, self._cursor[0], oldest)
        return status

    def _publish_presence(self) -> None:
        box = self._outbox_status()
        self._status_due = self.clock() + STATUS_EVERY_S
        status = Status(
            online=True,
            head_seq=box.head_seq,
            acked_seq=box.acked_seq,
            outbox_rows=box.rows,
            oldest_unacked_utc=box.oldest_unacked_utc,
            at_utc=format_utc(self.utc()),
        )
        self.transport.publish(self.topics.status, status.encode(), retain=True)

    def _publish_status_locked(self) -> None:
        if self._outbox is None:
            return
        box = self._outbox_status()
        status = FleetStatus(
            state=self._state,
            outbox_rows=box.rows,
            outbox_age_s=box.age_s(self.utc()),
            head_seq=box.head_seq,
            acked_seq=box.acked_seq,
            central_seq=self._central_seq,
            central_online=self._central_online,
            reconnects=self._reconnects,
            detail=self._detail,
        )
        with self._lock:
            self._status = status
