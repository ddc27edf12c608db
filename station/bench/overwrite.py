"""Every command that writes a file, pointed at a journal's files: each must refuse, and the
journal, its witness and the config must come out unchanged. Edge adapter (files, the `station`
commands run in this process).

`WRITERS` names every option of every command that writes a file or fills a folder (the test
suite walks the parsers and fails on one that is not here, so a new writer cannot skip
`station.output`). Each is run with its target set to the journal, a symbolic link and a hard
link to it, the journal reached through `..`, its `-wal`, `-head` and `-lock`, and the station
config (a file writer), or the journal, a link to it and the config (a folder writer); a folder
writer that names its files is also given a folder holding a link to the journal under the
name it would write. Used by `station bench tamper` (its `hardening` section) and the tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from station.data import phh_sample

# A command that writes, how to run it with TARGET in place, and whether TARGET is a file or a
# folder; `planted`: the name of a file it writes into a folder target (a link to the journal
# is planted under that name).
Argv = Callable[["Table", str], list[str]]


@dataclass(frozen=True, slots=True)
class Writer:
    command: tuple[str, ...]
    option: str
    folder: bool
    argv: Argv
    planted: str = ""
    fresh: bool = False  # a folder of its own (new or empty): the journal's folder is refused


@dataclass(frozen=True, slots=True)
class Table:
    """A station's files in `root`: the journal (with witness), its config, a PHH file."""

    root: Path
    journal: Path
    config: Path
    phh: Path

    def protected(self) -> list[Path]:
        return [self.journal, self.journal.with_name(self.journal.name + "-head"), self.config]


def _j(t: Table) -> list[str]:
    return ["--journal", str(t.journal)]


DEMO = ["demo", "--headless", "--hands", "1"]

# fmt: off
WRITERS: tuple[Writer, ...] = (
    Writer(("incidents", "export"), "--out", False,
           lambda t, x: ["incidents", "export", *_j(t), "--format", "json", "--out", x]),
    Writer(("journal", "export"), "--out", False,
           lambda t, x: ["journal", "export", *_j(t), "--phh", "--person", "flo", "--pin-stdin",
                         "--out", x]),
    Writer(("report", "rake"), "--out", False,
           lambda t, x: ["report", "rake", *_j(t), "--out", x]),
    Writer(("import-phh",), "--out", True,
           lambda t, x: ["import-phh", str(t.phh), "--out", x], planted="hand.jsonl"),
    Writer(("demo",), "--out", True,
           lambda t, x: [*DEMO, "--dir", str(t.root / "new-demo"), "--out", x], fresh=True),
    Writer(("demo",), "--dir", True, lambda t, x: [*DEMO, "--dir", x], fresh=True),
    Writer(("crashtest",), "--keep", True,
           lambda t, x: ["crashtest", "--rounds", "1", "--keep", x], fresh=True),
    Writer(("bench", "soak"), "--keep", True,
           lambda t, x: ["bench", "soak", "--hands", "2", "--keep", x], fresh=True),
    Writer(("bench", "fleet"), "--keep", True,
           lambda t, x: ["bench", "fleet", "--stations", "1", "--seconds", "1", "--keep", x],
           fresh=True),
    Writer(("bench", "console"), "--keep", True,
           lambda t, x: ["bench", "console", "--tables", "1", "--live", "0", "--keep", x],
           fresh=True),
    Writer(("bench", "startup"), "--out", False,
           lambda t, x: ["bench", "startup", "--make", "1", "--out", x]),
    Writer(("bench", "tournament"), "--keep", True,
           lambda t, x: ["bench", "tournament", "--tables", "2", "--seats", "2", "--players", "4",
                         "--keep", x],
           fresh=True),
    Writer(("central", "certs"), "--dir", True,
           lambda t, x: ["central", "certs", "--dir", x, "--site", "s", "T1"], planted="T1.key"),
    Writer(("central", "broker-config"), "--out", True,
           lambda t, x: ["central", "broker-config", "--site", "s", "--certs", str(t.root),
                         "--out", x], planted="dealer-station.conf"),
    Writer(("central", "services"), "--dir", True,
           lambda t, x: ["central", "services", "--dir", x]),
    Writer(("central", "demo"), "--dir", True,
           lambda t, x: ["central", "demo", "--tables", "1", "--dir", x], fresh=True),
    Writer(("central", "setup"), "--root", True,
           lambda t, x: ["central", "setup", "--site", "s", "--host", "127.0.0.1", "--root", x,
                         "--no-start"]),
)
# fmt: on

# Options that name a file or folder the command only reads (the parser walk of the tests
# checks that every path option is in WRITERS or here).
READERS: frozenset[tuple[tuple[str, ...], str]] = frozenset(
    {
        (("run",), "--config"),
        (("run",), "--session"),  # a recorded session, read
        (("run",), "--dir"),  # --emulate's own table (refuses another's)
        (("config", "check"), "--config"), (("config", "check"), "--pinmap"),
        (("config", "overlays"), "--config"), (("config", "overlays"), "--pinmap"),
        (("journal", "verify"), "--witness"),
        (("bench", "startup"), "--journal"),  # copied into a temporary folder first
        (("central", "broker-config"), "--certs"),
        (("central", "broker-config"), "--data"),  # named in the broker's config, not written
        (("demo",), "--certs"),  # the table's fleet certificates, read
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Attempt:
    writer: str
    target: str
    refused: bool  # exit status 2 with a message, no traceback
    lost: bool  # a protected file changed
    said: str


def make_table(root: Path, journal: Path) -> Table:
    """The station's files to aim at: a copy of `journal` and its witness, a config naming it,
    and one PHH hand to import."""
    root.mkdir(parents=True, exist_ok=True)
    target = root / "journal.sqlite"
    shutil.copyfile(journal, target)
    head = journal.with_name(journal.name + "-head")
    if head.exists():
        shutil.copyfile(head, root / "journal.sqlite-head")
    config = root / "station.toml"
    config.write_text(
        'station_id = "tamper-table"\n[journal]\npath = "journal.sqlite"\n', encoding="utf-8"
    )
    name, text = next(iter(phh_sample("pluribus")))
    phh = root / "hand.phh"
    phh.write_text(text, encoding="utf-8")
    del name
    return Table(root, target, config, phh)


def _digests(table: Table) -> dict[str, str]:
    out = {}
    for path in table.protected():
        try:
            out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            out[path.name] = "missing"
    return out


@contextlib.contextmanager
def _targets(table: Table, writer: Writer) -> Iterator[list[tuple[str, str]]]:
    """(label, path) of each target for `writer`; links made for the cases are removed after."""
    j = table.journal
    made: list[Path] = []

    def link(name: str, hard: bool) -> str:
        path = table.root / name
        path.unlink(missing_ok=True)
        if hard:
            os.link(j, path)
        else:
            path.symlink_to(j)
        made.append(path)
        return str(path)

    try:
        targets = [
            ("the journal", str(j)),
            ("a symbolic link to the journal", link("sym-link.out", hard=False)),
            ("the station config", str(table.config)),
        ]
        if not writer.folder:
            (table.root / "sub").mkdir(exist_ok=True)
            targets += [
                ("a hard link to the journal", link("hard-link.out", hard=True)),
                ("the journal through ..", str(table.root / "sub" / ".." / j.name)),
                ("the journal's -wal", f"{j}-wal"),
                ("the journal's head witness", f"{j}-head"),
                ("the journal's lock", f"{j}-lock"),
            ]
        if writer.fresh:
            targets.append(("the journal's folder", str(table.root)))
        if writer.folder and writer.planted:
            folder = table.root / f"planted-{writer.planted}"
            folder.mkdir(exist_ok=True)
            planted = folder / writer.planted
            planted.unlink(missing_ok=True)
            planted.symlink_to(j)
            made.append(planted)
            targets.append((f"a folder with {writer.planted} linked to the journal", str(folder)))
        yield targets
    finally:
        for path in made:
            path.unlink(missing_ok=True)


Main = Callable[[list[str]], int]


def _run(main: Main, argv: list[str]) -> tuple[int, str]:
    """Run one command in this process (`main` is `station.cli.main`, handed in by the caller:
    the benches sit below the commands), its stderr captured."""
    err, out = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("482915\n")  # a PIN, should one be asked (it must not be)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse
                code = int(exc.code or 0)
            except Exception as exc:  # a traceback for the user: counts as not refused
                return 1, f"Traceback: {exc!r}"
    finally:
        sys.stdin = stdin
    return code, err.getvalue().strip()


def attempts(main: Main, table: Table, writers: tuple[Writer, ...] = WRITERS) -> list[Attempt]:
    """Every writer at every target; each must be refused and nothing protected change."""
    out: list[Attempt] = []
    for writer in writers:
        name = f"{' '.join(writer.command)} {writer.option}"
        with _targets(table, writer) as targets:
            for label, target in targets:
                before = _digests(table)
                code, said = _run(main, writer.argv(table, target))
                lost = _digests(table) != before
                refused = code == 2 and bool(said) and "Traceback" not in said
                out.append(
                    Attempt(name, label, refused, lost, said.splitlines()[-1:][0] if said else "")
                )
    return out
