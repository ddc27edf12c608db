"""Decisions: what the station concludes from the input events. Pure.

`Incident`, `Prompt` and `HandEnd` are the public output of `station replay --json`
(docs/session-format.md); `DrawRole` and `Action` are trace records, printed only with `--trace`.
Every record names the hand and the 1-based sequence number of the input event that caused it.

The records are immutable: frozen dataclasses, and named tuples for the three the engine builds
on nearly every event (`Prompt`, `DrawRole`, `Action`: a named tuple is built in a fifth of the
time of a frozen dataclass, which sets each field through `object.__setattr__`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from station.engine.rake import RakeResult


class Ruling(StrEnum):
    """The fixed ruling vocabulary (documented in docs/session-format.md)."""

    MISDEAL = "misdeal"  # reshuffle and redeal the same hand
    PLAY_ON = "play_on"  # the hand continues as dealt
    VOID = "void"  # all action void, every wager back to its owner
    DEAD_HAND = "dead_hand"  # one seat's hand is dead
    STOP = "stop"  # stop dealing: betting is not complete
    REPLACE = "replace"  # a card is replaced (boxed, exposed, joker)
    REDEAL = "redeal"  # the street is redealt after the stub is reshuffled
    CORRECT_BET = "correct_bet"  # a wager must be brought to the right amount
    FLOOR = "floor"  # a floor supervisor must rule
    WARNING = "warning"  # noted and shown; no change to the hand
    BURN = "burn"  # a card becomes the burn card (burn-error repair)
    TECHNICAL = "technical"  # equipment fault (link down, unknown tag)
    FORFEIT = "forfeit"  # a refund stays in the pot for the next deal (DECK-DEFECT-FREEROLL)


class PromptCode(StrEnum):
    """What kind of step a prompt asks for; the text is what the dealer reads."""

    POST = "post"
    DEAL = "deal"
    BURN_AND_DEAL = "burn_and_deal"
    ACTION = "action"
    SHOWDOWN = "showdown"
    COLLECT = "collect"
    RECOVERY = "recovery"
    BUTTON = "button"
    INFO = "info"
    DROP = "drop"  # the house's rake: take it from the pot and drop it, before the push
    TIME = "time"  # time collection from the seats (MISC-TIME-COLLECTION)


@dataclass(frozen=True, slots=True)
class Incident:
    hand: int
    rule: str  # catalog rule id, or a STATION-* id for equipment faults
    ruling: Ruling
    text: str
    event: int
    seat: int | None = None
    seats: tuple[int, ...] = ()
    citation: str = ""
    events: tuple[int, ...] = ()  # every input event that contributed, in order


class Prompt(NamedTuple):
    hand: int
    text: str
    event: int
    code: PromptCode = PromptCode.INFO


@dataclass(frozen=True, slots=True)
class PotPart:
    """A share of one pot decided on its own: a hi-lo pot's high or low half, a double-board
    pot's board ("board 1 high", ...)."""

    name: str
    amount: int
    won: Mapping[int, int]
    named: str = ""  # its winning hand as announced ("FLUSH, ACE HIGH", "LOW 8-6"); screen only


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    won: Mapping[int, int]
    # The winning hand as the dealer announces it ("FLUSH, ACE HIGH"; hi-lo "… / LOW 8-6"),
    # when the pot went to a showdown; "" when it was won uncontested. Screen only: not part of
    # `station replay --json` (whose hand_end keeps its shape).
    named: str = ""
    # When the pot was decided in parts (split pots). Left out of the repr, which the replay
    # corpus digests: a result without parts reads as it always has.
    parts: tuple[PotPart, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class HandEnd:
    hand: int
    event: int
    board: tuple[str, ...]
    pots: tuple[PotResult, ...]
    payouts: Mapping[int, int]
    void: bool = False
    stacks: Mapping[int, int | None] = field(default_factory=dict)
    boards: tuple[tuple[str, ...], ...] = ()  # every board when run more than once
    shown: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # tabled hands
    rake: RakeResult | None = None  # the house's take, when the table has a rake schedule
    # JACKS-OR-BETTER: nobody opened; the antes stay in the pot for the next deal (out of the
    # repr, so the recorded snapshot digests of every other hand stay as they were)
    carried: int = field(default=0, repr=False)
    # Tournament: the players who went broke in this hand, each with the chips he started it
    # with, the one who finishes higher first (TOURN-ELIMINATION-ORDER).
    eliminated: tuple[tuple[int, int], ...] = ()


class DealSlot(StrEnum):
    """The slot one draw fills in the dealing sequence (catalog section 1, deal sequence model).
    Journaled and exported as the `role` of a `DrawRole` decision: the strings never change."""

    HOLE = "hole"  # flop and draw games: initial face-down card for a seat
    DOWN = "down"  # stud: face-down card for a seat
    UP = "up"  # stud: face-up card for a seat
    BURN = "burn"
    BOARD = "board"
    DRAW = "draw"  # draw games: a card dealt on the draw
    REPLACEMENT = "replacement"  # replaces an exposed, boxed or joker card
    SCRAP = "scrap"  # boxed card or joker not in use: a meaningless scrap of paper
    PREMATURE = "premature"  # dealt before the betting round was complete; does not play
    ELIMINATED = "eliminated"  # stud premature-card procedure
    STRAY = "stray"  # a card the sequence has no place for (after the hand, extra cards)
    BUTTON_DRAW = "button_draw"  # face up, one per player, to decide the first button
    AUDIT = "audit"  # a card run through the shoe to check the deck between hands
    RACE = "race"  # a chip-race card (TOURN-CHIP-RACE)


class ActionKind(StrEnum):
    ANTE = "ante"
    SMALL_BLIND = "sb"
    BIG_BLIND = "bb"
    STRADDLE = "straddle"
    POST = "post"  # other forced posts: missed blinds, new-player posts, kills
    BRING_IN = "bring_in"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"  # limit: bring-in or short all-in completed to a full bet
    SHOW = "show"  # TABLED at showdown
    MUCK = "muck"
    DRAW = "draw"  # draw games: stood pat (0) or exchanged cards (`amount` = cards)
    DISCARD = "discard"  # Pineapple, Super Stud: cards discarded, none replaced (`amount`)


class DrawRole(NamedTuple):
    """Trace: the role the engine gave one draw."""

    hand: int
    event: int
    card: str
    role: DealSlot
    seat: int | None = None
    street: int = 0  # betting round the card belongs to (0 = initial deal)
    board: int = 0  # a board card of the second board (double-board games): 1


class Action(NamedTuple):
    """Trace: one betting action as the engine understood it."""

    hand: int
    event: int
    seat: int
    action: ActionKind
    amount: int = 0  # the seat's street total after the action ("to" amount)
    allin: bool = False


Decision = Incident | Prompt | HandEnd | DrawRole | Action
