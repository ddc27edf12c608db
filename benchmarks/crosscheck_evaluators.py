"""Cross-check our hand evaluators against PokerKit's. Benchmark script (PokerKit as test oracle).

    .venv/bin/python benchmarks/crosscheck_evaluators.py --hands 100000 [--seed S] [--workers 2]
    .venv/bin/python benchmarks/crosscheck_evaluators.py --speed     # our speed per kind only

For each evaluator it deals random hands (half from the full deck, half from a random narrow slice
of it — few suits or few ranks — so flushes, straights, full houses, quads and paired lows turn up
often), evaluates every hand with our code and with PokerKit, and counts disagreements of three
kinds:

- qualifier: we find no (qualifying) hand and PokerKit does, or the other way round;
- order: sort all hands by our score; for every neighbouring pair PokerKit must agree (equal when
  our scores are equal, strictly worse/better otherwise). Both orders are total preorders, so
  agreement on neighbours is agreement on every pair of hands;
- cards: the five (or 1-4 badugi) cards we name must, looked up by PokerKit, give the same hand.

It prints one JSON line per evaluator: {evaluator, hands, disagreements, ours_us_per_hand,
pokerkit_us_per_hand, ...}. PokerKit is a test oracle only; the product never imports it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

import pokerkit

from station.engine.cards import SHORT_DECK, STANDARD_DECK, Card
from station.engine.evaluate import HandKind, evaluate, score


@dataclass(frozen=True)
class Spec:
    """One PokerKit evaluator and the deals it is checked on: (hole, board) shapes, first = main."""

    pokerkit_class: str
    kind: HandKind
    short_deck: bool
    shapes: tuple[tuple[int, int], ...]


SPECS: tuple[Spec, ...] = (
    Spec("StandardHighHand", HandKind.HIGH, False, ((2, 5), (2, 3), (2, 4), (7, 0), (5, 0))),
    Spec("ShortDeckHoldemHand", HandKind.SHORT_DECK_HIGH, True, ((2, 5), (2, 3), (2, 4))),
    Spec("OmahaHoldemHand", HandKind.OMAHA_HIGH, False, ((4, 5), (4, 3), (4, 4), (5, 5))),
    Spec("RegularLowHand", HandKind.LOW_A5, False, ((7, 0), (5, 0), (6, 0))),
    Spec("EightOrBetterLowHand", HandKind.LOW_A5_8, False, ((7, 0), (5, 0), (6, 0))),
    Spec("OmahaEightOrBetterLowHand", HandKind.OMAHA_LOW_A5_8, False, ((4, 5), (4, 3), (4, 4))),
    Spec("StandardLowHand", HandKind.LOW_27, False, ((5, 0), (7, 0))),
    Spec("BadugiHand", HandKind.BADUGI, False, ((4, 0),)),
)
SPEC_BY_NAME = {s.pokerkit_class: s for s in SPECS}

Deal = tuple[tuple[Card, ...], tuple[Card, ...]]


def random_deals(spec: Spec, count: int, rng: random.Random) -> list[Deal]:
    """`count` random deals for `spec`: half from the whole deck, half from a narrow slice."""
    deck = SHORT_DECK if spec.short_deck else STANDARD_DECK
    ranks_in_deck = sorted({c.rank for c in deck})
    deals: list[Deal] = []
    for _ in range(count):
        shape = spec.shapes[0] if rng.random() < 0.6 else rng.choice(spec.shapes)
        n = shape[0] + shape[1]
        pool: Sequence[Card] = deck
        if rng.random() < 0.5:
            suits = rng.sample("cdhs", rng.randint(1, 4))
            need_ranks = -(-n // len(suits))
            k = rng.randint(min(need_ranks + 1, len(ranks_in_deck)), len(ranks_in_deck))
            k = max(k, need_ranks)
            if rng.random() < 0.5:  # a window of neighbouring ranks: straights, wheels
                start = rng.randint(0, len(ranks_in_deck) - k)
                ranks = set(ranks_in_deck[start : start + k])
            else:
                ranks = set(rng.sample(ranks_in_deck, k))
            pool = [c for c in deck if c.suit in suits and c.rank in ranks]
            if len(pool) < n:
                pool = deck
        cards = rng.sample(list(pool), n)
        deals.append((tuple(cards[: shape[0]]), tuple(cards[shape[0] :])))
    return deals


def _pk_cards(cards: Sequence[Card]) -> tuple[Any, ...]:
    return tuple(pokerkit.Card.parse("".join(c.code for c in cards)))


def check_chunk(name: str, count: int, seed: int) -> dict[str, Any]:
    """Evaluate `count` deals both ways; return scores, PokerKit keys (higher = better), timings."""
    spec = SPEC_BY_NAME[name]
    cls = getattr(pokerkit, name)
    rng = random.Random(f"{seed}:{name}")
    deals = random_deals(spec, count, rng)
    pk_deals = [(_pk_cards(h), _pk_cards(b)) for h, b in deals]

    t0 = time.perf_counter()
    ours = [evaluate(spec.kind, h, b) for h, b in deals]
    ours_s = time.perf_counter() - t0

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PokerKit must not need to warn on valid hands
        t0 = time.perf_counter()
        theirs = [cls.from_game_or_none(h, b) for h, b in pk_deals]
        pk_s = time.perf_counter() - t0

    scores: list[int | None] = []
    keys: list[int | None] = []
    qualifier = cards_bad = 0
    examples: list[str] = []
    for (h, b), mine, pk in zip(deals, ours, theirs, strict=True):
        if (mine is None) != (pk is None):
            qualifier += 1
            if len(examples) < 5:
                examples.append(f"qualifier {_txt(h)} | {_txt(b)}: ours {mine} pokerkit {pk}")
        if mine is None or pk is None:
            scores.append(None)
            keys.append(None)
            continue
        key = -pk.entry.index if cls.low else pk.entry.index
        scores.append(mine.score)
        keys.append(key)
        if cls(_pk_cards(mine.cards)).entry.index != pk.entry.index:
            cards_bad += 1
            if len(examples) < 5:
                examples.append(f"cards {_txt(h)} | {_txt(b)}: ours {_txt(mine.cards)} pk {pk}")
    return {
        "scores": scores,
        "keys": keys,
        "deals": [(_txt(h), _txt(b)) for h, b in deals],
        "qualifier": qualifier,
        "cards": cards_bad,
        "ours_s": ours_s,
        "pk_s": pk_s,
        "examples": examples,
    }


def _txt(cards: Sequence[Card]) -> str:
    return "".join(c.code for c in cards)


def order_disagreements(
    scores: Sequence[int | None], keys: Sequence[int | None], deals: Sequence[tuple[str, str]]
) -> tuple[int, list[str]]:
    """Neighbouring pairs in our order on which PokerKit's order disagrees."""
    # Ties in our score are ordered by PokerKit's key, so a tie PokerKit splits shows up.
    both = sorted(
        ((s, k, i) for i, (s, k) in enumerate(zip(scores, keys, strict=True)) if s is not None),
        key=lambda t: (t[0], t[1]),
    )
    bad = 0
    examples: list[str] = []
    for (s1, k1, i1), (s2, k2, i2) in itertools.pairwise(both):
        assert k1 is not None
        assert k2 is not None
        ok = (k1 == k2) if s1 == s2 else (k1 < k2)
        if not ok:
            bad += 1
            if len(examples) < 5:
                examples.append(f"order {deals[i1]} (ours {s1}) vs {deals[i2]} (ours {s2})")
    return bad, examples


def crosscheck(name: str, hands: int, seed: int, workers: int) -> dict[str, Any]:
    """Run the whole check for one evaluator; the JSON-ready result."""
    chunks = max(1, workers)
    sizes = [hands // chunks + (1 if i < hands % chunks else 0) for i in range(chunks)]
    tasks = [(name, n, seed * 1000 + i) for i, n in enumerate(sizes) if n]
    if workers > 1:
        with Pool(workers) as pool:
            parts = pool.starmap(check_chunk, tasks)
    else:
        parts = [check_chunk(*t) for t in tasks]
    scores = [s for p in parts for s in p["scores"]]
    keys = [k for p in parts for k in p["keys"]]
    deals = [d for p in parts for d in p["deals"]]
    order, order_examples = order_disagreements(scores, keys, deals)
    qualifier = sum(p["qualifier"] for p in parts)
    cards = sum(p["cards"] for p in parts)
    examples = [e for p in parts for e in p["examples"]] + order_examples
    return {
        "evaluator": name,
        "kind": SPEC_BY_NAME[name].kind.value,
        "hands": hands,
        "disagreements": qualifier + order + cards,
        "ours_us_per_hand": round(sum(p["ours_s"] for p in parts) / hands * 1e6, 2),
        "pokerkit_us_per_hand": round(sum(p["pk_s"] for p in parts) / hands * 1e6, 2),
        "qualifier_disagreements": qualifier,
        "order_disagreements": order,
        "cards_disagreements": cards,
        "no_hand": sum(s is None for s in scores),
        "examples": examples[:5],
    }


SPEED_SHAPES: tuple[tuple[HandKind, bool, int, int], ...] = (
    (HandKind.HIGH, False, 2, 5),
    (HandKind.SHORT_DECK_HIGH, True, 2, 5),
    (HandKind.OMAHA_HIGH, False, 4, 5),
    (HandKind.LOW_A5, False, 7, 0),
    (HandKind.LOW_A5, False, 5, 0),
    (HandKind.LOW_A5_8, False, 7, 0),
    (HandKind.OMAHA_LOW_A5_8, False, 4, 5),
    (HandKind.LOW_27, False, 5, 0),
    (HandKind.BADUGI, False, 4, 0),
)


def speed(count: int = 20_000, seed: int = 0) -> list[dict[str, Any]]:
    """Our time per call on uniformly random deals: the first pass (memos filling), then the best
    of three passes of `evaluate` and of `score`."""
    out = []
    for kind, short, nh, nb in SPEED_SHAPES:
        rng = random.Random(f"{seed}:{kind}:{nh}")
        deck = list(SHORT_DECK if short else STANDARD_DECK)
        deals = []
        for _ in range(count):
            cards = rng.sample(deck, nh + nb)
            deals.append((cards[:nh], cards[nh:]))
        timings: dict[str, float] = {}
        for label, fn, passes in (("first_pass", evaluate, 1), ("evaluate", evaluate, 3),
                                  ("score", score, 3)):  # fmt: skip
            best = float("inf")
            for _ in range(passes):
                t0 = time.perf_counter()
                for h, b in deals:
                    fn(kind, h, b)
                best = min(best, time.perf_counter() - t0)
            timings[label] = round(best / count * 1e6, 2)
        out.append(
            {
                "kind": kind.value,
                "cards": f"{nh}+{nb}",
                "first_pass_us": timings["first_pass"],
                "evaluate_us": timings["evaluate"],
                "score_us": timings["score"],
            }
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per evaluator")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="processes (1 = no pool)")
    parser.add_argument("--only", action="append", help="PokerKit class name(s) to check")
    parser.add_argument("--speed", action="store_true", help="only time our evaluators")
    args = parser.parse_args(argv)
    if args.speed:
        for row in speed(seed=args.seed):
            print(json.dumps(row), flush=True)
        return 0
    failed = False
    for spec in SPECS:
        if args.only and spec.pokerkit_class not in args.only:
            continue
        result = crosscheck(spec.pokerkit_class, args.hands, args.seed, args.workers)
        if not result["examples"]:
            del result["examples"]
        failed |= result["disagreements"] > 0
        print(json.dumps(result), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
