"""A recorded session replayed through the rules engine: every decision it produces, in order
(what `station replay` prints, and what the tests compare). Pure (the session is already read).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from station.engine.cards import DeckRegistry
from station.engine.decisions import Decision
from station.engine.table import Table
from station.formats.session import SessionLine


def replay_lines(
    lines: Iterable[SessionLine], registry: DeckRegistry | None = None
) -> Iterator[Decision]:
    """Every decision a session produces, in order, ending with the end-of-input closure: the
    same `Table.feed` the recorder calls on a live table."""
    table = Table(registry)
    last = 0
    for line in lines:
        last = line.line
        yield from table.feed(line.event, seq=line.line, at=line.t)
    yield from table.finish(seq=last)
