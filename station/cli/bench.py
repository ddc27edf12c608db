"""`station bench NAME ...`: run one benchmark. Edge adapter.

Convention shared by every benchmark (`station.bench.report`): it prints exactly one JSON object
on one line to stdout: `"bench"` (its name), the figures (with the units in the key names: `_s`,
`_ms`, `_mb`, `_pct`, `per_s`), `"bar"` (figure -> bar of docs/performance.md, e.g. `"<= 20"`)
and `"ok"` (every bar met). Progress and warnings go to stderr. The exit status is 0 when the
measurement ran (whether or not a bar was met), 1 when it could not finish (the line then
carries `"error"` when there are figures to show), 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import cast

from station.cli import CommandModule, main

BENCHES: dict[str, tuple[str, str]] = {
    "link": ("station.bench.link", "card draws through the emulated shoe over a real pty"),
    "replay": ("station.bench.replay", "engine replay throughput beside PokerKit"),
    "long": ("station.bench.long", "per-input cost in one hand that never ends (a stuck key)"),
    "history": ("station.bench.history", "the history check after a start per new hand; the scrub"),
    "latency": ("station.bench.latency", "shoe frame to journal commit and display snapshot"),
    "idle": ("station.bench.idle", "idle CPU and peak RSS of the daemon with the display"),
    "startup": ("station.bench.startup", "process start to READY=1 (--make: a long journal)"),
    "soak": ("station.bench.soak", "hands through the daemon: memory, nothing lost or doubled"),
    "tamper": ("station.bench.tamper", "tampering and loss, each caught by verify and at start"),
    "fleet": ("station.bench.fleet", "stations -> mosquitto -> ingest -> PostgreSQL, with faults"),
    "console": ("station.bench.console", "the floor console on 100 tables and 1,000,000 rows"),
    "tournament": (
        "station.bench.tournament",
        "one event of 30 tables and 300 players to the final table through the centre",
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="bench", metavar="NAME", required=True)
    for name, (module_name, help_text) in BENCHES.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            module = cast(CommandModule, importlib.import_module(module_name))
        except ModuleNotFoundError as exc:
            if exc.name is not None and module_name.startswith(exc.name):
                p.set_defaults(_bench=None)
                continue
            raise
        module.add_arguments(p)
        # The benches sit below the commands: one that runs commands (tamper's hardening
        # section) is handed `station.cli.main`.
        p.set_defaults(_bench=module, main=main)


def run(args: argparse.Namespace) -> int:
    module = cast(CommandModule | None, args._bench)
    if module is None:
        print(f"station bench {args.bench}: not available in this build", file=sys.stderr)
        return 2
    return module.run(args)
