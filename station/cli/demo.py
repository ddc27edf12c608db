"""`station demo`: an emulated table dealing real hands through the daemon's own core, with
injected irregularities. Edge adapter (CLI).

Headless (with `--headless`, or when there is no DISPLAY/WAYLAND_DISPLAY) it prints a live log
and, with `--out DIR`, PNG frames of every screen; otherwise the station's screen opens in a
window. Exit status 0 when every hand was played and every injected irregularity caught.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hands", type=int, default=6, help="stop after N hands (default 6: every irregularity)"
    )
    parser.add_argument(
        "--headless", action="store_true", help="no window, even when a display is available"
    )
    parser.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="write PNG frames of every screen"
    )
    parser.add_argument(
        "--panel",
        choices=("10", "7", "both"),
        default="both",
        help='with --out: the panel sizes the frames are written at, 10.1" (1280x800), 7" '
        "(800x480) or both (default: both, each file's name tagged -10in or -7in)",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder for the journal, config and ptys (default: a new temporary folder)",
    )
    parser.add_argument("--seed", type=int, default=1, help="hand choice and deck seed (default 1)")
    parser.add_argument(
        "--no-rake",
        action="store_true",
        help="no house rake (default: 10%% up to 300, 004-GN r28 at the demo's 50-100 blinds, "
        "dropped through the board's rake zone)",
    )
    parser.add_argument(
        "--again-every",
        type=int,
        default=0,
        metavar="K",
        help="after the six irregularities, every K-th hand has one again (default: none)",
    )
    parser.add_argument(
        "--station-id", default="DEMO", help="the table's station id (default DEMO)"
    )
    parser.add_argument(
        "--fleet",
        default="",
        metavar="SITE@HOST:PORT",
        help="forward the journal to this site's broker (with --certs)",
    )
    parser.add_argument(
        "--certs",
        type=Path,
        default=None,
        metavar="DIR",
        help="the table's fleet files: DIR/ca.crt, DIR/ID.crt, DIR/ID.key",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=0.0,
        help="pace: 1 = a live dealer, 2 = twice as fast; 0 = as fast as the table allows "
        "(default)",
    )


def run(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("station demo: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.speed < 0:
        print("station demo: --speed must be 0 (fast) or more", file=sys.stderr)
        return 2
    from station.config.station_toml import STATION_ID  # noqa: PLC0415

    if not STATION_ID.match(args.station_id):
        print(f"station demo: --station-id {args.station_id!r}: letters, digits, '-', '_'",
              file=sys.stderr)  # fmt: skip
        return 2
    fleet = None
    if args.fleet:
        site, _, broker = args.fleet.partition("@")
        if not site or ":" not in broker or args.certs is None:
            print("station demo: --fleet SITE@HOST:PORT needs --certs DIR", file=sys.stderr)
            return 2
        from station.demo.rig import FleetLink  # noqa: PLC0415

        certs: Path = args.certs
        fleet = FleetLink(
            site, broker, certs / "ca.crt", certs / f"{args.station_id}.crt",
            certs / f"{args.station_id}.key",
        )  # fmt: skip
    folder: Path = args.dir or Path(tempfile.mkdtemp(prefix="station-demo-"))
    from station.output import Guard, OutputRefusedError, fresh_folder  # noqa: PLC0415

    if folder.exists() and not folder.is_dir():
        print(f"station demo: --dir {folder} is a file: name a new folder", file=sys.stderr)
        return 2
    if args.out is not None:  # before anything starts: a folder of its own for the frames
        guard = Guard((folder / "journal.sqlite",), (folder / "station.toml",))
        try:
            fresh_folder(args.out, guard)
        except OutputRefusedError as exc:
            print(f"station demo: --out: {exc}", file=sys.stderr)
            return 2
    headless = args.headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from station.config.model import LogLevel  # noqa: PLC0415
    from station.daemon.logsetup import configure  # noqa: PLC0415 (the CLI parser stays light)
    from station.demo.run import DemoOptions, FolderInUseError, run_demo  # noqa: PLC0415
    from station.output import OutputRefusedError  # noqa: PLC0415

    handler = configure(LogLevel.WARNING)
    try:
        return run_demo(
            DemoOptions(
                args.hands,
                folder,
                args.seed,
                headless,
                args.out,
                args.speed,
                rake=not args.no_rake,
                again_every=max(0, args.again_every),
                station_id=args.station_id,
                fleet=fleet,
                panel=args.panel,
            ),
            sys.stdout,
        )
    except (FolderInUseError, OutputRefusedError) as exc:
        print(f"station demo: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, a folder it may not write
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"station demo: cannot go on: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    finally:
        import logging  # noqa: PLC0415

        logging.getLogger().removeHandler(handler)
