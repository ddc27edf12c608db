"""The host side of one device link: handshake, refusal, heartbeat and liveness, and the frames
to and from the event stream. Pure.

The session never touches a port or a clock: the link (an edge adapter) tells it when the port
opened or closed, hands it the bytes it read with the time, calls `poll(now)` regularly, and
`drain()`s what to write, the messages and link-state changes for the station, and whether to
close the port. Tests drive it with a fake clock.

Handshake on every connect: IDENTIFY (fresh nonce) -> IDENTITY (version and kind checked, or
refused) -> GET_SNAPSHOT -> SNAPSHOT parts -> REPLAY_SINCE(cursor) -> REPLAY_START -> link up;
then events flow and a CLOCK_POLL every `HEARTBEAT_S` doubles as the liveness check.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge import wire
from firmware_bridge.clocksync import ClockSync
from firmware_bridge.codec import STALL_S, Frame, FrameDecoder, Garbage
from firmware_bridge.counters import Counters, FrameRing
from firmware_bridge.inbox import EventStream
from firmware_bridge.messages import (
    DeviceIdentity,
    DeviceKind,
    EventHeader,
    Message,
    ZoneReading,
    build_snapshot,
    parse_identity,
    parse_snapshot_part,
    parse_snapshot_status,
    parse_zone,
)
from firmware_bridge.retransmit import CommandChannel
from firmware_bridge.status import LinkState, LinkStateChange, LinkStats

# Off-round on purpose (Klipper's 0.9839 s idea): no beat with other periodic work.
HEARTBEAT_S = 0.37
# No valid frame for this long means the device is gone: four heartbeats unanswered.
LIVENESS_S = 1.5
# A handshake step (IDENTIFY, GET_SNAPSHOT, REPLAY_SINCE) is asked again after this long.
STEP_S = 0.3
# The whole handshake must finish in this time, or the port is closed and opened again.
HANDSHAKE_S = 4.0
_MAX_POLLS = 8


class Phase(StrEnum):
    IDLE = "idle"
    IDENTIFYING = "identifying"
    SNAPSHOT = "snapshot"
    REPLAYING = "replaying"
    UP = "up"
    REFUSED = "refused"


_HANDSHAKE = (Phase.IDENTIFYING, Phase.SNAPSHOT, Phase.REPLAYING)


@dataclass(frozen=True, slots=True)
class Outputs:
    """What the link must do after a call into the session, in this order: hand `delivered`
    (messages and link-state changes, in the order they happened) to the station, then write
    `data` (so acknowledgements follow delivery), then close the port if `close_reason` is set."""

    data: bytes = b""
    delivered: tuple[Message | LinkStateChange, ...] = ()
    close_reason: str | None = None


class Session:
    """One device's link state, kept across reconnects (the event cursors live here).

    `expect` refuses a device of another kind (a bet-zone board on the shoe's port). `resume`
    maps device serial numbers to the last event id the station has already recorded, so a
    restarted daemon neither loses nor repeats events the device still holds. `nonce` is where
    the IDENTIFY nonces start (the link draws it at random per process).
    """

    def __init__(
        self,
        *,
        port: str = "",
        expect: DeviceKind | None = None,
        resume: Mapping[str, int] | None = None,
        nonce: int = 0,
    ) -> None:
        self.port = port
        self._expect = expect
        self.counters = Counters()
        self._ring = FrameRing()
        self._streams = {k: EventStream(self.counters, v) for k, v in (resume or {}).items()}
        self._stream = EventStream(self.counters)
        self._clock = ClockSync()
        self._commands = CommandChannel()
        self._decoder = FrameDecoder(STALL_S)
        self._old_decoders = (0, 0, 0)  # crc errors, resyncs, dropped bytes of past connections
        self.phase = Phase.IDLE
        self.identity: DeviceIdentity | None = None
        self.state = LinkState.DOWN
        self.reason = "not connected yet"
        # IDENTIFY nonces count up from here; a restarted host must not repeat the nonce the
        # device still holds, so the link starts each process at a random point.
        self._nonce = nonce & 0xFFFFFFFF
        self._identify_at = self._handshake_at = self._step_at = 0.0
        self._last_rx_at = self._next_poll_at = self._now = 0.0
        self._poll_id = 0
        self._polls: dict[int, float] = {}
        self._snapshot_parts: list[bytes] = []
        self._snapshot_wanted = False
        self._in_burst = False
        self._nak_due = False
        self._out: list[bytes] = []
        self._delivered: list[Message | LinkStateChange] = []
        self._close: str | None = None

    @property
    def refused(self) -> bool:
        return self.phase == Phase.REFUSED

    # ---- calls from the link ------------------------------------------------------------------

    def connected(self, now: float) -> None:
        """The port is open (and flushed): start the handshake."""
        self._now = now
        self.counters.connects += 1
        crc, resyncs, dropped = self._old_decoders
        d = self._decoder
        self._old_decoders = (crc + d.crc_errors, resyncs + d.resyncs, dropped + d.dropped_bytes)
        self._decoder = FrameDecoder(STALL_S)
        self._in_burst = False
        self._handshake_at = self._last_rx_at = now
        self._close = None
        self.counters.versions_seen.clear()
        self._identify(now)

    def disconnected(self, now: float, reason: str) -> None:
        """The port is closed (by us or by the device going away)."""
        self._now = now
        self.phase = Phase.IDLE
        self._commands.reset()
        self._polls.clear()
        if self.state == LinkState.UP:
            self._change(LinkState.DOWN, now, reason)
        elif self.state == LinkState.DOWN:
            self.reason = reason

    def open_failed(self, reason: str) -> None:
        self.counters.open_failures += 1
        if self.state == LinkState.DOWN:
            self.reason = reason

    def receive(self, data: bytes, now: float) -> None:
        self._now = now
        self.counters.bytes_rx += len(data)
        for item in self._decoder.feed(data, now):
            self._on_item(item, now)
        self._flush_acks()

    def poll(self, now: float) -> None:
        """Timers: stalled partial frames, retransmissions, handshake retries, heartbeat,
        liveness."""
        self._now = now
        for item in self._decoder.expire(now):
            self._on_item(item, now)
        if self.phase == Phase.UP:
            self._stream.poll(now)
        self._flush_acks()
        if self.phase in (Phase.IDLE, Phase.REFUSED) or self._close is not None:
            return
        self._send(self._commands.poll(now))
        silent = now - self._last_rx_at >= LIVENESS_S
        if self.phase in _HANDSHAKE:
            if silent or now - self._handshake_at >= HANDSHAKE_S:
                self._handshake_failed(now, silent)
            elif now >= self._step_at:
                self._retry_step(now)
        elif silent:
            self._close_port(f"no frame from the device for {LIVENESS_S:g} s")
        elif now >= self._next_poll_at:
            self._heartbeat(now)

    def next_deadline(self) -> float | None:
        """The earliest time `poll` has work (a retransmission, a handshake step, the heartbeat,
        the liveness check, a gap to NAK again), or None when only bytes from the device can
        change anything. A partial frame in the decoder asks for a poll at once: its stall timer
        runs from when it started waiting, which only the decoder knows."""
        if self.phase in (Phase.IDLE, Phase.REFUSED) or self._close is not None:
            return None
        if self._decoder.pending:
            return self._now
        times = [self._last_rx_at + LIVENESS_S]
        for due in (self._commands.next_deadline(), self._stream.next_deadline()):
            if due is not None:
                times.append(due)
        if self.phase in _HANDSHAKE:
            times += [self._step_at, self._handshake_at + HANDSHAKE_S]
        else:
            times.append(self._next_poll_at)
        return min(times)

    def request_deck_scan(self, now: float) -> bool:
        """Ask a shoe to scan its deck again (DECK_SCAN events follow). False if not linked."""
        self._now = now
        if self.phase != Phase.UP:
            return False
        self._send(self._commands.send(wire.T_SCAN_DECK, b"", now))
        return True

    def request_snapshot(self, now: float) -> bool:
        self._now = now
        if self.phase != Phase.UP:
            return False
        self._snapshot_wanted = True
        self._snapshot_parts = []
        self._send(self._commands.send(wire.T_GET_SNAPSHOT, b"", now))
        return True

    def drain(self) -> Outputs:
        out = Outputs(b"".join(self._out), tuple(self._delivered), self._close)
        self._out, self._delivered, self._close = [], [], None
        return out

    def stats(self) -> LinkStats:
        c = self.counters
        crc, resyncs, dropped = self._old_decoders
        return LinkStats(
            port=self.port,
            state=self.state,
            reason=self.reason,
            identity=self.identity,
            bytes_rx=c.bytes_rx,
            bytes_tx=c.bytes_tx,
            frames_rx=c.frames_rx,
            frames_tx=c.frames_tx,
            crc_errors=crc + self._decoder.crc_errors,
            resyncs=resyncs + self._decoder.resyncs,
            dropped_bytes=dropped + self._decoder.dropped_bytes,
            malformed=c.malformed,
            naks_rx=c.naks_rx,
            naks_tx=c.naks_tx,
            retransmits=self._commands.retransmits,
            duplicates=c.duplicates,
            out_of_order=c.out_of_order,
            events_delivered=c.events_delivered,
            events_lost=c.events_lost,
            connects=c.connects,
            reconnects=max(0, c.connects - 1),
            open_failures=c.open_failures,
            rtt_s=self._commands.srtt_s,
            rto_s=self._commands.rto_s,
            versions_seen=tuple(sorted(c.versions_seen)),
            last_event_id=self._stream.cursor,
            last_frames=self._ring.records(),
            link_faults=c.link_faults,
        )

    # ---- frames in ----------------------------------------------------------------------------

    def _on_item(self, item: Frame | Garbage, now: float) -> None:
        if isinstance(item, Garbage):
            if not self._in_burst:
                self._in_burst = True
                self._nak_due = True  # one NAK per burst, not per bad byte
            return
        self._in_burst = False
        self._on_frame(item, now)

    def _on_frame(self, f: Frame, now: float) -> None:
        c = self.counters
        c.frames_rx += 1
        self._ring.rx(f, now)
        c.versions_seen.add(f.version)
        if f.version not in wire.SUPPORTED_VERSIONS:
            if f.type == wire.T_IDENTITY and self.phase == Phase.IDENTIFYING:
                _, identity = parse_identity(f.payload)  # its layout is frozen in every version
                self._refuse_version(now, f.version, identity)
            return
        if self.phase in (Phase.IDLE, Phase.REFUSED):
            return
        self._last_rx_at = now
        if f.type != wire.T_HELLO:
            self._send(self._commands.on_ack(f.seq, now))
        t = f.type
        if t == wire.T_ACK:
            return
        if t == wire.T_NAK:
            c.naks_rx += 1
            self._send(self._commands.on_nak(now))
        elif t == wire.T_HELLO:
            self._on_hello(f, now)
        elif t == wire.T_IDENTITY:
            self._on_identity(f, now)
        elif t == wire.T_SNAPSHOT:
            self._on_snapshot(f, now)
        elif t == wire.T_REPLAY_START:
            self._on_replay_start(f, now)
        elif t == wire.T_CLOCK:
            self._on_clock(f, now)
        elif self.phase != Phase.UP:
            return  # events wait for the replay to start: the device resends them
        elif t == wire.T_EVENTS_LOST:
            self._delivered.extend(self._stream.on_events_lost(f.payload, now))
            self._check_stream(now)
        elif t in wire.EVENT_TYPES:
            self._delivered.extend(self._stream.on_event(t, f.payload, self._host_at, now))
            self._check_stream(now)
        else:
            c.malformed += 1

    def _check_stream(self, now: float) -> None:
        """A frame contradicted the session (`EventStream.fault`): a link fault. It is
        counted, the link goes down (the LINK alert) and is connected again, and the replay
        from the cursor resyncs the stream; nothing after it is taken from this connection."""
        why = self._stream.fault
        if why is None:
            return
        self._stream.fault = None
        self.counters.link_faults += 1
        self._change(LinkState.DOWN, now, f"link fault: {why}; linking again")
        self._close_port(f"link fault: {why}")
        self.phase = Phase.IDLE  # frames until the port closes are not taken

    def _host_at(self, header: EventHeader) -> float | None:
        return self._clock.host_at(header.boot_id, header.device_ticks)

    def _on_hello(self, f: Frame, now: float) -> None:
        # The device booted, or it got a command before any IDENTIFY: (re)start the handshake.
        boot = struct.unpack_from(wire.FMT_HELLO, f.payload)[1] if len(f.payload) >= 5 else -1
        if self.phase == Phase.IDENTIFYING:
            if now - self._identify_at >= 0.05:
                self._identify(now)
            return
        if self.phase == Phase.UP:
            self._change(LinkState.DOWN, now, f"device restarted (boot {boot}); linking again")
        self._handshake_at = now
        self._identify(now)

    def _on_identity(self, f: Frame, now: float) -> None:
        nonce, identity = parse_identity(f.payload)
        if self.phase != Phase.IDENTIFYING or nonce != self._nonce:
            return  # an answer to an earlier attempt
        if identity is None:
            self.counters.malformed += 1
            return
        if identity.protocol_version not in wire.SUPPORTED_VERSIONS:
            self._refuse_version(now, identity.protocol_version, identity)
            return
        if self._expect is not None and identity.kind != self._expect:
            self._refuse(
                now,
                f"refused {_name(identity)}: this port expects a {self._expect.value} "
                f"but a {identity.kind.value} answered",
                identity,
            )
            return
        self.identity = identity
        self._stream = self._streams.setdefault(identity.serial, EventStream(self.counters))
        self._stream.identified(identity.boot_id)
        self._clock.reset(identity.boot_id, identity.tick_hz)
        self.phase = Phase.SNAPSHOT
        self._ask_snapshot(now)

    def _on_snapshot(self, f: Frame, now: float) -> None:
        if not (self.phase == Phase.SNAPSHOT or self._snapshot_wanted) or self.identity is None:
            return
        parsed = parse_snapshot_part(f.payload)
        if parsed is None:
            self.counters.malformed += 1
            return
        part, parts, as_of, body = parsed
        if part != len(self._snapshot_parts):
            self._snapshot_parts = []
            if part != 0:
                return  # a part was lost: the step retry asks again
        self._snapshot_parts.append(body)
        if len(self._snapshot_parts) < parts:
            return
        bodies, self._snapshot_parts = self._snapshot_parts, []
        status = parse_snapshot_status(bodies[0])
        zones = [parse_zone(b) for b in bodies[1:]]
        if status is None or any(z is None for z in zones):
            self.counters.malformed += 1
            return
        readings = tuple(z for z in zones if isinstance(z, ZoneReading))
        self._delivered.append(build_snapshot(self.identity, status, readings, as_of, now))
        self._snapshot_wanted = False
        if self.phase == Phase.SNAPSHOT:
            self.phase = Phase.REPLAYING
            self._ask_replay(now)

    def _on_replay_start(self, f: Frame, now: float) -> None:
        if self.phase != Phase.REPLAYING or len(f.payload) != 8:
            return
        first_held, next_id = struct.unpack(wire.FMT_REPLAY_START, f.payload)
        lost, again = self._stream.replay_started(first_held, next_id, now)
        self._delivered.extend(lost)
        if again:
            self._ask_replay(now)
            return
        self.phase = Phase.UP
        self._next_poll_at = now
        self._change(LinkState.UP, now, "linked")

    def _on_clock(self, f: Frame, now: float) -> None:
        if len(f.payload) != 6:
            self.counters.malformed += 1
            return
        poll_id, ticks = struct.unpack(wire.FMT_CLOCK, f.payload)
        sent_at = self._polls.pop(poll_id, None)
        if sent_at is not None:
            self._clock.sample(sent_at, now, ticks)

    # ---- frames out ---------------------------------------------------------------------------

    def _identify(self, now: float) -> None:
        self.phase = Phase.IDENTIFYING
        self._commands.reset()
        self._polls.clear()
        self._snapshot_parts = []
        self._nonce = (self._nonce + 1) & 0xFFFFFFFF
        self._identify_at = now
        self._step_at = now + max(STEP_S, 2 * self._commands.rto_s)
        lo, hi = min(wire.SUPPORTED_VERSIONS), max(wire.SUPPORTED_VERSIONS)
        payload = struct.pack(wire.FMT_IDENTIFY, self._nonce, lo, hi)
        self._send(self._commands.send(wire.T_IDENTIFY, payload, now))

    def _ask_snapshot(self, now: float) -> None:
        self._snapshot_parts = []
        self._step_at = now + max(STEP_S, 2 * self._commands.rto_s)
        self._send(self._commands.send(wire.T_GET_SNAPSHOT, b"", now))

    def _ask_replay(self, now: float) -> None:
        cursor = self._stream.replay_from()
        flags = 0 if cursor is None else wire.REPLAY_HAS_CURSOR
        payload = struct.pack(wire.FMT_REPLAY_SINCE, flags, max(cursor or 0, 0))
        self._step_at = now + max(STEP_S, 2 * self._commands.rto_s)
        self._send(self._commands.send(wire.T_REPLAY_SINCE, payload, now))

    def _retry_step(self, now: float) -> None:
        if self.phase == Phase.IDENTIFYING:
            self._identify(now)
        elif self.phase == Phase.SNAPSHOT:
            self._ask_snapshot(now)
        else:
            self._ask_replay(now)

    def _heartbeat(self, now: float) -> None:
        self._next_poll_at = now + HEARTBEAT_S
        self._poll_id = (self._poll_id + 1) & 0xFFFF
        if len(self._polls) >= _MAX_POLLS:
            self._polls.pop(next(iter(self._polls)))
        self._polls[self._poll_id] = now
        payload = struct.pack(wire.FMT_CLOCK_POLL, self._poll_id)
        self._send(self._commands.send(wire.T_CLOCK_POLL, payload, now))

    def _flush_acks(self) -> None:
        """At most one ACK or NAK per read: the NAK wins, and it carries the cursor too."""
        stream = self._stream
        nak = self._nak_due or stream.nak_due
        if not (nak or stream.ack_due):
            return
        self._nak_due = stream.nak_due = stream.ack_due = False
        if nak:
            self.counters.naks_tx += 1
        payload = struct.pack(wire.FMT_ACK_HOST, max(stream.cursor or 0, 0))
        # Link control consumes no sequence number; its nibble is 0.
        ftype = wire.T_NAK if nak else wire.T_ACK
        self._send([wire.encode_frame(wire.PROTOCOL_VERSION, 0, ftype, payload)])

    def _send(self, frames: list[bytes]) -> None:
        for data in frames:
            self._out.append(data)
            self.counters.bytes_tx += len(data)
            self.counters.frames_tx += 1
            self._ring.tx(data, self._now)

    # ---- state --------------------------------------------------------------------------------

    def _change(self, state: LinkState, now: float, reason: str) -> None:
        if state == self.state and reason == self.reason:
            return
        self.state = state
        self.reason = reason
        self._delivered.append(LinkStateChange(state, now, reason, self.port, self.identity))

    def _close_port(self, reason: str) -> None:
        if self._close is None:
            self._close = reason

    def _refuse_version(self, now: float, version: int, identity: DeviceIdentity | None) -> None:
        ours = ", ".join(str(v) for v in wire.SUPPORTED_VERSIONS)
        seen = ", ".join(str(v) for v in sorted(self.counters.versions_seen))
        who = _name(identity) if identity is not None else "a device"
        self._refuse(
            now,
            f"refused {who}: it speaks protocol version {version}; this station speaks "
            f"version {ours} (protocol versions seen on the line: {seen}). Install matching "
            "shoe firmware or station software.",
            identity,
        )

    def _refuse(self, now: float, reason: str, identity: DeviceIdentity | None) -> None:
        self.phase = Phase.REFUSED
        self.identity = identity
        self._change(LinkState.REFUSED, now, reason)
        self._close_port(reason)

    def _handshake_failed(self, now: float, silent: bool) -> None:
        versions = self.counters.versions_seen
        foreign = sorted(v for v in versions if v not in wire.SUPPORTED_VERSIONS)
        if foreign:
            self._refuse_version(now, foreign[-1], None)
        elif silent:
            self._close_port(f"no frame from the device for {LIVENESS_S:g} s ({self.phase})")
        else:
            self._close_port(f"handshake did not finish in {HANDSHAKE_S:g} s ({self.phase})")


def _name(identity: DeviceIdentity) -> str:
    return f"{identity.kind.value} {identity.serial} (firmware {identity.firmware_version})"
