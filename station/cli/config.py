"""`station config check`: validate the station config, its pin map and its deck registry
without starting play. Edge adapter (CLI).

Exit status: 0 and one `ok:` line per file when everything is valid; 2 and every problem as
`FILE: KEY: problem` on stderr when not (bad input, README's convention). `--json` prints one
object on stdout instead, with the same exit status. Without `--config` the installed config
(`/etc/dealer-station/station.toml`) is checked, and the first line says so; when there is none
the command says so and exits 2 (`--pinmap FILE` alone checks that pin map only). A journal that
already exists at the config's `[journal] path` must belong to the config's `station_id`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from station.config.checks import CheckInputs, CheckResult, Problem, run_checks
from station.journal import locate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="config_command", metavar="SUBCOMMAND", required=True)
    check = sub.add_parser(
        "check",
        help="validate station.toml, the pin map and the deck registry without opening hardware",
        description="Validate the station config, the pin map and the deck registry (every "
        "problem is printed as FILE: KEY: problem).",
    )
    check.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="station.toml to check, with the pin map and deck registry it names (default: "
        f"the installed {locate.INSTALLED_CONFIG})",
    )
    check.add_argument(
        "--pinmap",
        type=Path,
        default=None,
        metavar="FILE",
        help="pin map TOML to check (default: the one the config names, else the embedded "
        "revision A map)",
    )
    check.add_argument(
        "--json",
        action="store_true",
        help="one JSON object on stdout: ok, and each check's summary and problems",
    )

    over = sub.add_parser(
        "overlays",
        help="print the /boot/firmware/config.txt lines the pin map needs",
        description="Print the Raspberry Pi boot settings (config.txt lines) the pin map needs: "
        "I2C on, an mcp23017 overlay per expander, SPI and the UART off when their pins are "
        "inputs.",
    )
    over.add_argument(
        "--config", type=Path, default=None, metavar="FILE", help="the station.toml whose pin map"
    )
    over.add_argument(
        "--pinmap", type=Path, default=None, metavar="FILE", help="a pin map TOML (default: the "
        "one the config names, else the embedded revision A map)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    if args.config_command == "overlays":
        return _overlays(args)
    station: Path | None = args.config
    if station is None and args.pinmap is None:
        installed = locate.INSTALLED_CONFIG
        if not installed.exists():
            print(
                f"station config check: no config to check: no --config FILE, and no installed "
                f"config at {installed} (systemd/install.sh writes it)",
                file=sys.stderr,
            )
            return 2
        station = installed
        if not args.json:
            print(f"checking the installed config {installed}")
    results = run_checks(CheckInputs(pinmap=args.pinmap, station=station))
    if station is not None:
        results.append(journal_owner_check(station))
    problems = [p for r in results for p in r.problems]
    if args.json:
        report = {
            "ok": not problems,
            "checks": [
                {
                    "name": r.name,
                    "ok": r.ok,
                    "summary": r.summary,
                    "problems": [
                        {"file": p.file, "key": p.key, "message": p.message} for p in r.problems
                    ],
                }
                for r in results
            ],
        }
        print(json.dumps(report))
        return 2 if problems else 0
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"station config check: {len(problems)} problem(s)", file=sys.stderr)
        return 2
    for result in results:
        if result.summary:
            print(f"ok: {result.summary}")
    return 0


def journal_owner_check(station: Path) -> CheckResult:
    """The journal the config names, when it exists, belongs to the config's station_id (a
    journal keeps its station for good; `station run` would refuse it)."""
    from station.config.station_check import named_files  # noqa: PLC0415
    from station.journal.owner import wrong_owner  # noqa: PLC0415

    config = named_files(station).config
    if config is None:
        return CheckResult("journal")  # station.toml's own problems are reported by its check
    problem = wrong_owner(config.journal, config.station_id)
    if problem:
        advice = (
            "a journal keeps the station id it was created with: set station_id back, or move "
            "the journal aside as that station's record (docs/table.md, step 4)"
        )
        return CheckResult(
            "journal", (Problem(str(station), "station_id", f"{problem}; {advice}"),)
        )
    exists = config.journal.is_file()
    what = "belongs to this station" if exists else "not created yet"
    return CheckResult("journal", (), f"journal {config.journal}: {what}")


def _overlays(args: argparse.Namespace) -> int:
    from hardware.inputs.exc import PinMapError  # noqa: PLC0415 (the CLI parser stays light)
    from hardware.inputs.pinmap_load import default_pinmap, load_pinmap  # noqa: PLC0415
    from station.config.overlays import BEGIN, END, boot_config_lines  # noqa: PLC0415
    from station.config.station_check import named_files  # noqa: PLC0415

    path: Path | None = args.pinmap
    if path is None and args.config is not None:
        named = named_files(args.config)
        for problem in named.problems:
            print(problem, file=sys.stderr)
        if named.pinmap_missing is not None:
            print(named.pinmap_missing, file=sys.stderr)
        if named.problems or named.pinmap_missing is not None:
            return 2
        path = named.pinmap
    try:
        pinmap = default_pinmap() if path is None else load_pinmap(path)
    except PinMapError as exc:
        for p in exc.problems:
            print(f"{exc.source}: {p.key}: {p.message}", file=sys.stderr)
        return 2
    print("\n".join([BEGIN, *boot_config_lines(pinmap), END]))
    return 0
