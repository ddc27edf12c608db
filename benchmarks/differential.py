"""Differential run of our rules engine against PokerKit 0.7.7 (pinned; a test oracle only).

    .venv/bin/python benchmarks/differential.py --hands 10000 [--seed S]
        [--games nlhe,plo,flhe] [--dump DIR] [--dump-known K]

Plays N random hands (seeded; 2-9 players; random stacks with many short ones; explicit random
cards) in lockstep in PokerKit and in our engine, which reads each hand as a recorded table session
(docs/session-format.md). After every action it compares the seat to act, the amount to call, the
minimum and maximum raise and the collected pots, and at the end the final stacks. Differences
that Robert's Rules make on purpose are allowed only through the named allow-list
(tests/differential/allowlist.py, each pinned by a test named after its catalog rule id).

Prints one JSON line:

    {"hands", "compared_actions", "disagreements", "allowed": {rule_id: count}, "seconds", ...}

`disagreements` counts every difference no allow-list entry explains: the hands stopped by an
unexplained one (`unexplained`) plus every hit of an engine bug already filed
(`known_engine_bugs`, tests/differential/known_bugs.py; those hands are steered past the bug
and go on). `allowed_detail` splits `allowed` by predicate.

With --dump DIR each hand with a disagreement is written as a recorded session
DIR/<game>-<hand>-<kind>.jsonl, PokerKit's values in a '#' line on top, to replay with
`.venv/bin/station replay FILE --json --trace` (the difference is after the last line). Hands
that only met known engine bugs are dumped up to --dump-known per bug (default 3).

Exit status: 0 no disagreement, 1 disagreements found, 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.differential.harness import GAMES, HandResult, dump, run_many


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="nlhe,plo,flhe")
    parser.add_argument("--dump", type=Path, default=None, help="directory for failing hands")
    parser.add_argument("--dump-known", type=int, default=3, help="hands per known engine bug")
    args = parser.parse_args(argv)
    games = tuple(g for g in args.games.split(",") if g)
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games or args.hands < 1:
        parser.print_usage(sys.stderr)
        print(f"games must be among {', '.join(GAMES)}; hands >= 1", file=sys.stderr)
        return 2

    dumped: Counter[str] = Counter()

    def on_hand(k: int, r: HandResult) -> None:
        if args.dump is None:
            return
        if r.disagreement is not None:
            dump(r, args.dump, f"{r.deal.game}-{k:05d}-{r.disagreement.kind}")
            return
        for case in r.known:
            if dumped[case] < args.dump_known:
                dumped[case] += 1
                dump(r, args.dump, f"{r.deal.game}-{k:05d}-known-{case}")
                return

    start = time.perf_counter()
    s = run_many(args.hands, args.seed, games, on_hand=on_hand)
    seconds = time.perf_counter() - start
    by_rule: Counter[str] = Counter()
    for key, n in s.allowed.items():
        by_rule[key.split(":")[0]] += n
    out = {
        "hands": s.hands,
        "compared_actions": s.compared_actions,
        "disagreements": s.disagreements,
        "allowed": dict(sorted(by_rule.items())),
        "seconds": round(seconds, 1),
        "unexplained": s.unexplained,
        "known_engine_bugs": dict(sorted(s.known.items())),
        "allowed_detail": dict(sorted(s.allowed.items())),
        "games": dict(sorted(s.by_game.items())),
        "seed": args.seed,
        "allins": s.allins,
        "side_pots": s.side_pots,
        "showdowns": s.showdowns,
        "stopped_hands": s.stopped,
    }
    print(json.dumps(out, separators=(", ", ": ")))
    return 1 if s.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
