"""The floor's money view: rake and time collected by table, gaming day, shift and dealer, and
the wrong drops, from the central store, with the CSV export. Edge adapter (PostgreSQL through
psycopg 3, the time zone database).

The figures are the station's own: `station.recall.rake_report` folds the stored rows of each
table (its hand ends, wrong-drop incidents and dealer sign-ins, in journal order) exactly as
`station report rake` folds the journals, and the CSV is the same text
(`rake_report.report_csv`). The rows are read by the partial index `rows_rake` (migration
0004): a few rows per hand.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import psycopg

from station.central.console.views import stored_row
from station.journal.rows import COLUMNS
from station.recall.rake_report import (
    CODES,
    DIMENSIONS,
    Calendar,
    Report,
    Take,
    Window,
    parse_shifts,
    report,
    takes,
)

Conn = psycopg.Connection[tuple[Any, ...]]

DEFAULT_SHIFTS: Final = "00:00"
_COLS = ", ".join(COLUMNS)
# the literal list, as in the partial index's predicate (a parameter would not use the index)
_CODES = ", ".join(f"'{c}'" for c in sorted(CODES))


class MoneyError(ValueError):
    """A filter the view cannot use (the message says which and why)."""


@dataclass(frozen=True, slots=True)
class MoneyFilter:
    """The view's filters, as the query gives them (`station report rake`'s options)."""

    table: str = ""
    start: str = ""  # a gaming day (2026-11-25) or a date and time, in the zone
    end: str = ""
    tz: str = ""  # IANA zone; empty: the console server's
    shifts: str = DEFAULT_SHIFTS
    by: tuple[str, ...] = DIMENSIONS

    @staticmethod
    def of(params: Mapping[str, str], by: list[str]) -> MoneyFilter:
        dims = tuple(d for d in DIMENSIONS if d in by) if by else DIMENSIONS
        return MoneyFilter(
            table=params.get("table", "").strip(),
            start=params.get("from", "").strip(),
            end=params.get("to", "").strip(),
            tz=params.get("tz", "").strip(),
            shifts=params.get("shifts", "").strip() or DEFAULT_SHIFTS,
            by=dims,
        )

    def query(self) -> list[tuple[str, str]]:
        """As URL query parameters (the export link keeps the filter)."""
        pairs = [("table", self.table), ("from", self.start), ("to", self.end),
                 ("tz", self.tz), ("shifts", self.shifts)]  # fmt: skip
        return [(k, v) for k, v in pairs if v] + [("by", d) for d in self.by]


@dataclass(frozen=True, slots=True)
class Money:
    filter: MoneyFilter
    result: Report
    zone_name: str
    tables: tuple[str, ...]


def zone(name: str) -> tuple[tzinfo, str]:
    """`name`, else $TZ, else the server's local time (as `station report rake`)."""
    name = name or os.environ.get("TZ", "")
    if name:
        try:
            return ZoneInfo(name.removeprefix(":")), name
        except (ZoneInfoNotFoundError, ValueError):
            raise MoneyError(f"time zone: unknown {name!r}") from None
    local = Path("/etc/localtime")
    if local.exists():
        with local.open("rb") as fh:
            return ZoneInfo.from_file(fh, key="localtime"), "local time"
    return ZoneInfo("UTC"), "UTC"


def _when(text: str, calendar: Calendar, *, end: bool) -> datetime | None:
    if not text:
        return None
    which = "to" if end else "from"
    try:
        if "T" not in text and " " not in text:
            day = date.fromisoformat(text)
            if not 1970 <= day.year <= 9998:
                raise ValueError(text)
            return calendar.day_start(day + timedelta(days=1) if end else day)
        moment = datetime.fromisoformat(text)
        if not 1970 <= moment.year <= 9998:
            raise ValueError(text)
    except (ValueError, OverflowError):
        raise MoneyError(
            f"{which}: {text[:40]!r} is not a date (2026-11-25) or date and time between 1970 "
            "and 9998"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=calendar.zone)


def station_takes(conn: Conn, station: str) -> list[Take]:
    """One table's hand ends and wrong drops from its stored rows, as the station folds them."""
    found = conn.execute(
        f"SELECT {_COLS} FROM rows WHERE station_id = %s AND code IN ({_CODES}) ORDER BY seq",
        (station,),
    ).fetchall()
    return list(takes((stored_row(r) for r in found), station))


def money(conn: Conn, f: MoneyFilter) -> Money:
    tz, zone_name = zone(f.tz)
    try:
        calendar = Calendar(tz, parse_shifts(f.shifts))
    except ValueError as exc:
        raise MoneyError(f"shifts: {exc}") from None
    window = Window(_when(f.start, calendar, end=False), _when(f.end, calendar, end=True))
    tables = [str(r[0]) for r in conn.execute("SELECT station_id FROM stations ORDER BY 1")]
    chosen = [t for t in tables if not f.table or t == f.table]
    items: list[Take] = []
    for station in chosen:
        items += station_takes(conn, station)
    return Money(f, report(items, calendar, window, f.by), zone_name, tuple(tables))
