"""What `station diag` reports: one `DiagSnapshot` of the station's links, GPIO inputs, journal
health, outbox and clock, as frozen records with a JSON form and a text form. Pure.

The same snapshot comes from two sources (`source`): the running daemon (its read-only status
socket, `station.diag.server`, merged with what the journal file says) or the journal alone
(`station.diag.offline`), when no daemon answers. A field the source cannot know is None in JSON
and "not known ..." in text, never a made-up zero: offline, the link counters and the GPIO
levels are None (they live in the daemon's memory only).

`problems` lists, in words, everything that needs a technician: a link down, a broken chain, an
open tilt or CALL FLOOR, an unsynchronised clock. `station diag` exits 1 when there is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final

FORMAT: Final = 1
NO_FORWARDER: Final = "no forwarder"


@dataclass(frozen=True, slots=True)
class LinkDiag:
    """One serial device (the shoe, the bet-zone board)."""

    device: str  # "shoe" | "betzones"
    state: str  # "up" | "down" | "refused" | "not configured" | "unknown"
    port: str = ""
    serial: str = ""  # the device's serial number, from its identity
    firmware: str = ""  # its firmware version ("" = never identified)
    protocol: int | None = None
    detail: str = ""  # why it is down, or what came up (the journaled link row's text)
    since_utc: str | None = None  # the last link.up / link.down row
    # The link's counters since the daemon started (None: from the journal alone, unknown):
    # frames_rx frames_tx crc_errors resyncs retransmits duplicates naks_rx naks_tx malformed
    # out_of_order events_delivered events_lost reconnects open_failures rtt_ms.
    counters: Mapping[str, float | int | None] | None = None
    last_frame_age_s: float | None = None
    last_frames: tuple[str, ...] = ()  # the link's ring, newest last (never a card tag)
    last_events: tuple[str, ...] = ()  # the device's last journaled inputs, newest last


@dataclass(frozen=True, slots=True)
class GpioDiag:
    """The table's GPIO inputs: live levels from the daemon, and what the journal last
    recorded of the sensors (seat occupancy, puck)."""

    levels: Mapping[str, bool] | None = None  # input name -> high; None: daemon not reachable
    seats_occupied: tuple[int, ...] | None = None  # from the journal's last seat inputs
    puck: int | None = None


@dataclass(frozen=True, slots=True)
class OutboxDiag:
    """The fleet forwarder's outbox: the journal rows the central store has not acknowledged.
    The journal is the outbox; the forwarder keeps its ack cursor beside it (`station.fleet`).

    - `forwarder`: the running daemon forwards (it has a `[fleet]`); False when it has none;
      None from the journal alone (the config decides, and the daemon is not there to ask);
    - `state`: the forwarder's state (online, offline, connecting, forked, disabled) or "";
    - `acked_seq`: the last seq the central store acknowledged after its commit;
    - `pending_rows`: head seq - acked_seq (rows still to deliver);
    - `oldest_pending_utc`: when the oldest of them was recorded; `oldest_pending_age_s` how
      long it has waited;
    - `text`: all of it in words ("no forwarder" for a station that does not forward)."""

    forwarder: bool | None = False
    state: str = ""
    acked_seq: int | None = None
    pending_rows: int | None = None
    oldest_pending_utc: str | None = None
    oldest_pending_age_s: float | None = None
    central_seq: int | None = None
    text: str = NO_FORWARDER


@dataclass(frozen=True, slots=True)
class JournalDiag:
    path: str
    station_id: str = ""
    head_seq: int = 0
    head_hash: str = ""
    size_bytes: int = 0  # the database file and its WAL
    chain: str = "not checked"  # "ok" | "broken" | "checking" | "not checked"
    chain_detail: str = ""
    last_hand: int = 0
    mode: str = ""
    floor_call: str | None = None
    tilts: tuple[str, ...] = ()
    last_boot_utc: str | None = None
    outbox: OutboxDiag = field(default_factory=OutboxDiag)


@dataclass(frozen=True, slots=True)
class ClockDiag:
    utc: str  # this machine's clock when the snapshot was taken
    synced: bool | None  # the kernel's NTP state (adjtimex); None: cannot tell
    sync_source: str = ""  # how `synced` was found
    last_row_clock_ok: bool | None = None  # the journal's newest row was stamped on a synced clock
    steps: int = 0  # clock.step rows in the journal (wall clock jumps)
    last_step_utc: str | None = None


@dataclass(frozen=True, slots=True)
class DaemonDiag:
    running: bool
    socket: str
    version: str = ""
    pid: int | None = None
    hand: int | None = None
    phase: str = ""
    uptime_s: float | None = None
    why_not: str = ""  # when not running: what the socket said
    tournament: str = ""  # a tournament table's level clock and its source


@dataclass(frozen=True, slots=True)
class DiagSnapshot:
    source: str  # "daemon" | "journal"
    taken_utc: str
    daemon: DaemonDiag
    links: tuple[LinkDiag, ...]
    gpio: GpioDiag
    journal: JournalDiag
    clock: ClockDiag
    problems: tuple[str, ...] = ()
    format: int = FORMAT

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def find_problems(snap: DiagSnapshot) -> tuple[str, ...]:
    """What needs a technician, in words (the order of the report)."""
    out: list[str] = []
    for link in snap.links:
        if link.state not in ("up", "not configured"):
            out.append(
                f"{link.device} link {link.state}" + (f": {link.detail}" if link.detail else "")
            )
    j = snap.journal
    if j.chain == "broken":
        out.append(f"journal chain broken: {j.chain_detail}")
    out += [f"open tilt {t}" for t in j.tilts if not t.startswith("link_lost:")]
    if j.floor_call is not None:
        out.append(f"CALL FLOOR open ({j.floor_call})")
    if j.outbox.state in ("forked", "disabled"):
        out.append(f"fleet forwarder {j.outbox.text}")
    if snap.clock.synced is False:
        out.append("clock not synchronised (NTP)")
    return tuple(out)


def _yes(value: bool | None, yes: str, no: str, unknown: str = "not known") -> str:
    return unknown if value is None else yes if value else no


def _age(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.1f} s ago"


def render(snap: DiagSnapshot) -> list[str]:
    """The text form (what a technician reads in a terminal)."""
    d = snap.daemon
    if d.running:
        head = f"daemon: running (pid {d.pid}, {d.version}), hand {d.hand}, {d.phase}"
        if d.tournament:
            head += f"\ntournament: {d.tournament}"
    else:
        head = f"daemon: not reachable at {d.socket} ({d.why_not}); from the journal alone"
    lines = [f"station {snap.journal.station_id or '?'}  diagnostics at {snap.taken_utc}", head, ""]
    lines.append("LINKS")
    for link in snap.links:
        ident = " ".join(
            p
            for p in (
                link.serial,
                f"firmware {link.firmware}" if link.firmware else "",
                f"protocol {link.protocol}" if link.protocol is not None else "",
            )
            if p
        )
        since = f" since {link.since_utc}" if link.since_utc else ""
        lines.append(f"  {link.device:<9} {link.state.upper()}{since}  {link.port}")
        shown = link.detail if link.detail and link.detail not in ident else ""
        lines.append(f"            {ident or 'not identified'}" + (f"  ({shown})" if shown else ""))
        if link.counters is None:
            lines.append("            counters: not known (kept by the running daemon only)")
        else:
            items = [f"{k} {'-' if v is None else v}" for k, v in link.counters.items()]
            for i in range(0, len(items), 6):
                lines.append("            " + "  ".join(items[i : i + 6]))
            lines.append(f"            last frame {_age(link.last_frame_age_s)}")
        for frame in link.last_frames:
            lines.append(f"            frame  {frame}")
        for event in link.last_events:
            lines.append(f"            event  {event}")
    g = snap.gpio
    lines += ["", "GPIO INPUTS"]
    if g.levels is None:
        lines.append("  levels: not known (read by the running daemon only)")
    else:
        groups: dict[str, list[tuple[str, bool]]] = {}
        for name, value in g.levels.items():
            group, _, pin = name.rpartition(".")
            groups.setdefault(group or "inputs", []).append((pin, value))
        for group, pins in groups.items():
            high = [pin for pin, value in pins if value]
            lines.append(f"  {group:<10} {len(pins):>3} inputs, high: {' '.join(high) or 'none'}")
    seats = "-" if g.seats_occupied is None else " ".join(map(str, g.seats_occupied)) or "none"
    lines.append(f"  journal: seats occupied {seats}; puck at {g.puck if g.puck else '-'}")
    j = snap.journal
    lines += ["", "JOURNAL", f"  {j.path}  ({j.size_bytes / 1e6:.2f} MB)"]
    lines.append(f"  head seq {j.head_seq} hash {j.head_hash[:16]}  last hand {j.last_hand}")
    detail = f" ({j.chain_detail})" if j.chain_detail else ""
    lines.append(f"  chain {j.chain}{detail}")
    lines.append(f"  mode {j.mode or '-'}  CALL FLOOR {j.floor_call or '-'}")
    lines.append(f"  tilts: {', '.join(j.tilts) or 'none'}")
    lines.append(f"  last start {j.last_boot_utc or '-'}")
    o = j.outbox
    lines.append(f"  outbox: {o.text}")
    c = snap.clock
    lines += [
        "",
        "CLOCK",
        f"  {c.utc}  {_yes(c.synced, 'synchronised', 'NOT synchronised')}"
        + (f" ({c.sync_source})" if c.sync_source else ""),
    ]
    lines.append(
        "  newest journal row stamped "
        f"{_yes(c.last_row_clock_ok, 'on a synced clock', 'on an UNSYNCED clock')}; "
        f"clock steps recorded: {c.steps}"
        + (f", last {c.last_step_utc}" if c.last_step_utc else "")
    )
    lines += ["", "PROBLEMS" if snap.problems else "no problems found"]
    lines += [f"  {p}" for p in snap.problems]
    return lines
