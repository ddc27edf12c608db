"""The public record of each game the station deals (`station games --json`): its id (the session
format's `game`), title, family, the structures a setup may choose (the first the default), the
most players and the rulebook section it follows. Pure."""

from __future__ import annotations

from typing import Any

from station.engine.games import GAMES, GameSpec

STRUCTURE_WORDS = {"no_limit": "no-limit", "pot_limit": "pot-limit", "fixed_limit": "limit"}


def game_record(spec: GameSpec) -> dict[str, Any]:
    """One game's record."""
    return {
        "id": spec.name,
        "title": spec.title,
        "family": spec.family.value,
        "structures": [s.value for s in (spec.structure, *spec.structures)],
        "players": spec.max_players,
        "source": spec.source,
    }


def game_records() -> list[dict[str, Any]]:
    """Every game of the engine's table, in its order."""
    return [game_record(spec) for spec in GAMES.values()]


def game_line(record: dict[str, Any], width: int, title_w: int) -> str:
    """One game as `station games` prints it."""
    shapes = ", ".join(STRUCTURE_WORDS[s] for s in record["structures"])
    return (
        f"{record['id']:<{width}}  {record['title']:<{title_w}}  {record['family']:<4}  "
        f"{shapes:<30}  {record['players']:>2}  {record['source']}"
    )
