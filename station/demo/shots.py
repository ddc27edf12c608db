"""The screenshots in docs/screenshots, drawn from real engine sessions:
`python -m station.demo.shots --out docs/screenshots`. Edge adapter (files, pygame, the demo).

Nothing here is a hand-written text: every screen is drawn from what a session gave the screens.
The emulated table of `station demo` plays its six real PHH hands through the daemon's own core
(the premature flop, the boxed card, the exposed card, the misdeal, the duplicate card and the
floor's sign-in, the shoe unplugged), and everything the core publishes to the screens is
recorded; the shots are picked from that record. A showdown with side pots comes from the PHH
sample too (the demo's six-handed hands have none): a 2023 WSOP Omaha hi-lo hand whose two pots
are split, replayed through the engine; a Double Board Omaha showdown, each board's half to its
own winner, from the recorded session `station/data/sessions/double-board-showdown.jsonl`. A
Drawmaha hand (its draw and its split pot) is a short session written out here and replayed
through the engine the same way. Each shot is written for the 10.1" and the 7" panel;
where the 7" panel needs more than one page for a screen, each page is written (`-alerts`,
`-seats`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

from station.display.dealer_view import Middle, StationStatus, dealer_view
from station.display.diag_view import DiagnosticsData
from station.display.floor_cursor import FloorCursor
from station.display.floor_view import FloorData
from station.display.model import ScreenModel
from station.display.nav import NavState, Screen
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.pinpad import PadAccess
from station.display.screens import DisplayInputs, screen_model
from station.display.table_shape import TableShape, table_for
from station.engine.decisions import HandEnd
from station.engine.snapshot import Phase, TableSnapshot

PANELS: dict[str, PanelConfig] = {"10in": PANEL_10_1, "7in": PANEL_7}
SIDE_POT_HAND = "wsop/2023/43/5/03-36-22"  # Omaha hi-lo: two pots, each split high and low
DOUBLE_BOARD = "double-board-showdown"  # Double Board Omaha: each board's half to its winner
PAGES = {"dealer:details": (Screen.DETAILS, "alerts"), "dealer:seats": (Screen.SEATS, "seats")}


@dataclass(frozen=True, slots=True)
class Seen:
    """What the screens had been given when a snapshot came."""

    snapshot: TableSnapshot
    floor: FloorData
    diag: DiagnosticsData
    status: StationStatus


@dataclass
class Recording:
    """A display sink that keeps everything the core publishes (for picking shots)."""

    seen: list[Seen] = field(default_factory=list)
    floor: FloorData = field(default_factory=FloorData)
    diag: DiagnosticsData = field(default_factory=DiagnosticsData)
    status: StationStatus = field(default_factory=StationStatus)

    def publish(self, snapshot: TableSnapshot) -> int:
        self.seen.append(Seen(snapshot, self.floor, self.diag, self.status))
        return len(self.seen)

    def publish_floor(self, data: FloorData) -> None:
        self.floor = data

    def publish_diagnostics(self, data: DiagnosticsData) -> None:
        self.diag = data

    def publish_status(self, status: StationStatus) -> None:
        self.status = status


def play_demo(folder: Path) -> Recording:
    """Everything the demo's six hands gave the screens (about 15 s)."""
    from station.demo.run import DemoOptions, run_demo  # noqa: PLC0415 (the demo is heavy)

    recording = Recording()
    log = StringIO()
    if run_demo(DemoOptions(6, folder, headless=True), log, watch=recording) != 0:
        raise RuntimeError("the demo failed:\n" + log.getvalue())
    return recording


def side_pot_showdown() -> TableSnapshot:
    """The PHH sample's hand with side pots, replayed to its end."""
    from station.data import phh_sample  # noqa: PLC0415
    from station.engine.table import Table  # noqa: PLC0415
    from station.formats.session import parse_session  # noqa: PLC0415
    from station.phh.convert import convert_hand  # noqa: PLC0415
    from station.phh.reader import loads_phh  # noqa: PLC0415

    text = dict(phh_sample())[SIDE_POT_HAND]
    (hand,) = loads_phh(text, SIDE_POT_HAND, SIDE_POT_HAND)
    table = Table()
    for line in parse_session(convert_hand(hand, seed=0).text(), SIDE_POT_HAND).lines:
        if any(isinstance(d, HandEnd) for d in table.feed(line.event, seq=line.line, at=line.t)):
            return table.snapshot()
    raise RuntimeError(f"{SIDE_POT_HAND} never ended")


def _drawmaha_session() -> str:
    """A pot-limit Drawmaha High hand (004-GN §VIII) as the table records it: blinds 5/10, seat 1
    folds, seats 2 and 3 see a flop and a bet, seat 2 draws two, seat 3 one; seat 3's flush wins
    the Omaha half, seat 2's full house the draw half, the odd chip by position to seat 2."""
    import json  # noqa: PLC0415

    def z(seat: int, amount: int) -> dict[str, object]:
        return {"type": "zone", "seat": seat, "amount": amount}

    def k(key: str, seat: int | None = None, **kw: object) -> dict[str, object]:
        out: dict[str, object] = {"type": "key", "key": key, **kw}
        if seat is not None:
            out["seat"] = seat
        return out

    def d(cards: str) -> list[dict[str, object]]:
        return [{"type": "draw", "card": c} for c in cards.split()]

    lines: list[dict[str, object]] = [
        {"type": "setup", "game": "drawmaha-high-pl", "profile": "GN", "stakes": {"sb": 5,
         "bb": 10}, "seats": {"1": 1000, "2": 1000, "3": 1000}, "button": 3},
        z(1, 5), z(2, 10), k("NEW_HAND"),
        *d("Qs 7s Ah Qd 7c Kh Jc 6d 2c Tc 5h 3d 9h 8c 4s"),
        z(3, 10), k("FOLD", 1), k("CHECK", 2), z(1, 0), z(2, 0), z(3, 0),
        *d("2d Ks 7h 2h"), z(2, 20), z(3, 20), z(2, 0), z(3, 0),
        k("DRAW", 2, count=2, cards=["5h", "8c"]), k("DRAW", 3, count=1, cards=["4s"]),
        *d("3c Qh 7d 6s 5c"), k("CHECK", 2), k("CHECK", 3), *d("4c 9d"),
        k("CHECK", 2), k("CHECK", 3), k("TABLED", 2), k("TABLED", 3),
    ]  # fmt: skip
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def drawmaha_hand() -> tuple[TableSnapshot, TableSnapshot]:
    """The Drawmaha hand replayed: the table after the draw (the turn out, each seat's draw on
    show) and at its end (the pot split between the Omaha and the draw half)."""
    from station.engine.snapshot import Phase  # noqa: PLC0415
    from station.engine.table import Table  # noqa: PLC0415
    from station.formats.session import parse_session  # noqa: PLC0415

    table = Table()
    after_draw: TableSnapshot | None = None
    for line in parse_session(_drawmaha_session(), "drawmaha").lines:
        out = table.feed(line.event, seq=line.line, at=line.t)
        snap = table.snapshot()
        if (
            after_draw is None
            and snap.phase is Phase.BETTING
            and any(s.drew is not None for s in snap.seats)
        ):
            after_draw = snap
        if any(isinstance(d, HandEnd) for d in out):
            assert after_draw is not None
            return after_draw, snap
    raise RuntimeError("the Drawmaha hand never ended")


def session_end(name: str) -> TableSnapshot:
    """A recorded session shipped with the package (`station.data.session_text`), replayed to
    its first hand's end."""
    from station.data import session_text  # noqa: PLC0415
    from station.engine.table import Table  # noqa: PLC0415
    from station.formats.session import parse_session  # noqa: PLC0415

    table = Table()
    for line in parse_session(session_text(name), name).lines:
        if any(isinstance(d, HandEnd) for d in table.feed(line.event, seq=line.line, at=line.t)):
            return table.snapshot()
    raise RuntimeError(f"{name} never ended")


def _first(seen: list[Seen], wanted: Callable[[TableSnapshot], bool], what: str) -> Seen:
    found = next((s for s in seen if wanted(s.snapshot)), None)
    if found is None:
        raise RuntimeError(f"the demo never showed {what}")
    return found


def _first_seen(seen: list[Seen], wanted: Callable[[Seen], bool], what: str) -> Seen:
    found = next((s for s in seen if wanted(s)), None)
    if found is None:
        raise RuntimeError(f"the demo never showed {what}")
    return found


def _last(seen: list[Seen], wanted: Callable[[TableSnapshot], bool], what: str) -> Seen:
    return _first(list(reversed(seen)), wanted, what)


def pick(recording: Recording) -> dict[str, tuple[NavState, Seen]]:
    """The situations the README shows, from the demo's record."""
    seen = recording.seen
    dealer = NavState()
    final = seen[-1]

    def mid(s: TableSnapshot) -> Middle:
        return dealer_view(s).middle

    preflop = _first(
        seen,
        lambda s: s.hand >= 2 and s.street == "preflop" and s.to_act is not None and not s.alerts
        and any(x.bet for x in s.seats if x.blind == "") and s.recovery is None,
        "a preflop action",
    )  # fmt: skip
    stop = _first(seen, lambda s: s.stop is not None and s.recovery is not None, "a STOP")
    exposed = _first(
        seen, lambda s: any(a.incident.rule.startswith("EXPOSE-") for a in s.alerts), "exposure"
    )
    between = _first(
        seen,
        lambda s: s.hand >= 1 and mid(s) is Middle.NEXT_HAND
        and any(p.posted for p in (s.next_hand.posts if s.next_hand else ())),
        "the next hand's posts",
    )  # fmt: skip
    misdeal = _first(seen, lambda s: s.phase is Phase.MISDEAL, "a misdeal")
    named = _first(
        seen,
        lambda s: s.result is not None and any(p.named for p in s.result.pots)
        and mid(s) is Middle.RESULT,
        "a showdown's winning hand",
    )  # fmt: skip
    shoe_down = _first_seen(
        seen,
        lambda x: x.status.shoe_ok is False and x.snapshot.phase is not Phase.BETTING
        and x.snapshot.phase in (Phase.DEALING, Phase.STREET),
        "the shoe down during a hand",
    )  # fmt: skip
    incidents = final.floor.incidents
    duplicate = next((i for i, row in enumerate(incidents) if row.rule == "DECK-DUPLICATE-CARD"), 0)
    floor = NavState(Screen.FLOOR, role=PadAccess.FLOOR, floor=FloorCursor("incident", duplicate))
    exposed_row = next((i for i, row in enumerate(incidents) if row.rule.startswith("EXPOSE-")), 0)
    listed = NavState(Screen.FLOOR, role=PadAccess.FLOOR,
                      floor=FloorCursor("incidents", exposed_row, top=exposed_row))  # fmt: skip
    hands = final.floor.hands
    h, step = next(((h, i) for h, hand in enumerate(hands) for i, st in enumerate(hand.steps)
                    if "FACE-UP CARD" in st.text), (0, 0))  # fmt: skip
    recall = NavState(
        Screen.FLOOR, role=PadAccess.FLOOR, floor=FloorCursor("recall", hand=h, step=step)
    )
    diag = NavState(Screen.DIAG, role=PadAccess.TECHNICIAN)
    return {
        "preflop-action": (dealer, preflop),
        "stop-recovery": (dealer, stop),
        "exposed-card": (dealer, exposed),
        "between-hands": (dealer, between),
        "showdown-winner": (dealer, named),
        "misdeal": (dealer, misdeal),
        "shoe-down": (dealer, shoe_down),
        "floor-incident": (floor, final),
        "floor-list": (listed, final),
        "floor-recall": (recall, final),
        "diagnostics": (diag, final),
    }


def _models(nav: NavState, inputs: DisplayInputs, panel: PanelConfig) -> dict[str, ScreenModel]:
    """The screen, and on a small panel each further page of the dealer screen."""
    model = screen_model(nav, inputs, panel)
    out = {"": model}
    if nav.screen is not Screen.DEALER:
        return out
    while True:
        turn = next((a for a in model.actions() if a in PAGES and PAGES[a][1] not in out), None)
        if turn is None:
            return out
        screen, tag = PAGES[turn]
        model = screen_model(NavState(screen), inputs, panel)
        out[tag] = model


def shot_models(
    recording: Recording,
    showdown: TableSnapshot,
    panel: PanelConfig,
    table: TableShape,
    tournament: dict[str, tuple[NavState, Seen]] | None = None,
) -> dict[tuple[str, str], ScreenModel]:
    """Every shot for one panel: (name, page) -> screen model ("" for the first page)."""
    cases = {name: (nav, s.snapshot, s.floor, s.diag, s.status, table)
             for name, (nav, s) in pick(recording).items()}  # fmt: skip
    final = recording.seen[-1]
    links_up = StationStatus(shoe_ok=True, zones_ok=True)  # (a replay has no key panel)
    cases["showdown-side-pots"] = (
        NavState(), showdown, final.floor, final.diag, links_up,
        table_for(s.seat for s in showdown.seats),
    )  # fmt: skip
    boards = session_end(DOUBLE_BOARD)
    cases["double-board-showdown"] = (
        NavState(), boards, final.floor, final.diag, links_up,
        table_for(s.seat for s in boards.seats),
    )  # fmt: skip
    after_draw, split = drawmaha_hand()
    for name, snap in (("drawmaha-draw", after_draw), ("drawmaha-split", split)):
        cases[name] = (NavState(), snap, final.floor, final.diag, links_up,
                       table_for(s.seat for s in snap.seats))  # fmt: skip
    for name, (nav, s) in (tournament or {}).items():
        cases[name] = (nav, s.snapshot, s.floor, s.diag, s.status, table_for(range(1, 7)))
    out: dict[tuple[str, str], ScreenModel] = {}
    for name, (nav, snap, floor, diag, status, shape) in cases.items():
        inputs = DisplayInputs(snap, floor, diag, status, shape)
        for page, model in _models(nav, inputs, panel).items():
            out[name, page] = model
    return out


def write_shots(out_dir: str | Path, panels: Sequence[str] = tuple(PANELS)) -> list[Path]:
    from station.display.pgrender import render_png  # noqa: PLC0415 (lazy: pygame stays out of the core)

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="station-shots-") as tmp:
        recording = play_demo(Path(tmp))
    table = table_for(s.seat for s in recording.seen[-1].snapshot.seats)
    showdown = side_pot_showdown()
    from station.demo.tournament_shots import tournament_cases  # noqa: PLC0415 (a cycle)

    tournament = tournament_cases()
    written = []
    for tag in panels:
        panel = PANELS[tag]
        models = shot_models(recording, showdown, panel, table, tournament)
        for (name, page), model in models.items():
            file = f"{name}-{tag}-{page}.png" if page else f"{name}-{tag}.png"
            written.append(render_png(model, out / file, panel))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m station.demo.shots", description=__doc__)
    parser.add_argument("--out", required=True, help="directory for the PNG files")
    args = parser.parse_args(argv)
    for path in write_shots(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
