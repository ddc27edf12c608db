"""Incidents as CSV and JSON for the floor and the regulator. Pure.

One record per incident with the fields of standards-ux section 2.3: identity and time, the rule
and its citation, the triggering events, the dealer, the floor call, the ruling in force with
who made it (person and role), the camera and its time window, whether the ruling was asked for
before the next deal, the review and the close. JSON also lists every ruling (amendments).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any, Final

from station.formats.cells import safe_row
from station.incidents.records import IncidentRecord, RulingStep, Step

CSV_COLUMNS: Final = (
    "incident",
    "station_id",
    "hand",
    "state",
    "source",
    "rule",
    "citation",
    "engine_ruling",
    "text",
    "seat",
    "seats",
    "events",
    "detected_utc",
    "dealer",
    "floor_called_seq",
    "next_deal_seq",
    "ruling",
    "ruled_by",
    "ruled_role",
    "ruled_utc",
    "camera",
    "window_start_utc",
    "window_end_utc",
    "asked_before_next_deal",
    "reviewed_by",
    "reviewed_role",
    "reviewed_utc",
    "review_note",
    "closed_by",
    "closed_role",
    "closed_utc",
    "close_note",
)


def _ruling(r: RulingStep) -> dict[str, Any]:
    return {
        "seq": r.seq,
        "ruling": r.text,
        "by": r.person,
        "role": r.role,
        "utc": r.utc,
        "camera": r.camera,
        "window_start_utc": r.window_start_utc,
        "window_end_utc": r.window_end_utc,
        "asked_before_next_deal": r.asked_before_next_deal,
    }


def _step(s: Step | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {"seq": s.seq, "by": s.person, "role": s.role, "utc": s.utc, "note": s.note}


def incident_to_dict(rec: IncidentRecord, station_id: str) -> dict[str, Any]:
    return {
        "incident": rec.id,
        "station_id": station_id,
        "hand": rec.hand,
        "state": rec.state.value,
        "source": rec.source,
        "rule": rec.rule,
        "citation": rec.citation,
        "engine_ruling": rec.engine_ruling,
        "text": rec.text,
        "seat": rec.seat,
        "seats": list(rec.seats),
        "events": list(rec.events),
        "detected_utc": rec.detected_utc,
        "dealer": rec.dealer,
        "floor_called_seq": rec.floor_called_seq,
        "next_deal_seq": rec.next_deal_seq,
        "rulings": [_ruling(r) for r in rec.rulings],
        "review": _step(rec.review),
        "close": _step(rec.close),
    }


def to_json(records: Iterable[IncidentRecord], station_id: str) -> str:
    return fleet_to_json((station_id, r) for r in records)


def _flat(rec: IncidentRecord, station_id: str) -> dict[str, object]:
    r, rv, cl = rec.ruling, rec.review, rec.close
    return {
        "incident": rec.id,
        "station_id": station_id,
        "hand": rec.hand,
        "state": rec.state.value,
        "source": rec.source,
        "rule": rec.rule,
        "citation": rec.citation,
        "engine_ruling": rec.engine_ruling,
        "text": rec.text,
        "seat": "" if rec.seat is None else rec.seat,
        "seats": " ".join(map(str, rec.seats)),
        "events": " ".join(map(str, rec.events)),
        "detected_utc": rec.detected_utc,
        "dealer": rec.dealer or "",
        "floor_called_seq": rec.floor_called_seq or "",
        "next_deal_seq": rec.next_deal_seq or "",
        "ruling": r.text if r else "",
        "ruled_by": r.person if r else "",
        "ruled_role": r.role if r else "",
        "ruled_utc": r.utc if r else "",
        "camera": r.camera if r else "",
        "window_start_utc": r.window_start_utc if r else "",
        "window_end_utc": r.window_end_utc if r else "",
        "asked_before_next_deal": ("yes" if r.asked_before_next_deal else "no") if r else "",
        "reviewed_by": rv.person if rv else "",
        "reviewed_role": rv.role if rv else "",
        "reviewed_utc": rv.utc if rv else "",
        "review_note": rv.note if rv else "",
        "closed_by": cl.person if cl else "",
        "closed_role": cl.role if cl else "",
        "closed_utc": cl.utc if cl else "",
        "close_note": cl.note if cl else "",
    }


def to_csv(records: Iterable[IncidentRecord], station_id: str, *, excel: bool = False) -> str:
    """RFC 4180 CSV, UTF-8, every text cell safe from spreadsheet formulas
    (`station.formats.cells`). With `excel`, the form spreadsheet programs open as UTF-8
    without an import dialog: a byte-order mark first and CRLF line ends (Excel reads a
    BOM-less file in the system's legacy code page, which garbles the rule citations' section
    signs)."""
    return fleet_to_csv(((station_id, r) for r in records), excel=excel)


def fleet_to_csv(items: Iterable[tuple[str, IncidentRecord]], *, excel: bool = False) -> str:
    """Incidents of several stations in one CSV, `(station_id, record)` each (the floor
    console's export; `to_csv` for one station): one row per incident, `CSV_COLUMNS`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n" if excel else "\n")
    writer.writeheader()
    for station_id, rec in items:
        writer.writerow(safe_row(_flat(rec, station_id)))
    return ("\ufeff" if excel else "") + out.getvalue()


def fleet_to_json(items: Iterable[tuple[str, IncidentRecord]]) -> str:
    """Incidents of several stations in one JSON list, `(station_id, record)` each (`to_json`
    for one station)."""
    found = [incident_to_dict(rec, station_id) for station_id, rec in items]
    return json.dumps(found, indent=2, ensure_ascii=False) + "\n"
