"""What `station diag` reports: one `DiagSnapshot` of the station's links, GPIO inputs, journal
health, outbox and clock, as frozen records with a JSON form and a text form. Pure.

The same snapshot comes from two sources (`source`): the running daemon (its read-only status
socket, `station.diag.server`, merged with what the journal file says) or the journal alone,
when no daemon answers. A field the source cannot know is None in JSON and "not known ..." in
text, never a made-up zero, and a stale fact is never shown as a live one: offline, a link's
`state` is "unknown" (what the journal last recorded is `journal_state`, with its time), and the
link counters and GPIO levels are None (they live in the daemon's memory only). What the
journal says of the seats and the puck is what it last recorded (`seats_since_utc`,
`puck_since_utc`), beside the live sensor levels, never mixed with them.

`problems` lists, in words, everything that needs a technician: the daemon not running, a link
down, a broken chain, an open tilt or CALL FLOOR, an unsynchronised clock. `station diag` exits 1
when there is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Final

from station.diag.history import HistoryDiag

FORMAT: Final = 1
NO_FORWARDER: Final = "no forwarder"
OFFLINE: Final = "--offline"  # `why_not` when the daemon was not asked


@dataclass(frozen=True, slots=True)
class LinkDiag:
    """One serial device (the shoe, the bet-zone board)."""

    device: str  # "shoe" | "betzones"
    # The link now, as the running daemon sees it: "up" | "down" | "refused" | "not
    # configured"; "unknown" when no daemon answers (the journal cannot say what is live).
    state: str
    port: str = ""
    serial: str = ""  # the device's serial number, from its identity
    firmware: str = ""  # its firmware version ("" = never identified)
    protocol: int | None = None
    detail: str = ""  # why it is down, or what came up (the journaled link row's text)
    since_utc: str | None = None  # the last link.up / link.down row
    journal_state: str = "unknown"  # what that row says: "up" | "down" | "unknown" (no row)
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
    # The players seated as the journal last recorded them (the last setup's seats, then the
    # seat-sensor inputs after it), and when (the newest of those rows); not the sensors now.
    seats_occupied: tuple[int, ...] | None = None
    seats_since_utc: str | None = None
    puck: int | None = None  # the puck's seat as last journaled (or the last setup's button)
    puck_since_utc: str | None = None


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
class SoftwareDiag:
    """A stretch of the journal run by one version (and engine) of the station, from its
    start (boot) rows: an upgrade or a downgrade shows as a new stretch."""

    version: str
    engine: str  # "native" | "pure" | "" (older versions did not record it)
    first_start_utc: str
    last_start_utc: str
    starts: int


@dataclass(frozen=True, slots=True)
class JournalDiag:
    path: str
    station_id: str = ""
    head_seq: int = 0
    head_hash: str = ""
    head_utc: str | None = None  # when the newest row was written
    size_bytes: int = 0  # the database file and its WAL
    chain: str = "not checked"  # "ok" | "broken" | "checking" | "not checked"
    chain_detail: str = ""
    last_hand: int = 0
    mode: str = ""
    floor_call: str | None = None
    tilts: tuple[str, ...] = ()
    last_boot_utc: str | None = None
    outbox: OutboxDiag = field(default_factory=OutboxDiag)
    history: HistoryDiag = field(default_factory=HistoryDiag)
    software: tuple[SoftwareDiag, ...] = ()  # the versions that ran this journal, oldest first


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
    engine: str = ""  # which rules engine runs and why (the daemon's words)
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


def _link_down(tilt: str) -> bool:
    """A `link_lost:<device>` tilt (said as the link's state), not `link_lost:<device>-events`."""
    key = tilt.split(":", 2)
    return key[0] == "link_lost" and len(key) > 1 and not key[1].split(" ")[0].endswith("-events")


def find_problems(snap: DiagSnapshot) -> tuple[str, ...]:
    """What needs a technician, in words (the order of the report)."""
    out: list[str] = []
    d = snap.daemon
    if not d.running and d.why_not != OFFLINE:
        out.append(f"daemon not running ({d.why_not})" if d.why_not else "daemon not running")
    for link in snap.links:
        if link.state == "unknown" and not d.running:
            continue  # said once above: with no daemon no link is served
        if link.state not in ("up", "not configured"):
            out.append(
                f"{link.device} link {link.state}" + (f": {link.detail}" if link.detail else "")
            )
    j = snap.journal
    if j.chain == "broken":
        out.append(f"journal chain broken: {j.chain_detail}")
    # A link that is down is said above with its state; events lost on a link (a firmware log
    # reset, a gap) are not a link's state and stay a problem until the floor clears them.
    out += [f"open tilt {t}" for t in j.tilts if not _link_down(t)]
    if j.floor_call is not None:
        out.append(f"CALL FLOOR open ({j.floor_call})")
    if j.history.last_scrub_ok is False:
        out.append(f"the last scrub found problems: {j.history.last_scrub}")
    if j.outbox.state in ("forked", "disabled"):
        out.append(f"fleet forwarder {j.outbox.text}")
    if snap.clock.synced is False:
        out.append("clock not synchronised (NTP)")
    return tuple(out)


def _yes(value: bool | None, yes: str, no: str, unknown: str = "not known") -> str:
    return unknown if value is None else yes if value else no


def _age(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.1f} s ago"


def _utc(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def ago(utc: str | None, now_utc: str) -> str:
    """'2026-11-29T05:32:37Z (3 min ago)': a recorded time with its age at the snapshot."""
    if utc is None:
        return "-"
    then, now = _utc(utc), _utc(now_utc)
    if then is None or now is None:
        return utc
    s = (now - then).total_seconds()
    if s < 0:
        age = "in the future by this clock"
    elif s < 120:
        age = f"{s:.0f} s ago"
    elif s < 7200:
        age = f"{s / 60:.0f} min ago"
    elif s < 172_800:
        age = f"{s / 3600:.0f} h ago"
    else:
        age = f"{s / 86400:.0f} days ago"
    return f"{utc} ({age})"


def render(snap: DiagSnapshot) -> list[str]:
    """The text form (what a technician reads in a terminal): each section says where its
    facts come from and, for what the journal recorded, how old they are."""
    d, now = snap.daemon, snap.taken_utc
    j = snap.journal
    if d.running:
        head = f"daemon: running (pid {d.pid}, {d.version}), hand {d.hand}, {d.phase}"
        if d.engine:
            head += f"\n  rules engine: {d.engine}"
        if d.tournament:
            head += f"\ntournament: {d.tournament}"
    else:
        why = f" ({d.why_not})" if d.why_not else ""
        head = (
            f"daemon: NOT RUNNING{why}: nothing below is live; from the journal file, whose "
            f"newest row is {ago(j.head_utc, now)}"
        )
    lines = [f"station {j.station_id or '?'}  diagnostics at {now}", head, ""]
    lines.append("LINKS (now, from the daemon)" if d.running else "LINKS (not known: no daemon)")
    for link in snap.links:
        lines += _link_lines(link, d.running, now)
    lines += _gpio_lines(snap.gpio, d.running, now)
    lines += ["", "JOURNAL (the file, read now)", f"  {j.path}  ({j.size_bytes / 1e6:.2f} MB)"]
    lines.append(f"  head seq {j.head_seq} hash {j.head_hash[:16]}, written {ago(j.head_utc, now)}")
    lines.append(f"  last hand {j.last_hand}")
    detail = f" ({j.chain_detail})" if j.chain_detail else ""
    lines.append(f"  chain {j.chain}{detail}")
    lines.append(f"  mode {j.mode or '-'}  CALL FLOOR {j.floor_call or '-'}")
    lines.append(f"  tilts: {', '.join(j.tilts) or 'none'}")
    lines.append(f"  last start of a daemon {ago(j.last_boot_utc, now)}")
    lines += _software_lines(j.software)
    lines.append(f"  outbox: {j.outbox.text}")
    h = j.history
    checking = " (the check after this start is running)" if h.checking else ""
    lines.append(f"  history check{checking}: {h.last_check}")
    if h.last_check_utc:
        lines.append(f"            at {h.last_check_utc}")
    scrub = h.scrub
    if h.scrub in ("running", "stopped (goes on at the next start)"):
        rate = f", {h.scrub_hands_per_s:g} hands/s" if h.scrub_hands_per_s else ""
        scrub += (
            f": {h.scrub_percent or 0:g} % (seq {h.scrub_upto_seq} of {h.scrub_target_seq}{rate})"
        )
    lines.append(f"  scrub: {scrub}")
    lines.append(
        f"  last scrub: {h.last_scrub}"
        + (f" (ended {h.last_scrub_utc})" if h.last_scrub_utc else "")
    )
    c = snap.clock
    lines += [
        "",
        "CLOCK (this machine, now)",
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


def _software_lines(software: tuple[SoftwareDiag, ...]) -> list[str]:
    if not software:
        return []
    out = ["  software that ran this journal (its start rows, oldest first):"]
    for s in software:
        engine = f", {s.engine} engine" if s.engine else ""
        span = (
            s.first_start_utc
            if s.starts == 1
            else f"{s.first_start_utc} to {s.last_start_utc}, {s.starts} starts"
        )
        out.append(f"    {s.version}{engine}: {span}")
    return out


def _link_lines(link: LinkDiag, live: bool, now: str) -> list[str]:
    ident = " ".join(
        p
        for p in (
            link.serial,
            f"firmware {link.firmware}" if link.firmware else "",
            f"protocol {link.protocol}" if link.protocol is not None else "",
        )
        if p
    )
    recorded = (
        f"journal: last recorded {link.journal_state.upper()} at {ago(link.since_utc, now)}"
        if link.since_utc
        else "journal: no link row yet"
    )
    state = link.state.upper() if live else "NOT KNOWN"
    lines = [f"  {link.device:<9} {state}  {link.port}".rstrip(), f"            {recorded}"]
    shown = link.detail if link.detail and link.detail not in ident else ""
    lines.append(f"            {ident or 'not identified'}" + (f"  ({shown})" if shown else ""))
    if link.counters is None:
        lines.append("            counters: not known (kept by the running daemon only)")
    else:
        items = [f"{k} {'-' if v is None else v}" for k, v in link.counters.items()]
        for i in range(0, len(items), 6):
            lines.append("            " + "  ".join(items[i : i + 6]))
        lines.append(f"            last frame {_age(link.last_frame_age_s)}")
    lines += [f"            frame  {frame}" for frame in link.last_frames]
    lines += [f"            event  {event}" for event in link.last_events]
    return lines


def _gpio_lines(g: GpioDiag, live: bool, now: str) -> list[str]:
    lines = ["", "GPIO INPUTS (now, from the daemon)" if live else "GPIO INPUTS"]
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
    lines.append(f"  journal: seats with a player {seats} since {ago(g.seats_since_utc, now)}")
    lines.append(f"  journal: puck at {g.puck or '-'} since {ago(g.puck_since_utc, now)}")
    return lines
