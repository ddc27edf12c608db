"""Taking one diagnostics snapshot: ask the daemon's status socket, read the journal, assemble.
Edge adapter (socket, files, clock).

`Taker` keeps the chain check of the offline mode between refreshes of `--watch`: the whole
file is read again only when its head moved.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from station.diag import snapshot
from station.diag.clocksync import clock_synced
from station.diag.journal_facts import JournalFacts, read_facts
from station.diag.model import OFFLINE, DiagSnapshot
from station.diag.server import NoDaemonError, fetch, socket_path
from station.journal.clock import format_utc


class Taker:
    def __init__(self, journal: Path, *, offline: bool = False) -> None:
        self.journal = journal
        self.socket = socket_path(journal)
        self.offline = offline
        self._checked: tuple[int, str, str, str] | None = None  # head seq, hash, chain, detail

    def live(self) -> tuple[dict[str, Any] | None, str]:
        if self.offline:
            return None, OFFLINE
        try:
            status = fetch(self.socket)
        except NoDaemonError as exc:
            return None, str(exc)
        if status.get("starting"):
            return None, "the daemon is starting"
        return status, ""

    def facts(self, check_chain: bool) -> JournalFacts:
        facts = read_facts(self.journal, check_chain=False)
        if not check_chain:
            return facts
        known = self._checked
        if known is None or known[:2] != (facts.head_seq, facts.head_hash):
            checked = read_facts(self.journal, check_chain=True)
            known = (checked.head_seq, checked.head_hash, checked.chain, checked.chain_detail)
            self._checked = known
        return snapshot.with_chain(facts, known[2], known[3])

    def take(self) -> DiagSnapshot:
        live, why_not = self.live()
        facts = self.facts(check_chain=live is None)
        synced, source = clock_synced()
        return snapshot.build(
            facts,
            live,
            socket=str(self.socket),
            why_not=why_not,
            taken_utc=format_utc(datetime.now(UTC)),
            clock_synced=synced,
            sync_source=source,
        )
