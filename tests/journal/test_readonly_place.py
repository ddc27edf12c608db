"""A journal command in a place this user may not write says "cannot write PATH as USER", never
"Operation not permitted" with no path or "the journal file is damaged" (issue 27, item 8).
Run as root, the commands run as `nobody` (setpriv); otherwise as the user running the tests."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _as_other(argv: list[str], stdin: str = "") -> tuple[subprocess.CompletedProcess[str], str]:
    prefix: list[str] = []
    user = pwd.getpwuid(os.geteuid()).pw_name
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: no user to be refused")
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        user = "nobody"
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "station.cli", *argv],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
        env={**os.environ, "HOME": "/"},
    )  # fmt: skip
    done.stderr = done.stderr.replace("\n", " ")
    assert "Traceback" not in done.stderr
    return done, user


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A folder every user can reach (pytest's own are private to the user running it)."""
    folder = Path(tempfile.mkdtemp(prefix="station-ro-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _readonly_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o755)
    return folder


def test_journal_init_in_a_read_only_folder_names_the_path_and_the_user(open_tmp: Path) -> None:
    folder = _readonly_folder(open_tmp)
    target = folder / "journal.sqlite"
    done, user = _as_other(["journal", "init", "--journal", str(target), "--station", "T9"])
    assert done.returncode == 2
    assert f"cannot write {target} as {user}" in done.stderr
    assert not target.exists()


def test_users_add_on_a_journal_it_may_not_write_says_so(demo_table: Path, open_tmp: Path) -> None:
    folder = _readonly_folder(open_tmp)
    journal = folder / "journal.sqlite"
    shutil.copy(demo_table / "journal.sqlite", journal)
    journal.chmod(0o644)
    done, user = _as_other(
        ["journal", "users", "add", "--journal", str(journal), "--role", "dealer", "bob",
         "--pin-stdin"],
        stdin="60491735\n",
    )  # fmt: skip
    assert done.returncode == 2
    assert f"cannot write {folder} as {user}" in done.stderr
    assert "damaged" not in done.stderr


def test_a_floor_member_reads_a_stopped_station_s_journal_and_writes_nothing(
    demo_table: Path, open_tmp: Path
) -> None:
    """A floor member may read the journal and its folder, not write in them. With the station
    stopped (no -wal beside the journal) `incidents list|show` and `hands list|show` read it
    as it is; they said "cannot write the folder" (a technician's probe). A command that
    writes (a ruling) still says who may not write where, and nothing appears beside it."""
    folder = _readonly_folder(open_tmp)
    journal = folder / "journal.sqlite"
    shutil.copy(demo_table / "journal.sqlite", journal)
    journal.chmod(0o644)
    listed, _ = _as_other(["incidents", "list", "--journal", str(journal), "--state", "all",
                           "--json"])  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    first = str(json.loads(listed.stdout)[0]["incident"])
    for argv in (
        ["incidents", "show", "--journal", str(journal), first],
        ["hands", "list", "--journal", str(journal)],
        ["hands", "show", "--journal", str(journal), "1"],
    ):
        done, _ = _as_other(argv)
        assert done.returncode == 0, (argv, done.stderr)
        assert done.stdout.strip(), argv
    done, user = _as_other(
        ["incidents", "review", "--journal", str(journal), first, "--person", "flo",
         "--pin-stdin"],
        stdin="1234\n",
    )  # fmt: skip
    assert done.returncode == 2
    assert f"as {user}" in done.stderr and "damaged" not in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite"]


def test_an_emulated_table_in_a_folder_this_user_may_not_make_says_so(open_tmp: Path) -> None:
    """`station run --emulate --dir` on a folder the user may not create printed a traceback
    (PermissionError, a technician's probe): one line naming the folder and the user, exit 2."""
    target = _readonly_folder(open_tmp) / "table"
    done, user = _as_other(["run", "--emulate", "--headless", "--dir", str(target)])
    assert done.returncode == 2, done.stderr
    assert f"cannot use {target} as {user}: permission denied" in done.stderr
    assert not target.exists()
