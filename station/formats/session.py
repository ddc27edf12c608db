"""The recorded table session (docs/session-format.md): reader and writer. Edge adapter (files).

A session is JSON lines, one object per line. `parse_session` checks the whole text before
returning anything, so a bad file is never half-applied; every problem is reported as
`FILE:LINE: what is wrong`. Extensions over the public format, all compatible: blank lines and
lines starting with `#` are ignored, and any object may carry a `note` or keys starting with `_`.
Each line's object is read by `formats.events.decode_event` in its strict mode (the same decoder
reads the journal's payloads leniently) and written by `formats.events.event_to_dict`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from station.engine.events import InputEvent, Setup
from station.engine.resume_setup import STAKE_KEYS
from station.formats.events import (
    MAX_AMOUNT,
    MAX_SEAT,
    RAKE_ZONE,
    EventFormatError,
    decode_event,
    event_to_dict,
)

# Re-exported: the session's names other code imports from here (the format's constants, the
# encoder); the decoder and encoder of one line live in `formats.events`.
__all__ = [
    "MAX_AMOUNT",
    "MAX_DEPTH",
    "MAX_ERRORS",
    "MAX_LINE_CHARS",
    "MAX_SEAT",
    "RAKE_ZONE",
    "STAKE_KEYS",
    "Session",
    "SessionFormatError",
    "SessionLine",
    "event_from_dict",
    "event_to_dict",
    "format_session",
    "parse_session",
    "read_session",
    "write_session",
]

MAX_ERRORS = 20
# Caps on hostile input (a replayed file may come from anywhere): a line, a number and the
# nesting of JSON beyond these is refused as FILE:LINE, never a traceback. A session's lines
# are short (a setup line is a few hundred characters); amounts are chips (events.MAX_AMOUNT).
MAX_LINE_CHARS = 65_536
MAX_DEPTH = 8


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One input event with its 1-based line number and optional time (s since start)."""

    line: int
    t: float | None
    event: InputEvent


@dataclass(frozen=True, slots=True)
class Session:
    name: str
    lines: tuple[SessionLine, ...]


class SessionFormatError(ValueError):
    """The file is not a valid session; `problems` holds `FILE:LINE: message` strings."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class _LineError(ValueError):
    pass


def read_session(path: str | Path) -> Session:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise SessionFormatError([f"{p}: cannot read: {exc.strerror}"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SessionFormatError([f"{p}:{line}: not UTF-8 text ({exc.reason})"]) from None
    return parse_session(text, str(p))


# JSON Lines ends a line at LF (CRLF and CR tolerated), never at the other Unicode line
# boundaries `str.splitlines` knows: NEL, LS, PS and the like may stand raw inside JSON strings.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def parse_session(text: str, name: str = "<session>") -> Session:
    problems: list[str] = []
    lines: list[SessionLine] = []
    have_setup = False
    last_t: float | None = None
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = _load_line(stripped)
        except _LineError as exc:
            problems.append(f"{name}:{number}: {exc}")
            continue
        try:
            t, event = decode_event(obj, strict=True, after_setup=have_setup)
            assert event is not None  # strict: the end marker is an unknown line type
            have_setup = have_setup or isinstance(event, Setup)
            if t is not None:
                if last_t is not None and t < last_t:
                    raise _LineError(f"time goes backwards: t={t} after t={last_t}")
                last_t = t
            lines.append(SessionLine(number, t, event))
        except (_LineError, EventFormatError) as exc:
            problems.append(f"{name}:{number}: {exc}")
        if len(problems) >= MAX_ERRORS:
            problems.append(f"{name}: too many problems; stopped reading")
            break
    if not problems and not lines:
        problems.append(f"{name}:1: the session is empty (it needs a setup line first)")
    if problems:
        raise SessionFormatError(problems)
    return Session(name, tuple(lines))


def _load_line(text: str) -> object:
    """One line's JSON, within the caps (length, nesting, digits of a number)."""
    if len(text) > MAX_LINE_CHARS:
        raise _LineError(f"line too long ({len(text):,} characters; at most {MAX_LINE_CHARS:,})")
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise _LineError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _LineError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except ValueError:  # int() of more digits than Python converts
        raise _LineError("not valid JSON here: a number with too many digits") from None
    except RecursionError:
        raise _LineError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)") from None


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects, outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def event_from_dict(obj: object) -> tuple[float | None, InputEvent]:
    """One session-line object -> (t, event); raises SessionFormatError naming the problem.

    For objects that were written by `event_to_dict` (the journal, the emulators)."""
    try:
        t, event = decode_event(obj, strict=True)
    except EventFormatError as exc:
        raise SessionFormatError([str(exc)]) from None
    assert event is not None  # strict: the end marker is an unknown line type
    return t, event


def format_session(lines: Iterable[SessionLine | InputEvent]) -> str:
    out = []
    for item in lines:
        if isinstance(item, SessionLine):
            out.append(json.dumps(event_to_dict(item.event, item.t), separators=(",", ":")))
        else:
            out.append(json.dumps(event_to_dict(item), separators=(",", ":")))
    return "\n".join(out) + "\n"


def write_session(path: str | Path, lines: Iterable[SessionLine | InputEvent]) -> None:
    Path(path).write_text(format_session(lines), encoding="utf-8")
