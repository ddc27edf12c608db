"""Hand-for-hand across tables: when the centre releases the next round, and when a round is
over. Pure.

While hand-for-hand is on, every table deals one hand per round and holds before the next
(`tournament.holding` {round}, the station's tournament desk). The centre releases round r
(`tournament.release` {round: r}) once every table in play holds for it between hands; round r
is over when every one of them holds for round r + 1 (its hand of round r has ended), and its
players out are then placed together (`places`). A table with fewer than two players deals no
hand and is not waited for. The rulebooks mention dealing hand-for-hand (001-RR11 §16 #1) but
give it no procedure; this is the floor's practice the issue asks for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableRound:
    """A table's hand-for-hand state as its journal says."""

    holding: int  # the round it last said it holds for (0: none)
    in_hand: bool
    players: int


@dataclass(frozen=True, slots=True)
class RoundState:
    on: bool
    round: int  # the round waiting for its release, or in play
    released: bool


@dataclass(frozen=True, slots=True)
class RoundStep:
    complete: int | None  # a round now over
    release: int | None  # a round to release now
    state: RoundState  # the state after the step


def _dealing(tables: Mapping[str, TableRound]) -> list[TableRound]:
    return [t for t in tables.values() if t.players >= 2]


def step(state: RoundState, tables: Mapping[str, TableRound]) -> RoundStep:
    """What the centre does now, given every table in play."""
    if not state.on:
        return RoundStep(None, None, state)
    dealing = _dealing(tables)
    complete = None
    if state.released:
        if not all(t.holding >= state.round + 1 and not t.in_hand for t in dealing):
            return RoundStep(None, None, state)
        complete = state.round
        state = RoundState(True, state.round + 1, False)
    if all(t.holding >= state.round and not t.in_hand for t in dealing) and dealing:
        return RoundStep(complete, state.round, RoundState(True, state.round, True))
    return RoundStep(complete, None, state)


def waiting_for(state: RoundState, tables: Mapping[str, TableRound]) -> list[str]:
    """The tables the centre waits for (the console says which)."""
    if not state.on:
        return []
    want = state.round + 1 if state.released else state.round
    return sorted(
        name for name, t in tables.items() if t.players >= 2 and (t.holding < want or t.in_hand)
    )
