"""The table runner: feeds input events to the rules engine and hands the decisions on.
Application service, pure apart from the sinks it is given.

The daemon, `station replay` and the demo all go through `TableRunner.feed`, so a recorded
session exercises exactly the code a live table runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from station.engine.cards import DeckRegistry
from station.engine.decisions import Decision
from station.engine.events import InputEvent
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.session_format import SessionLine

DecisionSink = Callable[[int, Decision], None]


class TableRunner:
    def __init__(self, registry: DeckRegistry | None = None) -> None:
        self.table = Table(registry)
        self.sinks: list[DecisionSink] = []

    def feed(self, event: InputEvent, *, seq: int, at: float | None = None) -> list[Decision]:
        decisions = self.table.feed(event, seq=seq, at=at)
        self._emit(seq, decisions)
        return decisions

    def finish(self, *, seq: int) -> list[Decision]:
        decisions = self.table.finish(seq=seq)
        self._emit(seq, decisions)
        return decisions

    def snapshot(self) -> TableSnapshot:
        return self.table.snapshot()

    def _emit(self, seq: int, decisions: list[Decision]) -> None:
        for sink in self.sinks:
            for d in decisions:
                sink(seq, d)


def replay_lines(
    lines: Iterable[SessionLine], registry: DeckRegistry | None = None
) -> Iterator[Decision]:
    """Every decision a session produces, in order, ending with the end-of-input closure."""
    runner = TableRunner(registry)
    last = 0
    for line in lines:
        last = line.line
        yield from runner.feed(line.event, seq=line.line, at=line.t)
    yield from runner.finish(seq=last)
