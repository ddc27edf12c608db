"""The house's take from the journal: per table, gaming day, shift and dealer. Pure.

Each `decision.hand_end` row of a raked table carries its `rake` (`station.engine.rake`): the
pots' take (`total`, or the table's time when `time_pot`) and the `time` collected from seats with
the hand. A hand belongs to the dealer signed in when it ended (the journal's `auth.login` /
`auth.logout` rows, folded as the station does: `OpsTracker`), to the shift that had started at
the hand's end (shift start times in the card room's time zone; a time before the first start of
the day belongs to the previous day's last shift, so the gaming day begins with the first shift)
and to that shift's gaming day. Wrong drops (MISC-TIME-COLLECTION incidents, `station.engine.drop`)
are counted beside.

Figures per group: hands ended (void ones included), hands raked, pots raked, rake (the pots'
percentage take), time collected (from seats, and time-pots), wrong drops.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any, Final

from station.formats.cells import safe_row
from station.journal.clock import parse_utc
from station.journal.codes import Code
from station.journal.ops import OpsTracker
from station.journal.rows import LogRow

DIMENSIONS: Final = ("table", "day", "shift", "dealer")
CODES: Final = frozenset(
    {
        Code.DECISION_HAND_END,
        Code.DECISION_INCIDENT,
        Code.LOGIN,
        Code.LOGOUT,
        Code.PERSON_DISABLED,
    }
)
WRONG_DROP: Final = "WRONG DROP"
NOBODY: Final = "-"  # no dealer signed in


@dataclass(frozen=True, slots=True)
class Take:
    """One hand's end (or one wrong drop), where and when it happened."""

    table: str
    hand: int
    seq: int
    at: datetime  # UTC
    dealer: str | None
    rake: int = 0
    pots_raked: int = 0
    time: int = 0
    wrong_drop: bool = False
    ended: bool = True  # a hand's end (False: a wrong-drop incident)


def takes(rows: Iterable[LogRow], table: str) -> Iterator[Take]:
    """The hands' takes and the wrong drops of one journal's rows (in seq order)."""
    ops = OpsTracker()
    for row in rows:
        ops.apply(row)
        if row.code == Code.DECISION_HAND_END:
            yield _hand(row, table, ops.state().dealer)
        elif row.code == Code.DECISION_INCIDENT and WRONG_DROP in row.payload:
            d = row.data()
            if d.get("rule") == "MISC-TIME-COLLECTION" and str(d.get("text", "")).startswith(
                WRONG_DROP
            ):
                dealer = ops.state().dealer
                at = parse_utc(row.recorded_utc)
                yield Take(table, row.hand, row.seq, at, dealer, wrong_drop=True, ended=False)


def _hand(row: LogRow, table: str, dealer: str | None) -> Take:
    d = row.data()
    at = parse_utc(row.recorded_utc)
    rake = d.get("rake")
    if rake is None:
        return Take(table, int(d["hand"]), row.seq, at, dealer)
    cuts = [int(c) for c in rake.get("pots", ())]
    time_from_seats = sum(int(a) for a in rake.get("time", {}).values())
    if rake.get("time_pot"):
        return Take(table, int(d["hand"]), row.seq, at, dealer, time=time_from_seats + sum(cuts))
    return Take(
        table,
        int(d["hand"]),
        row.seq,
        at,
        dealer,
        rake=int(rake["total"]),
        pots_raked=sum(1 for c in cuts if c > 0),
        time=time_from_seats,
    )


# --- days and shifts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Calendar:
    """The card room's time zone and shift start times (sorted; the first starts the day)."""

    zone: tzinfo
    shifts: tuple[time, ...] = (time(0, 0),)

    def place(self, at: datetime) -> tuple[date, str]:
        """(gaming day, shift start "HH:MM") of the UTC instant `at`."""
        local = at.astimezone(self.zone)
        starts = [s for s in self.shifts if s <= local.time().replace(tzinfo=None)]
        if starts:
            return local.date(), starts[-1].strftime("%H:%M")
        return local.date() - timedelta(days=1), self.shifts[-1].strftime("%H:%M")

    def day_start(self, day: date) -> datetime:
        """The instant the gaming day `day` begins (its first shift), as an aware datetime."""
        return datetime.combine(day, self.shifts[0], tzinfo=self.zone)


def parse_shifts(text: str) -> tuple[time, ...]:
    """ "06:00,14:00,22:00" -> sorted start times; ValueError naming the bad one."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        try:
            out.append(time.fromisoformat(part))
        except ValueError:
            raise ValueError(f"{part!r} is not a time of day such as 06:00") from None
    if not out or len(set(out)) != len(out):
        raise ValueError("give each shift's start time once, e.g. 06:00,14:00,22:00")
    return tuple(sorted(out))


# --- the report -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Figures:
    hands: int = 0
    hands_raked: int = 0
    pots_raked: int = 0
    rake: int = 0
    time: int = 0
    wrong_drops: int = 0

    def add(self, take: Take) -> None:
        if take.ended:
            self.hands += 1
            self.hands_raked += take.rake > 0
            self.pots_raked += take.pots_raked
            self.rake += take.rake
            self.time += take.time
        self.wrong_drops += take.wrong_drop


FIGURES: Final = tuple(f.name for f in fields(Figures))


@dataclass(frozen=True, slots=True)
class Window:
    """`start` <= at < `end` (either may be open)."""

    start: datetime | None = None
    end: datetime | None = None

    def holds(self, at: datetime) -> bool:
        return (self.start is None or at >= self.start) and (self.end is None or at < self.end)


@dataclass
class Report:
    by: tuple[str, ...]
    rows: dict[tuple[str, ...], Figures] = field(default_factory=dict)
    total: Figures = field(default_factory=Figures)

    def as_rows(self) -> list[dict[str, Any]]:
        out = []
        for key, figures in sorted(self.rows.items()):
            row: dict[str, Any] = dict(zip(self.by, key, strict=True))
            row.update({name: getattr(figures, name) for name in FIGURES})
            out.append(row)
        return out


def report(
    items: Iterable[Take], calendar: Calendar, window: Window, by: Sequence[str] = DIMENSIONS
) -> Report:
    out = Report(tuple(by))
    for take in items:
        if not window.holds(take.at):
            continue
        day, shift = calendar.place(take.at)
        values = {
            "table": take.table,
            "day": day.isoformat(),
            "shift": shift,
            "dealer": take.dealer or NOBODY,
        }
        key = tuple(values[d] for d in out.by)
        out.rows.setdefault(key, Figures()).add(take)
        out.total.add(take)
    return out


def report_csv(result: Report) -> str:
    """The report as CSV: one row per group (the dimensions, then the figures), every text cell
    safe from spreadsheet formulas. `station report rake --format csv` and the floor console's
    rake export write exactly this."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*result.by, *FIGURES])
    for row in result.as_rows():
        writer.writerow(safe_row(row).values())
    return out.getvalue()
