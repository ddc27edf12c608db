"""systemd's notification protocol (sd_notify(3)) without libsystemd. Edge adapter (socket).

One AF_UNIX datagram per message to `$NOTIFY_SOCKET`; a leading '@' names the abstract
namespace. The protocol is stable and systemd documents reimplementing it (the man page carries
a reference implementation since 2024); a dependency would buy nothing. `Notifier` also reads
`WATCHDOG_USEC` (and `WATCHDOG_PID`) to say how often the core loop must pet the watchdog.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


def sd_notify(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send one notification; True when it was sent (False: not under systemd, or it failed)."""
    try:
        return send_notification(message, environ)
    except NotifyError:
        return False


class NotifyError(OSError):
    """A notification could not be sent (nobody listens, or the listener's queue is full)."""


def send_notification(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """`sd_notify` that says why it failed: True when sent, False when not under systemd,
    `NotifyError` when it could not be sent.

    The send never blocks: a receiver that stops reading (its queue full) would otherwise hold
    the core loop inside a watchdog pet, and SIGTERM with it (`station bench idle` found this
    with a listener that read nothing for a minute). A notification that cannot go now is
    dropped; the next one says the same again."""
    path = environ.get("NOTIFY_SOCKET", "")
    if not path or path[0] not in "/@":
        return False
    address = "\0" + path[1:] if path[0] == "@" else path
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.setblocking(False)
            sock.connect(address)
            sock.send(message.encode("utf-8"))
    except OSError as exc:
        raise NotifyError(f"sd_notify to {path} failed: {exc}") from exc
    return True


def watchdog_interval_s(environ: Mapping[str, str] = os.environ) -> float | None:
    """Half of `WATCHDOG_USEC` (systemd's advice), or None when no watchdog is armed for us."""
    usec = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2e6 if value > 0 else None


class Notifier:
    """READY, STATUS and WATCHDOG for the core loop; a no-op outside systemd."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        self.environ = dict(environ)
        self.enabled = bool(self.environ.get("NOTIFY_SOCKET"))
        self.watchdog_s = watchdog_interval_s(self.environ)
        self._status = ""
        self._failing = False

    def ready(self, status: str) -> None:
        self._status = status
        self._send(f"READY=1\nSTATUS={status}")

    def status(self, status: str) -> None:
        if status != self._status:
            self._status = status
            self._send(f"STATUS={status}")

    def watchdog(self) -> None:
        self._send("WATCHDOG=1")

    def stopping(self, status: str = "stopping") -> None:
        self._send(f"STOPPING=1\nSTATUS={status}")

    def _send(self, message: str) -> None:
        if not self.enabled:
            return
        try:
            send_notification(message, self.environ)
        except NotifyError as exc:
            if not self._failing:  # once per run of failures, not at every watchdog pet
                log.warning("%s (dropped; later notifications will say it again)", exc)
            self._failing = True
        else:
            if self._failing:
                log.info("sd_notify works again")
            self._failing = False
