"""A mixed-game session dealt through the physical path (issue 29): the eight-game rotation of
tests/scenarios/BUTTON-METHOD/rr11_eight_game_rotation_played_to_showdowns.jsonl, every chip
stack put in the emulated bet zones, every card through the emulated shoe (over real ptys),
every key on the mock key panel, the daemon's core deciding, as `station demo` plays. At every
change of game the forced bets are the ones that game takes (blinds where the frozen or moving
button puts them, antes and a bring-in in stud), and the daemon decides exactly what the
session replayed in the engine alone decides.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from station.daemon.daemon import Overrides
from station.daemon.news import Recorded
from station.daemon.sink import NullSink
from station.demo.dealer import Dealer, Watcher
from station.demo.livelog import LiveLog
from station.demo.plan import PlannedHand
from station.demo.rig import Rig
from station.demo.steps import Chips, Collect, Deal, Press, Reseat, Step, forced_bet_chips
from station.engine.cards import default_registry
from station.engine.decisions import Action, ActionKind, HandEnd, Incident, Prompt
from station.engine.events import Draw, Key, KeyPress, Setup, Zone
from station.engine.games import Family, game_spec
from station.engine.table import Table
from station.formats.decisions import decision_to_dict, is_public
from station.formats.session import read_session
from tests.daemon.conftest import Running, start_daemon

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests/scenarios/BUTTON-METHOD/rr11_eight_game_rotation_played_to_showdowns.jsonl"


def _plan(events: list[object]) -> list[PlannedHand]:
    """The session as the dealer's steps, one planned hand per NEW_HAND (its forced bets, put
    in before the key, with a chip of the unit among them as a dealer asks for them)."""
    steps: list[Step] = []
    forced_from = 0
    for event in events:
        match event:
            case Setup():
                steps.append(Reseat(event))
            case Zone(seat=seat, amount=0):
                if steps and isinstance(steps[-1], Collect):
                    steps[-1] = Collect((*steps[-1].seats, seat))
                else:
                    steps.append(Collect((seat,)))
            case Zone(seat=seat, amount=amount):
                steps.append(Chips(seat, amount))
            case Draw(card=card, face_up=face_up) if card is not None:
                steps.append(Deal(card, face_up))
            case KeyPress(key=Key.NEW_HAND):
                for i in range(forced_from, len(steps)):
                    step = steps[i]
                    if isinstance(step, Chips):
                        steps[i] = Chips(step.seat, step.amount, forced_bet_chips(step.amount, 1))
                steps.append(Press(event))
                forced_from = len(steps)
            case KeyPress():
                steps.append(Press(event))
            case _:
                raise AssertionError(f"unexpected line: {event}")
    # Cut the steps into hands: each hand's steps end where the next hand's forced bets start
    # (the first chips after the last card and key of the hand before).
    cuts = [i for i, s in enumerate(steps) if isinstance(s, Press) and s.key.key is Key.NEW_HAND]
    bounds = [0]
    for cut in cuts[1:]:
        j = cut
        while j > 0 and isinstance(steps[j - 1], Chips | Collect):
            j -= 1
        bounds.append(j)
    bounds.append(len(steps))
    return [
        PlannedHand(n + 1, "eight-game rotation", None, tuple(steps[bounds[n] : bounds[n + 1]]))
        for n in range(len(cuts))
    ]


@pytest.fixture
def session_events() -> list[object]:
    return [line.event for line in read_session(SESSION).lines]


@pytest.fixture
def rig(tmp_path: Path, session_events: list[object]) -> Iterator[Rig]:
    setup = session_events[0]
    assert isinstance(setup, Setup) and setup.rotation is not None
    table = Rig(tmp_path / "table", setup)
    table.start()
    table.enrol_people()
    yield table
    table.stop()


def _replayed(events: list[object]) -> list[dict[str, object]]:
    table = Table(default_registry())
    out = []
    for seq, event in enumerate(events, start=1):
        out += [decision_to_dict(d) for d in table.feed(event, seq=seq) if is_public(d)]  # type: ignore[arg-type]
    return out


def _comparable(d: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in d.items() if k not in ("event", "events", "t")}


# The whole rotation through the emulated table takes about 75 s of a worker: with the benches'
# big runs in `./dev test --full` (and .ci/run); the same session replays through the engine in
# every run (tests/scenarios, the replay corpus).
@pytest.mark.slow
@pytest.mark.full
def test_an_eight_game_rotation_is_dealt_through_the_table(
    rig: Rig, daemons: list[Running], session_events: list[object]
) -> None:
    hands = _plan(session_events)
    assert len(hands) == 26
    watcher = Watcher()
    overrides = Overrides(
        factories=rig.factories, display=NullSink(), observers=[watcher], environ={}
    )
    running = start_daemon(rig.config_path, overrides)
    daemons.append(running)
    dealer = Dealer(rig, running.daemon.inbox, watcher, LiveLog(io.StringIO()))
    dealer.wait_links()
    dealer.play(hands)
    assert running.stop() == "test over"

    # (The station.toml's table, seated when the daemon starts, is the rotation's first setup
    # again: the floor's re-seat from the session repeats it.)
    recorded = [n for n in watcher.news if isinstance(n, Recorded) and n.actor != "config"]
    decisions = [d for n in recorded for d in n.decisions]
    assert not [d for d in decisions if isinstance(d, Incident)]
    ends = [d for d in decisions if isinstance(d, HandEnd)]
    assert len(ends) == 26

    # The daemon decided what the engine decides on the session alone.
    daemon_side = [_comparable(decision_to_dict(d)) for d in decisions if is_public(d)]
    alone = [_comparable(d) for d in _replayed(session_events)]
    assert daemon_side == alone

    # Every hand's forced bets are its game's: the game named at each change, blinds from the
    # two seats left of the button in a button game, an ante from everyone and one bring-in in
    # stud; the button frozen through the stud games.
    setup = session_events[0]
    assert isinstance(setup, Setup) and setup.rotation is not None
    rotation = [g.game for g in setup.rotation.games]
    changes = [
        d.text for d in decisions if isinstance(d, Prompt) and d.text.startswith("NEXT GAME")
    ]
    assert len(changes) == len(rotation)  # seven changes and back to the first game
    assert hands[0].steps[0] == Reseat(setup)
    buttons: list[int] = []
    hand = 0
    for before, news in pairwise(recorded):
        if not (isinstance(news.event, KeyPress) and news.event.key is Key.NEW_HAND):
            continue
        hand += 1
        game = rotation[(hand - 1) // 3 % len(rotation)]
        due = before.snapshot.next_hand
        assert due is not None
        assert all(p.posted >= p.amount for p in due.posts), (hand, due.posts)
        kinds = sorted((p.kind.value, p.seat) for p in due.posts)
        bring_ins = [
            d.seat
            for d in decisions
            if isinstance(d, Action) and d.hand == hand and d.action is ActionKind.BRING_IN
        ]
        if game_spec(game).family is Family.STUD:
            assert due.button is None and kinds == [("ANTE", 1), ("ANTE", 2), ("ANTE", 3)]
            assert len(bring_ins) == 1, (hand, bring_ins)
        else:
            assert due.button is not None and not bring_ins
            small, big = due.button % 3 + 1, (due.button + 1) % 3 + 1
            assert kinds == [("BB", big), ("SB", small)], (hand, game, due)
            buttons.append(due.button)
    # hold'em 3 1 2, Omaha 3 1 2, stud (frozen), NL 3 1 2, PLO 3 1 2, DBO 3 1 2, hold'em 3 1
    assert buttons == [3, 1, 2] * 5 + [3, 1]
