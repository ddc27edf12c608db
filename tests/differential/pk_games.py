"""PokerKit 0.7.7 set up for the Omaha games of 004-GN §VIII it has no class for (issue 29).

PokerKit's games are its streets and hand types; these are its own `PotLimitOmahaHoldem` with
another number of hole cards, another low hand, or the bomb pot's streets. Nothing new is
computed here: the hands are PokerKit's own lookups.

- five-card PLO (`plo5`): five hole cards, the Omaha high hand (two from the hand, three from
  the board: `OmahaHoldemHand` combines any two of the hole cards).
- The Big O (`bigo`): five hole cards, high and 8-or-better low (`OmahaEightOrBetterLowHand`).
- The Big Easy (`bigeasy`): as The Big O with the cards by the number of players.
- Omaha hi-lo regular (`o8reg`): the low with no qualifier is PokerKit's `RegularLookup` (ace-to-
  five, pairs counting against the hand, straights and flushes not) through Omaha's two-plus-
  three combination: `OmahaRegularLowHand` below.
- Double Board Omaha (`dbo`): `starting_board_count=2`. PokerKit burns once per street and deals
  each board's cards in turn (board 0 first), halves each pot between the boards with the odd
  chip to board 0, as 004-GN §VIII "Double Board Omaha" and r211.
- The double-board bomb pot (`bomb5`): no betting before the flop, so PokerKit's first street
  deals the five hole cards and both flops without a burn (004-GN §VIII "5 Card Double Board Bomb
  Pot PLO" a) and its betting is the flop's; the turn and river burn as usual.
"""

from __future__ import annotations

from typing import Any

import pokerkit
from pokerkit import (
    HoleBoardCombinationHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    Opening,
    RegularLookup,
    Street,
)


class OmahaRegularLowHand(HoleBoardCombinationHand):
    """Ace-to-five low with no qualifier, two hole cards and three board cards."""

    lookup = RegularLookup()
    low = True
    card_count = 5
    board_card_count = 3
    hole_card_count = 2


LOWS: dict[str, Any] = {
    "8": OmahaEightOrBetterLowHand,
    "regular": OmahaRegularLowHand,
}


def omaha(hole: int, low: str | None = None) -> Any:
    """PokerKit's pot-limit Omaha with `hole` cards and, for hi-lo, the low `low`."""
    types = (OmahaHoldemHand,) if low is None else (OmahaHoldemHand, LOWS[low])
    name = f"PotLimitOmaha{hole}" + ("" if low is None else f"HiLo{low.title()}")
    return type(
        name, (pokerkit.PotLimitOmahaHoldem,), {"hole_dealing_count": hole, "hand_types": types}
    )


class PotLimitBombPotOmaha(pokerkit.PotLimitOmahaHoldem):
    """Five-card double-board bomb pot PLO: antes only, the flop dealt with the hands."""

    hole_dealing_count = 5

    def __init__(
        self,
        automations: tuple[pokerkit.Automation, ...],
        ante_trimming_status: bool,
        raw_antes: Any,
        raw_blinds_or_straddles: Any,
        min_bet: int,
        *,
        mode: pokerkit.Mode = pokerkit.Mode.TOURNAMENT,
        starting_board_count: int = 1,
        divmod: Any = divmod,
        rake: Any = pokerkit.utilities.rake,
    ) -> None:
        pokerkit.Poker.__init__(
            self,
            automations,
            (
                Street(False, (False,) * 5, 3, False, Opening.POSITION, min_bet, None),
                Street(True, (), 1, False, Opening.POSITION, min_bet, None),
                Street(True, (), 1, False, Opening.POSITION, min_bet, None),
            ),
            ante_trimming_status,
            raw_antes,
            raw_blinds_or_straddles,
            0,
            mode=mode,
            starting_board_count=starting_board_count,
            divmod=divmod,
            rake=rake,
        )
