"""PokerKit 0.7.7's hand evaluation remembered for the length of one hand (pure; test oracle only).

Why: at the showdown PokerKit decides which hands to kill (`State._begin_hand_killing`, run
whether or not hand killing is automated) by asking `State.can_win_now` for every player still
in, and each of those calls evaluates every player's shown hand again (`get_up_hands`) on every
board and hand type: the same few evaluations, repeated once per live player. In the lockstep run
that repetition was about two thirds of the CPU (300 hands: 6,981 evaluations, 995 distinct).

What: `remember_hands(state)` puts, in front of each of the state's hand types, a `HandMemo`
whose `from_game(hole, board)` returns the hand PokerKit's own `from_game` made the first time it
was asked about the same cards (in the same order) during this hand. Nothing else of the state is
touched; the memo is dropped with the state at the end of the hand.

Why it cannot change a result: `Hand.from_game` is a pure function of its two card sequences.
Every implementation (`CombinationHand`, `BoardCombinationHand`, `HoleBoardCombinationHand`)
first turns both arguments into tuples of cards (`Card.clean`, which keeps a tuple of cards as it
is), then builds hands from combinations of them and keeps the greatest. A hand reads only its
cards (immutable: a frozen `Card` has only a rank and a suit) and its class's lookup table,
built once when the class is defined and only read afterwards (`Lookup.get_entry`). So the
same cards give an equal hand every time, and the one object handed out again is immutable.
The key is the two cleaned tuples, so equal cards in another order are evaluated afresh. A call
that raises (no valid hand: `ValueError`; PokerKit's `get_hand` also catches `KeyError`) is not
remembered: it raises again each time, as before. The state reads its hand types only through
`hand_types[i].from_game(...)` and `len(hand_types)`, both of which the memo keeps.
"""

from __future__ import annotations

from typing import Any

from pokerkit import Card


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
    """`state` with each hand type behind a `HandMemo` (see the module docstring)."""
    state.hand_types = tuple(HandMemo(h) for h in state.hand_types)
    return state
