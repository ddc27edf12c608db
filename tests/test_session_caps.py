"""`station replay` on hostile session files: sizes and depth are capped and every problem is a
`FILE:LINE: problem` with exit 2, never a traceback (a 5,000-digit integer, JSON nested a
hundred thousand deep, a huge line); bad UTF-8 is reported on the line it is on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from station.cli import main
from station.formats.session import MAX_AMOUNT, SessionFormatError, parse_session, read_session

ROOT = Path(__file__).resolve().parent.parent
SETUP = '{"type":"setup","game":"nlhe","stakes":{"sb":1,"bb":2},"seats":{"1":200,"2":200}}'


def _session(tmp_path: Path, *lines: str | bytes) -> Path:
    path = tmp_path / "s.jsonl"
    data = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in (SETUP, *lines))
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type":"zone","seat":1,"amount":' + "9" * 5000 + "}", "a number with too many digits"),
        ('{"type":"zone","seat":1,"amount":' + "9" * 40 + "}", f"at most {MAX_AMOUNT}"),
        ("[" * 20_000 + "]" * 20_000, "nested too deeply"),
        ('{"type":"zone","seat":1,"amount":3,"_x":' + "[" * 50 + "]" * 50 + "}", "nested too"),
        ('{"type":"key","key":"FOLD","seat":1,"note":"' + "x" * 70_000 + '"}', "line too long"),
        ('{"type":"setup","game":"nlhe","stakes":{"sb":1e999},"seats":{"1":5,"2":5}}', "stake"),
    ],
)
def test_hostile_lines_are_refused_by_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    path = _session(tmp_path, line)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:2: "), err[:200]
    assert message in err.splitlines()[0]
    assert "Traceback" not in err


def test_bad_utf8_is_reported_on_its_own_line(tmp_path: Path) -> None:
    bad = b'{"type":"puck","seat":\xff}'
    path = _session(tmp_path, '{"type":"puck","seat":1}', "# ok", "", bad)
    with pytest.raises(SessionFormatError) as caught:
        read_session(path)
    assert caught.value.problems == [f"{path}:5: not UTF-8 text (invalid start byte)"]


def test_a_hostile_file_through_the_real_command_exits_2_without_a_traceback(
    tmp_path: Path,
) -> None:
    path = _session(tmp_path, "[" * 200_000)
    done = subprocess.run(
        [sys.executable, "-m", "station.cli", "replay", str(path), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(f"{path}:2: ") and "Traceback" not in done.stderr


def test_ordinary_big_numbers_still_read() -> None:
    text = SETUP.replace('"1":200', f'"1":{MAX_AMOUNT}') + '\n{"type":"zone","seat":1,"amount":2}'
    assert len(parse_session(text).lines) == 2
