"""`station bench replay PATH...`: engine replay throughput beside PokerKit. Edge adapter.

Both sides replay the same hands, on one core, in one run, and both are timed without parsing:
our engine gets the already-parsed events of the converted sessions; PokerKit (the pinned test
oracle, a development dependency) gets already-loaded `HandHistory` objects and replays their
actions. PATH may be PHH files or folders, or `sample:PREFIX` for the hands shipped in the
package (e.g. `sample:pluribus`). Prints one JSON line (`station.bench.report`) naming the engine
that ran (`engine`: "native", compiled with mypyc, or "pure": station/native.py); the bars
are `hands_per_s` >= 5000 and `ratio` (PokerKit's time over ours) >= 2.8.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from station.bench.report import Bar, emit
from station.data import phh_sample
from station.engine.events import InputEvent
from station.engine.table import Table
from station.formats.session import parse_session
from station.native import engine_kind
from station.phh.convert import ConvertError, convert_hand
from station.phh.reader import PhhError, find_phh_files, loads_phh

BARS = (Bar("hands_per_s", ">=", 5000), Bar("ratio", ">=", 2.8))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="PHH files or folders, or sample:PREFIX"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="replay every hand N times (default 1)"
    )


def _texts(paths: list[str]) -> Iterator[tuple[str, str]]:
    for p in paths:
        if p.startswith("sample:"):
            yield from phh_sample(p.removeprefix("sample:"))
            continue
        for path, name in find_phh_files([Path(p)]):
            try:
                yield name, path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                print(f"skipped {name}: cannot read {path}: {exc}", file=sys.stderr)


def _prepare(paths: list[str]) -> tuple[list[list[tuple[InputEvent, int]]], list[str]]:
    hands: list[list[tuple[InputEvent, int]]] = []
    texts: list[str] = []
    for name, text in _texts(paths):
        try:
            (hand,) = loads_phh(text, name, name)
            session = parse_session(convert_hand(hand).text(), name)
        except (PhhError, ConvertError, ValueError) as exc:
            print(f"skipped {name}: {exc}", file=sys.stderr)
            continue
        if not _pokerkit_replays(text):
            print(f"skipped {name}: PokerKit cannot replay it", file=sys.stderr)
            continue
        hands.append([(line.event, line.line) for line in session.lines])
        texts.append(text)
    return hands, texts


def _pokerkit_replays(text: str) -> bool:
    """False when PokerKit (when installed) fails on the hand: it is left out on both sides,
    so that both replay the same hands (one sample hand makes PokerKit give up repairing it)."""
    try:
        from pokerkit import HandHistory  # noqa: PLC0415 - a development-only test oracle
    except ImportError:
        return True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for _state in HandHistory.load(io.BytesIO(text.encode())):
                pass
        except Exception:  # whatever the oracle raises, the hand is not comparable
            return False
    return True


def _ours(hands: list[list[tuple[InputEvent, int]]], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for events in hands:
            table = Table()
            for event, seq in events:
                table.feed(event, seq=seq)
            table.finish(seq=len(events))
    return time.perf_counter() - start


def _pokerkit(texts: list[str], repeat: int) -> float | None:
    try:
        from pokerkit import HandHistory  # noqa: PLC0415 - a development-only test oracle
    except ImportError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = [HandHistory.load(io.BytesIO(t.encode())) for t in texts]
        start = time.perf_counter()
        for _ in range(repeat):
            for history in histories:
                for _state in history:
                    pass
        return time.perf_counter() - start


def run(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        print("station bench replay: --repeat must be at least 1", file=sys.stderr)
        return 2
    missing = [p for p in args.paths if not p.startswith("sample:") and not Path(p).exists()]
    if missing:
        print(
            f"station bench replay: no such file or folder: {', '.join(missing)}", file=sys.stderr
        )
        return 2
    hands, texts = _prepare(args.paths)
    if not hands:
        print("station bench replay: no hands to replay", file=sys.stderr)
        return 2
    n = len(hands) * args.repeat
    ours = _ours(hands, args.repeat)
    theirs = _pokerkit(texts, args.repeat)
    result: dict[str, Any] = {
        "hands": n,
        "seconds": round(ours, 3),
        "hands_per_s": round(n / ours, 1),
        "pokerkit_seconds": round(theirs, 3) if theirs is not None else None,
        "pokerkit_hands_per_s": round(n / theirs, 1) if theirs else None,
        "ratio": round(theirs / ours, 2) if theirs else None,
        "engine": engine_kind(),  # "native" (compiled with mypyc) or "pure" (station.native)
    }
    emit("replay", result, BARS)
    return 0
