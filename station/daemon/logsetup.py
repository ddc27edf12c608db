"""Logging for journald: stderr lines prefixed with a syslog priority (`<3>` ... `<7>`), no
timestamps of our own (journald stamps every line). Edge adapter (stderr, environment).

The prefix is for journald only: it is used when stderr is the journal stream systemd handed
the service (`$JOURNAL_STREAM` names its device and inode, sd_journal_stream_fd(3)); in a
terminal (`station demo`, `station run` by hand) the level is written as a word instead.

With systemd's `SyslogLevelPrefix=` (on by default) `journalctl -u dealer-station -p warning`
then filters by level. What is logged never holds a PIN, a hash, a card or a tag: modules log
people, codes, seats and sequence numbers only (the journal's log canary test enforces it for
the journal; the daemon follows the same rule).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
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


class TerminalFormatter(logging.Formatter):
    """`WARNING station.daemon.operations: link to shoe lost` for a person at a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def under_journald(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether `stream` is the journal stream systemd connected (`$JOURNAL_STREAM` is
    "DEVICE:INODE" of that stream; a child process with its stderr elsewhere must not prefix)."""
    found = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    device, _, inode = found.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (int(device), int(inode))


def configure(
    level: LogLevel, stream: TextIO | None = None, *, journald: bool | None = None
) -> logging.Handler:
    """Route the root logger to `stream` (stderr): with the journald prefix under systemd (or
    `journald=True`), plain in a terminal; returns the handler so that a caller running several
    daemons in one process (tests) can remove it."""
    out = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(out)
    if journald is None:
        journald = under_journald(out)
    handler.setFormatter(JournaldFormatter() if journald else TerminalFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(LEVELS[level])
    return handler
