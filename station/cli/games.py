"""`station games`: every game the station deals, with the rulebook section it follows. Edge
adapter (prints the engine's game table).

    station games [--json]

One line per game: its id (the session format's `game`), title, family, the betting structures a
setup may choose (`structure`; the first is the default), the most players, and the source. With
`--json`, one JSON object per line with the keys `id`, `title`, `family`, `structures`,
`players` and `source`. The games the rulebooks deal that the station does not run yet (Chinese
poker and its forms) come last, "not run yet" (`--json`: no structures, and `not_run` saying
why).
"""

from __future__ import annotations

import argparse
import json

from station.formats.games import game_line, game_records


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per game")


def run(args: argparse.Namespace) -> int:
    records = game_records()
    if args.json:
        for r in records:
            print(json.dumps(r, ensure_ascii=False))
        return 0
    width = max(len(r["id"]) for r in records)
    title_w = max(len(r["title"]) for r in records)
    for r in records:
        print(game_line(r, width, title_w))
    planned = sum(1 for r in records if "not_run" in r)
    print(f"{len(records) - planned} games, {planned} not run yet")
    return 0
