"""`station run --config station.toml`: the station daemon. Edge adapter (CLI, signals).

`station run --emulate [--config FILE] [--dir DIR] [--session FILE]` runs the same daemon on the
demo's emulated table (`station.demo.emulate`): no hardware needed, driven from the keyboard or
a recorded session, watched with `station diag`.

The config, the pin map and the deck registry are validated before anything opens: any problem
is printed as `FILE: KEY: reason` and the exit status is 2 (also when the journal it names
belongs to another station, another `station run` holds it (its pid is named), it has a second
name (a hard link) or is a symbolic link, or this user may not write it): restarting cannot fix
those, and the unit's `RestartPreventExitStatus=2` keeps systemd from trying. A full disk is no
reason to exit: the station comes up and waits for room (`station.daemon.storage_wait`).
SIGTERM (systemctl stop) and SIGINT stop the core after the item in hand; threads are stopped
and the journal closed, exit 0. A journal that cannot be read, or a core fault, exits 1 for
systemd to restart the station (which replays the journal).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from types import FrameType

log = logging.getLogger("station.daemon")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run the station daemon on a config file (what systemd starts on the table). With "
        "--emulate: the same daemon on an emulated shoe, bet-zone board and panel, no hardware "
        "needed: type `help` for the commands that deal cards, bet chips and press keys."
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="the station config (TOML), e.g. /etc/dealer-station/station.toml (with "
        "--emulate: the table to emulate; default a 6-seat NLHE 1-2 table)",
    )
    parser.add_argument(
        "--emulate",
        action="store_true",
        help="no hardware: the shoe, the bet zones and the panel emulated on this machine",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="--emulate: the folder of the emulated table's journal, config and devices "
        "(default: a new temporary folder; an earlier run's folder goes on with its journal)",
    )
    parser.add_argument(
        "--session",
        type=Path,
        default=None,
        metavar="FILE",
        help="--emulate: play this recorded session through the emulated hardware first",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="--emulate: no screen, even when a display is available",
    )


def run(args: argparse.Namespace) -> int:
    if args.emulate:
        return _emulate(args)
    if args.config is None:
        print("station run: --config FILE is needed (or --emulate)", file=sys.stderr)
        return 2
    if args.dir is not None or args.session is not None or args.headless:
        print("station run: --dir, --session and --headless go with --emulate", file=sys.stderr)
        return 2
    from hardware.inputs.exc import InputsError  # noqa: PLC0415 (the CLI parser stays light)
    from station.config.station_toml import ConfigError, load_station  # noqa: PLC0415
    from station.daemon.daemon import Daemon  # noqa: PLC0415
    from station.daemon.lock import JournalInUseError  # noqa: PLC0415
    from station.daemon.logsetup import configure  # noqa: PLC0415
    from station.journal.exc import (  # noqa: PLC0415
        JournalAccessError,
        JournalError,
        JournalLinkedError,
        WrongStationError,
    )

    try:
        loaded = load_station(args.config)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"station run: {len(exc.problems)} problem(s); nothing was started", file=sys.stderr)
        return 2
    configure(loaded.config.log_level)
    daemon = Daemon(loaded)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        del frame
        daemon.stop(signal.Signals(signum).name)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        daemon.open()
        reason = daemon.run()
        log.info("stopped (%s)", reason)
        return 0
    except WrongStationError as exc:  # the config names another station's journal
        print(f"{args.config}: station_id: {exc}", file=sys.stderr)
        print(
            renamed_station_advice(loaded.config.journal, loaded.config.station_id), file=sys.stderr
        )
        return 2
    except (JournalInUseError, JournalLinkedError, JournalAccessError) as exc:
        print(f"station run: {exc}", file=sys.stderr)  # a second daemon, name or owner
        return 2
    except (JournalError, InputsError) as exc:
        log.critical("cannot go on: %s", exc)
        return 1
    except Exception:
        log.exception("core fault")
        return 1
    finally:
        daemon.close()
        for s, handler in previous.items():
            signal.signal(s, handler)


def _emulate(args: argparse.Namespace) -> int:
    import os  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    headless = args.headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from station.config.model import LogLevel  # noqa: PLC0415
    from station.daemon.logsetup import configure  # noqa: PLC0415
    from station.demo.emulate import EmulateError, EmulateOptions, run_emulated  # noqa: PLC0415
    from station.journal.files import user_name  # noqa: PLC0415

    folder: Path = args.dir or Path(tempfile.mkdtemp(prefix="station-emulated-"))
    configure(LogLevel.WARNING)
    try:
        return run_emulated(
            EmulateOptions(folder, args.config, args.session, headless), sys.stdin, sys.stdout
        )
    except EmulateError as exc:
        print(f"station run --emulate: {exc}", file=sys.stderr)
        return 2
    except PermissionError as exc:  # a --dir this user may not make or use
        where = exc.filename or folder
        print(
            f"station run --emulate: cannot use {where} as {user_name()}: permission denied "
            "(name a --dir of your own)",
            file=sys.stderr,
        )
        return 2


def renamed_station_advice(journal: Path, wanted: str) -> str:
    """What to do when the config's station_id is not the one the journal belongs to."""
    return (
        f"A journal is the record of one station and keeps the id it was created with. If "
        f"this table was renamed to {wanted}: either set station_id back to the id the journal "
        f"names, or keep the old journal as that station's record (move it aside with its "
        f'companion files: for f in {journal}*; do mv "$f" "$f.old"; done) and start '
        f"again: a new journal for {wanted} is created at the next start. A journal's station id "
        f"is never edited (the hash chain covers it)."
    )
