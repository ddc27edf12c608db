"""Every file a command writes goes through here: PHH, CSV, JSON and Excel exports, reports, the
recorded sessions of `import-phh` and the demo, screenshots and frames, certificates and the
broker's config. Edge adapter (file system).

`write_output(path, data, guard=...)`:

- refuses a path that is, or resolves to (a symlink, a hard link, `..`), a protected file: a
  journal, its `-wal`/`-shm`, head witness, locks and diagnostics socket, or a station config
  (those the caller names, the installed config, and any existing file that reads as a journal,
  a head witness, a station config, a deck registry or a pin map, whoever's it is: a station
  does not start without them). Compared by resolved path and by device and inode;
- refuses a file that is already there unless `force` (the `--force` of the command);
- writes a temporary file in the same folder, flushes it to the disk and renames it into place,
  so a crash, a full disk or a reader never sees half a file and the old file is never written
  into (a hard link to it keeps the old contents);
- creates it 0600 when it holds hidden cards (hole and burn cards: PHH, recorded sessions),
  else 0644 (0640 with `group` for a group of floor tools);
- returns what it wrote (`Written`: the path and size) for the command to say.

`fresh_folder(path, guard)` is the check for a folder a command fills with files of its own
(a kept test run, a throw-away service): it must be new or empty, and not a journal's folder.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

# A journal's companions, by suffix of the journal's file name (see station.journal.files and
# station.diag.server): SQLite's WAL and shared memory, the head witness, the daemon's lock,
# the PIN-check lock, the diagnostics socket.
JOURNAL_COMPANIONS: Final = ("-wal", "-shm", "-head", "-lock", "-auth", ".diag.sock")
INSTALLED_CONFIG: Final = Path("/etc/dealer-station/station.toml")
PUBLIC: Final = 0o644
GROUP: Final = 0o640
PRIVATE: Final = 0o600
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_WITNESS_START: Final = b'{"hand":'


class OutputRefusedError(ValueError):
    """The path may not be written (a protected file, a file already there, no such folder):
    the message says why and what to do. A command exits 2 on it."""


@dataclass(frozen=True, slots=True)
class Guard:
    """What a command must never write over: the journals and configs it knows of (each
    journal with its companions), besides the installed config and whatever reads as a
    journal."""

    journals: tuple[Path, ...] = ()
    configs: tuple[Path, ...] = ()
    extra: tuple[Path, ...] = field(default=())  # other files the command reads (a pin map)

    def protected(self) -> list[tuple[Path, str]]:
        """(path, what it is) of every protected file, named or not yet there."""
        out: list[tuple[Path, str]] = []
        for journal in self.journals:
            out.append((journal, "the journal"))
            out += [
                (journal.with_name(journal.name + s), f"the journal's {s}")
                for s in (JOURNAL_COMPANIONS)
            ]
        out += [(c, "a station config") for c in (*self.configs, INSTALLED_CONFIG)]
        out += [(p, "a file the command reads") for p in self.extra]
        return out


@dataclass(frozen=True, slots=True)
class Written:
    path: Path
    size: int
    mode: int

    def __str__(self) -> str:
        return f"wrote {self.path} ({self.size} bytes, mode {self.mode:04o})"


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _absolute(path: Path) -> Path:
    """The path with `..` and symlinks resolved as far as they exist."""
    return Path(os.path.realpath(path))


def reads_as_journal(path: Path) -> str:
    """What the existing file at `path` is, when it is a journal or a journal's companion
    ("" when it is neither). Reads at most a few bytes."""
    try:
        with path.open("rb") as fh:
            head = fh.read(len(_SQLITE_MAGIC))
    except OSError:
        head = b""
    if head == _SQLITE_MAGIC:
        return "an SQLite database (a journal?)"
    if head.startswith(_WITNESS_START):
        return "a journal's head witness"
    if path.suffix == ".toml" and (what := _station_file(path)):
        return what
    name = path.name
    for suffix in JOURNAL_COMPANIONS:
        if name.endswith(suffix) and len(name) > len(suffix):
            owner = path.with_name(name[: -len(suffix)])
            if owner.exists() and reads_as_journal(owner):
                return f"the {suffix} of the journal {owner}"
    return ""


def _station_file(path: Path) -> str:
    """What a TOML file the station reads is ("" when none): a station config (it names a
    station and its journal), a deck registry (its `[[deck]]` tables) or a pin map (its
    `[chips.…]` and `[defaults]`); a station does not start without them. Reads no further
    than 64 KiB."""
    try:
        with path.open("rb") as fh:
            text = fh.read(65536).decode("utf-8", "replace")
    except OSError:
        return ""
    if "station_id" in text and "[journal]" in text:
        return "a station config"
    if "[[deck]]" in text:
        return "a deck registry"
    if "[chips." in text and "[defaults]" in text:
        return "a pin map"
    return ""


def check_target(path: Path, guard: Guard, *, force: bool = False) -> None:
    """Raise OutputRefusedError when `path` may not be written (see the module's doc)."""
    target = _absolute(path)
    st = _stat(path)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputRefusedError(f"{path} is a folder: name a file")
    for protected, what in guard.protected():
        other = _stat(protected)
        same_inode = (
            st is not None
            and other is not None
            and (st.st_dev, st.st_ino) == (other.st_dev, other.st_ino)
        )
        if same_inode or target == _absolute(protected):
            shown = protected if target == _absolute(protected) else f"{protected} (linked)"
            raise OutputRefusedError(f"{path} is {what} ({shown}): it is never written over")
    found = reads_as_journal(path)  # also a companion not made yet (a -wal, a lock)
    if found:
        raise OutputRefusedError(f"{path} is {found}: it is never written over")
    if (st is not None or path.is_symlink()) and not force:
        raise OutputRefusedError(f"{path} is already there: use --force to replace it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputRefusedError(f"no folder {folder} to write {path.name} in")


def write_output(
    path: Path | str,
    data: bytes | str,
    guard: Guard,
    *,
    force: bool = False,
    private: bool = False,
    group: bool = False,
) -> Written:
    """Write `data` (str as UTF-8) to `path` safely (see the module's doc). Raises
    OutputRefusedError, or OSError when the file system refuses (the folder is read-only)."""
    p = Path(path)
    check_target(p, guard, force=force)
    body = data.encode("utf-8") if isinstance(data, str) else data
    mode = PRIVATE if private else (GROUP if group else PUBLIC)
    folder = p.parent if str(p.parent) else Path(".")
    tmp = folder / f".{p.name}.{os.getpid()}.writing"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        os.fchmod(fd, mode)  # exactly `mode`, whatever the umask
        view = memoryview(body)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    try:
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)
    return Written(p, len(body), mode)


def fresh_folder(path: Path, guard: Guard) -> Path:
    """A folder a command fills with files of its own: created if missing; refused when it
    holds anything already or is (the folder of) a protected file. Returns it."""
    for protected, what in guard.protected():
        if _absolute(path) in (_absolute(protected), _absolute(protected.parent)):
            raise OutputRefusedError(f"{path} holds {what}: name a new folder")
    if path.exists() and not path.is_dir():
        raise OutputRefusedError(f"{path} is a file: name a new folder")
    if path.is_dir() and any(path.iterdir()):
        raise OutputRefusedError(f"{path} is not empty: name a new folder")
    path.mkdir(parents=True, exist_ok=True)
    return path


def output_folder(path: Path, guard: Guard) -> Path:
    """A folder a command writes named files into (each through `write_output`): created if
    missing; refused when it is a file or the folder of a protected file. Returns it."""
    for protected, what in guard.protected():
        if _absolute(path) == _absolute(protected):
            raise OutputRefusedError(f"{path} is {what}: name a folder")
    if path.exists() and not path.is_dir():
        raise OutputRefusedError(f"{path} is a file: name a folder")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)
