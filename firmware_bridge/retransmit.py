"""Host -> device commands: sequence numbers, a window, acknowledgements, go-back-N
retransmission on an adaptive timeout. Pure (takes `now`, returns bytes to write).

Every device frame carries, in its sequence nibble, the next command number the device expects:
a cumulative acknowledgement. The retransmission timeout follows RFC 6298 (smoothed RTT and its
variance, Karn's rule: no sample from a retransmitted frame), clamped to [25 ms, 2 s] and doubled
on every timeout. A NAK from the device resends at once.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from firmware_bridge import wire

MIN_RTO_S = 0.025
MAX_RTO_S = 2.0
INITIAL_RTO_S = 0.25
# Clock granularity term of RFC 6298.
GRANULARITY_S = 0.001


@dataclass(slots=True)
class _Pending:
    seq: int
    data: bytes
    sent_at: float
    retransmitted: bool = False


class CommandChannel:
    """The reliable host -> device command stream of one session."""

    def __init__(self, version: int = wire.PROTOCOL_VERSION) -> None:
        self._version = version
        self.retransmits = 0
        self.srtt_s: float | None = None
        self.rttvar_s = 0.0
        self.rto_s = INITIAL_RTO_S
        self._next_seq = 0
        self._pending: deque[_Pending] = deque()
        self._queued: deque[tuple[int, bytes]] = deque()
        self._timer_at = 0.0

    def reset(self) -> None:
        """Forget every command in flight (a new session starts at sequence 0). RTT estimates
        are kept: the line has not changed."""
        self._next_seq = 0
        self._pending.clear()
        self._queued.clear()
        self.rto_s = self._computed_rto()

    @property
    def in_flight(self) -> int:
        return len(self._pending)

    @property
    def queued(self) -> int:
        return len(self._queued)

    def send(self, ftype: int, payload: bytes, now: float) -> list[bytes]:
        """Queue one command; returns the frames to write now (none when the window is full)."""
        self._queued.append((ftype, payload))
        return self._fill(now)

    def _fill(self, now: float) -> list[bytes]:
        out: list[bytes] = []
        while self._queued and len(self._pending) < wire.COMMAND_WINDOW:
            ftype, payload = self._queued.popleft()
            seq = self._next_seq
            self._next_seq = (seq + 1) % wire.SEQ_MOD
            data = wire.encode_frame(self._version, seq, ftype, payload)
            if not self._pending:
                self._timer_at = now
            self._pending.append(_Pending(seq, data, now))
            out.append(data)
        return out

    def on_ack(self, ack_seq: int, now: float) -> list[bytes]:
        """The device expects `ack_seq` next: everything before it arrived."""
        if not self._pending:
            return []
        acked = (ack_seq - self._pending[0].seq) % wire.SEQ_MOD
        if acked == 0 or acked > len(self._pending):
            return []  # nothing new, or a stale nibble from before this session
        sample: float | None = None
        for _ in range(acked):
            p = self._pending.popleft()
            if not p.retransmitted:
                sample = now - p.sent_at
        if sample is not None:
            self._rtt_sample(sample)
        self.rto_s = self._computed_rto()
        # Restart the timer for what is still in flight (RFC 6298 5.3).
        self._timer_at = now
        return self._fill(now)

    def on_nak(self, now: float) -> list[bytes]:
        """The device saw a damaged or missing frame: resend what is in flight, unless it was
        (re)sent so recently that the NAK cannot be about it."""
        if not self._pending or now - self._timer_at < MIN_RTO_S / 2:
            return []
        return self._retransmit(now)

    def poll(self, now: float) -> list[bytes]:
        if self._pending and now - self._timer_at >= self.rto_s:
            self.rto_s = min(self.rto_s * 2, MAX_RTO_S)
            return self._retransmit(now)
        return []

    def next_deadline(self) -> float | None:
        return self._timer_at + self.rto_s if self._pending else None

    def _retransmit(self, now: float) -> list[bytes]:
        out: list[bytes] = []
        self._timer_at = now
        for p in self._pending:
            p.retransmitted = True
            self.retransmits += 1
            out.append(p.data)
        if out:
            # A leading sync in front of the batch: the receiver may be mid-resync.
            out[0] = b"\x7e" + out[0]
        return out

    def _rtt_sample(self, r: float) -> None:
        if self.srtt_s is None:
            self.srtt_s = r
            self.rttvar_s = r / 2
        else:
            self.rttvar_s = 0.75 * self.rttvar_s + 0.25 * abs(self.srtt_s - r)
            self.srtt_s = 0.875 * self.srtt_s + 0.125 * r

    def _computed_rto(self) -> float:
        if self.srtt_s is None:
            return INITIAL_RTO_S
        rto = self.srtt_s + max(GRANULARITY_S, 4 * self.rttvar_s)
        return min(max(rto, MIN_RTO_S), MAX_RTO_S)
