"""Stations' rows written into the central store as the ingest stores them (the station's own
codes and payloads), for the tournament director's and the console's tests."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Store:
    """A migrated database and the stations' rows written into it."""

    conn: Any
    seqs: dict[str, int] = field(default_factory=dict)
    minute: int = 0

    def row(self, station: str, code: str, payload: dict[str, Any], hand: int = 0) -> int:
        """One stored row of `station` (its next seq), as the ingest stores it."""
        if station not in self.seqs:
            self.conn.execute(
                "INSERT INTO stations (station_id, site, head_hash) VALUES (%s, 't', %s)"
                " ON CONFLICT DO NOTHING",
                (station, "0" * 64),
            )
            self.seqs[station] = 0
        self.seqs[station] += 1
        seq = self.seqs[station]
        self.minute += 1
        utc = f"2025-06-01T10:{self.minute // 60:02d}:{self.minute % 60:02d}.000+00:00"
        self.conn.execute(
            "INSERT INTO rows (station_id, seq, boot_id, recorded_utc, recorded_at_ns, clock_ok,"
            " hand, code, actor, role, ref, payload, prev_hash, hash, recorded) VALUES"
            " (%s, %s, 'b', %s, 0, true, %s, %s, 'x', 'station', NULL, %s, %s, %s, %s)",
            (station, seq, utc, hand, code, json.dumps(payload), "0" * 64,
             secrets.token_hex(32), utc),
        )  # fmt: skip
        return seq

    def commands(
        self, station: str | None = None, kind: str = ""
    ) -> list[tuple[str, str, dict[str, Any]]]:
        rows = self.conn.execute(
            "SELECT station_id, kind, body FROM commands ORDER BY id"
        ).fetchall()
        return [
            (str(s), str(k), dict(b))
            for s, k, b in rows
            if (station is None or s == station) and (not kind or k == kind)
        ]

    def notify(self) -> None:
        """Tell the console's live thread, as the ingest does after its commit."""
        self.conn.execute("SELECT pg_notify('fleet_rows', %s)", (json.dumps(dict(self.seqs)),))
