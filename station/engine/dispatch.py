"""The hand's one dispatcher: its entry points for the table's inputs, and the loop that carries out
what the rule modules return. Pure.

The shoe cannot see where a card goes, so every draw takes the role of the next expected slot
(catalog §1, "deal sequence model"): hole card for seat N, burn, board, stud up/down card, draw
replacement. A draw when no slot is expected is an irregularity (a premature card while betting
is open, a rabbit hunt after the hand). Bets are bet-zone amounts, checks and folds are keys.

Each input goes to the module of its concept - `deal_sequence` (a card), `wagers` (a bet-zone
reading), `actions` (a key) - which applies the rules and returns what happens next
(`station.engine.steps`): a betting round that opens, an action that closes one, a held action
that now binds. `run` carries the steps out in order, each to its end before the next, which is
exactly the order in which the rules would have called one another; no rule module calls back
up, so the modules import only downwards:

    dispatch -> deal_sequence -> actions -> wagers -> rounds -> draw_round -> irregular
             -> deal_errors, burn_errors -> settlement -> deal_plan -> stud, stub, lowball
             -> hand -> hand_state (the parts of the state)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from station.engine import actions, deal_plan, deal_sequence, irregular, rounds, settlement, wagers
from station.engine.betting import Seat
from station.engine.cards import Card
from station.engine.decisions import PromptCode
from station.engine.events import KeyPress, Stakes
from station.engine.games import Family, GameSpec
from station.engine.hand import Hand
from station.engine.hand_state import Chips, Terms
from station.engine.positions import ButtonLayout, button_layout, stud_order
from station.engine.profiles import Profile
from station.engine.rake import RakeSchedule
from station.engine.steps import (
    AfterAction,
    Check,
    Fold,
    OpenRound,
    Resume,
    ShortDeal,
    Steps,
    StreetDealt,
    TellNotReopened,
    Then,
    Wager,
)


def run(hand: Hand, steps: Steps) -> None:
    """Carry out `steps` in order, each with whatever it leads to, before the next."""
    for step in steps:
        match step:
            case AfterAction(seq):
                run(hand, rounds.after_action(hand, seq))
            case Fold(seat, seq):
                run(hand, actions.fold(hand, seat, seq))
            case Check(seat, seq):
                run(hand, actions.check(hand, seat, seq))
            case Wager(seat, total, seq):
                run(hand, wagers.wager(hand, seat, total, seq))
            case OpenRound(seq):
                run(hand, rounds.open_round(hand, seq))
            case ShortDeal(seq):
                run(hand, rounds.open_short_deal(hand, seq))
            case StreetDealt(seq):
                run(hand, rounds.street_dealt(hand, seq))
            case Resume(seq):
                run(hand, rounds.resume_after_reshuffle(hand, seq))
            case TellNotReopened(seq):
                rounds.tell_not_reopened(hand, seq)
            case Then(go):
                run(hand, go())
            case _:
                assert_never(step)


# --- entry points: the table's inputs ----------------------------------------------------------


def start(
    *,
    number: int,
    spec: GameSpec,
    profile: Profile,
    stakes: Stakes,
    dealt: list[int],
    stacks: dict[int, int | None],
    button: int | None,
    posts: dict[int, int],
    antes: dict[int, int],
    zone: dict[int, int],
    seq: int,
    puck: int | None = None,
    blinds: tuple[int | None, int] | None = None,
    straddle: int | None = None,
    kill: tuple[int, int] | None = None,
    absent: frozenset[int] = frozenset(),
    min_chip: int | None = None,
    carry: int = 0,
    rake: RakeSchedule | None = None,
    time_paid: Mapping[int, int] | None = None,
    time_owed: int = 0,
    last_two: bool = False,
    winner_take_all: bool = False,
) -> Hand:
    """NEW_HAND: the hand with its forced bets, and its starting hands planned."""
    layout: ButtonLayout | None = None
    if spec.family is Family.STUD and spec.dealer_button:
        # Mexican stud: dealt from the button's left, no blinds (004-GN §IX "Mexican Poker").
        layout = button_layout(dealt, button if button is not None else max(dealt))
        layout = ButtonLayout(layout.button, layout.deal_order, None, None)
        order = list(layout.deal_order)
    elif spec.family is Family.STUD:
        order = stud_order(dealt)
    else:
        layout = button_layout(dealt, button if button is not None else max(dealt), blinds)
        if spec.bomb or not stakes.bb:
            # No blinds (a bomb pot, an ante-only game): nobody sits in a blind.
            layout = ButtonLayout(layout.button, layout.deal_order, None, None)
        order = list(layout.deal_order)
    seats = {s: Seat(s, stacks.get(s)) for s in order}
    hand = Hand(
        number=number,
        spec=spec,
        profile=profile,
        dealt=order,
        seats=seats,
        layout=layout,
        terms=Terms(
            stakes=stakes,
            straddle=straddle if straddle in seats else None,
            kill_post=kill if kill is not None and kill[0] in seats else None,
            min_chip=min_chip,
            carry=carry,
            rake=rake,
            time_paid=dict(time_paid or {}),
            time_owed=time_owed,
            start_stacks={s: stacks.get(s) for s in order},
            last_two=last_two,
            winner_take_all=winner_take_all,
        ),
        chips=Chips(
            committed=dict.fromkeys(order, 0),
            dead={s: antes.get(s, 0) for s in order},
            posts={s: a for s, a in posts.items() if s in seats and a > 0},
            zone=dict(zone),
            offset={s: zone.get(s, 0) - posts.get(s, 0) for s in order},
        ),
    )
    hand.deal.puck = puck
    hand.bets.absent = {s for s in absent if s in seats}
    chips = hand.chips
    for s in order:
        hand.deal.cards[s] = []
        st = seats[s].stack
        if st is not None:
            seats[s].stack = st - antes.get(s, 0)
            post = chips.posts.get(s)
            if post is not None and post > max(0, st - antes.get(s, 0)):
                # A forced bet larger than the stack is the whole stack; the rest in the
                # zone is his own (it would be paid back as chips he never had).
                chips.posts[s] = max(0, st - antes.get(s, 0))
                chips.offset[s] = chips.zone.get(s, 0) - chips.posts[s]
    deal_plan.plan_initial_deal(hand)
    rounds.check_blinds(hand, seq)
    if puck is not None and hand.button is not None and puck != hand.button:
        hand.prompt(seq, f"MOVE THE BUTTON TO SEAT {hand.button}", PromptCode.BUTTON)
    flops = ", THEN A FLOP ON EACH BOARD (NO BURN)" if spec.bomb else ""
    # The Big Easy: the number of cards depends on the players (house practice): say it
    each = f" {spec.hole_for(len(hand.dealt))} CARDS EACH," if spec.hole_by_players else ""
    hand.prompt(seq, f"DEAL:{each} FIRST CARD TO SEAT {order[0]}{flops}", PromptCode.DEAL)
    return hand


def draw(
    hand: Hand, card: Card | None, tag: str | None, face_up: bool, back_ok: bool, seq: int
) -> None:
    """A card left the shoe. `card` is None for a tag no deck knows."""
    steps = deal_sequence.on_draw(hand, card, tag, face_up, back_ok, seq)
    if steps:
        run(hand, steps)


def zone(hand: Hand, seat: int, amount: int, chips: tuple[int, ...] | None, seq: int) -> None:
    """A bet-zone reading (with the chips' denominations, when the sensor reports them)."""
    steps = wagers.on_zone(hand, seat, amount, chips, seq)
    if steps:
        run(hand, steps)


def key(hand: Hand, k: KeyPress, seq: int) -> None:
    """A key pressed during the hand."""
    steps = actions.key(hand, k, seq)
    if steps:
        run(hand, steps)


def tick(hand: Hand, at: float | None, seq: int) -> None:
    """An event arrived (with its time, when it carries one): run any timer that expired."""
    hand.conduct.now = at
    if hand.conduct.clock is not None:
        run(hand, irregular.clock_tick(hand, seq))


def seat_sensor(hand: Hand, seat: int, occupied: bool, seq: int) -> None:
    """A dealt-in player left or came back to his seat."""
    if occupied:
        hand.bets.absent.discard(seat)
    elif not hand.seats[seat].folded:
        hand.bets.absent.add(seat)
        run(hand, rounds.after_action(hand, seq))


def finish(hand: Hand, seq: int) -> None:
    """End of input: settle a showdown the dealer did not key."""
    settlement.finish(hand, seq)


def void(hand: Hand, seq: int) -> None:
    """All action void: every chip goes back to the seat that put it in."""
    settlement.void(hand, seq)
