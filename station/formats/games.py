"""The public record of each game the station deals (`station games --json`): its id (the session
format's `game`), title, family, the structures a setup may choose (the first the default), the
most players and the rulebook section it follows; then each game the rulebooks deal that the
station does not run yet (Chinese poker's forms), with `not_run` saying why. Pure."""

from __future__ import annotations

from typing import Any

from station.engine.games import GAMES, NOT_YET_RUN, GameSpec, PlannedGame

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


def planned_record(game: PlannedGame) -> dict[str, Any]:
    """A game listed but not run yet: no structure a setup may choose, and why (`not_run`)."""
    return {
        "id": game.name,
        "title": game.title,
        "family": game.family,
        "structures": [],
        "players": game.max_players,
        "source": game.source,
        "not_run": game.reason,
    }


def game_records() -> list[dict[str, Any]]:
    """Every game of the engine's table, in its order, then those not run yet."""
    return [game_record(spec) for spec in GAMES.values()] + [
        planned_record(g) for g in NOT_YET_RUN.values()
    ]


def game_line(record: dict[str, Any], width: int, title_w: int) -> str:
    """One game as `station games` prints it."""
    shapes = ", ".join(STRUCTURE_WORDS[s] for s in record["structures"])
    if "not_run" in record:
        shapes = "not run yet"
    return (
        f"{record['id']:<{width}}  {record['title']:<{title_w}}  {record['family']:<7}  "
        f"{shapes:<30}  {record['players']:>2}  {record['source']}"
    )
