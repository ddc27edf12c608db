"""`station demo`: an emulated table. Edge adapter (RNG, stdout, files).

Foundation stage: it shuffles an emulated deck, deals hold'em hands through the same runner the
daemon uses and prints every card as the engine labels it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

from station.engine.cards import STANDARD_DECK
from station.engine.decisions import DrawRole
from station.engine.events import Draw, Key, KeyPress, Setup, Stakes, Zone
from station.runner import TableRunner


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=3, help="stop after N hands (default 3)")
    parser.add_argument(
        "--headless", action="store_true", help="no window, even when a display is available"
    )
    parser.add_argument("--seed", type=int, default=1, help="shuffle seed (default 1)")


def run(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("station demo: --hands must be at least 1", file=sys.stderr)
        return 2
    headless = args.headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    rng = random.Random(args.seed)
    runner = TableRunner()
    seq = 0

    def feed(event: Setup | KeyPress | Draw | Zone) -> list[DrawRole]:
        nonlocal seq
        seq += 1
        return [d for d in runner.feed(event, seq=seq) if isinstance(d, DrawRole)]

    seats = {1: 200, 2: 200, 3: 200, 4: 200}
    feed(Setup("nlhe", "RR11", Stakes(sb=1, bb=2), seats, button=4))
    print(
        f"demo: emulated nlhe table, seats {sorted(seats)}, {'headless' if headless else 'window'}"
    )
    for hand in range(1, args.hands + 1):
        deck = list(STANDARD_DECK)
        rng.shuffle(deck)
        feed(Zone(1, 1))
        feed(Zone(2, 2))
        feed(KeyPress(Key.NEW_HAND))
        dealt = []
        for card in deck[: 2 * len(seats) + 8]:
            dealt += [role.card for role in feed(Draw(card))]
        print(f"hand {hand}: {' '.join(dealt)}")
    return 0
