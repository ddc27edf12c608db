"""Assembling a `DiagSnapshot` from the journal's facts and, when the daemon answers, its live
status. Pure (every input is passed in).

Who knows what:
- the daemon (live status): link state and identity as the link sees it now, every counter,
  the last frames, GPIO levels, whether the chain checked at start-up (and the history check
  after a start from a resume row) found it sound, its hand and phase;
- the journal (always read): station id, head, size, mode, tilts, CALL FLOOR, the last link
  rows (when a link went down or came up, and why), the devices' last journaled events, the
  sensors it last recorded, clock stamps and steps, the outbox cursor.
Offline, the link state is the last link row's, and the chain is checked by reading the whole
file (`station journal verify`'s check).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from station.diag.history import with_live
from station.diag.journal_facts import JournalFacts, LinkRecord
from station.diag.model import (
    NO_FORWARDER,
    ClockDiag,
    DaemonDiag,
    DiagSnapshot,
    GpioDiag,
    JournalDiag,
    LinkDiag,
    OutboxDiag,
    SoftwareDiag,
    find_problems,
)


def with_chain(facts: JournalFacts, chain: str, detail: str) -> JournalFacts:
    return replace(facts, chain=chain, chain_detail=detail)


def outbox(facts: JournalFacts, live: Mapping[str, Any] | None) -> OutboxDiag:
    """The fleet outbox, from the running daemon's forwarder when there is one, and from the
    journal's ack cursor (`facts.outbox`) for the acknowledged seq and the oldest waiting row."""
    cursor = facts.outbox
    acked = cursor.acked_seq if cursor is not None else None
    oldest = cursor.oldest_unacked_utc if cursor is not None else None
    pending = cursor.rows if cursor is not None else None
    if live is not None:
        fleet = live.get("fleet")
        if not isinstance(fleet, dict):
            return OutboxDiag(forwarder=False, acked_seq=acked)
        rows = int(fleet.get("outbox_rows") or 0)
        age = fleet.get("outbox_age_s")
        state = str(fleet.get("state", ""))
        waited = f", the oldest for {age:.0f} s" if rows and isinstance(age, int | float) else ""
        detail = f" ({fleet['detail']})" if fleet.get("detail") else ""
        return OutboxDiag(
            forwarder=True,
            state=state,
            acked_seq=acked,
            pending_rows=rows,
            oldest_pending_utc=oldest if rows else None,
            oldest_pending_age_s=age if rows else None,
            central_seq=fleet.get("central_seq"),
            text=f"{state}: {rows} row(s) to deliver{waited}{detail}",
        )
    if not acked:
        return OutboxDiag(
            forwarder=None,
            acked_seq=acked,
            text=f"{NO_FORWARDER} (the central store never acknowledged a row)",
        )
    return OutboxDiag(
        forwarder=None,
        acked_seq=acked,
        pending_rows=pending,
        oldest_pending_utc=oldest,
        text=f"{pending} row(s) not acknowledged by the central store (acknowledged up to seq "
        f"{acked})",
    )


def _link(record: LinkRecord, live: Mapping[str, Any] | None) -> LinkDiag:
    if live is None:  # no daemon: what is live is not known; the journal's row says what was
        return LinkDiag(
            device=record.device,
            state="unknown",
            journal_state=record.state,
            serial=record.serial,
            firmware=record.firmware,
            protocol=record.protocol,
            detail=record.detail,
            since_utc=record.since_utc,
            last_events=record.last_events,
        )
    if not live.get("configured", True):
        return LinkDiag(
            device=record.device, state="not configured", last_events=record.last_events
        )
    counters = live.get("counters")
    return LinkDiag(
        device=record.device,
        state=str(live.get("state", "unknown")),
        port=str(live.get("port", "")),
        serial=str(live.get("serial") or record.serial),
        firmware=str(live.get("firmware") or record.firmware),
        protocol=live.get("protocol") if live.get("protocol") is not None else record.protocol,
        detail=str(live.get("reason") or record.detail),
        since_utc=record.since_utc,
        journal_state=record.state,
        counters=dict(counters) if isinstance(counters, dict) else None,
        last_frame_age_s=live.get("last_frame_age_s"),
        last_frames=tuple(str(f) for f in live.get("last_frames", ())),
        last_events=record.last_events,
    )


def _chain(facts: JournalFacts, live: Mapping[str, Any] | None) -> tuple[str, str]:
    if live is None:
        return facts.chain, facts.chain_detail
    j = live.get("journal", {})
    if j.get("checking"):
        return "checking", "the daemon is checking the history its start took on trust"
    if j.get("chain_ok") is True:
        return "ok", "checked by the daemon at start-up"
    if j.get("chain_ok") is False or j.get("ok") is False:
        return (
            "broken",
            "the daemon found a problem at start-up (station journal verify says where)",
        )
    return "not checked", "the daemon has not checked it yet"


def build(
    facts: JournalFacts,
    live: Mapping[str, Any] | None,
    *,
    socket: str,
    why_not: str,
    taken_utc: str,
    clock_synced: bool | None,
    sync_source: str,
) -> DiagSnapshot:
    live_links = {str(x.get("device")): x for x in live.get("links", ())} if live else {}
    links = tuple(_link(r, live_links.get(r.device) if live else None) for r in facts.links)
    if live is not None:
        daemon = DaemonDiag(
            running=True,
            socket=socket,
            version=str(live.get("version", "")),
            engine=str(live.get("engine", "")),
            pid=live.get("pid"),
            hand=live.get("hand"),
            phase=str(live.get("phase", "")),
            uptime_s=live.get("uptime_s"),
            tournament=str(live.get("tournament") or ""),
        )
        gpio_levels = live.get("gpio")
        levels = dict(gpio_levels) if isinstance(gpio_levels, dict) else None
    else:
        daemon = DaemonDiag(running=False, socket=socket, why_not=why_not)
        levels = None
    chain, chain_detail = _chain(facts, live)
    ops = facts.ops
    call = ops.floor_call
    journal = JournalDiag(
        path=str(facts.path),
        station_id=facts.station_id,
        head_seq=facts.head_seq,
        head_hash=facts.head_hash,
        head_utc=facts.head_utc,
        size_bytes=facts.size_bytes,
        chain=chain,
        chain_detail=chain_detail,
        last_hand=facts.last_hand,
        mode=ops.mode.value,
        floor_call=None if call is None else f"since seq {call.seq}, {call.reason}",
        tilts=tuple(
            f"{t.key}{' (critical)' if t.critical else ''}: {t.detail}" if t.detail else t.key
            for t in ops.tilts.values()
        ),
        last_boot_utc=facts.last_boot_utc,
        outbox=outbox(facts, live),
        history=with_live(facts.history, live),
        software=tuple(
            SoftwareDiag(s.version, s.engine, s.first_utc, s.last_utc, s.starts)
            for s in facts.software
        ),
    )
    clock = ClockDiag(
        utc=taken_utc,
        synced=clock_synced,
        sync_source=sync_source,
        last_row_clock_ok=facts.head_clock_ok,
        steps=facts.clock_steps,
        last_step_utc=facts.last_step_utc,
    )
    snap = DiagSnapshot(
        source="daemon" if live is not None else "journal",
        taken_utc=taken_utc,
        daemon=daemon,
        links=links,
        gpio=GpioDiag(
            levels=levels,
            seats_occupied=facts.seats_occupied,
            seats_since_utc=facts.seats_utc,
            puck=facts.puck,
            puck_since_utc=facts.puck_utc,
        ),
        journal=journal,
        clock=clock,
    )
    return replace(snap, problems=find_problems(snap))
