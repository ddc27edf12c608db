"""`station run --config station.toml`: the station daemon. Edge adapter (CLI, signals).

The config, the pin map and the deck registry are validated before anything opens: any problem
is printed as `FILE: KEY: reason` and the exit status is 2 (also when the journal it names
belongs to another station, or another `station run` holds it: its pid is named). SIGTERM
(systemctl stop) and SIGINT
stop the core after the item in hand; threads are stopped and the journal closed, exit 0. A
journal that cannot be written, or a core fault, exits 1 for systemd to restart the station
(which replays the journal).
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
    parser.add_argument(
        "--config",
        type=Path,
        required=True,
        metavar="FILE",
        help="the station config (TOML), e.g. /etc/dealer-station/station.toml",
    )


def run(args: argparse.Namespace) -> int:
    from hardware.inputs.exc import InputsError  # noqa: PLC0415 (the CLI parser stays light)
    from station.config.station_toml import ConfigError, load_station  # noqa: PLC0415
    from station.daemon.daemon import Daemon  # noqa: PLC0415
    from station.daemon.lock import JournalInUseError  # noqa: PLC0415
    from station.daemon.logsetup import configure  # noqa: PLC0415
    from station.journal.exc import JournalError, WrongStationError  # noqa: PLC0415

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
    except JournalInUseError as exc:  # a second daemon on one journal
        print(f"station run: {exc}", file=sys.stderr)
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
