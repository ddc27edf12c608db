"""What happens next in a hand: the steps a rule module returns to the hand's dispatcher. Pure.

A rule module never calls back up into the flow of the hand (a fold that closes the round, an
out-of-turn action that now binds, a reshuffle that lets the street be dealt): it returns the
steps that follow, in order, and `station.engine.dispatch.run` carries them out, each to the
end before the next, exactly as if they had been called there. So the modules import only
downwards and the engine's import graph has no cycle.

`Then` carries the rest of a rule that must wait for the steps before it (a wager remembered
for a verbal declaration once the action it closed has been followed through); `then(steps,
go)` runs `go` at once when there is nothing to wait for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OpenRound:
    """The cards of `hand.street` are out: its betting round opens (`rounds.open_round`)."""

    seq: int


@dataclass(frozen=True, slots=True)
class ShortDeal:
    """MISDEAL-WRONG-CARD-COUNT: the first round opens with the last starting card still due."""

    seq: int


@dataclass(frozen=True, slots=True)
class StreetDealt:
    """The street's cards are out after a correction: its betting round opens."""

    seq: int


@dataclass(frozen=True, slots=True)
class AfterAction:
    """An action was booked: close the round or the hand, or apply a held action."""

    seq: int


@dataclass(frozen=True, slots=True)
class TellNotReopened:
    """BET-INFO-RIGHTS: tell the seat to act that the betting was not reopened."""

    seq: int


@dataclass(frozen=True, slots=True)
class Resume:
    """STUB_RESHUFFLE done: deal what the recovery was holding back."""

    seq: int


@dataclass(frozen=True, slots=True)
class Fold:
    seat: int
    seq: int


@dataclass(frozen=True, slots=True)
class Check:
    seat: int
    seq: int


@dataclass(frozen=True, slots=True)
class Wager:
    seat: int
    total: int
    seq: int


@dataclass(frozen=True, slots=True)
class Then:
    """The rest of the rule that returned it, once the steps before it are done."""

    go: Callable[[], Steps]


Step = (
    OpenRound
    | ShortDeal
    | StreetDealt
    | AfterAction
    | TellNotReopened
    | Resume
    | Fold
    | Check
    | Wager
    | Then
)
Steps = tuple[Step, ...]
NOTHING: Steps = ()


def then(steps: Steps, go: Callable[[], Steps]) -> Steps:
    """`steps`, then `go`: at once when there is nothing to wait for."""
    return (*steps, Then(go)) if steps else go()
