"""`station demo`: the emulated table deals real hands through the daemon's core, catches the
injected irregularities, writes PNG frames and a session recoverable from its journal. The
injections themselves are checked first against the pure engine (fast, no hardware)."""

from __future__ import annotations

import json
import os
import re
import stat
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from station.demo.plan import DEMO_RAKE, EXPECTED_RULES, ORDER, Injection, plan_hands
from station.demo.steps import Deal, DropRake, FloorClears, demo_registry, expected_events
from station.engine.cards import default_registry
from station.engine.decisions import HandEnd, Incident
from station.engine.table import Table
from station.formats.session import read_session
from tests.conftest import StationRun

ROOT = Path(__file__).resolve().parents[2]


def test_every_injection_is_caught_by_the_engine_alone() -> None:
    """The demo's plan fed straight to the engine (the tags resolved by the demo's registry):
    each injected hand raises the incident its rule id names, and every hand ends."""
    hands = plan_hands(7, seed=1)
    assert [h.injection for h in hands] == [*ORDER, None]
    table = Table(demo_registry(default_registry()))
    seq = 0
    for hand in hands:
        rules: list[str] = []
        ends = 0
        for step in hand.steps:
            for event in expected_events(step):
                seq += 1
                for d in table.feed(event, seq=seq):
                    rules += [d.rule] if isinstance(d, Incident) else []
                    ends += isinstance(d, HandEnd)
        assert ends == 1, f"hand {hand.number} ends once"
        expected = EXPECTED_RULES[hand.injection] if hand.injection else ()
        assert set(rules) == set(expected), (hand.number, hand.injection, rules)
    duplicate = hands[ORDER.index(Injection.DUPLICATE_CARD)]
    assert any(isinstance(s, FloorClears) for s in duplicate.steps)
    unplugged = hands[ORDER.index(Injection.SHOE_UNPLUGGED)]
    assert sum(1 for s in unplugged.steps if isinstance(s, Deal) and not s.wait) == 4


def test_with_a_rake_the_same_incidents_and_every_hand_raked_within_the_cap() -> None:
    """The demo's default: 004-GN r28 at its blinds, 10% up to 300. The injections are caught
    as before; each hand that is not void pays 10% of its pot, never more than 300."""
    hands = plan_hands(7, seed=1, rake=DEMO_RAKE)
    table = Table(demo_registry(default_registry()))
    seq = 0
    for hand in hands:
        rules: list[str] = []
        ends: list[HandEnd] = []
        for step in hand.steps:
            for event in expected_events(step):
                seq += 1
                for d in table.feed(event, seq=seq):
                    rules += [d.rule] if isinstance(d, Incident) else []
                    ends += [d] if isinstance(d, HandEnd) else []
        expected = EXPECTED_RULES[hand.injection] if hand.injection else ()
        assert set(rules) == set(expected), (hand.number, hand.injection, rules)
        (end,) = ends
        assert end.rake is not None and isinstance(hand.steps[-1], DropRake)
        pot = sum(p.amount for p in end.pots)
        assert end.rake.total == (0 if end.void else min(pot // 10, 300)), hand.number


def test_the_plan_is_the_same_for_the_same_seed() -> None:
    assert plan_hands(3, seed=9) == plan_hands(3, seed=9)
    assert [h.source for h in plan_hands(3, seed=9)] != [h.source for h in plan_hands(3, seed=2)]


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.slow
def test_station_demo_two_hands_headless_with_frames(
    tmp_path: Path, station_cli: StationRun
) -> None:
    out, folder = tmp_path / "frames", tmp_path / "table"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "station.cli", "demo", "--hands", "2", "--headless",
         "--out", str(out), "--dir", str(folder)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )  # fmt: skip
    log = proc.stdout
    assert proc.returncode == 0, log + proc.stderr
    assert "hand 1 starts" in log and "injected: premature flop" in log
    assert "INCIDENT PREMATURE-FLOP [stop] seat" in log
    assert "INCIDENT PREMATURE-FLOP [redeal]" not in log  # one error, one incident
    assert "prompt: RESHUFFLE THE STUB, THEN PRESS STUB RESHUFFLE" in log
    assert "injected: boxed card" in log and "INCIDENT DECK-BOXED-SINGLE [replace]" in log
    assert re.search(r"^hand 2 ends: board .*; payouts seat \d+ \d+; rake \d+", log, re.M), log
    # The house rakes (MISC-TIME-COLLECTION): DROP n, the dealer drops n through the board's
    # rake zone (zone 0 over the real link), and the station finds the drop right.
    drops = re.findall(r"^  prompt: DROP (\d+)$", log, re.M)
    assert drops and re.findall(r"^  dealer sets (\d+) aside in the rake zone", log, re.M) == drops
    assert "WRONG DROP" not in log
    assert "demo: ok" in log.splitlines()[-1]

    frames = sorted(out.glob("*.png"))
    screens = {p.stem.split("-", 1)[1] for p in frames}  # every screen at both panel sizes
    names = {"dealer", "floor", "recall", "diagnostics", "pin"}
    assert screens == {f"{n}-{size}" for n in names for size in ("10in", "7in")}
    assert all(_png_size(p) == (1280, 800) for p in frames if p.stem.endswith("-10in"))
    assert all(_png_size(p) == (800, 480) for p in frames if p.stem.endswith("-7in"))
    assert f"frames: {len(frames)} PNG file(s)" in log

    # What the demo played is recoverable from its journal as a replayable session.
    session = read_session(folder / "session.jsonl")
    assert sum(1 for line in session.lines if type(line.event).__name__ == "Setup") >= 2
    replay = station_cli("replay", str(folder / "session.jsonl"), "--json")  # in this process
    assert replay.returncode == 0
    assert (
        '"rule":"PREMATURE-FLOP"' in replay.stdout and '"rule":"DECK-BOXED-SINGLE"' in replay.stdout
    )
    assert "replays to the same" in log
    rake_zone = [line for line in session.lines if type(line.event).__name__ == "RakeZone"]
    assert rake_zone, "the rake-zone readings are in the journal and the exported session"
    report = subprocess.run(
        [sys.executable, "-m", "station.cli", "report", "rake", "--journal",
         str(folder / "journal.sqlite"), "--format", "json", "--tz", "UTC"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    total = json.loads(report.stdout)["total"]
    assert total["hands"] == 2 and total["rake"] == sum(int(d) for d in drops)
    # The demo's dealer signed in on the dealer screen's path: the hands are theirs.
    assert "  dealer1 signs in as the dealer with a PIN" in log
    by_dealer = station_cli("report", "rake", "--journal", str(folder / "journal.sqlite"),
                            "--format", "json", "--tz", "UTC", "--by", "dealer")  # fmt: skip
    assert by_dealer.returncode == 0, by_dealer.stderr
    rows = json.loads(by_dealer.stdout)["rows"]
    assert [(r["dealer"], r["hands"], r["rake"]) for r in rows] == [("dealer1", 2, total["rake"])]
    journal_files = sorted(p for p in folder.iterdir() if p.name.startswith("journal.sqlite"))
    assert {p.name for p in journal_files} >= {"journal.sqlite", "journal.sqlite-head"}
    assert {stat.S_IMODE(p.stat().st_mode) for p in journal_files} == {0o600}


def test_station_demo_refuses_a_folder_that_holds_a_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from station.cli import main

    (tmp_path / "journal.sqlite").write_bytes(b"")
    assert main(["demo", "--dir", str(tmp_path), "--headless"]) == 2
    assert "already holds a demo journal" in capsys.readouterr().err
    assert main(["demo", "--hands", "0"]) == 2
