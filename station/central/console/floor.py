"""The floor map: one tile per table, problems first, each state in words. Edge adapter
(PostgreSQL through psycopg 3); the tile model and its judgement are pure.

A tile tells one state of the table's link to the centre, never two: `ONLINE` (heard within
`offline_after_s`), `OFFLINE` (the station said so: a clean stop or its Last Will), `SILENT`
(nothing heard for longer than the threshold: shown as OFFLINE, with how long) or `UNKNOWN`
(the centre itself hears nothing now: the broker or the ingest is down, so whatever a station
said before is not current). A device link the station lost (the shoe, the bet zones) is
another thing, named by its device: `SHOE LINK DOWN`.

Forwarding is the station's own account (its retained status, every 10 s): the rows it held
that the centre has not stored yet (`behind`) and how old the oldest is; only while the
station is heard, otherwise the last figures are shown as such.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

import psycopg

from station.central.console.health import Centre
from station.central.console.records import ops_from_json
from station.central.console.views import age_text, parse_time
from station.journal.codes import TiltCode

Conn = psycopg.Connection[tuple[Any, ...]]

OFFLINE_AFTER_S: Final = 30.0  # a station sends its status every 10 s


class Link(StrEnum):
    ONLINE = "online"
    OFFLINE = "offline"  # the station said so (clean stop, Last Will)
    SILENT = "silent"  # not heard for longer than the threshold
    UNKNOWN = "unknown"  # the centre hears nothing now


def judge_link(
    online: bool | None, heard_age_s: float | None, hearing: bool, offline_after_s: float
) -> Link:
    """The table's link to the centre, one word. Pure."""
    if not hearing:
        return Link.UNKNOWN
    if online is False:
        return Link.OFFLINE
    if heard_age_s is None or heard_age_s > offline_after_s:
        return Link.SILENT
    return Link.ONLINE


@dataclass(frozen=True, slots=True)
class Tile:
    station: str
    game: str
    profile: str
    stakes: str
    hand: int  # the station's latest hand (stations.hand: never a ruled hand's)
    players: int
    dealer: str | None
    link: Link
    heard_age_s: float | None  # the last status, row or hello of the station
    last_row_age_s: float | None
    outbox_rows: int  # the station's unacknowledged rows at its last status
    behind: int  # of those, the rows the centre has not stored yet
    oldest_age_s: float | None  # how long the oldest of them has waited
    status_age_s: float | None
    floor_call_seq: int | None
    floor_call_reason: str
    floor_call_age_s: float | None
    links_down: tuple[str, ...]  # devices whose link the station lost
    stopped: tuple[str, ...]  # critical tilts: play blocked at the table
    open_incidents: int
    worst: int  # highest severity of its open incidents (0: none)
    alarms: int
    pending: int  # console commands not yet carried out by the station
    deaf_because: str = ""  # why the centre hears nothing (link UNKNOWN)

    @property
    def offline(self) -> bool:
        return self.link in (Link.OFFLINE, Link.SILENT)

    @property
    def link_word(self) -> str:
        """The centre link as a state word ('' when online)."""
        match self.link:
            case Link.ONLINE:
                return ""
            case Link.OFFLINE | Link.SILENT:
                return "OFFLINE"
            case Link.UNKNOWN:
                return "NOT HEARD"

    @property
    def device_words(self) -> list[str]:
        return [f"{d.upper()} LINK DOWN" for d in self.links_down]

    @property
    def state_words(self) -> list[str]:
        """The tile's state in words (never by colour alone), most urgent first; at most one
        word for the link to the centre."""
        words = []
        if self.floor_call_seq is not None:
            words.append("CALL FLOOR")
        if self.stopped:
            words.append("PLAY STOPPED")
        if self.alarms:
            words.append("CHAIN ALARM")
        if self.link_word:
            words.append(self.link_word)
        words += self.device_words
        return words or ["OK"]

    @property
    def css(self) -> str:
        if self.floor_call_seq is not None:
            return "call"
        if self.stopped or self.alarms:
            return "stopped"
        if self.offline or self.links_down:
            return "warn"
        if self.link is Link.UNKNOWN:
            return "unknown"
        return "ok"

    @property
    def rank(self) -> int:
        """Problems first: the floor's attention, in order."""
        if self.floor_call_seq is not None:
            return 0
        if self.stopped:
            return 1
        if self.alarms:
            return 2
        if self.offline:
            return 3
        if self.links_down:
            return 4
        if self.worst >= 3:
            return 5
        if self.open_incidents or self.pending:
            return 6
        return 7

    @property
    def centre_text(self) -> str:
        """The table's link to the centre in words."""
        heard = _ago(self.heard_age_s)
        match self.link:
            case Link.ONLINE:
                return f"online · heard {heard}"
            case Link.OFFLINE:
                return f"OFFLINE since {_ago(self.status_age_s)} (the station said so)"
            case Link.SILENT:
                return f"OFFLINE: nothing heard for {age_text(self.heard_age_s)}"
            case Link.UNKNOWN:
                return f"not heard now: {self.deaf_because}; last heard {heard}"

    @property
    def forwarding_text(self) -> str:
        """The station's outbox as the station last told it."""
        figures = (
            f"{self.behind} row{'s' if self.behind != 1 else ''} not stored yet"
            + (f", oldest waiting {age_text(self.oldest_age_s)}" if self.oldest_age_s else "")
            if self.behind
            else "nothing waiting"
        )
        if self.link is Link.ONLINE:
            return figures if self.behind else "up to date"
        return f"unknown now (at its last status, {_ago(self.status_age_s)}: {figures})"

    @property
    def pending_text(self) -> str:
        if not self.pending:
            return ""
        n = f"{self.pending} command{'s' if self.pending != 1 else ''} pending"
        match self.link:
            case Link.ONLINE:
                return f"{n}, sent, waiting for the table's answer"
            case Link.UNKNOWN:
                return f"{n}: cannot send now, {self.deaf_because}"
            case _:
                return f"{n}: cannot send now, {self.station} is offline"


def _ago(seconds: float | None) -> str:
    return "never" if seconds is None else f"{age_text(seconds)} ago"


def _age_s(at: datetime | None, now: datetime) -> float | None:
    return None if at is None else max(0.0, (now - at).total_seconds())


def _stakes(setup: Mapping[str, Any]) -> str:
    stakes = setup.get("stakes") or {}
    if not isinstance(stakes, Mapping):
        return ""
    order = ("sb", "bb", "small_bet", "big_bet", "ante", "bring_in", "straddle")
    parts = [str(stakes[k]) for k in order if k in stakes and k in ("sb", "bb")]
    text = "/".join(parts)
    extra = [f"{k} {stakes[k]}" for k in order if k in stakes and k not in ("sb", "bb")]
    return " ".join([text, *extra]).strip()


_TILES = (
    "SELECT s.station_id, s.setup, s.hand, s.online, s.status, s.status_at, s.last_row_at,"
    " s.head_seq, greatest(s.status_at, s.last_row_at, s.hello_at), f.ops,"
    " coalesce(i.open, 0), coalesce(i.worst, 0), coalesce(a.n, 0), coalesce(c.n, 0), now()"
    " FROM stations s LEFT JOIN console_fold f USING (station_id)"
    " LEFT JOIN (SELECT station_id, count(*) AS open, max(severity) AS worst"
    "   FROM console_incidents WHERE state <> 'closed' GROUP BY station_id) i"
    "   USING (station_id)"
    " LEFT JOIN (SELECT station_id, count(*) AS n FROM alarms WHERE cleared_at IS NULL"
    "   GROUP BY station_id) a USING (station_id)"
    " LEFT JOIN (SELECT station_id, count(*) AS n FROM commands WHERE state = 'pending'"
    "   GROUP BY station_id) c USING (station_id)"
)


def floor_map(
    conn: Conn, centre: Centre, offline_after_s: float = OFFLINE_AFTER_S, station: str = ""
) -> list[Tile]:
    """Every table's tile (or only `station`'s), problems first, then by table."""
    where = " WHERE s.station_id = %s" if station else ""
    rows = conn.execute(_TILES + where, (station,) if station else ()).fetchall()
    tiles = [_tile(row, centre, offline_after_s) for row in rows]
    return sorted(tiles, key=lambda t: (t.rank, t.station))


def _tile(row: tuple[Any, ...], centre: Centre, offline_after_s: float) -> Tile:
    (
        station, setup_json, hand, online, status_json, status_at, last_row_at, head_seq,
        heard_at, ops_json, open_incidents, worst, alarms, pending, now,
    ) = row  # fmt: skip
    setup = dict(setup_json or {})
    status = dict(status_json or {})
    ops = ops_from_json(dict(ops_json or {}))
    call = ops.floor_call
    dealer = next((s.person for s in ops.sessions.values() if s.role == "dealer"), None)
    seats = setup.get("seats") or {}
    # Rows the station held at its last status that the centre has not stored yet (the status
    # comes every 10 s: rows stored since then are not waiting any more).
    behind = max(0, int(status.get("head_seq") or 0) - int(head_seq))
    oldest = parse_time(status.get("oldest_unacked_utc")) if behind else None
    heard_age_s = _age_s(heard_at, now)
    return Tile(
        station=str(station),
        game=str(setup.get("game", "")),
        profile=str(setup.get("profile", "")),
        stakes=_stakes(setup),
        hand=int(hand),
        players=len(seats) if isinstance(seats, Mapping) else 0,
        dealer=dealer,
        link=judge_link(online, heard_age_s, centre.hearing, offline_after_s),
        heard_age_s=heard_age_s,
        last_row_age_s=_age_s(last_row_at, now),
        outbox_rows=int(status.get("outbox_rows") or 0),
        behind=behind,
        oldest_age_s=_age_s(oldest, now),
        status_age_s=_age_s(status_at, now),
        floor_call_seq=None if call is None else call.seq,
        floor_call_reason="" if call is None else call.reason,
        floor_call_age_s=None if call is None else _age_s(parse_time(call.raised_utc), now),
        links_down=tuple(
            t.detail or t.key for t in ops.tilts.values() if t.code == TiltCode.LINK_LOST
        ),
        stopped=tuple(t.code for t in ops.tilts.values() if t.critical),
        open_incidents=int(open_incidents),
        worst=int(worst),
        alarms=int(alarms),
        pending=int(pending),
        deaf_because=centre.deaf_because,
    )


def floor_call_seq(conn: Conn, station: str) -> int | None:
    """The row of the table's open CALL FLOOR (None when none is open)."""
    found = conn.execute(
        "SELECT ops FROM console_fold WHERE station_id = %s", (station,)
    ).fetchone()
    if found is None:
        return None
    call = ops_from_json(dict(found[0] or {})).floor_call
    return None if call is None else call.seq


@dataclass(frozen=True, slots=True)
class Room:
    """The map's summary line: how many tables in each state."""

    tables: int
    online: int
    offline: int
    not_heard: int
    calls: tuple[str, ...]
    stopped: int
    open_incidents: int

    @staticmethod
    def of(tiles: list[Tile]) -> Room:
        return Room(
            tables=len(tiles),
            online=sum(t.link is Link.ONLINE for t in tiles),
            offline=sum(t.offline for t in tiles),
            not_heard=sum(t.link is Link.UNKNOWN for t in tiles),
            calls=tuple(sorted(t.station for t in tiles if t.floor_call_seq is not None)),
            stopped=sum(bool(t.stopped) for t in tiles),
            open_incidents=sum(t.open_incidents for t in tiles),
        )
