"""PREMATURE-*: in every supported game, a card off the shoe while a betting round is still open
raises STOP on that very draw, before the dealer can pull the next one (issue 6 must-show).

A small driver plays each game to the chosen betting round by following the station's own
snapshot (who is to act, what it costs), checking or calling; once one player has acted in that
round the dealer pulls a card early.
The expectation comes from the catalog, not from the engine: PREMATURE-FLOP/-TURN/-RIVER in
flop games, PREMATURE-STUD-STREET in stud games and PREMATURE-GENERAL in draw games all rule
"stop" (catalog §5) on the first card dealt before the betting is complete.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from station.engine.cards import STANDARD_DECK
from station.engine.games import GAMES, Family, Structure
from station.engine.snapshot import Phase
from tests.engine.tablekit import Run, draw, key, setup, zone

SEATS = (1, 2, 3)


def _rule(game: str, street: int) -> str:
    family = GAMES[game].family
    if family is Family.FLOP:
        # The card due after round `street`: a bomb pot's first round is on the flop.
        return f"PREMATURE-{GAMES[game].street_names()[street + 1].upper()}"
    return "PREMATURE-STUD-STREET" if family is Family.STUD else "PREMATURE-GENERAL"


def _stakes(game: str) -> dict[str, int]:
    spec = GAMES[game]
    if spec.family is Family.STUD:
        return {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
    if spec.bomb:
        return {"ante": 1, "bb": 2}
    if spec.structure is Structure.FIXED_LIMIT:
        return {"sb": 1, "bb": 2, "small_bet": 2, "big_bet": 4}
    return {"sb": 1, "bb": 2}


def _cases() -> Iterator[Any]:
    for game, spec in sorted(GAMES.items()):
        for street in range(spec.rounds - 1):  # a card is due after every round but the last
            yield pytest.param(game, street, id=f"{game}-round{street}")


class _Driver:
    """Deals, checks and calls by the snapshot, keeping the physical zones in step."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.spec = GAMES[game]
        self.run = Run()
        no = self.spec.no_ranks
        self.deck = iter(c.code for c in STANDARD_DECK if c.code != "JOKER" and c.rank not in no)
        self.zones: dict[int, int] = dict.fromkeys(SEATS, 0)
        self.stood_pat: set[int] = set()  # this draw round

    def start(self) -> None:
        stakes = _stakes(self.game)
        stud = self.spec.family is Family.STUD
        button = None if stud and not self.spec.dealer_button else 3
        self.run.feed(setup(self.game, dict.fromkeys(SEATS, 500), stakes=stakes, button=button))
        if "ante" in stakes:
            self.run.feed([zone(s, 1) for s in SEATS], [zone(s, 0) for s in SEATS])
        else:
            self.run.feed(zone(1, 1), zone(2, 2))
            self.zones.update({1: 1, 2: 2})
        self.run.feed(key("NEW_HAND"))

    def pull(self) -> list[dict[str, Any]]:
        return self.run.feed(draw(next(self.deck)))

    def act(self) -> None:
        snap = self.run.snap
        seat = snap.to_act
        assert seat is not None, f"{self.game}: betting open but nobody to act ({snap.next_step})"
        if snap.to_call == 0:
            self.run.feed(key("CHECK", seat))
            return
        total = self.zones[seat] + snap.to_call
        self.zones[seat] = total
        self.run.feed(zone(seat, total))

    def collect(self) -> None:
        """The dealer brings the finished round's chips in: every zone falls to 0."""
        for seat, amount in self.zones.items():
            if amount:
                self.run.feed(zone(seat, 0))
                self.zones[seat] = 0

    def discards_due(self) -> bool:
        hand = self.run.table.hand
        return hand is not None and bool(hand.discard.due)

    def discard(self) -> None:
        """Pineapple, Super Stud: each player in turn discards (the cards not named)."""
        hand = self.run.table.hand
        assert hand is not None
        seat = min(hand.discard.due)
        self.run.feed(key("DISCARD", seat, count=self.spec.discard))

    def stand_pat(self) -> None:
        """Draw games: the next player in turn (left of the button) keeps his cards. Once all
        have said so, Drawmaha's burn and turn are still due in the draw round (004-GN §VIII)."""
        seat = next((s for s in SEATS if s not in self.stood_pat), None)
        if seat is None:
            self.pull()
            return
        self.stood_pat.add(seat)
        self.run.feed(key("DRAW", seat, count=0))


@pytest.mark.parametrize(("game", "street"), list(_cases()))
def test_PREMATURE_first_early_card_stops_the_deal(game: str, street: int) -> None:
    d = _Driver(game)
    d.start()
    rounds_seen, acted, was_betting = -1, 0, False
    for _ in range(400):
        snap = d.run.snap
        betting = snap.phase is Phase.BETTING
        if betting and not was_betting:
            rounds_seen, acted = rounds_seen + 1, 0
        if was_betting and not betting:
            d.collect()
        if snap.phase is not Phase.DRAWING:
            d.stood_pat.clear()
        was_betting = betting
        # After one player has acted: a card at the very start of a round is an extra card of
        # the street just dealt (FLOP-TOO-MANY-CARDS, DEAL-EXTRA-CARD-*), not a premature one.
        # In stud the first thing on third street is the forced bring-in, not an action.
        needed = 2 if street == 0 and d.spec.family is Family.STUD else 1
        if betting and rounds_seen == street and acted >= needed:
            out = d.pull()
            stops = [x for x in out if x["type"] == "incident" and x["ruling"] == "stop"]
            assert stops, f"{game} round {street}: no STOP on the early card: {out}"
            assert stops[0]["rule"] == _rule(game, street), stops[0]
            assert d.run.snap.stop is not None, "the dealer screen shows the STOP"
            return
        if betting:
            d.act()
            acted += 1
        elif snap.phase is Phase.STREET and d.discards_due():
            d.discard()
        elif snap.phase in (Phase.DEALING, Phase.STREET):
            d.pull()
        elif snap.phase is Phase.DRAWING:
            d.stand_pat()
        else:
            pytest.fail(f"{game}: reached {snap.phase} before round {street}: {d.run.out[-3:]}")
    pytest.fail(f"{game}: the driver did not reach round {street}")
