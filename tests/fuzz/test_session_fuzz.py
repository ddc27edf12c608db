"""Fuzzing the recorded-session reader with mutants of the real scenario files (the reader's own
tests fuzz it with arbitrary text and small objects: tests/test_session_format.py). Property: a
mutated file is either read, and then replays through the engine without an exception, or
refused with `SessionFormatError` whose every problem names the file and a line that exists;
any bytes in a file give the same; and what the format allows around the events (blank lines,
comments, notes in any language, `_` keys) loses no event and moves no line number.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from station.formats.replay import replay_lines
from station.formats.session import SessionFormatError, parse_session, read_session
from tests.fuzz.budget import budget, hang_guard

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "tests" / "scenarios").rglob("*.jsonl"))
FUZZ = budget(120)
NAME = "fuzz.jsonl"
PROBLEM = re.compile(rf"^{re.escape(NAME)}(:(\d+))?: .+")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["Ah", "FOLD", "zone", "draw", "key", "setup", "nlhe", "RR11", "1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def _mutate(lines: list[str], draw: st.DrawFn) -> list[str]:
    out = list(lines)
    for _ in range(draw(st.integers(1, 4))):
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        kind = draw(
            st.sampled_from(
                ["value", "drop_key", "add_key", "type", "cut", "insert", "dup", "swap", "delete"]
            )
        )
        line = out[i]
        try:
            obj: Any = json.loads(line) if line.strip().startswith("{") else None
        except json.JSONDecodeError:
            obj = None
        if kind in ("value", "drop_key", "add_key", "type") and isinstance(obj, dict) and obj:
            key = draw(st.sampled_from(sorted(obj)))
            if kind == "value":
                obj[key] = draw(json_values)
            elif kind == "drop_key":
                del obj[key]
            elif kind == "add_key":
                obj[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
            else:
                obj["type"] = draw(st.sampled_from(["setup", "draw", "zone", "key", "seat", "x"]))
            out[i] = json.dumps(obj, ensure_ascii=draw(st.booleans()))
        elif kind == "cut":
            out[i] = line[: draw(st.integers(0, len(line)))]
        elif kind == "insert":
            at = draw(st.integers(0, len(line)))
            out[i] = line[:at] + draw(st.text(max_size=4)) + line[at:]
        elif kind == "dup":
            out.insert(i, line)
        elif kind == "swap":
            j = draw(st.integers(0, len(out) - 1))
            out[i], out[j] = out[j], out[i]
        else:
            del out[i]
    return out


def _check_refusal(exc: SessionFormatError, line_count: int) -> None:
    assert exc.problems
    for problem in exc.problems:
        m = PROBLEM.match(problem)
        assert m is not None, problem
        if m.group(2) is not None:
            assert 1 <= int(m.group(2)) <= max(1, line_count), problem


@hang_guard(60)
@FUZZ
@given(st.sampled_from(CORPUS), st.data())
def test_a_mutated_scenario_is_refused_clearly_or_replays(path: Path, data: st.DataObject) -> None:
    lines = _mutate(_lines(path), data.draw)
    text = "\n".join(lines)
    try:
        session = parse_session(text, NAME)
    except SessionFormatError as exc:
        _check_refusal(exc, len(text.split("\n")))
        return
    for decision in replay_lines(session.lines):  # the engine takes whatever the reader passed
        assert decision.hand >= 0


@hang_guard(30)
@FUZZ
@given(st.sampled_from(CORPUS), st.binary(max_size=64), st.integers(0, 10_000))
def test_any_bytes_in_a_session_file_are_read_or_refused(
    path: Path, junk: bytes, where: int
) -> None:
    raw = path.read_bytes()
    at = where % (len(raw) + 1)
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / NAME
        file.write_bytes(raw[:at] + junk + raw[at:])
        try:
            read_session(file)
        except SessionFormatError as exc:
            assert exc.problems and all(p.startswith(str(file)) for p in exc.problems)


padding = st.sampled_from(["", "   ", "\t", "# a comment", "#", "  # indented comment"])
notes = st.text(max_size=20)  # any text: accents, other scripts, line and paragraph separators


@hang_guard(30)
@FUZZ
@given(st.sampled_from(CORPUS), st.data())
def test_comments_blank_lines_and_notes_lose_no_event(path: Path, data: st.DataObject) -> None:
    plain = parse_session(path.read_text(encoding="utf-8"), NAME)
    out: list[str] = []
    where: list[int] = []  # the new line number of each event
    for line in _lines(path):
        out.extend(data.draw(st.lists(padding, max_size=2)))
        raw = line
        obj = json.loads(raw) if raw.strip().startswith("{") else None
        if isinstance(obj, dict):
            if data.draw(st.booleans()):
                obj["note"] = data.draw(notes)
            if data.draw(st.booleans()):
                obj["_fuzz"] = data.draw(json_values)
            raw = json.dumps(obj, ensure_ascii=data.draw(st.booleans()))
            where.append(len(out) + 1)
        out.append(raw)
    padded = parse_session("\n".join(out), NAME)
    assert [ln.event for ln in padded.lines] == [ln.event for ln in plain.lines]
    assert [ln.t for ln in padded.lines] == [ln.t for ln in plain.lines]
    assert [ln.line for ln in padded.lines] == where
