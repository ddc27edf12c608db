"""`station games`: every game the station deals, with the rulebook section it follows. Edge
adapter (prints the engine's game table).

    station games [--json]

One line per game: its id (the session format's `game`), title, family, the betting structures a
setup may choose (`structure`; the first is the default), the most players, and the source. With
`--json`, one JSON object per line with the keys `id`, `title`, `family`, `structures`,
`players` and `source`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from station.engine.games import GAMES, GameSpec

STRUCTURE_WORDS = {"no_limit": "no-limit", "pot_limit": "pot-limit", "fixed_limit": "limit"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per game")


def game_record(spec: GameSpec) -> dict[str, Any]:
    """The public record of one game (`station games --json`)."""
    return {
        "id": spec.name,
        "title": spec.title,
        "family": spec.family.value,
        "structures": [s.value for s in (spec.structure, *spec.structures)],
        "players": spec.max_players,
        "source": spec.source,
    }


def run(args: argparse.Namespace) -> int:
    records = [game_record(spec) for spec in GAMES.values()]
    if args.json:
        for r in records:
            print(json.dumps(r, ensure_ascii=False))
        return 0
    width = max(len(r["id"]) for r in records)
    title_w = max(len(r["title"]) for r in records)
    for r in records:
        shapes = ", ".join(STRUCTURE_WORDS[s] for s in r["structures"])
        print(
            f"{r['id']:<{width}}  {r['title']:<{title_w}}  {r['family']:<4}  "
            f"{shapes:<30}  {r['players']:>2}  {r['source']}"
        )
    print(f"{len(records)} games")
    return 0
