"""Where the floor and technician commands find the journal. Edge adapter (environment, files).

In order, the first that names a journal wins:

1. `--journal PATH`;
2. `--config FILE`: the `[journal] path` of that station config;
3. `$STATION_JOURNAL`;
4. the installed config, `/etc/dealer-station/station.toml` (what `systemd/install.sh` writes and
   `station run` reads under systemd): its `[journal] path`.

An explicit choice (an option, then the environment) comes before the implicit installed
default, as with any Unix tool: a technician who points `$STATION_JOURNAL` at a copy on the Pi
reads that copy. When nothing names a journal, or the one named is not there or not readable,
the error says every place looked at and what was found there.

Only the config's `[journal] path` is read (relative to the config's folder, as `station run`
reads it): a config with other problems still leads the floor to its journal; `station config
check` is where those are reported.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ENV_JOURNAL: Final = "STATION_JOURNAL"
INSTALLED_CONFIG: Final = Path("/etc/dealer-station/station.toml")
FLOOR_GROUP: Final = "dealer-floor"
SERVICE_USER: Final = "dealer"


class JournalNotLocatedError(Exception):
    """No journal could be found; the message lists where we looked."""


@dataclass(frozen=True, slots=True)
class Located:
    path: Path
    source: str  # how it was found, for messages: "--journal", "--config FILE", ...


def config_journal(config: Path) -> Path:
    """The `[journal] path` of a station config, resolved as `station run` resolves it. Raise
    JournalNotLocatedError saying what is wrong with the file."""
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise JournalNotLocatedError(f"{config}: no such file") from None
    except PermissionError:
        raise JournalNotLocatedError(f"{config}: permission denied{_access_hint()}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise JournalNotLocatedError(f"{config}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise JournalNotLocatedError(f"{config}: not valid TOML ({exc})") from None
    section = data.get("journal")
    value = section.get("path") if isinstance(section, dict) else None
    if not isinstance(value, str) or not value:
        raise JournalNotLocatedError(f"{config}: journal.path: not set")
    path = Path(value).expanduser()
    return path if path.is_absolute() else config.parent / path


def locate_journal(
    journal: str | os.PathLike[str] | None = None,
    config: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    installed: Path | None = None,
    must_exist: bool = True,
) -> Located:
    """The journal the command should use (see the module docstring for the order). With
    `must_exist` (every command but `journal init`) a path that is not an existing file is an
    error naming every place looked at."""
    env = os.environ if environ is None else environ
    installed = INSTALLED_CONFIG if installed is None else installed
    looked: list[str] = []
    found: Located | None = None
    if journal:
        found = Located(Path(journal), "--journal")
    elif config:
        found = Located(config_journal(Path(config)), f"--config {config}")
    else:
        looked.append("no --journal or --config option")
        from_env = env.get(ENV_JOURNAL)
        if from_env:
            found = Located(Path(from_env), f"${ENV_JOURNAL}")
        else:
            looked.append(f"${ENV_JOURNAL} not set")
            if installed.exists() or _exists_unreadable(installed):
                found = Located(config_journal(installed), f"the installed config {installed}")
            else:
                looked.append(f"no installed config at {installed}")
    if found is None:
        raise JournalNotLocatedError(
            "no journal named: " + "; ".join(looked) + ". Give --journal PATH or --config FILE"
        )
    if must_exist:
        _check_readable(found, looked)
    return found


def _exists_unreadable(path: Path) -> bool:
    try:
        path.stat()
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _check_readable(found: Located, looked: list[str]) -> None:
    path = found.path
    before = ("; ".join(looked) + "; ") if looked else ""
    try:
        is_file = path.is_file()
    except PermissionError:
        raise JournalNotLocatedError(
            f"{before}{found.source} names {path}: permission denied{_access_hint()}"
        ) from None
    if not is_file:
        what = "is not a file" if path.exists() else "does not exist"
        raise JournalNotLocatedError(f"{before}{found.source} names {path}, which {what}")
    if not os.access(path, os.R_OK):
        raise JournalNotLocatedError(
            f"{before}{found.source} names {path}: permission denied{_access_hint()}"
        )


def _access_hint() -> str:
    return (
        f" (members of the {FLOOR_GROUP} group may read the installed journal; "
        f"to write, run the command as `sudo -u {SERVICE_USER} station ...`)"
    )
