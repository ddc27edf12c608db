"""A central service's heartbeat in the central store (`central_health`, migration 0004): the
ingest writes it every `BEAT_S` and at once when its broker connection changes, so the floor
console can say when the ingest is not running (its beat is old) or cannot reach the broker.
Edge adapter (PostgreSQL through psycopg 3; the host name and process id).
"""

from __future__ import annotations

import os
import socket
from datetime import UTC, datetime
from typing import Any, Final

import psycopg

BEAT_S: Final = 1.0
INGEST: Final = "ingest"

Conn = psycopg.Connection[tuple[Any, ...]]

_BEAT = (
    "INSERT INTO central_health (service, host, pid, started_at, beat_at, stopped,"
    " broker_connected, broker_since, broker_detail)"
    " VALUES (%s, %s, %s, %s, now(), %s, %s, %s, %s)"
    " ON CONFLICT (service) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid,"
    " started_at = EXCLUDED.started_at, beat_at = now(), stopped = EXCLUDED.stopped,"
    " broker_connected = EXCLUDED.broker_connected, broker_since = EXCLUDED.broker_since,"
    " broker_detail = EXCLUDED.broker_detail"
)


class Heartbeat:
    """What one service says of itself. `broker()` may be called from any thread (a bool and a
    time, replaced whole); `beat()` on the service's own thread with its connection."""

    def __init__(self, service: str) -> None:
        self.service = service
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.started_utc = datetime.now(UTC)
        self._broker: tuple[bool, datetime, str] = (False, self.started_utc, "not connected yet")
        self.changed = True  # a beat is due at once

    def broker(self, up: bool, detail: str = "") -> None:
        if up != self._broker[0]:
            self._broker = (up, datetime.now(UTC), "" if up else detail)
            self.changed = True

    def beat(self, conn: Conn, *, stopped: bool = False) -> None:
        up, since, detail = self._broker
        conn.execute(
            _BEAT,
            (self.service, self.host, self.pid, self.started_utc, stopped, up, since, detail),
        )
        self.changed = False
