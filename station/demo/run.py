"""One demo run: plan the hands, bring up the emulated table, run the daemon's core on it with
the emulated dealer playing, then recover the session from the journal and summarise. Edge
adapter (threads, files, stdout).

The core runs on the calling (main) thread exactly as under `station run`; the dealer plays on a
thread of its own and stops the core when the last hand is over.
"""

from __future__ import annotations

import fcntl
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Final, TextIO

from station.daemon.daemon import Daemon, Overrides
from station.daemon.sink import DisplaySink, FanOut, FrameSink
from station.demo.dealer import Dealer, DealerError, Watcher
from station.demo.export import export_session
from station.demo.livelog import HandLog, LiveLog
from station.demo.plan import DEMO_RAKE, PlannedHand, blind_deals, plan_hands
from station.demo.rig import (
    ADMIN_NAME,
    DEALER_NAME,
    FLOOR_NAME,
    STATION_ID,
    FleetLink,
    Rig,
    RigOptions,
)
from station.demo.steps import Reseat
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.journal.exc import JournalError
from station.output import Guard, OutputRefusedError, fresh_folder
from station.people.check import verify_journal
from station.people.exc import AuthError


@dataclass(frozen=True, slots=True)
class DemoOptions:
    hands: int
    folder: Path
    seed: int = 1
    headless: bool = True
    out: Path | None = None
    speed: float = 0.0
    rake: bool = True  # the house rakes (DEMO_RAKE); the board has a rake zone
    again_every: int = 0  # after the six irregularities, every K-th hand has one again
    station_id: str = STATION_ID
    fleet: FleetLink | None = None  # forward the journal to a site's centre
    panel: str = "both"  # the frames' panel sizes: "10", "7" or "both"


PANEL_CHOICES: Final = {"10": (PANEL_10_1,), "7": (PANEL_7,), "both": (PANEL_10_1, PANEL_7)}


def frame_panels(choice: str) -> tuple[PanelConfig, ...]:
    """`--panel 10|7|both`: the panel sizes the frames are written at."""
    return PANEL_CHOICES[choice]


def _first_setup(hands: list[PlannedHand]) -> Reseat:
    return next(s for s in hands[0].steps if isinstance(s, Reseat))


class FolderInUseError(Exception):
    """Another demo runs in the folder (exit 2)."""


@contextmanager
def demo_folder(folder: Path) -> Iterator[None]:
    """Hold the folder for one demo: an exclusive lock on `FOLDER/.demo-lock`, held for the
    demo's life (released by the kernel if it dies), with its pid in it. A second demo in the
    same folder would build its own journal in the first one's place."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / ".demo-lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 16, 0).decode("ascii", "replace").strip()
        os.close(fd)
        who = f"pid {holder}" if holder.isdigit() else "another process"
        raise FolderInUseError(
            f"{folder} is in use by another demo ({who}); name a new --dir"
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)


def run_demo(opts: DemoOptions, out: TextIO, watch: DisplaySink | None = None) -> int:
    """Play the demo; `watch` (the screenshot tool's) sees everything the screens are given.
    Raises FolderInUseError when another demo runs in the folder, OutputRefusedError when
    `out` may not be written."""
    with demo_folder(opts.folder):
        if any((opts.folder / n).exists() for n in ("journal.sqlite", "journal.sqlite-head")):
            raise FolderInUseError(f"{opts.folder} already holds a demo journal; name a new --dir")
        return _run_demo(opts, out, watch)


def _run_demo(opts: DemoOptions, out: TextIO, watch: DisplaySink | None) -> int:
    started = time.monotonic()
    hands = plan_hands(
        opts.hands, opts.seed, rake=DEMO_RAKE if opts.rake else None, again_every=opts.again_every
    )
    rig = Rig(
        opts.folder,
        _first_setup(hands).setup,
        RigOptions(
            display="none" if opts.headless else "auto",
            station_id=opts.station_id,
            fleet=opts.fleet,
        ),
    )
    livelog = LiveLog(out)
    mode = "headless" if opts.headless else "on screen"
    frames_note = f", PNG frames in {opts.out}" if opts.out is not None else ""
    fleet_note = "" if opts.fleet is None else f", forwarding to {opts.fleet.broker}"
    livelog.line(
        f"demo: emulated table {opts.station_id} in {opts.folder} ({mode}{frames_note}"
        f"{fleet_note}); {opts.hands} hand(s) of the PHH sample, seed {opts.seed}"
    )
    watcher = Watcher()
    frames: FrameSink | None = None
    daemon: Daemon | None = None
    errors: list[str] = []
    dealer_stopped = threading.Event()  # Ctrl-C stopped the dealer before the programme's end
    rig.start()
    try:
        if opts.out is not None:
            display = rig.loaded.config.display
            guard = Guard((rig.loaded.config.journal,), (rig.config_path,))
            frames = FrameSink(
                fresh_folder(opts.out, guard),
                display.panel,
                display.table,
                frame_panels(opts.panel),
                display.theme,
            )
        rig.enrol_people()
        livelog.line(
            f"demo credentials (this demo journal only): {ADMIN_NAME} (admin) PIN {rig.admin_pin}, "
            f"{FLOOR_NAME} (floor) PIN {rig.floor_pin}, {DEALER_NAME} (dealer) PIN "
            f"{rig.dealer_pin}; e.g. station hands show 1 --reveal "
            f"--person {FLOOR_NAME} --journal {rig.loaded.config.journal}"
        )
        extra: DisplaySink | None = frames
        if watch is not None:
            extra = watch if frames is None else FanOut(frames, watch)
        daemon = Daemon(
            rig.loaded,
            Overrides(
                factories=rig.factories,
                extra_display=extra,
                environ={},
                observers=[watcher, livelog],
            ),
        )
        daemon.open()
        dealer = Dealer(rig, daemon.inbox, watcher, livelog, speed=opts.speed)
        thread = threading.Thread(
            target=_play, args=(dealer, hands, daemon, errors), name="dealer", daemon=True
        )
        previous = signal.signal(signal.SIGINT, _on_interrupt(daemon, dealer))
        try:
            thread.start()
            daemon.run()
        finally:
            signal.signal(signal.SIGINT, previous)
            if dealer.stopping.is_set():
                dealer_stopped.set()
            dealer.stopping.set()
            thread.join(30)
    finally:
        if daemon is not None:
            daemon.close()
        if frames is not None:
            frames.stop()
        rig.stop()
    interrupted = dealer_stopped.is_set()
    return _summary(opts, rig, livelog, frames, errors, time.monotonic() - started, interrupted)


def _on_interrupt(daemon: Daemon, dealer: Dealer) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        dealer.stopping.set()
        daemon.stop("interrupted")

    return handler


def _play(dealer: Dealer, hands: list[PlannedHand], daemon: Daemon, errors: list[str]) -> None:
    try:
        dealer.wait_links()
        dealer.sign_in()
        dealer.play(hands)
    except DealerError as exc:
        if not dealer.stopping.is_set():  # Ctrl-C stops the dealer: not a failure
            errors.append(str(exc))
    except Exception as exc:  # thread boundary: report, and stop the core either way
        errors.append(f"the dealer failed: {exc!r}")
    finally:
        daemon.stop("demo finished")


def _caught(hand: HandLog) -> tuple[bool, str]:
    planned = hand.planned
    if planned.injection is None:
        found = sorted(set(hand.rules))
        return True, "dealt clean" if not found else f"raised: {', '.join(found)}"
    missing = [r for r in planned.expect_rules if r not in hand.rules]
    if missing:
        return False, f"NOT CAUGHT: {', '.join(missing)} missing"
    if blind_deals(planned):
        down = "never" if hand.link_down_s is None else f"{hand.link_down_s:.2f} s after the pull"
        return (
            hand.link_down_s is not None,
            f"link down {down}; {blind_deals(planned)} draws delivered in order after the replug",
        )
    found = sorted({f"{r} ({g})" for r, g in zip(hand.rules, hand.rulings, strict=True)})
    wanted = [f for f in found if f.split(" ")[0] in planned.expect_rules]
    others = [f for f in found if f not in wanted]
    return True, ", ".join(wanted) + (f"; also raised: {', '.join(others)}" if others else "")


def _summary(
    opts: DemoOptions,
    rig: Rig,
    livelog: LiveLog,
    frames: FrameSink | None,
    errors: list[str],
    wall_s: float,
    interrupted: bool = False,
) -> int:
    ok = not errors
    for error in errors:
        livelog.line(f"demo: FAILED: {error}")
    played = [h for h in livelog.hands if h.done]
    stop_note = " (interrupted: the hand in progress is not judged)" if interrupted else ""
    livelog.line(f"summary: {len(played)} of {opts.hands} hand(s) in {wall_s:.1f} s{stop_note}")
    for hand in played if interrupted else livelog.hands:
        caught, text = _caught(hand)
        ok = ok and caught and hand.done
        what = hand.planned.injection.value if hand.planned.injection else "no injection"
        livelog.line(f"  hand {hand.planned.number} ({what}): {text}")
    config = rig.loaded.config
    report = verify_journal(config.journal)
    ok = ok and report.ok
    verdict = "hash chain verified" if report.ok else f"VERIFY FAILED: {report.problems[0].text}"
    livelog.line(f"journal: {config.journal} ({report.rows} rows, {verdict})")
    try:
        exported = export_session(
            config.journal,
            rig.loaded.registry,
            opts.folder / "session.jsonl",
            reader=(FLOOR_NAME, rig.floor_pin),
        )
    except (OSError, JournalError, OutputRefusedError, AuthError) as exc:  # a full disk
        livelog.line(f"session: NOT WRITTEN: {getattr(exc, 'strerror', None) or exc}")
        ok = False
    else:
        ok = ok and exported.replay_matches
        replay = (
            f"replays to the same {exported.decisions} decisions"
            if exported.replay_matches
            else f"REPLAY DIFFERS: {exported.first_difference}"
        )
        livelog.line(f"session: {exported.path} ({exported.inputs} input events), {replay}")
    if frames is not None:
        livelog.line(f"frames: {frames.files} PNG file(s) in {opts.out}")
        ok = ok and frames.files > 0 and frames.faults == 0
    livelog.line("demo: ok" if ok else "demo: FAILED")
    return 0 if ok else 1
