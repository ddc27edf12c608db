"""The link supervisor: one thread per device that opens the port, runs the session, hands
messages and link-state changes to the station, and reconnects with capped backoff. Edge adapter.

The thread never dies on a device problem: an unplugged shoe, a port that will not open, garbage
or a refused device all end in a link-state change and another try (MPF exits when a port drops
mid-game; a dealer station must not). Callbacks run on the link thread, in event order, and
should only put the message on the station's queue.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from queue import Empty, SimpleQueue

from firmware_bridge.exc import IncompatibleDeviceError, LinkTimeoutError, PortError
from firmware_bridge.messages import DeviceIdentity, DeviceKind, Message
from firmware_bridge.session import Outputs, Phase, Session
from firmware_bridge.status import LinkState, LinkStateChange, LinkStats
from firmware_bridge.transport import Port, PortOpener

log = logging.getLogger(__name__)

BACKOFF_MIN_S = 0.1
BACKOFF_MAX_S = 2.0
READ_CHUNK = 4096
# The longest the loop sleeps in a read when no timer is due sooner: how late a stop or a
# station request (deck scan, snapshot) may be served. Sleeping until the session's next
# deadline instead of waking every read timeout keeps an idle link near 10 wakeups a second.
IDLE_WAIT_S = 0.1


def _ignore_state(_change: LinkStateChange) -> None:
    return None


class DeviceLink:
    """A reliable link to one shoe or bet-zone board.

    `port_opener()` opens the port for each (re)connect. `on_message` receives every device
    event exactly once and in order (plus `Snapshot`s and `EventsLost`), `on_link_state` every
    link up / down / refused. `clock` is the monotonic clock whose seconds stamp everything.
    """

    def __init__(
        self,
        port_opener: PortOpener,
        on_message: Callable[[Message], None],
        on_link_state: Callable[[LinkStateChange], None] = _ignore_state,
        clock: Callable[[], float] = time.monotonic,
        *,
        expect: DeviceKind | None = None,
        resume: Mapping[str, int] | None = None,
        backoff_min_s: float = BACKOFF_MIN_S,
        backoff_max_s: float = BACKOFF_MAX_S,
        name: str = "link",
    ) -> None:
        self._opener = port_opener
        self._on_message = on_message
        self._on_link_state = on_link_state
        self._clock = clock
        self._backoff_min_s = backoff_min_s
        self._backoff_max_s = backoff_max_s
        self._name = name
        self._session = Session(
            port=port_opener.name, expect=expect, resume=resume, nonce=secrets.randbits(32)
        )
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._requests: SimpleQueue[str] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._close_reason = ""
        self.callback_errors = 0

    # ---- the station's side ---------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("link already started")
        self._thread = threading.Thread(
            target=self._run, name=f"{self._name}-{self._opener.name}", daemon=True
        )
        self._thread.start()

    def stop(self, timeout_s: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def __enter__(self) -> DeviceLink:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def state(self) -> LinkState:
        with self._lock:
            return self._session.state

    def stats(self) -> LinkStats:
        with self._lock:
            return self._session.stats()

    def request_deck_scan(self) -> None:
        """Ask the shoe to scan its deck; a `DeckScan` message follows when it can. Ignored
        while the link is not up (the snapshot after the next connect tells the deck state)."""
        self._requests.put("scan")

    def request_snapshot(self) -> None:
        """Ask for a fresh `Snapshot` (ignored while the link is not up)."""
        self._requests.put("snapshot")

    # ---- the link thread ----------------------------------------------------------------------

    def _run(self) -> None:
        delay = self._backoff_min_s
        while not self._stop.is_set():
            try:
                reached_up = self._one_connection()
            except Exception as exc:  # thread boundary: report and carry on, never die
                log.exception("%s: link loop failed", self._opener.name)
                self._disconnected(f"internal error: {exc!r}")
                reached_up = False
            if reached_up:
                delay = self._backoff_min_s
            elif self.state == LinkState.REFUSED:
                delay = self._backoff_max_s
            else:
                delay = min(max(delay * 2, self._backoff_min_s), self._backoff_max_s)
            self._stop.wait(delay)

    def _one_connection(self) -> bool:
        """Open, link and serve until the port fails or the session closes it. True if the
        link came up during this connection."""
        try:
            port = self._opener()
        except PortError as exc:
            with self._lock:
                self._session.open_failed(str(exc))
            return False
        log.info("%s: port open", self._opener.name)
        reached_up = False
        self._close_reason = "link stopped"  # replaced by the reason when the port fails first
        try:
            with self._lock:
                self._session.connected(self._clock())
                out = self._session.drain()
            alive = self._apply(port, out)  # IDENTIFY goes out at once
            while alive and not self._stop.is_set():
                alive = self._step(port)
                reached_up = reached_up or self.state == LinkState.UP
        finally:
            port.close()
            self._disconnected(self._close_reason)
        return reached_up

    def _step(self, port: Port) -> bool:
        with self._lock:
            due = self._session.next_deadline()
        wait_s = IDLE_WAIT_S if due is None else min(IDLE_WAIT_S, due - self._clock())
        try:
            data = port.read(READ_CHUNK, wait_s)
        except PortError as exc:
            self._close_reason = f"port lost: {exc}"
            return False
        now = self._clock()
        with self._lock:
            if data:
                self._session.receive(data, now)
            self._serve_requests(now)
            self._session.poll(now)
            out = self._session.drain()
        return self._apply(port, out)

    def _serve_requests(self, now: float) -> None:
        while True:
            try:
                request = self._requests.get_nowait()
            except Empty:
                return
            if request == "scan":
                self._session.request_deck_scan(now)
            else:
                self._session.request_snapshot(now)

    def _apply(self, port: Port, out: Outputs) -> bool:
        self._deliver(out)
        if out.data:
            try:
                port.write(out.data)
            except PortError as exc:
                self._close_reason = f"port lost: {exc}"
                return False
        if out.close_reason is not None:
            self._close_reason = out.close_reason
            log.warning("%s: closing: %s", self._opener.name, out.close_reason)
            return False
        return True

    def _disconnected(self, reason: str) -> None:
        with self._lock:
            self._session.disconnected(self._clock(), reason)
            out = self._session.drain()
        self._deliver(out)

    def _deliver(self, out: Outputs) -> None:
        for item in out.delivered:
            try:
                if isinstance(item, LinkStateChange):
                    log.info("%s: link %s: %s", self._opener.name, item.state, item.reason)
                    self._on_link_state(item)
                else:
                    self._on_message(item)
            except Exception:  # thread boundary: a station bug must not kill the link
                self.callback_errors += 1
                log.exception("%s: callback failed on %r", self._opener.name, item)


ShoeLink = DeviceLink
"""The name the daemon uses for the shoe's link (the bet-zone board uses the same class)."""


def probe(
    port_opener: PortOpener,
    *,
    timeout_s: float = 3.0,
    expect: DeviceKind | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> DeviceIdentity:
    """Open the port once and identify the device, for `station config check` and `station diag`.

    Raises `IncompatibleDeviceError` (naming the versions seen) for a device the station must
    refuse, `LinkTimeoutError` when nothing identifies in time, `PortError` when the port does not
    open. Nothing is acknowledged, so no event is consumed.
    """
    session = Session(port=port_opener.name, expect=expect, nonce=secrets.randbits(32))
    port = port_opener()
    try:
        start = clock()
        session.connected(start)
        while True:
            now = clock()
            if session.refused:
                raise IncompatibleDeviceError(session.reason)
            if session.identity is not None and session.phase != Phase.IDENTIFYING:
                return session.identity
            if now - start >= timeout_s:
                raise LinkTimeoutError(
                    f"{port_opener.name}: no device identified within {timeout_s:g} s"
                )
            data = port.read(READ_CHUNK)
            now = clock()
            if data:
                session.receive(data, now)
            session.poll(now)
            out = session.drain()
            if out.data:
                port.write(out.data)
            if out.close_reason is not None and not session.refused:
                raise LinkTimeoutError(f"{port_opener.name}: {out.close_reason}")
    finally:
        port.close()
