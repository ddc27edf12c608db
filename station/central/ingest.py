"""The central ingest: stations' journal rows from MQTT into PostgreSQL, each station's hash
chain checked as it arrives, and an acknowledgement published only after the commit. Edge
adapter (MQTT through a `Transport`, PostgreSQL through psycopg 3).

One thread takes what the transport queued, groups it by station and handles the lot in one
transaction: rows judged against the stored head (`station.central.chain.judge`), the ones
that extend it inserted (`(station_id, seq)` is the key, so a row is stored once), duplicates
counted, forks and chain breaks recorded as alarms with the offered rows as evidence, a
`Hello` compared with the stored head (a station behind it was rolled back). Then `COMMIT`,
and only then an `Ack` per station with the stored head: the station moves its cursor on that,
never on a PUBACK. `pg_notify('fleet_rows' | 'fleet_alarms', ...)` goes out with the commit, for
the floor console.

Nothing here has to be durable: rows are acknowledged only once committed, so whatever the
ingest held when it died is sent again by the stations. PostgreSQL going away (restart, network)
rolls the batch back; the ingest reconnects with backoff and handles it again. The ingest's
presence (`_central/status`, retained, `offline` as its Last Will and while the database is
away) tells stations to send their outboxes again as soon as it is back.

The ingest's MQTT session is a clean one: while it is away the broker keeps nothing for it (a
persistent session would hand a restarted ingest a backlog of rows the stations are sending
again anyway, with holes where messages died with the old process: measured, twice the
duplicates and gaps). Its `online` presence tells the stations to send again.

One ingest per site holds a PostgreSQL advisory lock; a second one waits for it (a standby).
Commands queued in the `commands` table are published to their stations while they are
connected, again every few seconds until the station replies.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from queue import Empty, SimpleQueue
from typing import Any, Final, cast

import psycopg

from station.central.chain import Head, Outcome, judge, judge_hello, needs_lookup
from station.central.config import CentralConfig
from station.central.heartbeat import BEAT_S, INGEST, Heartbeat
from station.central.schema import migrate
from station.fleet.factory import paho_factory
from station.fleet.messages import (
    Ack,
    Command,
    Hello,
    MessageError,
    Reply,
    Status,
    Verdict,
    central_presence,
    decode_rows,
)
from station.fleet.topics import StationTopics, central_status, ingest_subscriptions, parse
from station.fleet.transport import TransportFactory, TransportSettings, Will
from station.journal.rows import GENESIS_HASH, LogRow

log = logging.getLogger(__name__)

TAKE_S: Final = 0.2
MAX_MESSAGES: Final = 500
DISPATCH_EVERY_S: Final = 0.25  # commands go out this soon after they are queued
RESEND_COMMAND_S: Final = 5.0
DB_RETRY_MAX_S: Final = 5.0

Conn = psycopg.Connection[tuple[Any, ...]]

_INSERT = (
    "INSERT INTO rows (station_id, seq, boot_id, recorded_utc, recorded_at_ns, clock_ok, hand,"
    " code, actor, role, ref, payload, prev_hash, hash, recorded)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, COALESCE(%s, now()))"
    " ON CONFLICT (station_id, seq) DO NOTHING"
)


# `hand` is the station's latest hand: the highest hand number stored, never the hand of the
# last row (a ruling journaled now on hand 4 while the table deals hand 6 is a row of hand 4).
_MOVE_HEAD = (
    "UPDATE stations SET head_seq = %s, head_hash = %s, head_utc = %s, hand = GREATEST(hand, %s),"
    " last_row_at = now(), setup = COALESCE(%s::jsonb, setup),"
    " floor_call_seq = CASE WHEN %s::bigint = -1 THEN floor_call_seq ELSE %s::bigint END"
    " WHERE station_id = %s"
)


@dataclass
class _Group:
    """One station's messages of a batch. Rows and hellos keep their order of arrival (the
    broker keeps one client's order): a hello is judged against the head as it stood when the
    hello came, not after rows the station sent later."""

    parts: list[list[LogRow] | Hello] = field(default_factory=list)
    status: Status | None = None
    replies: list[Reply] = field(default_factory=list)

    def add_rows(self, rows: list[LogRow]) -> None:
        if self.parts and isinstance(self.parts[-1], list):
            self.parts[-1].extend(rows)
        else:
            self.parts.append(list(rows))


@dataclass
class _Batch:
    """What a batch's transaction writes at its end, in bulk."""

    inserts: list[tuple[object, ...]] = field(default_factory=list)
    heads: dict[str, tuple[object, ...]] = field(default_factory=dict)  # _MOVE_HEAD params
    hashes: dict[str, dict[int, str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Connected:
    pass


@dataclass(frozen=True, slots=True)
class _Disconnected:
    reason: str


class Ingest:
    def __init__(
        self,
        cfg: CentralConfig,
        transport: TransportFactory = paho_factory,
        *,
        client_id: str | None = None,
    ) -> None:
        self.cfg = cfg
        self.queue: SimpleQueue[tuple[str, bytes] | _Connected | _Disconnected] = SimpleQueue()
        self.presence = central_status(cfg.site)
        settings = TransportSettings(
            host=cfg.host,
            port=cfg.port,
            client_id=client_id or f"svc.ingest-{cfg.site}",
            ca=cfg.ca,
            cert=cfg.cert,
            key=cfg.key,
            subscriptions=tuple(ingest_subscriptions(cfg.site)),
            will=Will(self.presence, central_presence(False)),
            session_expiry_s=0,  # a clean session: see the module's docstring
            reconnect_min_s=1.0,
            reconnect_max_s=10.0,
            max_inflight=100,
        )
        self._factory = transport
        self._settings = settings
        self.transport = transport(settings, self)
        self._transport_on = False  # started (and not stopped for a standby's wait)
        self.conn: Conn | None = None
        self.heads: dict[str, Head] = {}
        self.ready = threading.Event()
        self._db_ok = False
        self._next_dispatch = 0.0
        self._next_beat = 0.0
        self.heartbeat = Heartbeat(INGEST)

    # --- the transport's thread -------------------------------------------------------------

    def connected(self) -> None:
        self.queue.put(_Connected())

    def disconnected(self, reason: str) -> None:
        log.warning("ingest: broker connection lost (%s)", reason)
        self.queue.put(_Disconnected(reason))

    def message(self, topic: str, payload: bytes) -> None:
        self.queue.put((topic, payload))

    # --- the ingest's thread ----------------------------------------------------------------

    def run(self, stop: threading.Event, on_ready: Callable[[], None] | None = None) -> None:
        self._connect_db(stop)
        if stop.is_set():
            return
        self._start_transport()
        self.ready.set()
        if on_ready is not None:
            on_ready()
        log.info("ingest ready for site %s", self.cfg.site)
        try:
            while not stop.is_set():
                messages = self._take()
                if messages:
                    self._handle_until_done(messages, stop)
                now = time.monotonic()
                if now >= self._next_dispatch:
                    self._next_dispatch = now + DISPATCH_EVERY_S
                    self._with_db(self._dispatch_commands, stop)
                if now >= self._next_beat or self.heartbeat.changed:
                    self._next_beat = now + BEAT_S
                    self._with_db(self.heartbeat.beat, stop)
        finally:
            self.transport.publish(self.presence, central_presence(False), retain=True)
            self.transport.stop()
            if self.conn is not None:
                with contextlib.suppress(psycopg.Error):
                    self.heartbeat.broker(False, "the ingest stopped")
                    self.heartbeat.beat(self.conn, stopped=True)
                self.conn.close()

    def _take(self) -> list[tuple[str, bytes]]:
        out: list[tuple[str, bytes]] = []
        try:
            item = self.queue.get(timeout=TAKE_S)
        except Empty:
            return out
        while True:
            if isinstance(item, _Connected):
                self.heartbeat.broker(True)
                self._announce()
            elif isinstance(item, _Disconnected):
                self.heartbeat.broker(False, item.reason)
            else:
                out.append(item)
            if len(out) >= MAX_MESSAGES:
                return out
            try:
                item = self.queue.get_nowait()
            except Empty:
                return out

    def _start_transport(self) -> None:
        if not self._transport_on:
            self.transport.start()
            self._transport_on = True

    def _stop_transport(self) -> None:
        """Off the broker while another ingest holds the site: both would hold the same client
        id (the broker names a client by its certificate) and knock each other off."""
        if self._transport_on:
            self.transport.stop()
            self.transport = self._factory(self._settings, self)
            self._transport_on = False

    def _announce(self) -> None:
        self.transport.publish(self.presence, central_presence(self._db_ok), retain=True)

    # --- the database ---------------------------------------------------------------------

    def _connect_db(self, stop: threading.Event) -> None:
        delay = 0.2
        while not stop.is_set():
            try:
                conn: Conn = psycopg.connect(self.cfg.conninfo(), autocommit=True)
                try:
                    migrate(conn)
                    conn.autocommit = True
                    locked = self._lock_site(conn, stop)
                except BaseException:
                    conn.close()  # a session lost mid-way is not left for the collector
                    raise
                if not locked:  # stopped while another ingest held the site
                    conn.close()
                    return
                self.conn = conn
                self.heads.clear()
                self._db_ok = True
                if self.ready.is_set():
                    self._start_transport()  # after a standby's wait
                self._announce()
                return
            except psycopg.OperationalError as exc:
                log.warning("ingest: database unavailable (%s); again in %.1f s", exc, delay)
                self._db_ok = False
                stop.wait(delay)
                delay = min(delay * 2, DB_RETRY_MAX_S)

    def _lock_site(self, conn: Conn, stop: threading.Event) -> bool:
        """Wait for the site's advisory lock (one ingest per site); False when stopped first."""
        key = zlib.crc32(f"ingest:{self.cfg.site}".encode())
        waited = False
        while not stop.is_set():
            got = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
            if got is not None and got[0]:
                return True
            if not waited:
                log.info("ingest: another ingest holds site %s; waiting", self.cfg.site)
                waited = True
                self._stop_transport()
            stop.wait(0.5)
        return False

    def _lost_db(self, exc: Exception, stop: threading.Event) -> None:
        log.warning("ingest: database connection lost (%s)", exc)
        self._db_ok = False
        self._announce()
        if self.conn is not None:
            with contextlib.suppress(psycopg.Error):
                self.conn.close()
        self.conn = None
        self.heads.clear()
        self._connect_db(stop)

    def _with_db(self, fn: Callable[[Conn], None], stop: threading.Event) -> bool:
        if self.conn is None:
            self._connect_db(stop)
        if self.conn is None:
            return False
        try:
            fn(self.conn)
            return True
        except psycopg.OperationalError as exc:
            self._lost_db(exc, stop)
            return False

    def _handle_until_done(self, messages: list[tuple[str, bytes]], stop: threading.Event) -> None:
        started = time.monotonic()
        groups = self._group(messages)
        while not stop.is_set():
            if self._with_db(lambda conn: self._handle(conn, groups), stop):
                log.debug(
                    "batch: %d messages of %d stations in %.3f s",
                    len(messages),
                    len(groups),
                    time.monotonic() - started,
                )
                return

    # --- one batch ------------------------------------------------------------------------

    def _group(self, messages: list[tuple[str, bytes]]) -> dict[str, _Group]:
        groups: dict[str, _Group] = {}
        for topic, payload in messages:
            parsed = parse(topic)
            if parsed is None or parsed[0] != self.cfg.site:
                continue
            _, station, leaf = parsed
            group = groups.setdefault(station, _Group())
            try:
                match leaf:
                    case "events":
                        group.add_rows(decode_rows(payload))
                    case "hello":
                        group.parts.append(Hello.decode(payload))
                    case "status":
                        group.status = Status.decode(payload)
                    case "replies":
                        group.replies.append(Reply.decode(payload))
            except MessageError as exc:
                log.warning("ingest: dropped a bad %s message from %s: %s", leaf, station, exc)
        return groups

    def _handle(self, conn: Conn, groups: dict[str, _Group]) -> None:
        """One transaction for the whole batch, in one pipeline (few round trips): the rows
        of every station inserted by one executemany, the heads moved by another."""
        acks: dict[str, list[Ack]] = {}
        heads: dict[str, Head] = {}
        counts = dict.fromkeys(
            ("rows_stored", "duplicates", "gaps", "forks", "chain_breaks", "rollbacks"), 0
        )
        batch = _Batch()
        with conn.pipeline(), conn.transaction():
            for station, group in groups.items():
                head, station_acks = self._station(conn, station, group, counts, batch)
                heads[station] = head
                if station_acks:
                    acks[station] = station_acks
            cur = conn.cursor()
            if batch.inserts:
                cur.executemany(_INSERT, batch.inserts)
            if batch.heads:
                cur.executemany(_MOVE_HEAD, list(batch.heads.values()))
                conn.execute(
                    "SELECT pg_notify('fleet_rows', %s)",
                    (json.dumps({s: h[0] for s, h in batch.heads.items()}),),
                )
            counts["batches"] = 1
            cur.executemany(
                "UPDATE ingest_counters SET value = value + %s WHERE name = %s",
                [(v, k) for k, v in counts.items() if v],
            )
        self.heads.update(heads)
        for station, station_acks in acks.items():
            topic = StationTopics(self.cfg.site, station).acks
            for ack in station_acks:
                self.transport.publish(topic, ack.encode())

    def _head(self, conn: Conn, station: str) -> Head:
        cached = self.heads.get(station)
        if cached is not None:
            return cached
        row = conn.execute(
            "SELECT head_seq, head_hash FROM stations WHERE station_id = %s", (station,)
        ).fetchone()
        if row is None:
            conn.execute(
                "INSERT INTO stations (station_id, site, head_hash) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (station, self.cfg.site, GENESIS_HASH),
            )
            return Head(0, GENESIS_HASH)
        return Head(int(row[0]), str(row[1]))

    def _station(
        self, conn: Conn, station: str, group: _Group, counts: dict[str, int], batch: _Batch
    ) -> tuple[Head, list[Ack]]:
        head = self._head(conn, station)
        acks: list[Ack] = []
        for part in group.parts:
            if isinstance(part, Hello):
                acks.append(self._hello(conn, station, head, part, counts))
                continue
            outcome = self._rows(conn, station, head, part, batch)
            head = outcome.head
            counts["rows_stored"] += len(outcome.store)
            counts["duplicates"] += outcome.duplicates
            match outcome.verdict:
                case Verdict.GAP:
                    counts["gaps"] += 1
                case Verdict.FORK:
                    counts["forks"] += 1
                case Verdict.CHAIN_BREAK:
                    counts["chain_breaks"] += 1
                case _:
                    pass
            acks.append(Ack(outcome.verdict, head.seq, head.hash, outcome.seq, outcome.detail))
        if group.status is not None:
            status = group.status
            conn.execute(
                "UPDATE stations SET online = %s, status = %s, status_at = now()"
                " WHERE station_id = %s",
                (status.online, json.dumps(status.as_dict()), station),
            )
        for reply in group.replies:
            conn.execute(
                "UPDATE commands SET state = %s, reply = %s, replied_at = now()"
                " WHERE id = %s AND station_id = %s AND state = 'pending'",
                (
                    reply.status.value,
                    json.dumps({"seq": reply.seq, "detail": reply.detail}),
                    reply.id,
                    station,
                ),
            )
        return head, acks

    def _hello(
        self, conn: Conn, station: str, head: Head, hello: Hello, counts: dict[str, int]
    ) -> Ack:
        """The station's head at its connect against ours: behind us is a rollback."""
        verdict = judge_hello(head, hello.head_seq, hello.head_hash)
        detail = ""
        if verdict is not Verdict.OK:
            detail = (
                f"the station announced head {hello.head_seq}; the central store holds {head.seq}"
            )
            counts["rollbacks" if verdict is Verdict.ROLLBACK else "forks"] += 1
            self._alarm(conn, station, verdict, hello.head_seq, {"detail": detail})
        conn.execute(
            "UPDATE stations SET hello_seq = %s, hello_at = now() WHERE station_id = %s",
            (hello.head_seq, station),
        )
        conn.execute(
            "UPDATE commands SET sent_at = NULL WHERE station_id = %s AND state = 'pending'",
            (station,),
        )
        self._next_dispatch = 0.0
        return Ack(verdict, head.seq, head.hash, None, detail, hello=True)

    def _rows(
        self, conn: Conn, station: str, head: Head, rows: list[LogRow], batch: _Batch
    ) -> Outcome:
        lookup = needs_lookup(head, rows)
        earlier = batch.hashes.setdefault(station, {})  # stored by this batch, not yet sent
        stored: dict[int, str] = {seq: earlier[seq] for seq in lookup if seq in earlier}
        missing = [seq for seq in lookup if seq not in stored]
        if missing:
            found = conn.execute(
                "SELECT seq, hash FROM rows WHERE station_id = %s AND seq = ANY(%s)",
                (station, missing),
            ).fetchall()
            stored.update({int(q): str(h) for q, h in found})
        outcome = judge(station, head, rows, stored)
        if outcome.store:
            batch.inserts.extend(_params(r) for r in outcome.store)
            earlier.update((r.seq, r.hash) for r in outcome.store)
            last = outcome.store[-1]
            setup = next(
                (r.payload for r in reversed(outcome.store) if r.code == "input.setup"), None
            )
            call: int | None = -1  # -1: unchanged
            for r in outcome.store:
                if r.code == "floor.call_raised":
                    call = r.seq
                elif r.code == "floor.call_cleared":
                    call = None
            hand = max(r.hand for r in outcome.store)
            previous = batch.heads.get(station)
            if previous is not None:  # a second part of this station in the batch
                setup = setup if setup is not None else cast(str | None, previous[4])
                call = call if call != -1 else cast(int | None, previous[5])
                hand = max(hand, cast(int, previous[3]))
            batch.heads[station] = (
                last.seq,
                last.hash,
                last.recorded_utc,
                hand,
                setup,
                call,
                call,
                station,
            )
        if outcome.verdict in (Verdict.FORK, Verdict.CHAIN_BREAK):
            conflict = outcome.conflict
            detail: dict[str, Any] = {"detail": outcome.detail}
            if conflict is not None:
                detail.update(stored_hash=conflict.stored_hash, offered_hash=conflict.offered_hash)
                if conflict.offered is not None:
                    row = conflict.offered
                    conn.execute(
                        "INSERT INTO conflict_rows (station_id, seq, hash, row)"
                        " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                        (station, row.seq, row.hash, json.dumps(row.fields() | {"hash": row.hash})),
                    )
            self._alarm(conn, station, outcome.verdict, outcome.seq, detail)
        return outcome

    def _alarm(
        self, conn: Conn, station: str, verdict: Verdict, seq: int | None, detail: dict[str, Any]
    ) -> None:
        inserted = conn.execute(
            "INSERT INTO alarms (station_id, kind, seq, detail) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT DO NOTHING RETURNING id",
            (station, verdict.value, seq, json.dumps(detail)),
        ).fetchone()
        if inserted is not None:
            log.error("ALARM %s at station %s seq %s: %s", verdict.value, station, seq, detail)
            conn.execute(
                "SELECT pg_notify('fleet_alarms', %s)",
                (json.dumps({"station": station, "kind": verdict.value, "seq": seq}),),
            )

    # --- commands -------------------------------------------------------------------------

    def _dispatch_commands(self, conn: Conn) -> None:
        if not self.transport.connected:
            return
        due = conn.execute(
            "SELECT c.id, c.station_id, c.kind, c.body FROM commands c"
            " JOIN stations s USING (station_id)"
            " WHERE c.state = 'pending' AND s.online IS TRUE"
            " AND (c.sent_at IS NULL OR c.sent_at < now() - make_interval(secs => %s))"
            " ORDER BY c.id LIMIT 200",
            (RESEND_COMMAND_S,),
        ).fetchall()
        for ident, station, kind, body in due:
            topic = StationTopics(self.cfg.site, str(station)).commands
            if self.transport.publish(topic, Command(int(ident), str(kind), body).encode()):
                conn.execute(
                    "UPDATE commands SET sent_at = now(), tries = tries + 1 WHERE id = %s",
                    (ident,),
                )


def _params(r: LogRow) -> tuple[object, ...]:
    try:
        recorded: datetime | None = datetime.fromisoformat(r.recorded_utc)
    except ValueError:
        recorded = None
    return (
        r.station_id,
        r.seq,
        r.boot_id,
        r.recorded_utc,
        r.recorded_at_ns,
        r.clock_ok,
        r.hand,
        r.code,
        r.actor,
        r.role,
        r.ref,
        r.payload,
        r.prev_hash,
        r.hash,
        recorded,
    )
