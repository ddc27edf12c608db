"""Comparing runs that journaled the same inputs at different sequence numbers. Pure.

A restart adds its own rows (boot, recovery), so after a crash the same input event sits at a
later sequence number than in an uninterrupted run, and every decision names that number. To
compare the two, sequence numbers are replaced by the input's ordinal (1 = the first input
event ever journaled) in decisions (`event`, `events`, an engine fault's `input`) and in the
snapshot's incidents, open alerts and last result; everything else must be equal byte for byte.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from station.engine.snapshot import TableSnapshot
from station.journal.codes import DERIVED_CODES, INPUT_CODES
from station.journal.rows import LogRow, canonical_json


def _map(seq: object, ordinal_of: Mapping[int, int]) -> object:
    return ordinal_of.get(seq, f"seq {seq}") if isinstance(seq, int) else seq


def normalize(payload: Mapping[str, Any], ordinal_of: Mapping[int, int]) -> dict[str, Any]:
    out = dict(payload)
    for key in ("event", "input"):
        if key in out:
            out[key] = _map(out[key], ordinal_of)
    if isinstance(out.get("events"), list | tuple):
        out["events"] = [_map(e, ordinal_of) for e in out["events"]]
    return out


def snapshot_digest(snap: TableSnapshot, ordinal_of: Mapping[int, int]) -> str:
    d = dataclasses.asdict(snap)
    d["incidents"] = [normalize(i, ordinal_of) for i in d["incidents"]]
    d["alerts"] = [{**a, "incident": normalize(a["incident"], ordinal_of)} for a in d["alerts"]]
    if d["result"] is not None:
        d["result"] = normalize(d["result"], ordinal_of)
    return hashlib.sha256(canonical_json(d).encode()).hexdigest()[:16]


def derived_by_input(rows: Iterable[LogRow]) -> list[list[str]]:
    """For each input row in order, its derived rows as normalized canonical JSON."""
    ordinal_of: dict[int, int] = {}
    out: list[list[str]] = []
    for row in rows:
        if row.code in INPUT_CODES:
            ordinal_of[row.seq] = len(ordinal_of) + 1
            out.append([])
        elif row.code in DERIVED_CODES and out:
            body = normalize(row.data(), ordinal_of)
            out[-1].append(canonical_json({"code": row.code, "hand": row.hand, "payload": body}))
    return out
