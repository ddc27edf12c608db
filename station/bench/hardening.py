"""`station bench tamper`'s second section (issue 27): what a careless technician or a hostile
hand can do to a station besides editing its journal, each tried for real and each required to
be refused or detected with nothing lost. Edge adapter (files, processes, a small file system).

- overwrite: every command that writes a file, pointed at the journal, links to it, its
  companions and the config (`station.bench.overwrite`);
- names: a second `station run` through a hard link to a running station's journal, and on a
  symbolic link to it; a second demo in a folder another demo holds;
- full disk: a station starting on a full file system (it must come up, refuse play, and put the
  outage on record once there is room) and a disk filling in the middle of a hand. It needs a
  small file system of its own (a tmpfs, mounted as root); elsewhere it is reported not run;
- link: forged frames with good CRCs (a loss to the end of time, a draw of another boot, a draw
  far ahead, a draw in the right place) between genuine draws of the real shoe firmware: every
  genuine draw must be delivered or covered by a reported loss.

`lost` counts the cases where a protected file changed or a genuine draw vanished unreported.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from station.bench.full_disk import mid_hand
from station.bench.overwrite import Main, attempts, make_table
from station.bench.report import say
from station.journal.codes import Code

ROOT = Path(__file__).resolve().parents[2]
TINY = """station_id = "{station}"
log_level = "warning"
[table]
game = "nlhe"
seats = [1, 2, 3]
button = 3
[table.stakes]
sb = 1
bb = 2
[shoe]
enabled = false
[betzones]
enabled = false
[inputs]
backend = "mock"
[display]
driver = "none"
[journal]
path = "{journal}"
"""


@dataclass(frozen=True, slots=True)
class Case:
    section: str
    name: str
    held: bool  # refused or detected as it should be
    lost: bool  # a protected file changed, or a genuine draw vanished unreported
    detail: str = ""


def _digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        with contextlib.suppress(OSError):
            h.update(p.read_bytes())
    return h.hexdigest()


def _station(*argv: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "station.cli", *argv],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


def _config(folder: Path, station: str, journal: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "station.toml"
    path.write_text(TINY.format(station=station, journal=journal), encoding="utf-8")
    return path


def _copy_journal(src: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    dst = folder / "journal.sqlite"
    shutil.copyfile(src, dst)
    head = src.with_name(src.name + "-head")
    if head.exists():
        shutil.copyfile(head, folder / "journal.sqlite-head")
    return dst


@contextlib.contextmanager
def _running(config: Path, *, stderr: bool = False) -> Iterator[subprocess.Popen[str]]:
    """`station run` on `config`, up until the block ends (then SIGTERM); with `stderr` its
    stderr is a pipe for the caller to read (closed afterwards)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "station.cli", "run", "--config", str(config)],
        cwd=ROOT, stdout=subprocess.DEVNULL, text=True,
        stderr=subprocess.PIPE if stderr else subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_for(what: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(0.05)
    return what()


# --- names ---------------------------------------------------------------------------------------


def names(pristine: Path, folder: Path, station: str) -> list[Case]:
    out: list[Case] = []
    first = folder / "first"
    journal = _copy_journal(pristine, first)
    config = _config(first, station, journal)
    lock = journal.with_name(journal.name + "-lock")
    with _running(config) as proc:
        up = _wait_for(lambda: lock.exists() and lock.read_text().strip().isdigit(), 20)
        for how in ("hard link", "symbolic link"):
            other = folder / how.replace(" ", "-")
            other.mkdir()
            name = other / "journal.sqlite"
            if how == "hard link":
                os.link(journal, name)
            else:
                name.symlink_to(journal)
            done = _station("run", "--config", str(_config(other, station, name)), timeout=30)
            name.unlink()
            held = up and done.returncode == 2 and "Traceback" not in done.stderr
            last = done.stderr.strip().splitlines()[-1:] or [""]
            out.append(Case("names", f"second station run through a {how}", held, False, last[0]))
        alive = proc.poll() is None
    verify = _station("journal", "verify", "--journal", str(journal))
    out.append(
        Case("names", "the first station's journal afterwards", alive and verify.returncode == 0,
             verify.returncode != 0, verify.stdout.strip().splitlines()[-1:][0] if verify.stdout
             else verify.stderr.strip())
    )  # fmt: skip
    out.append(_two_demos(pristine, folder / "demo"))
    return out


def _two_demos(pristine: Path, folder: Path) -> Case:
    from station.demo.run import demo_folder  # noqa: PLC0415

    journal = _copy_journal(pristine, folder)
    before = _digest(journal)
    with demo_folder(folder):  # the first demo holds the folder
        done = _station("demo", "--headless", "--hands", "1", "--dir", str(folder), timeout=60)
    held = done.returncode == 2 and "in use by another demo" in done.stderr
    held = held and "Traceback" not in done.stderr
    return Case("names", "a second demo in the first one's folder", held,
                _digest(journal) != before, done.stderr.strip()[-120:])  # fmt: skip


# --- full disk -----------------------------------------------------------------------------------


@contextlib.contextmanager
def small_fs(folder: Path, size: str = "8m") -> Iterator[str]:
    """A tmpfs of `size` on `folder` for the block; yields "" or why there is none."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        yield "needs root to mount a small file system"
        return
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        yield f"cannot mount a tmpfs: {done.stderr.strip()}"
        return
    try:
        yield ""
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system holding `folder` to the last byte; returns the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (65536, 512, 1):
            block = b"\0" * size
            with contextlib.suppress(OSError):
                while os.write(fd, block):
                    pass
    finally:
        os.close(fd)
    return filler


def full_disk(pristine: Path, folder: Path, station: str) -> tuple[list[Case], str]:
    """(cases, "" or why they were not run)."""
    out: list[Case] = []
    fs = folder / "fs"
    with small_fs(fs) as why:
        if why:
            return [], why
        journal = _copy_journal(pristine, fs / "start")
        config = _config(folder / "cfg", station, journal)
        kept = _rows(journal)
        filler = fill(fs)
        with _running(config, stderr=True) as proc:
            lines: list[str] = []
            reader = threading.Thread(target=_collect, args=(proc, lines), daemon=True)
            reader.start()
            waiting = _wait_for(lambda: any("JOURNAL FULL" in line for line in lines), 60)
            up = waiting and proc.poll() is None
            filler.unlink()
            recorded = _wait_for(lambda: _storage_tilt(journal) is not None, 30)
        reader.join(10)
        if proc.stderr is not None:
            proc.stderr.close()
        err = "".join(lines)
        rows = _rows(journal)
        lost = rows[: len(kept)] != kept
        tilt = _storage_tilt(journal) or ""
        held = up and recorded and "Traceback" not in err and bool(tilt)
        said = "came up, waited, put the outage on record" if held else err[-200:]
        if lost:
            said = f"rows before: {len(kept)}, after: {len(rows)}; {said}"
        out.append(Case("full disk", "station run started on a full disk", held, lost, said))
        mid = fs / "mid"
        mid.mkdir()
        mid_journal = mid / "journal.sqlite"
        held, lost, said = mid_hand(_config(folder / "cfg-mid", station, mid_journal),
                                    mid_journal, lambda: fill(fs))  # fmt: skip
        out.append(Case("full disk", "the disk filling in the middle of a hand", held, lost, said))
    return out, ""


def _collect(proc: subprocess.Popen[str], lines: list[str]) -> None:
    if proc.stderr is not None:
        for line in proc.stderr:
            lines.append(line)


def _rows(journal: Path) -> list[tuple[int, str]]:
    import sqlite3  # noqa: PLC0415

    try:
        conn = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
        try:
            return [
                (int(s), str(h)) for s, h in conn.execute("SELECT seq, hash FROM log ORDER BY seq")
            ]
        finally:
            conn.close()
    except sqlite3.Error:
        return []


def _storage_tilt(journal: Path) -> str | None:
    import sqlite3  # noqa: PLC0415

    try:
        conn = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
        try:
            found = conn.execute(
                "SELECT payload FROM log WHERE code = ? AND payload LIKE '%storage_full%' "
                "AND payload LIKE '%\"refused\"%' ORDER BY seq DESC LIMIT 1",
                (Code.TILT_RAISED.value,),
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return None if found is None else str(found[0])


# --- the link ------------------------------------------------------------------------------------


def link(seed: int = 1) -> list[Case]:
    from station.bench.forged_link import FORGERIES, run_forgery  # noqa: PLC0415

    out = []
    for name in FORGERIES:
        result = run_forgery(name, seed)
        out.append(Case("link", name, result.faulted, bool(result.vanished), result.detail))
    return out


# --- the section ---------------------------------------------------------------------------------


def section(pristine: Path, folder: Path, station: str, main: Main | None) -> dict[str, object]:
    """Every case of the section, and the figures for the bench's JSON line."""
    cases: list[Case] = []
    if main is not None:
        say("tamper: every writing command against the journal's files")
        table = make_table(folder / "overwrite", pristine)
        for a in attempts(main, table):
            cases.append(Case("overwrite", f"{a.writer} -> {a.target}", a.refused, a.lost, a.said))
    say("tamper: second names for a journal, a second demo")
    cases += names(pristine, folder / "names", station)
    say("tamper: a full disk")
    disk, not_run = full_disk(pristine, folder / "disk", station)
    cases += disk
    say("tamper: forged link frames")
    cases += link()
    missed = [f"{c.section}: {c.name}: {c.detail[:100]}" for c in cases if not c.held]
    lost = sum(c.lost for c in cases)
    sections: dict[str, int] = {}
    for c in cases:
        sections[c.section] = sections.get(c.section, 0) + 1
    for c in cases:
        mark = "held" if c.held and not c.lost else "MISSED"
        say(f"  {mark:6}  {c.section}: {c.name}")
    return {
        "cases": len(cases),
        "refused_or_detected": len(cases) - len(missed),
        "lost": lost,
        "by_section": sections,
        "missed_cases": missed,
        "not_run": {"full disk": not_run} if not_run else {},
    }
