"""Who may post what before the deal: straddles, kills, new players, seat changes. Pure.

The table calls these between hands; each returns plain data (and the words the dealer sees) so
the table stays a thin dispatcher. Rule ids: BLIND-STRADDLE, KILL-POTS, BLIND-NEW-PLAYER,
LOWBALL-BLINDS, BLIND-SEAT-CHANGE.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from station.engine.games import Family, GameSpec, HighEval, LowEval, Structure
from station.engine.positions import ButtonLayout, clockwise_after
from station.engine.profiles import Profile
from station.engine.rule_ids import Rule


@dataclass(frozen=True, slots=True)
class Refusal:
    """A post the rules do not allow: the rule it breaks, the seat, and what the dealer says."""

    rule: Rule
    seat: int
    text: str


def is_lowball(spec: GameSpec) -> bool:
    """Lowball draw games (A-5 and deuce-to-seven), where RR §11 governs new players' posts."""
    return (
        spec.family is Family.DRAW
        and spec.high is HighEval.NONE
        and spec.low
        in (
            LowEval.A5,
            LowEval.D27,
        )
    )


def straddle_refusal(
    seat: int,
    amount: int,
    *,
    spec: GameSpec,
    profile: Profile,
    layout: ButtonLayout,
    bb: int,
    kill: bool,
) -> str | None:
    """Why a declared straddle is not allowed here, or None when it stands (BLIND-STRADDLE,
    catalog D48). RR/USPA: no-limit and pot-limit cash games only, by the player left of the big
    blind, twice the big blind. GN: any blind game, under the gun or on the button (not the
    button at limit), never in a kill pot."""
    limit = spec.structure is Structure.FIXED_LIMIT
    if limit and not profile.straddle_limit_allowed:
        return "NO STRADDLE AT LIMIT"
    if profile.tournament:
        return "NO STRADDLE IN A TOURNAMENT"
    if kill:
        return "NO STRADDLE IN A KILL POT"
    order = list(layout.deal_order)
    bb_seat = layout.big_blind
    utg = None
    if bb_seat in order and len(order) > 2:
        utg = order[(order.index(bb_seat) + 1) % len(order)]
    if seat == layout.button and seat != utg:
        if not profile.straddle_button_allowed or limit:
            return "NO BUTTON STRADDLE"
    elif seat != utg:
        return "STRADDLE ONLY LEFT OF THE BIG BLIND"
    if amount != 2 * bb:
        return f"THE STRADDLE IS {2 * bb}"
    return None


def hands_to_big_blind(seat: int, layout: ButtonLayout) -> int:
    """How many hands until `seat` posts the big blind, the button moving one seat a hand (0: it
    is the big blind in `layout`)."""
    bb = layout.big_blind
    if bb is None or seat == bb:
        return 0
    ring = clockwise_after(layout.deal_order, bb)
    return ring.index(seat) + 1 if seat in ring else 0


def between_button_and_big_blind(seat: int, layout: ButtonLayout) -> bool:
    """A seat strictly after the button and before the big blind: where a new player may not be
    dealt in until the button passes (BLIND-NEW-PLAYER, catalog D49)."""
    bb = layout.big_blind
    if bb is None:
        return False
    ring = clockwise_after([*layout.deal_order, seat], layout.button)
    return seat in ring and bb in ring and ring.index(seat) < ring.index(bb)


def before_small_blind(seat: int, layout: ButtonLayout) -> bool:
    """A seat strictly after the button and before the small blind (a dead button's gap)."""
    sb = layout.small_blind
    if sb is None:
        return False
    ring = clockwise_after([*layout.deal_order, seat], layout.button)
    return seat in ring and sb in ring and ring.index(seat) < ring.index(sb)


def newcomer_due(
    seat: int,
    *,
    spec: GameSpec,
    profile: Profile,
    layout: ButtonLayout | None,
    bb: int,
    sb: int,
    killed: bool,
) -> int | None:
    """What a new player must post to be dealt in now; None: he must wait (for the button to pass
    or for the big blind). 0: he plays without posting."""
    if profile.tournament:
        # TOURN-NEW-PLAYERS-AT-TABLE (D71): a player moved in is dealt in at once (he posts what
        # his position owes); RR11/USPA: not in the small blind or button position.
        if layout is None:
            return 0
        if profile.tourn_newcomer_takes_position:
            if profile.tourn_newcomer_not_before_sb and before_small_blind(seat, layout):
                return None  # TDA: never dealt in between the small blind and the button
            return 0
        return None if between_button_and_big_blind(seat, layout) else 0
    if layout is not None and between_button_and_big_blind(seat, layout):
        return bb + sb if profile.newcomer_buy_button else None
    if spec.structure is not Structure.FIXED_LIMIT and profile.newcomer_free_nl_pl:
        return 0
    if is_lowball(spec) and not profile.lowball_newcomer_post_bb:
        return 2 * bb if killed else None  # LOWBALL-BLINDS: kill or wait (RR §11 r3)
    return bb


def lowball_refusal(seat: int, posted: int, bb: int) -> Refusal:
    return Refusal(
        Rule.LOWBALL_BLINDS,
        seat,
        f"SEAT {seat}: A NEW PLAYER IN LOWBALL KILLS FOR {2 * bb} OR WAITS FOR THE BIG BLIND "
        f"(TAKE BACK {posted})",
    )


def kill_amount(posted: int, bb: int) -> bool:
    """A kill is a full kill (2x the big blind) or a half kill (1.5x) (KILL-POTS)."""
    return bb > 0 and posted in (2 * bb, 3 * bb // 2)


def waiting(seats: Mapping[int, int], dealt: Collection[int]) -> dict[int, int]:
    """Seat-change waits after a hand is dealt: a seat dealt in, or at the end of its wait, is
    free; the others wait one hand less."""
    return {s: n - 1 for s, n in seats.items() if s not in dealt and n > 1}
