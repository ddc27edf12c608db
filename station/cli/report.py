"""`station report rake`: the house's take from one or more station journals. Edge adapter (CLI,
files, the time zone database).

    station report rake [--journal PATH ...] [--from WHEN] [--to WHEN] [--tz ZONE]
                        [--shifts 06:00,14:00,22:00] [--by table,day,shift,dealer]
                        [--format text|csv|json] [--out FILE [--force]]

Per table (each journal's station id), gaming day, shift and dealer signed in: hands, hands
raked, pots raked, rake, time collected and wrong drops (`station.recall.rake_report`). WHEN is
a date (a gaming day: `--from` from its first shift, `--to` through its last) or a date and time
in the report's zone (`--to` then excludes it). The zone is `--tz`, else $TZ, else the machine's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from station.cli.common import (
    EXIT_OK,
    UsageError,
    add_output_arguments,
    guarded,
    output_guard,
    write_out,
)
from station.journal.clock import SystemClock
from station.journal.locate import locate_journal
from station.journal.store import Journal
from station.output import check_target
from station.recall.rake_report import (
    CODES,
    DIMENSIONS,
    FIGURES,
    Calendar,
    Report,
    Take,
    Window,
    parse_shifts,
    report,
    report_csv,
    takes,
)

HEADINGS = {
    "table": "table",
    "day": "day",
    "shift": "shift",
    "dealer": "dealer",
    "hands": "hands",
    "hands_raked": "raked",
    "pots_raked": "pots",
    "rake": "rake",
    "time": "time",
    "wrong_drops": "wrong drops",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="report", metavar="REPORT", required=True)
    p = sub.add_parser("rake", help="rake and time collected per table, day, shift and dealer")
    p.add_argument(
        "--journal",
        metavar="PATH",
        action="append",
        help="a station's journal; repeat for several tables (default: the journal of "
        "--config, $STATION_JOURNAL or the installed config, as the floor commands find it)",
    )
    p.add_argument("--config", metavar="FILE", help="station config whose journal to use")
    p.add_argument("--from", dest="start", metavar="WHEN", help="a gaming day or date and time")
    p.add_argument("--to", dest="end", metavar="WHEN", help="a gaming day or date and time")
    p.add_argument("--tz", metavar="ZONE", help="IANA time zone, e.g. America/Los_Angeles")
    p.add_argument(
        "--shifts", default="00:00", metavar="HH:MM,...", help="shift start times (default 00:00)"
    )
    p.add_argument(
        "--by",
        default=",".join(DIMENSIONS),
        metavar="LIST",
        help=f"group by any of {','.join(DIMENSIONS)} (default: all)",
    )
    p.add_argument(
        "--format", choices=["text", "csv", "json"], default="text", help="default: a text table"
    )
    add_output_arguments(p, "the report")


def run(args: argparse.Namespace) -> int:
    return guarded("report", args, _run)


def _run(args: argparse.Namespace) -> int:
    zone, zone_name = _zone(args.tz)
    try:
        calendar = Calendar(zone, parse_shifts(args.shifts))
    except ValueError as exc:
        raise UsageError(f"--shifts: {exc}") from None
    by = tuple(d.strip() for d in args.by.split(",") if d.strip())
    unknown = [d for d in by if d not in DIMENSIONS]
    if unknown or len(set(by)) != len(by):
        raise UsageError(f"--by: use each of {', '.join(DIMENSIONS)} at most once")
    window = Window(_when(args.start, calendar, end=False), _when(args.end, calendar, end=True))
    paths = [Path(p) for p in args.journal or [locate_journal(None, args.config).path]]
    if args.out:
        check_target(Path(args.out), output_guard(args, *paths), force=args.force)
    items: list[Take] = []
    tables = []
    for path in paths:
        with Journal.open(path, clock=SystemClock()) as journal:
            tables.append(journal.station_id)
            items += takes(journal.rows(codes=CODES), journal.station_id)
    result = report(items, calendar, window, by)
    head = {
        "report": "rake",
        "tables": tables,
        "from": args.start,
        "to": args.end,
        "tz": zone_name,
        "shifts": [s.strftime("%H:%M") for s in calendar.shifts],
        "by": list(by),
    }
    text = {"text": _text, "csv": _csv, "json": _json}[args.format](result, head)
    if args.out:
        write_out("report", args.out, text, output_guard(args, *paths), args)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _zone(name: str | None) -> tuple[tzinfo, str]:
    name = name or os.environ.get("TZ") or None
    if name:
        try:
            return ZoneInfo(name.removeprefix(":")), name
        except (ZoneInfoNotFoundError, ValueError):
            raise UsageError(f"--tz: unknown time zone {name!r}") from None
    local = Path("/etc/localtime")
    if local.exists():
        with local.open("rb") as fh:
            return ZoneInfo.from_file(fh, key="localtime"), "local time"
    return ZoneInfo("UTC"), "UTC"


def _when(text: str | None, calendar: Calendar, *, end: bool) -> datetime | None:
    if text is None:
        return None
    try:
        if "T" not in text and " " not in text:
            day = date.fromisoformat(text)
            return calendar.day_start(day + timedelta(days=1) if end else day)
        moment = datetime.fromisoformat(text)
    except ValueError:
        flag = "--to" if end else "--from"
        raise UsageError(f"{flag}: {text!r} is not a date (2026-11-25) or date and time") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=calendar.zone)


def _table(result: Report) -> list[list[str]]:
    rows = [[str(v) for v in row.values()] for row in result.as_rows()]
    total = ["total"] + [""] * (len(result.by) - 1)
    rows.append(total[: len(result.by)] + [str(getattr(result.total, f)) for f in FIGURES])
    return rows


def _text(result: Report, head: dict[str, object]) -> str:
    span = f"{head['from'] or 'the start'} to {head['to'] or 'the end'}"
    shifts = ", ".join(str(s) for s in head["shifts"])  # type: ignore[attr-defined]
    lines = [
        f"rake report: {', '.join(head['tables'])}; {span} "  # type: ignore[arg-type]
        f"({head['tz']}, shifts starting {shifts})"
    ]
    names = [HEADINGS[c] for c in (*result.by, *FIGURES)]
    body = _table(result) if result.by else _table(result)[-1:]
    widths = [max(len(n), *(len(r[i]) for r in body)) for i, n in enumerate(names)]
    numeric = [False] * len(result.by) + [True] * len(FIGURES)

    def fmt(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    lines.append(fmt(names))
    lines += [fmt(r) for r in body]
    return "\n".join(lines) + "\n"


def _csv(result: Report, head: dict[str, object]) -> str:
    return report_csv(result)


def _json(result: Report, head: dict[str, object]) -> str:
    total = {f: getattr(result.total, f) for f in FIGURES}
    return json.dumps({**head, "rows": result.as_rows(), "total": total}, indent=2) + "\n"
