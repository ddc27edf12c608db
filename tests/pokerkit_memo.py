"""PokerKit 0.7.7's hand evaluation kept instead of redone (pure; PokerKit is a test oracle only).

The oracle tests spend most of their CPU inside PokerKit working out the same answers again. Two
pure memos, each scoped (one hand, one block of a test), stop that without changing an answer:

1. `remember_hands(state)`, for the lockstep differential run. At the showdown PokerKit decides
   which hands to kill (`State._begin_hand_killing`, run whether or not hand killing is
   automated) by asking `State.can_win_now` for every player still in, and each of those calls
   evaluates every player's shown hand again (`get_up_hands`) on every board and hand type: the
   same evaluations once per live player (300 differential hands: 6,981 evaluations, 995
   distinct; two thirds of the run's CPU). The state's hand types are put behind a `HandMemo`
   whose `from_game(hole, board)` returns the hand PokerKit's own `from_game` made the first time
   it was asked about the same cards, in the same order, during this hand. The state reads its
   hand types only through `hand_types[i].from_game(...)` and `len(hand_types)`, both kept; the
   memo is dropped with the state at the end of the hand.

2. `kept_entries()`, a block during which a hand object works out its lookup entry once. Every
   comparison of two PokerKit hands (`Hand.__lt__`, `__eq__`, `__hash__`) reads `hand.entry`,
   which looks the cards up again each time (`self.lookup.get_entry(self.cards)`), and
   `from_game` compares each candidate hand with the best so far: about four lookups per
   candidate. In the block the first lookup is kept on the hand object; the property is put back
   when the block ends (hand objects made in it keep a harmless spare attribute).

Why neither can change a result:

- `Hand.from_game` is a pure function of its two card sequences. Every implementation
  (`CombinationHand`, `BoardCombinationHand`, `HoleBoardCombinationHand`) first turns both
  arguments into tuples of cards (`Card.clean`, which returns a tuple of cards as it is), then
  builds hands from combinations of them and keeps the greatest. A hand reads only its cards and
  its class's lookup table, and a frozen `Card` is only its rank and suit. So the same cards give
  an equal hand every time, and the one object handed out again is immutable. The key is the two
  cleaned tuples: equal cards in another order are evaluated afresh. A call that raises (no valid
  hand: `ValueError`; PokerKit's `get_hand` also catches `KeyError`) is not remembered: it raises
  again each time, as before.
- `Hand.entry` is `self.lookup.get_entry(self.cards)`: the cards are set once in `Hand.__init__`
  (a private attribute, no setter) and the lookup is a class attribute whose table is built once,
  in its `__post_init__`, and only read afterwards (`get_entry` is a dictionary read). So the
  first answer is the answer every time; it is even the same `Entry` object.

The lockstep run checks this directly: every PokerKit operation, hand, stack and session line of
the 1,200 + 240 sample hands was byte-identical with and without these memos.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from pokerkit import Card, Hand


class HandMemo:
    """One PokerKit hand type whose `from_game` results are kept for one hand."""

    def __init__(self, hand_type: Any) -> None:
        self.hand_type = hand_type
        self.hands: dict[tuple[tuple[Any, ...], tuple[Any, ...]], Any] = {}

    def from_game(self, hole_cards: Any, board_cards: Any = ()) -> Any:
        key = (Card.clean(hole_cards), Card.clean(board_cards))
        hand = self.hands.get(key)
        if hand is None:
            hand = self.hand_type.from_game(*key)  # raises as PokerKit does; not remembered
            self.hands[key] = hand
        return hand

    def __getattr__(self, name: str) -> Any:
        return getattr(self.hand_type, name)


def remember_hands(state: Any) -> Any:
    """`state` with each hand type behind a `HandMemo` (1. in the module docstring)."""
    state.hand_types = tuple(HandMemo(h) for h in state.hand_types)
    return state


_KEPT = "_kept_entry"


@contextlib.contextmanager
def kept_entries() -> Iterator[None]:
    """Within the block a PokerKit hand looks its entry up once (2. in the module docstring)."""
    original = Hand.__dict__["entry"]
    look_up = original.fget

    def entry(hand: Hand) -> Any:
        kept = hand.__dict__.get(_KEPT)
        if kept is None:
            kept = hand.__dict__[_KEPT] = look_up(hand)
        return kept

    setattr(Hand, "entry", property(entry))  # noqa: B010 (mypy: no assigning to a property)
    try:
        yield
    finally:
        setattr(Hand, "entry", original)  # noqa: B010
