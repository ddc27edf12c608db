"""`station demo --headless --out DIR`: its frames show the board on every street of every hand
and the winners at every hand's end, checked against the snapshots the frames were drawn from
(`DIR/frames.jsonl`) and against the session the demo recorded, replayed through the engine. The
README's screenshots are picked from the same kind of run (`station.demo.shots`): each is
checked here as every screen is, at both panel sizes."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from station.demo import shots
from station.demo.run import DemoOptions, run_demo
from station.display.panel import PANEL_7, PANEL_10_1
from station.display.table_shape import table_for
from station.engine.decisions import HandEnd
from station.engine.table import Table
from station.formats.session import read_session
from tests.display.screen_check import problems, reads

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Demo:
    folder: Path
    out: Path
    recording: shots.Recording
    log: str


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    folder, out = tmp_path_factory.mktemp("table"), tmp_path_factory.mktemp("frames")
    recording = shots.Recording()
    log = io.StringIO()
    status = run_demo(DemoOptions(6, folder, headless=True, out=out), log, watch=recording)
    assert status == 0, log.getvalue()
    return Demo(folder, out, recording, log.getvalue())


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


def test_the_frames_show_every_street_and_every_hands_winners(demo: Demo) -> None:
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


def test_a_frame_after_a_hands_end_shows_its_winners(demo: Demo) -> None:
    """The winners stay on the screen from the hand's end until the next hand's posts."""
    frames = [json.loads(line) for line in (demo.out / "frames.jsonl").read_text().splitlines()]
    for f in frames:
        if f["phase"] == "ended":
            assert "paid" in f, f


@pytest.mark.parametrize("panel", [PANEL_10_1, PANEL_7], ids=["10in", "7in"])
def test_the_screenshots_are_real_screens_every_text_readable(demo: Demo, panel: object) -> None:
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
