"""Recorded sessions (the rule scenarios) fed into real journals through the `Recorder`, as the
daemon feeds its inputs: for the tests of what is read back from a journal (hand rows, PHH)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from station.engine.cards import default_registry
from station.engine.decisions import HandEnd
from station.formats.replay import replay_lines
from station.formats.session import read_session
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def sessions_with_a_finished_hand() -> Iterator[Path]:
    """Every scenario session in which at least one hand ends (the others have no hand to
    read back), found with the pure engine first so that only those are journaled."""
    for path in sorted(SCENARIOS.rglob("*.jsonl")):
        lines = read_session(path).lines
        if any(isinstance(d, HandEnd) for d in replay_lines(lines, default_registry())):
            yield path


def journal_session(session: Path, journal_path: Path) -> Journal:
    """A new journal holding `session` as the daemon would have journaled it (open: close it)."""
    clock = ManualClock()
    journal = Journal.open(journal_path, clock=clock, station_id="T01", create=True)
    recorder = Recorder(journal, registry=default_registry())
    recorder.recover()
    for line in read_session(session).lines:
        clock.advance(0.25)
        recorder.record(line.event, actor="scenario", role=ActorRole.DEVICE, at=line.t)
    return journal


def journal_every_session(folder: Path) -> list[tuple[Path, Path]]:
    """Every scenario session with a finished hand, each journaled in `folder`: (session,
    journal), the journals closed."""
    made: list[tuple[Path, Path]] = []
    for i, session in enumerate(sessions_with_a_finished_hand()):
        path = folder / f"{i}.sqlite"
        journal_session(session, path).close()
        made.append((session, path))
    return made
