"""Builders for recorded-session events, so engine tests read like a table transcript."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from station.engine.cards import STANDARD_DECK, Card
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.decisions import decision_to_dict
from station.formats.session import event_from_dict


def setup(game: str, seats: dict[int, int | None], **kw: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "type": "setup",
        "game": game,
        "seats": {str(s): v for s, v in seats.items()},
    }
    line.update(kw)
    return line


def zone(seat: int, amount: int, **kw: Any) -> dict[str, Any]:
    return {"type": "zone", "seat": seat, "amount": amount, **kw}


def key(name: str, seat: int | None = None, **kw: Any) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "key", "key": name}
    if seat is not None:
        line["seat"] = seat
    line.update(kw)
    return line


def draw(card: str, face_up: bool = False, **kw: Any) -> dict[str, Any]:
    return {"type": "draw", "card": card, "face_up": face_up, **kw}


def cards(n: int, skip: Iterable[str] = ()) -> Iterator[dict[str, Any]]:
    """n draws of distinct cards in deck order, skipping some codes."""
    avoid = set(skip)
    pool: list[Card] = [c for c in STANDARD_DECK if c.code not in avoid]
    for c in pool[:n]:
        yield draw(c.code)


@dataclass
class Run:
    """A table fed line by line; keeps every decision in JSON form."""

    table: Table = field(default_factory=Table)
    lines: list[dict[str, Any]] = field(default_factory=list)
    out: list[dict[str, Any]] = field(default_factory=list)

    def feed(self, *items: dict[str, Any] | Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        new: list[dict[str, Any]] = []
        for item in items:
            batch = [item] if isinstance(item, dict) else list(item)
            for obj in batch:
                self.lines.append(obj)
                _, event = event_from_dict(obj)
                decisions = self.table.feed(event, seq=len(self.lines))
                new.extend(decision_to_dict(d) for d in decisions)
        self.out.extend(new)
        return new

    def finish(self) -> list[dict[str, Any]]:
        new = [decision_to_dict(d) for d in self.table.finish(seq=len(self.lines))]
        self.out.extend(new)
        return new

    @property
    def snap(self) -> TableSnapshot:
        return self.table.snapshot()

    def incidents(self, rule: str | None = None) -> list[dict[str, Any]]:
        return [
            d for d in self.out if d["type"] == "incident" and (rule is None or d["rule"] == rule)
        ]

    def hand_end(self) -> dict[str, Any]:
        ends = [d for d in self.out if d["type"] == "hand_end"]
        assert ends, "the hand did not end"
        return ends[-1]


def to_the_flop(
    game: str,
    stakes: dict[str, int],
    stacks: dict[int, int],
    button: int,
    *,
    profile: str = "RR11",
    rules: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """A button game where everyone limps, the big blind checks, and the flop is dealt."""
    from station.engine.games import GAMES
    from station.engine.positions import button_layout

    layout = button_layout(stacks, button)
    sb, bb = stakes.get("sb", 0), stakes["bb"]
    lines = [setup(game, dict(stacks), profile=profile, stakes=stakes, button=button)]
    if rules:
        lines[0]["rules"] = rules
    assert layout.small_blind is not None and layout.big_blind is not None
    lines += [zone(layout.small_blind, sb), zone(layout.big_blind, bb), key("NEW_HAND")]
    hole = GAMES[game].hole_cards
    lines += list(cards(hole * len(stacks)))
    for s in layout.preflop_order():
        if s == layout.big_blind:
            lines.append(key("CHECK", s))
        else:
            lines.append(zone(s, bb))
    lines += [zone(s, 0) for s in sorted(stacks)]
    used = {line["card"] for line in lines if line["type"] == "draw"}
    lines += list(cards(4, skip=used))
    return lines
