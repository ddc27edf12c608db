"""`station demo --headless --out DIR`: its frames show the board on every street of every hand
and the winners at every hand's end, checked against the snapshots the frames were drawn from
(`DIR/frames.jsonl`) and against the session the demo recorded, replayed through the engine. The
README's screenshots are picked from the same kind of run (`station.demo.shots`): each is
checked here as every screen is, at both panel sizes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.demo import shots
from station.display.frames import drawn_from
from station.display.panel import PANEL_7, PANEL_10_1
from station.display.screens import DisplayInputs
from station.display.table_shape import table_for
from station.engine.decisions import HandEnd
from station.engine.table import Table
from station.formats.session import read_session
from tests.conftest import DemoRun
from tests.display.every_screen import (
    dealer_pages,
    diag_pages,
    floor_pages,
    pin_pages,
    signin_pages,
)
from tests.display.screen_check import problems, reads

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # (a loaded machine: the demo)


@pytest.fixture
def demo(demo_run: DemoRun) -> DemoRun:
    """The session's demo run (tests/conftest.py): six hands with `--out`."""
    return demo_run


def _truth(folder: Path) -> tuple[dict[int, set[tuple[str, ...]]], dict[int, dict[str, int]]]:
    """What the recorded session says: each hand's boards street by street, and its payouts."""
    boards: dict[int, set[tuple[str, ...]]] = {}
    paid: dict[int, dict[str, int]] = {}
    table = Table()
    for line in read_session(folder / "session.jsonl").lines:
        for d in table.feed(line.event, seq=line.line, at=line.t):
            if isinstance(d, HandEnd):
                paid[d.hand] = {str(s): c for s, c in d.payouts.items() if c}
        snap = table.snapshot()
        if snap.board:
            boards.setdefault(snap.hand, set()).add(snap.board)
    return boards, paid


def test_the_frames_show_every_street_and_every_hands_winners(demo: DemoRun) -> None:
    frames = [json.loads(line) for line in (demo.out / "frames.jsonl").read_text().splitlines()]
    assert all((demo.out / f["file"]).exists() for f in frames)
    boards, paid = _truth(demo.folder)
    assert len(paid) == 6, "six hands ended"
    shown = {(f["hand"], tuple(f["board"])) for f in frames}
    for hand, seen in boards.items():
        for length in {len(b) for b in seen}:  # the flop, the turn, the river as dealt
            wanted = {b for b in seen if len(b) == length}
            assert wanted & {b for h, b in shown if h == hand}, (hand, length, wanted)
    for hand, payouts in paid.items():
        ends = [f for f in frames if f["hand"] == hand and "paid" in f]
        assert ends, f"hand {hand}: no frame shows who was paid"
        assert ends[0]["paid"] == payouts, hand


def test_a_frame_after_a_hands_end_shows_its_winners(demo: DemoRun) -> None:
    """The winners stay on the screen from the hand's end until the next hand's posts."""
    frames = [json.loads(line) for line in (demo.out / "frames.jsonl").read_text().splitlines()]
    for f in frames:
        if f["phase"] == "ended":
            assert "paid" in f, f


@pytest.mark.parametrize("panel", [PANEL_10_1, PANEL_7], ids=["10in", "7in"])
def test_the_screenshots_are_real_screens_every_text_readable(demo: DemoRun, panel: object) -> None:
    rec = demo.recording
    table = table_for(s.seat for s in rec.seen[-1].snapshot.seats)
    showdown = shots.side_pot_showdown()
    models = shots.shot_models(rec, showdown, panel, table)  # type: ignore[arg-type]
    names = {name for name, _ in models}
    assert names >= {"preflop-action", "stop-recovery", "exposed-card", "showdown-side-pots",
                     "between-hands", "floor-incident", "diagnostics"}  # fmt: skip
    for (name, page), model in models.items():
        assert problems(model, panel) == [], (name, page)  # type: ignore[arg-type]
    picked = shots.pick(rec)
    stop = picked["stop-recovery"][1].snapshot
    assert stop.stop is not None  # the engine's own STOP, as the demo's core published it
    stop_pages = [m for (n, _), m in models.items() if n == "stop-recovery"]
    assert any(reads(m, stop.stop.text) for m in stop_pages)
    assert showdown.result is not None and len(showdown.result.pots) == 2


def test_every_screen_of_the_demo_is_whole_at_both_panel_sizes(demo: DemoRun) -> None:
    """Every screen and page the demo's session can show (the dealer screen and its pages, the
    sign-in, every floor page: the incident list, each incident, its ruling picker, the recent
    hands, each hand's recall at each step, the screen keys; every diagnostics page; the PIN
    pad), from everything the core published, at both panel sizes: no text cut, left out,
    off its box or over another; every bet and the button puck clearly its own seat's."""
    rec = demo.recording
    table = table_for(s.seat for s in rec.seen[-1].snapshot.seats)
    found: set[str] = set()
    checked = 0
    for panel in (PANEL_10_1, PANEL_7):
        models = list(pin_pages(panel))
        last: dict[str, object] = {}
        done: set[object] = set()  # incidents and hands whose floor pages are drawn
        for seen in rec.seen:
            inputs = DisplayInputs(seen.snapshot, seen.floor, seen.diag, seen.status, table)
            keys = {
                "dealer": (seen.snapshot, seen.status),
                "floor": (seen.floor, seen.snapshot.floor_call, seen.snapshot.seats),
                "diag": seen.diag,
            }
            for kind, key in keys.items():  # each kind of screen drawn again only on change
                if last.get(kind) == key:
                    continue
                last[kind] = key
                match kind:
                    case "dealer":
                        models += dealer_pages(inputs, panel)
                        models += signin_pages(inputs, panel)
                    case "floor":
                        models += floor_pages(inputs, panel, done)
                    case _:
                        models += diag_pages(inputs, panel)
        checked += len(models)
        for m in dict.fromkeys(models):  # (a screen drawn alike again is checked once)
            found |= {f"{panel.name} {m.screen}: {p}" for p in problems(m, panel)}
    assert checked > 1000
    assert not found, f"{len(found)} problems, the first 30:\n" + "\n".join(sorted(found)[:30])


# A seat in the hand always has its stack drawn; any other has it, or (where the seat boxes are
# small: `seat_ring.Density`) its state in words instead.
PLAYING = ("TO ACT", "IN HAND", "READY")


def test_every_dealer_frame_is_a_moment_of_the_session_replayed(demo: DemoRun) -> None:
    """Each dealer frame the demo wrote (`frames.jsonl`: the hand, the board, the button, the
    chips in the pots and in front, each seat's stack, as drawn) is a moment of the demo's
    recorded session replayed through the engine, in order; while a hand's result is on show
    its puck is that hand's own button; and each seat's stack is among the frame's texts where
    the table is drawn."""
    frames = [json.loads(line) for line in (demo.out / "frames.jsonl").read_text().splitlines()]
    table = Table()
    moments = [drawn_from("", table.snapshot())]
    owners: list[int | None] = [None]
    for line in read_session(demo.folder / "session.jsonl").lines:
        table.feed(line.event, seq=line.line, at=line.t)
        snap = table.snapshot()
        moments.append(drawn_from("", snap))
        owners.append(next((s.seat for s in snap.seats if s.button), None))
    fields = ("hand", "phase", "street", "board", "stop", "button", "pot", "stacks", "bets",
              "states", "blinds")  # fmt: skip
    for panel in ("10in", "7in"):
        at = 0
        for f in (f for f in frames if f["panel"] == panel):
            want = {k: f[k] for k in fields} | {k: f[k] for k in ("paid", "void") if k in f}
            start = at
            while at < len(moments) and {k: moments[at].get(k) for k in want} != want:
                at += 1
            assert at < len(moments), f"{f['file']}: no moment after #{start} shows {want}"
            if "paid" in f and f["phase"] == "ended" and f["button"] is not None:
                assert f["button"] == owners[at], f"{f['file']}: the puck is not the hand's own"
            if panel == "10in":  # the whole table on one screen: every seat is drawn
                texts = f["texts"]
                for seat, word in f["states"].items():
                    stack = f["stacks"].get(seat)
                    plays = word in PLAYING or f["stacks"].get(seat) is None
                    assert word in texts or (stack is not None and str(stack) in texts), (
                        f["file"], seat, word)  # fmt: skip
                    assert not plays or stack is None or str(stack) in texts, (f["file"], seat)
                for seat, bet in f["bets"].items():
                    assert str(bet) in texts, (f["file"], seat, bet)
