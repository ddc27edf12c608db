"""The table: the rules engine's one entry point. Pure.

`Table.feed(event, seq=..., at=...)` takes one input event and returns the decisions it causes;
`Table.snapshot()` gives the frozen view the display shows. Same events in, same decisions out:
the journal's crash recovery and `station replay` both rely on that.
"""

from __future__ import annotations

from station.engine.cards import DeckRegistry, default_registry
from station.engine.decisions import Decision, DrawRole, Role
from station.engine.events import Draw, InputEvent, Key, KeyPress, Puck, SeatSensor, Setup, Zone
from station.engine.snapshot import Phase, SeatStatus, SeatView, TableSnapshot


class Table:
    """Foundation version: tracks setup, seats and hand numbers and labels draws. The hand state
    machine (betting, pots, showdown, irregularities) plugs in here."""

    def __init__(self, registry: DeckRegistry | None = None) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.setup: Setup | None = None
        self.hand_no = 0
        self.stacks: dict[int, int | None] = {}
        self.occupied: set[int] = set()
        self.button: int | None = None
        self.draws: list[str] = []

    def feed(self, event: InputEvent, *, seq: int, at: float | None = None) -> list[Decision]:
        out: list[Decision] = []
        match event:
            case Setup():
                self.setup = event
                self.stacks = dict(event.seats)
                self.occupied = set(event.seats)
                self.button = event.button
            case SeatSensor():
                if event.occupied:
                    self.occupied.add(event.seat)
                else:
                    self.occupied.discard(event.seat)
            case Puck():
                self.button = event.seat
            case KeyPress():
                if event.key is Key.NEW_HAND:
                    self.hand_no += 1
                    self.draws = []
            case Draw():
                card = event.card
                if card is None and event.tag is not None:
                    info = self.registry.lookup(event.tag)
                    card = info.card if info is not None else None
                code = card.code if card is not None else "??"
                self.draws.append(code)
                out.append(DrawRole(self.hand_no, seq, code, Role.STRAY))
            case Zone():
                pass
        return out

    def finish(self, *, seq: int) -> list[Decision]:
        """End of input (end of a session file): close what can be closed."""
        return []

    def snapshot(self) -> TableSnapshot:
        if self.setup is None:
            return TableSnapshot.empty()
        seats = tuple(
            SeatView(
                seat=s,
                status=SeatStatus.ACTIVE if s in self.occupied else SeatStatus.EMPTY,
                stack=self.stacks.get(s),
                bet=0,
                cards=0,
                button=s == self.button,
            )
            for s in sorted(set(self.stacks) | self.occupied)
        )
        return TableSnapshot(
            hand=self.hand_no,
            game=self.setup.game,
            profile=self.setup.profile,
            phase=Phase.BETWEEN,
            street="",
            seats=seats,
            board=(),
            pots=(),
            to_act=None,
            to_call=0,
            min_raise_to=None,
            max_raise_to=None,
            next_step="NEW HAND",
            button=self.button,
        )
