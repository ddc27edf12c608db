"""The daemon's read-only status socket, and the client `station diag` uses. Edge adapter
(a Unix socket, a thread).

The daemon listens on a Unix stream socket beside its journal (`socket_path`: the journal's
stem plus `.diag.sock`), as private as the journal: 0600, or 0660 when the journal is group
readable (`[journal] group_read`), so that the service's group, the floor group of an installed
table, may connect. Each connection gets one JSON object on one line, the daemon's newest
status, and is closed; whatever a client sends is never read. Nothing on the socket can change
the station: the only way in is the core's `publish`, once a second, of the records it already
builds for the diagnostics screen (`station.daemon.views.diagnostics`) plus each link's full
counters. The JSON is built on the server's thread from those frozen records, on request only.

Wire format (`format` 1), documented for tools: `{"format":1, "pid", "version", "engine" (which
rules engine runs and why, in words), "uptime_s",
"hand", "phase", "status", "links": [{"device", "configured", "state", "reason", "port",
"serial", "firmware", "protocol", "counters": {...}, "last_frame_age_s", "last_frames": [...]}],
"gpio": {name: bool}, "journal": {"ok", "chain_ok", "checking", "last_seq", "events",
"size_mb"}, "clock": {"utc", "synced"}, "fleet": null or {"state", "outbox_rows",
"outbox_age_s", "central_seq", "detail"}}`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from firmware_bridge import LinkStats
from station.display.diag_view import DiagnosticsData

log = logging.getLogger(__name__)

SOCKET_SUFFIX: Final = ".diag.sock"
SOCKET_MODE: Final = 0o660
WIRE_FORMAT: Final = 1
SEND_TIMEOUT_S: Final = 1.0
MAX_PATH: Final = 107  # sun_path holds 108 bytes with its terminating NUL


def socket_path(journal: Path) -> Path:
    """`journal.diag.sock` beside `journal.sqlite`: not one of the journal's own files (those
    all start with the journal's name and are copied and moved with it)."""
    return journal.parent / f"{journal.stem}{SOCKET_SUFFIX}"


@dataclass(frozen=True, slots=True)
class LiveStatus:
    """What the core hands over once a second (frozen records only: safe to read from the
    server's thread)."""

    at: float  # the core's monotonic clock
    links: Mapping[str, LinkStats | None]  # device -> stats (None: configured, no link object)
    gpio: Mapping[str, bool]
    data: DiagnosticsData
    hand: int
    phase: str
    status: str  # the systemd STATUS= line
    extra: Mapping[str, Any] = field(default_factory=dict)


def counters(stats: LinkStats) -> dict[str, float | int | None]:
    return {
        "frames_rx": stats.frames_rx,
        "frames_tx": stats.frames_tx,
        "crc_errors": stats.crc_errors,
        "resyncs": stats.resyncs,
        "retransmits": stats.retransmits,
        "duplicates": stats.duplicates,
        "naks_rx": stats.naks_rx,
        "naks_tx": stats.naks_tx,
        "malformed": stats.malformed,
        "out_of_order": stats.out_of_order,
        "events_delivered": stats.events_delivered,
        "events_lost": stats.events_lost,
        "link_faults": stats.link_faults,
        "reconnects": stats.reconnects,
        "open_failures": stats.open_failures,
        "rtt_ms": None if stats.rtt_s is None else round(stats.rtt_s * 1000, 2),
    }


def _link(device: str, stats: LinkStats | None, now: float) -> dict[str, Any]:
    if stats is None:
        return {"device": device, "configured": False, "state": "not configured"}
    ident = stats.identity
    last = stats.last_frames[-1].at if stats.last_frames else None
    return {
        "device": device,
        "configured": True,
        "state": stats.state.value,
        "reason": stats.reason,
        "port": stats.port,
        "serial": ident.serial if ident is not None else "",
        "firmware": ident.firmware_version if ident is not None else "",
        "protocol": ident.protocol_version if ident is not None else None,
        "counters": counters(stats),
        "last_frame_age_s": None if last is None else round(max(0.0, now - last), 3),
        "last_frames": [
            f"{f.direction.value.upper()} {f.type_name} #{f.seq} {f.detail}".strip()
            for f in stats.last_frames[-5:]
        ],
    }


def status_dict(
    status: LiveStatus, version: str, started_at: float, engine: str = ""
) -> dict[str, Any]:
    j, p, f = status.data.journal, status.data.platform, status.data.fleet
    return {
        "format": WIRE_FORMAT,
        "pid": os.getpid(),
        "version": version,
        "engine": engine,
        "uptime_s": round(status.at - started_at, 1),
        "hand": status.hand,
        "phase": status.phase,
        "status": status.status,
        "links": [_link(d, s, status.at) for d, s in status.links.items()],
        "gpio": dict(status.gpio),
        "journal": {
            "ok": j.ok,
            "chain_ok": j.chain_ok,
            "checking": j.checking,
            "last_seq": j.last_seq,
            "events": j.events,
            "size_mb": j.size_mb,
        },
        "clock": {"utc": p.clock_utc, "synced": p.clock_synced},
        "tournament": status.data.tournament or None,
        "fleet": None
        if f is None
        else {
            "state": f.state,
            "outbox_rows": f.outbox_rows,
            "outbox_age_s": f.outbox_age_s,
            "central_seq": f.central_seq,
            "detail": f.detail,
        },
        **status.extra,
    }


class StatusServer:
    """Serves the newest `LiveStatus` on the socket, on a thread of its own. `publish` is the
    core's side (never blocks); `start`/`stop` the composition root's."""

    def __init__(
        self,
        path: Path,
        version: str,
        clock: Callable[[], float] = time.monotonic,
        *,
        mode: int = SOCKET_MODE,
        engine: str = "",
    ) -> None:
        self.path = path
        self.mode = mode
        self.version = version
        self.engine = engine
        self.started_at = clock()
        self.served = 0
        self._latest: LiveStatus | None = None
        self._sock: socket.socket | None = None
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None

    @property
    def listening(self) -> bool:
        return self._thread is not None

    def publish(self, status: LiveStatus) -> None:
        self._latest = status  # one reference assignment: atomic

    def start(self) -> bool:
        """Listen; False (and a warning) when the socket cannot be made: the station runs on,
        `station diag` then reads the journal alone."""
        if len(os.fsencode(self.path)) > MAX_PATH:
            log.warning("status socket path too long for a Unix socket: %s", self.path)
            return False
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            if self.path.is_socket():
                self.path.unlink()  # left by a daemon that was killed
            sock.bind(os.fspath(self.path))
            os.chmod(self.path, self.mode)
            sock.listen(8)
        except OSError as exc:
            sock.close()
            log.warning("no status socket at %s: %s", self.path, exc.strerror or exc)
            return False
        sock.setblocking(False)
        self._sock = sock
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._serve, name="diag-socket", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        if self._thread is None:
            return
        os.write(self._wake_w, b"x")
        self._thread.join(2.0)
        self._thread = None
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        with contextlib.suppress(OSError):
            self.path.unlink()

    def _serve(self) -> None:
        assert self._sock is not None
        with selectors.DefaultSelector() as sel:
            sel.register(self._sock, selectors.EVENT_READ)
            sel.register(self._wake_r, selectors.EVENT_READ)
            while True:
                for key, _ in sel.select():
                    if key.fileobj == self._wake_r:
                        return
                    self._answer()

    def _answer(self) -> None:
        assert self._sock is not None
        try:
            conn, _ = self._sock.accept()
        except (BlockingIOError, InterruptedError):
            return
        with conn:
            try:
                conn.settimeout(SEND_TIMEOUT_S)
                latest = self._latest
                body: dict[str, Any] = (
                    {"format": WIRE_FORMAT, "starting": True, "pid": os.getpid()}
                    if latest is None
                    else status_dict(latest, self.version, self.started_at, self.engine)
                )
                conn.sendall(json.dumps(body, separators=(",", ":")).encode() + b"\n")
                self.served += 1
            except OSError as exc:  # the client went away: its loss
                log.debug("status socket: %s", exc)
            except Exception:  # thread boundary: one bad answer never stops the server
                log.exception("status socket: could not answer")


class NoDaemonError(Exception):
    """Nothing answered on the status socket (the message says why)."""


def fetch(path: Path, timeout_s: float = 2.0) -> dict[str, Any]:
    """The daemon's status, read from its socket. Raise NoDaemonError when none answers."""
    if not path.exists():
        raise NoDaemonError(f"no socket {path}")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout_s)
            sock.connect(os.fspath(path))
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
    except PermissionError:
        raise NoDaemonError(f"permission denied on {path}") from None
    except (ConnectionRefusedError, FileNotFoundError):
        raise NoDaemonError("nobody listening (the daemon is not running)") from None
    except OSError as exc:
        raise NoDaemonError(str(exc.strerror or exc)) from None
    try:
        body = json.loads(b"".join(chunks))
    except ValueError:
        raise NoDaemonError("the socket's answer is not JSON") from None
    if not isinstance(body, dict) or body.get("format") != WIRE_FORMAT:
        raise NoDaemonError("the socket speaks another format")
    return body
