"""`station run --emulate`: the station daemon, the very one `station run` starts on a table, on
the demo's emulated table, driven from the keyboard or a recorded session. Edge adapter (ptys,
threads, stdin, files).

The rig is the demo's (`station.demo.rig`): the shoe and the bet-zone board speak the wire
protocol on pseudo-terminals in the folder, the panel and sensors are gpiozero mock pins, and the
journal, config and deck registry are files in the folder. The daemon is `station.daemon`'s,
with its status socket beside the journal, so `station diag --journal DIR/journal.sqlite
--watch` watches it like a table's. A technician's line (`station.demo.console`) or a session's
line becomes what a dealer's hands do on that hardware; the console waits until the station has
journaled it and prints what it decided.

The folder holds only an emulated table: a new (or empty) one, or one an earlier run made (its
station.toml starts with the rig's marker), never a table's own journal folder. The table is the
config's when `--config` is given (its station id, game, profile, seats, stakes, stacks, rake and
display), else a six-seat no-limit hold'em table at 1-2; the journal is always the folder's.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TextIO

from station.config.model import DisplayDriver
from station.config.station_toml import ConfigError, parse_station
from station.daemon.daemon import Daemon, Overrides
from station.daemon.lock import JournalInUseError
from station.daemon.news import LinkNews, News, OpsNews, Recorded
from station.demo.console import (
    HELP,
    Cable,
    Hands,
    Quit,
    Refused,
    ShowHelp,
    parse_command,
    session_steps,
)
from station.demo.dealer import Dealer, DealerError, Watcher
from station.demo.livelog import LiveLog
from station.demo.rig import ADMIN_NAME, DEALER_NAME, FLOOR_NAME, MARKER, Rig, RigOptions
from station.demo.steps import Step
from station.engine.events import Setup, Stakes
from station.formats.decisions import dumps
from station.formats.events import event_to_dict
from station.formats.session import SessionFormatError, read_session
from station.journal.exc import JournalError
from station.journal.owner import journal_owner

DEFAULT_TABLE = Setup("nlhe", "RR11", Stakes(sb=1, bb=2), dict.fromkeys(range(1, 7), 200), button=1)
DEFAULT_ID = "EMU"
JOURNAL_NAME = "journal.sqlite"  # the rig's config names it so


@dataclass(frozen=True, slots=True)
class EmulateOptions:
    folder: Path
    config: Path | None = None  # the table to emulate; None: DEFAULT_TABLE
    session: Path | None = None  # play this recorded session through the hardware first
    headless: bool = True


class EmulateError(ValueError):
    """Bad input before anything started (exit 2): the folder, the config, the session."""


def folder_problem(folder: Path) -> str:
    """'' when `folder` may hold the emulated table: missing, empty, or made by a rig."""
    if not folder.exists():
        return ""
    if not folder.is_dir():
        return f"{folder} is not a folder"
    config = folder / "station.toml"
    if config.is_file():
        with config.open(encoding="utf-8", errors="replace") as f:
            if f.readline().rstrip("\n") == MARKER:
                return ""
        return f"{folder} holds a station.toml that is not an emulated table's: name a new --dir"
    if any(folder.iterdir()):
        return f"{folder} is not empty and holds no emulated table: name a new --dir"
    return ""


def emulated_table(opts: EmulateOptions) -> tuple[Setup, RigOptions]:
    """The table to emulate and how the rig shows it. A folder that already holds an emulated
    journal (an earlier run's, or a demo's) goes on with it, under the station id it was
    created for."""
    display = "none" if opts.headless else "auto"
    owner = journal_owner(opts.folder / JOURNAL_NAME)
    if owner is not None and owner.problem:
        raise EmulateError(f"{owner.path}: {owner.problem}")
    if opts.config is None:
        station = owner.station_id if owner is not None else DEFAULT_ID
        return DEFAULT_TABLE, RigOptions(display=display, station_id=station)
    try:
        config = parse_station(opts.config.read_bytes(), opts.config)
    except OSError as exc:
        raise EmulateError(f"{opts.config}: cannot read: {exc.strerror}") from None
    except ConfigError as exc:
        raise EmulateError("\n".join(str(p) for p in exc.problems)) from None
    if owner is not None and owner.station_id != config.station_id:
        raise EmulateError(
            f"{opts.folder} holds the emulated journal of station {owner.station_id}, and "
            f"{opts.config} is station {config.station_id}: name a new --dir"
        )
    if not opts.headless and config.display.driver is not DisplayDriver.NONE:
        display = config.display.driver.value
    return config.table.setup(), RigOptions(display=display, station_id=config.station_id)


def run_emulated(opts: EmulateOptions, stdin: TextIO, out: TextIO) -> int:
    """Bring the emulated table up, run the daemon's core on this (the main) thread until
    Ctrl-C, SIGTERM or `quit`, then put everything away. Raises EmulateError on bad input."""
    problem = folder_problem(opts.folder)
    if problem:
        raise EmulateError(problem)
    setup, rig_options = emulated_table(opts)
    steps: tuple[Step, ...] | None = None
    if opts.session is not None:
        try:
            session = read_session(opts.session)
        except SessionFormatError as exc:
            raise EmulateError("\n".join(exc.problems)) from None
        steps = session_steps([line.event for line in session.lines])
    log = LiveLog(out)
    rig = Rig(opts.folder, setup, rig_options)
    journal = rig.loaded.config.journal
    new = not journal.exists()
    rig.start()
    daemon: Daemon | None = None
    try:
        if new:
            rig.enrol_people()
            log.line(
                f"people of this emulated journal: {ADMIN_NAME} (admin) PIN {rig.admin_pin}, "
                f"{FLOOR_NAME} (floor) PIN {rig.floor_pin}, {DEALER_NAME} (dealer) PIN "
                f"{rig.dealer_pin}"
            )
        else:
            log.line(f"the journal of the last run goes on: {journal} (same people and PINs)")
        watcher = Watcher()
        daemon = Daemon(
            rig.loaded,
            Overrides(factories=rig.factories, observers=[watcher, Echo(log)]),
        )
        try:
            daemon.open()
        except (JournalInUseError, JournalError) as exc:  # another run on it, a bad journal
            raise EmulateError(str(exc)) from None
        _introduce(log, rig, opts)
        dealer = Dealer(rig, daemon.inbox, watcher, log)
        console = _console_input(stdin)
        thread = threading.Thread(
            target=_drive,
            args=(dealer, rig, daemon, log, steps, console),
            name="console",
            daemon=True,
        )
        previous = {s: signal.signal(s, _stopper(daemon, dealer)) for s in _SIGNALS}
        try:
            thread.start()
            reason = daemon.run()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
            dealer.stopping.set()
        log.line(f"station stopped ({reason}); journal {journal}")
    finally:
        if daemon is not None:
            daemon.close()
        rig.stop()
    return 0


_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stopper(daemon: Daemon, dealer: Dealer) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        del frame
        dealer.stopping.set()
        daemon.stop(signal.Signals(signum).name)

    return handler


def _introduce(log: LiveLog, rig: Rig, opts: EmulateOptions) -> None:
    config = rig.loaded.config
    source = f"the table of {opts.config}" if opts.config is not None else "the default table"
    log.line(
        f"station {config.station_id} runs on an emulated table ({source}): shoe "
        f"{config.shoe.port}, bet zones {config.betzones.device.port}, mock GPIO; pid "
        f"{os.getpid()}"
    )
    log.line(f"config {rig.config_path}; journal {config.journal}")
    log.line(f"watch it: station diag --journal {config.journal} --watch")
    log.line("stop it: Ctrl-C, `quit`, or kill " + str(os.getpid()))


def _console_input(stdin: TextIO) -> Iterable[str] | None:
    """The console's lines: stdin, unless it is a terminal this process does not own (a job
    started in the background with `&` would be stopped by reading it)."""
    try:
        fd = stdin.fileno()
    except (OSError, ValueError):
        return stdin  # a stream without a descriptor (tests)
    if os.isatty(fd):
        try:
            if os.tcgetpgrp(fd) != os.getpgrp():
                return None
        except OSError:
            return None
    return stdin


def _drive(
    dealer: Dealer,
    rig: Rig,
    daemon: Daemon,
    log: LiveLog,
    steps: tuple[Step, ...] | None,
    console: Iterable[str] | None,
) -> None:
    """The console thread: wait for the links, play the session, then read lines."""
    try:
        dealer.wait_links()
        log.line("links up: the table is ready" + ("" if console is None else " (help: commands)"))
        if steps is not None:
            played = _play(dealer, log, steps)
            log.line(f"session: {played} of {len(steps)} step(s) played")
        if console is None:
            return
        for line in console:
            if dealer.stopping.is_set():
                return
            if not _one(line, dealer, rig, daemon, log):
                return
        log.line("console closed (end of input); the station runs until Ctrl-C or SIGTERM")
    except DealerError as exc:
        log.line(f"the emulated table: {exc}")
    except Exception as exc:  # thread boundary: report; the daemon goes on
        log.line(f"the console failed: {exc!r}")


def _play(dealer: Dealer, log: LiveLog, steps: Iterable[Step]) -> int:
    done = 0
    for step in steps:
        if dealer.stopping.is_set():
            break
        try:
            dealer.step(step)
        except DealerError as exc:
            log.line(f"  not journaled: {exc}")
            break
        except Exception as exc:  # an input the emulated hardware cannot make
            log.line(f"  cannot do that here: {exc}")
            break
        done += 1
    return done


def _one(line: str, dealer: Dealer, rig: Rig, daemon: Daemon, log: LiveLog) -> bool:
    """Carry out one console line; False to stop reading."""
    match parse_command(line):
        case Quit():
            daemon.stop("quit")
            return False
        case ShowHelp():
            log.line(HELP)
        case Refused(text=text):
            log.line(f"  {text}")
        case Cable(device=device, plugged=plugged):
            target = rig.shoe if device == "shoe" else rig.zones
            if plugged:
                target.replug()
            else:
                target.unplug()
        case Hands(steps=steps):
            _play(dealer, log, steps)
    return True


class Echo:
    """Prints what the station journaled and decided, one line each (a core observer)."""

    def __init__(self, log: LiveLog) -> None:
        self.log = log

    def __call__(self, news: News) -> None:
        match news:
            case Recorded(seq=seq, event=event, actor=actor, decisions=decisions):
                line = _compact(event_to_dict(event))
                self.log.line(f"#{seq} {actor}: {line}")
                for d in decisions:
                    self.log.line(f"    {dumps(d)}")
            case LinkNews(device=device, up=up, reason=reason):
                self.log.line(f"link: {device.value} {'UP' if up else f'DOWN ({reason})'}")
            case OpsNews(blocked=blocked) if blocked:
                self.log.line(f"play blocked: {', '.join(blocked)}")
            case _:
                pass


def _compact(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))
