"""Logging for journald: stderr lines prefixed with a syslog priority (`<3>` ... `<7>`), no
timestamps of our own (journald stamps every line). Edge adapter (stderr).

With systemd's `SyslogLevelPrefix=` (on by default) `journalctl -u dealer-station -p warning`
then filters by level. What is logged never holds a PIN, a hash, a card or a tag: modules log
people, codes, seats and sequence numbers only (the journal's log canary test enforces it for
the journal; the daemon follows the same rule).
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from station.config.model import LogLevel

# Python level -> syslog priority (sd-daemon(3)).
PRIORITY = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
LEVELS = {
    LogLevel.DEBUG: logging.DEBUG,
    LogLevel.INFO: logging.INFO,
    LogLevel.WARNING: logging.WARNING,
    LogLevel.ERROR: logging.ERROR,
}


def priority(levelno: int) -> int:
    for level in sorted(PRIORITY, reverse=True):
        if levelno >= level:
            return PRIORITY[level]
    return 7


class JournaldFormatter(logging.Formatter):
    """`<6>station.daemon.core: message`; continuation lines (tracebacks) carry the prefix too,
    so journald keeps them at the record's priority."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in text.splitlines())


def configure(level: LogLevel, stream: TextIO | None = None) -> logging.Handler:
    """Route the root logger to `stream` (stderr) with the journald prefix; returns the handler
    so that a caller running several daemons in one process (tests) can remove it."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JournaldFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(LEVELS[level])
    return handler
