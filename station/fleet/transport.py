"""The transport the forwarder and the ingest talk through: the MQTT operations they need and
nothing more, so the client library can be swapped. Pure (interfaces and settings).

The one implementation is `station.fleet.paho_transport.PahoTransport` (paho-mqtt 2.x, the
`fleet`/`central` extras). Its callbacks arrive on the library's network thread: a
`TransportEvents` receiver only queues them for its own thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Will:
    topic: str
    payload: bytes
    retain: bool = True


@dataclass(frozen=True, slots=True)
class TransportSettings:
    host: str
    port: int
    client_id: str
    ca: Path
    cert: Path
    key: Path
    subscriptions: tuple[str, ...] = ()
    will: Will | None = None
    keepalive_s: int = 30
    session_expiry_s: int = 0  # 0: a clean session each connect; the ingest keeps one
    reconnect_min_s: float = 1.0
    reconnect_max_s: float = 60.0  # standards-ux requirement 18: backoff doubles up to 60 s
    max_inflight: int = 20


class TransportEvents(Protocol):
    """What a transport reports (on its own thread)."""

    def connected(self) -> None: ...
    def disconnected(self, reason: str) -> None: ...
    def message(self, topic: str, payload: bytes) -> None: ...


class Transport(Protocol):
    def start(self) -> None:
        """Connect in the background and keep reconnecting (with backoff) until `stop`."""
        ...

    def stop(self) -> None: ...

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> bool:
        """Queue a QoS 1 publication; False when not connected (nothing was queued). A PUBACK
        is never taken as delivery: the application's own acknowledgement is."""
        ...

    @property
    def connected(self) -> bool: ...


TransportFactory = Callable[[TransportSettings, TransportEvents], Transport]
