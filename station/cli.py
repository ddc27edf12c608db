"""The `station` command line: a thin layer over library calls. Edge adapter.

Each command lives in its own module, which provides `add_arguments(parser)` and `run(args) ->
int`. Modules are imported when the parser is built, so they must keep their top level light
(heavy imports such as pygame go inside `run`). Exit status: 0 success, 1 a check found a
problem, 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol, cast

from station import __version__

# name -> (module, one-line help). The README's CLI reference lists the same commands; a test
# checks that every one is documented there.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("station.daemon.cli", "run the station daemon on a config file"),
    "demo": ("station.demo.cli", "run an emulated table dealing real hands"),
    "replay": ("station.commands.replay", "replay a recorded session and print the decisions"),
    "import-phh": ("station.phh.cli", "convert PHH hand histories into recorded sessions"),
    "config": ("station.config.cli", "check a station config and pin map without starting play"),
    "incidents": ("station.journal.cli_incidents", "list, rule, review, close, export incidents"),
    "hands": ("station.journal.cli_hands", "recall a finished hand step by step"),
    "journal": ("station.journal.cli_journal", "verify or export the journal"),
    "report": ("station.commands.report", "reports from the journal: the house's rake"),
    "crashtest": ("station.journal.crashtest", "kill -9 a scripted table at random and check"),
    "diag": ("station.diag.cli", "print link, GPIO and journal diagnostics"),
    "central": ("station.central.cli", "the site's central store: ingest, certificates, broker"),
    "bench": ("station.bench.cli", "measure the quality bars (latency, link, replay, ...)"),
}


class CommandModule(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, args: argparse.Namespace) -> int: ...


def _load(module: str) -> CommandModule | None:
    try:
        return cast(CommandModule, importlib.import_module(module))
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None  # the command's own module is not there (yet)
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="station", description="Dealer Station: the software inside a live poker table."
    )
    parser.add_argument("--version", action="version", version=f"station {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        module = _load(module_name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        if module is None:
            p.set_defaults(_module=None)
            continue
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = cast(CommandModule | None, args._module)
    if module is None:
        print(f"station {args.command}: not available in this build", file=sys.stderr)
        return 2
    try:
        return module.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
