"""The head witness: the journal's last known head (seq, hash, hand, wall time) kept outside the
journal file, so that a journal that is shorter or older than it was shows. Edge adapter (one
small file beside the journal, fsynced after every commit); `judge` is pure.

Why: the hash chain and the anchor live in the journal file itself. Deleting the WAL after a
crash, copying only the main file, or restoring an older copy leaves a shorter journal that is
perfectly consistent in itself. The witness is a second, independent record of how far the
journal went: every writer (the daemon and the CLI alike) advances it after each commit, and
compares it with the journal at the start of each write transaction (`Journal.transaction`)
and `station journal verify` compares it too.

Durability: the write itself (`pwrite`, flocked) happens after the commit returned, in the
committing thread, so the witness is current the moment the commit is, and survives a `kill -9`
at once (the page cache outlives the process). The `fdatasync` that makes it survive a power cut
runs on a thread of its own (`WitnessSyncer`), at most every `FLUSH_EVERY_S` and coalescing the
commits in between, so the table's commits do not queue behind a second flush of the disk: after
a power cut the witness may be up to that long behind, which reads as "behind" (fine), never as
"ahead" (a false alarm), because the journal's own commit was flushed before the witness was
written.

The file (`<journal>-head`, the journal's mode) holds two slots of `SLOT` bytes, each one line:
canonical JSON `{"hand","hash","n","seq","station_id","utc"}`, a space and the first 32 hex digits
of the SHA-256 of that JSON, padded with spaces. A write goes to the slot the newest does not
occupy (`n` counts writes), so a write torn by a power cut leaves the other slot readable.
Writes take `flock(LOCK_EX)` on the file and never move the witness backwards unless forced
(a writer that has just put a rollback on record moves it to the new head).

Other heads: anything that knows a head of this journal can be compared the same way through
`HeadSource` (`last_known()`), e.g. the fleet's central store (the last head it acknowledged):
`Journal.check_head(head)` journals a critical tilt when the journal does not contain it, and
`verify_file(path, heads=[...])` reports it. A rewrite of both the journal and this file by
someone holding the station's files is beyond any local check; an off-station head is what
shows it.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from station.journal.files import HEAD, companion, fsync_dir, open_private

log = logging.getLogger(__name__)

SLOT: Final = 512
FLUSH_EVERY_S: Final = 0.1  # the witness's fdatasync, at most this often
_SUM_HEX: Final = 32
_KEYS: Final = frozenset({"hand", "hash", "n", "seq", "station_id", "utc"})


class WitnessError(OSError):
    """The witness file exists but neither slot can be read (damaged or not a witness)."""


@dataclass(frozen=True, slots=True)
class Head:
    """A head of the journal as someone outside it knows it."""

    seq: int
    hash: str
    hand: int = 0
    utc: str = ""  # wall time when it was recorded ("" unknown)
    station_id: str = ""
    n: int = 0  # the witness file's write counter
    source: str = ""  # who knew it, for messages: "head witness /path", "central store"


class HeadSource(Protocol):
    """Something that knows a head of this journal (the witness file; later the fleet)."""

    @property
    def name(self) -> str: ...

    def last_known(self) -> Head | None:
        """The last head it knows; None when it knows none. May raise OSError."""
        ...


@dataclass(frozen=True, slots=True)
class Finding:
    """The journal does not contain a head someone else knows."""

    seq: int  # the first sequence number in question
    detail: str
    lost_from: int | None = None  # rows known to be missing: lost_from..lost_to
    lost_to: int | None = None

    @property
    def lost_rows(self) -> int:
        if self.lost_from is None or self.lost_to is None:
            return 0
        return self.lost_to - self.lost_from + 1


def witness_path(journal: Path) -> Path:
    return companion(journal, HEAD)


def judge(
    head_seq: int,
    head_hash: str,
    hash_at: Callable[[int], str | None],
    known: Head,
    head_hand: int | None = None,
) -> Finding | None:
    """Does the journal (head `head_seq`/`head_hash` in hand `head_hand`; `hash_at(seq)` the
    hash of a row, None when absent) contain `known`? Pure. A journal ahead of `known` is fine
    when `known`'s row is in it with the same hash (the witness of the last commit was not
    written yet)."""
    where = known.source or "the head witness"
    when = f" at {known.utc}" if known.utc else ""
    if known.seq > head_seq:
        lost = known.seq - head_seq
        hands = f"hand {known.hand}"
        if head_hand is not None and head_hand != known.hand:
            hands = f"hands {head_hand}-{known.hand}"
        return Finding(
            head_seq + 1,
            f"journal shorter than it was: it ends at seq {head_seq} but {where} recorded head "
            f"seq {known.seq}{when}: {lost} row(s) lost, seq {head_seq + 1}-{known.seq} "
            f"({hands}; WAL deleted, truncated or an older copy restored)",
            head_seq + 1,
            known.seq,
        )
    found = head_hash if known.seq == head_seq else hash_at(known.seq)
    if found != known.hash:
        return Finding(
            known.seq,
            f"journal rewritten: seq {known.seq} is not the row {where} recorded{when} "
            f"(hash {known.hash[:16]}, found {(found or 'none')[:16]}): the chain was "
            "recomputed or another copy put in its place",
        )
    return None


def _encode(head: Head) -> bytes:
    body = json.dumps(
        {
            "hand": head.hand,
            "hash": head.hash,
            "n": head.n,
            "seq": head.seq,
            "station_id": head.station_id,
            "utc": head.utc,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    line = f"{body} {hashlib.sha256(body.encode()).hexdigest()[:_SUM_HEX]}"
    if len(line) >= SLOT:
        raise ValueError("station id too long for the head witness")
    return (line.ljust(SLOT - 1) + "\n").encode("ascii")


def _decode(raw: bytes, source: str) -> Head | None:
    try:
        line = raw.decode("ascii").rstrip()
        body, _, digest = line.rpartition(" ")
        if hashlib.sha256(body.encode()).hexdigest()[:_SUM_HEX] != digest:
            return None
        d = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(d, dict) or set(d) != _KEYS:
        return None
    ints = (d["hand"], d["n"], d["seq"])
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in ints):
        return None
    if not all(isinstance(d[k], str) for k in ("hash", "station_id", "utc")):
        return None
    return Head(d["seq"], d["hash"], d["hand"], d["utc"], d["station_id"], d["n"], source)


class FileWitness:
    """The witness file beside a journal. Every call opens the file afresh (a replaced or deleted
    file is seen at once); writes are flocked and fdatasynced."""

    def __init__(self, path: Path, *, mode: int = 0o600, sync: bool = True) -> None:
        self.path = path
        self.mode = mode
        self.sync = sync

    @property
    def name(self) -> str:
        return f"the head witness {self.path}"

    def last_known(self) -> Head | None:
        return self.read()

    def read(self) -> Head | None:
        """The newest readable slot; None when there is no file (or it was never written).
        Raises WitnessError when it is there but unreadable, OSError when it cannot be read."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        try:
            return self._newest(fd)
        finally:
            os.close(fd)

    def _newest(self, fd: int) -> Head | None:
        raw = os.pread(fd, 2 * SLOT, 0)
        if not raw.strip(b"\0 \n"):
            return None
        heads = [_decode(raw[i * SLOT : (i + 1) * SLOT], self.name) for i in (0, 1)]
        valid = [h for h in heads if h is not None]
        if not valid:
            raise WitnessError(errno.EIO, "neither slot of the head witness is readable")
        return max(valid, key=lambda h: h.n)

    def write(self, head: Head, *, force: bool = False) -> bool:
        """Record `head` unless the witness already holds a later head (or the same head with
        the same wall time); `force` records it whatever it holds. True when written."""
        created = not self.path.exists()
        fd = open_private(self.path, self.mode)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                current = self._newest(fd)
            except WitnessError:
                current = None
            if not force and current is not None:
                if current.seq > head.seq:
                    return False
                if current.seq == head.seq and (
                    current.hash != head.hash or current.utc >= head.utc
                ):
                    return False
            n = current.n + 1 if current is not None else 1
            data = _encode(Head(head.seq, head.hash, head.hand, head.utc, head.station_id, n))
            os.pwrite(fd, data, (n % 2) * SLOT)
            if self.sync:
                os.fdatasync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(self.path.parent)  # the new name itself must survive a power cut
        return True


class WitnessSyncer:
    """Flushes a witness file to the disk on a thread of its own: `poke()` after each write, and
    the thread `fdatasync`s once for however many writes came meanwhile, at most every
    `every_s` (a lone commit is flushed at once). `close()` flushes what is left, then stops."""

    def __init__(self, path: Path, every_s: float = FLUSH_EVERY_S) -> None:
        self.path = path
        self.every_s = every_s
        self.syncs = 0
        self.fault = ""
        self._wanted = threading.Event()
        self._stop = False
        self._halt = threading.Event()  # ends a rest between flushes at once (close)
        self._thread = threading.Thread(target=self._run, name="witness-sync", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        self._wanted.set()

    def close(self) -> None:
        self._stop = True
        self._halt.set()
        self._wanted.set()
        self._thread.join(10.0)

    def _run(self) -> None:
        last = -self.every_s
        while True:
            self._wanted.wait()
            rest = last + self.every_s - time.monotonic()
            if rest > 0 and not self._stop:
                self._wanted.clear()
                self._halt.wait(rest)  # commits meanwhile ride on this flush
            self._wanted.clear()
            self._flush()
            last = time.monotonic()
            if self._stop:
                return

    def _flush(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return
        except OSError as exc:
            self._failed(exc)
            return
        try:
            os.fdatasync(fd)
            self.syncs += 1
            self.fault = ""
        except OSError as exc:
            self._failed(exc)
        finally:
            os.close(fd)

    def _failed(self, exc: OSError) -> None:
        if not self.fault:
            log.error("cannot flush the head witness %s: %s", self.path, exc.strerror or exc)
        self.fault = str(exc.strerror or exc)
