"""The `station` command line: a thin layer over library calls. Edge adapter.

Each command lives in its own module, which provides `add_arguments(parser)` and `run(args) ->
int`. Modules are imported when the parser is built, so they must keep their top level light
(heavy imports such as pygame go inside `run`). Exit status: 0 success, 1 a check found a
problem, 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Protocol, cast

from station import __version__

# name -> (module, one-line help). `station --help` lists the commands whose module loads; a test
# fails when one does not (a missing or misspelt module), and another when the CLI reference
# (docs/cli.md, generated from these parsers: `python -m station.cli.reference`) drifts from them.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("station.cli.run", "run the station daemon on a config file"),
    "demo": ("station.cli.demo", "run an emulated table dealing real hands"),
    "replay": ("station.cli.replay", "replay a recorded session and print the decisions"),
    "games": ("station.cli.games", "list every game the station deals, with its source"),
    "import-phh": ("station.cli.import_phh", "convert PHH hand histories into recorded sessions"),
    "config": ("station.cli.config", "check a station config and pin map without starting play"),
    "incidents": ("station.cli.incidents", "list, rule, review, close, export incidents"),
    "hands": ("station.cli.hands", "recall a finished hand step by step"),
    "journal": ("station.cli.journal", "verify or export the journal"),
    "report": ("station.cli.report", "reports from the journal: the house's rake"),
    "crashtest": ("station.cli.crashtest", "kill -9 a scripted table at random and check"),
    "diag": ("station.cli.diag", "print link, GPIO and journal diagnostics"),
    "central": ("station.cli.central", "the site's central store: ingest, certificates, broker"),
    "bench": ("station.cli.bench", "measure the quality bars (latency, link, replay, ...)"),
}


class CommandModule(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, args: argparse.Namespace) -> int: ...


def load_command(module: str) -> CommandModule | None:
    """The command's module, or None when the module itself is not there (a broken build: the
    command is left out of the parser rather than offered and failing). A module that is there
    but fails to import raises, as any other bug does."""
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None
        raise
    if not (callable(getattr(loaded, "add_arguments", None)) and callable(loaded.run)):
        return None
    return cast(CommandModule, loaded)


def missing_commands() -> list[str]:
    """The registered commands that cannot run in this build (a test keeps this empty)."""
    return [name for name, (module, _) in COMMANDS.items() if load_command(module) is None]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="station", description="Dealer Station: the software inside a live poker table."
    )
    parser.add_argument("--version", action="version", version=f"station {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        module = load_command(module_name)
        if module is None:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    _describe(parser)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """A sub-command without a description of its own shows the help line it is listed with,
    so `station X Y --help` always says what Y does."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            listed = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                if not sub.description and listed.get(name):
                    sub.description = listed[name]
                _describe(sub)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = cast(CommandModule, args._module)
    try:
        return module.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`station hands show 1 | head`): a quiet exit 0, and stdout
        # pointed at /dev/null so that the interpreter's final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 0
