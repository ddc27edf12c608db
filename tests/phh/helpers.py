"""Shared helpers for the PHH import tests: the public sample, converting text or files."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from station.data import phh_sample
from station.phh.convert import convert_hand
from station.phh.reader import loads_phh, read_phh

ROOT = Path(__file__).resolve().parents[2]


@cache
def sample_dir() -> Path:
    """The PHH sample shipped in the package, extracted once into a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="phh-sample-"))
    atexit.register(shutil.rmtree, folder, True)
    for rel, text in phh_sample():
        path = folder / f"{rel}.phh"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


Line = dict[str, Any]

# A six-handed hold'em hand with a straddle (the sample has none): p3 straddles to 4.
STRADDLE = """
variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200, 200, 200]
actions = [
  "d dh p1 2c3d", "d dh p2 4h5s", "d dh p3 AcAd", "d dh p4 KcKd", "d dh p5 7h2s", "d dh p6 9c8c",
  "p4 cbr 12", "p5 f", "p6 f", "p1 f", "p2 f", "p3 cc",
  "d db AhKh2d", "p3 cc", "p4 cbr 20", "p3 cc",
  "d db 5c", "p3 cc", "p4 cc",
  "d db 9s", "p3 cc", "p4 cc",
  "p3 sm AcAd", "p4 sm KcKd",
]
finishing_stacks = [199, 198, 235, 168, 200, 200]
"""


def sample(rel: str) -> Path:
    path = sample_dir() / f"{rel}.phh"
    assert path.exists(), f"no {rel}.phh in the shipped sample"
    return path


def convert_file(rel: str, seed: int = 0) -> list[Line]:
    hand = read_phh(sample(rel), rel)[0]
    return [json.loads(x) for x in convert_hand(hand, seed=seed).text().splitlines()]


def convert_text(text: str, name: str = "test", seed: int = 0) -> list[Line]:
    hand = loads_phh(text, f"{name}.phh", name)[0]
    return [json.loads(x) for x in convert_hand(hand, seed=seed).text().splitlines()]


def phh_actions(rel: str) -> list[str]:
    return [a.text for a in read_phh(sample(rel), rel)[0].actions]


def before_new_hand(lines: list[Line]) -> list[Line]:
    end = next(i for i, x in enumerate(lines) if x.get("key") == "NEW_HAND")
    return lines[1:end]


def after_new_hand(lines: list[Line]) -> list[Line]:
    end = next(i for i, x in enumerate(lines) if x.get("key") == "NEW_HAND")
    return lines[end + 1 :]


def draw_runs(lines: list[Line]) -> list[list[str]]:
    """The cards of each run of consecutive draw lines after NEW_HAND."""
    runs: list[list[str]] = []
    previous = None
    for line in after_new_hand(lines):
        if line["type"] == "draw":
            if previous != "draw":
                runs.append([])
            runs[-1].append(line["card"])
        previous = line["type"]
    return runs


def hole_cards(rel: str) -> dict[int, list[str]]:
    """The cards each player is dealt first, from the PHH actions."""
    out: dict[int, list[str]] = {}
    for text in phh_actions(rel):
        words = text.split()
        if words[:2] == ["d", "dh"] and int(words[2][1:]) not in out:
            cards = words[3]
            out[int(words[2][1:])] = [cards[i : i + 2] for i in range(0, len(cards), 2)]
    return out
