"""The draw round of draw games: the requests, then the draw cards in draw order. Pure.

Each player in turn, from the left of the button, says how many cards he draws (the DRAW key,
with the discards when the shoe or the dealer names them); the replacement cards are queued in
draw order after one burn. DRAW-MAX-CONSECUTIVE: at most the profile's number of cards at once
to a player (four; the fifth after everyone else). DRAW-LAST-CARD-RESHUFFLE: what the stub
cannot give waits for a reshuffle (`stub`). EXPOSE-DRAW-ON-THE-DRAW: replacements for exposed
draw cards come after everyone has drawn. When the last draw card is out, the betting round after
the draw opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from station.engine import irregular, stub
from station.engine.cards import Card
from station.engine.deal_plan import Slot
from station.engine.decisions import Action, ActionKind, PromptCode, Role, Ruling
from station.engine.events import Key
from station.engine.snapshot import Phase

if TYPE_CHECKING:
    from station.engine.hand import Hand


def open_draw(hand: Hand, seq: int) -> None:
    """The betting before a draw closed: the draw round starts left of the button."""
    if hand.state.predraw is None:
        hand.state.predraw = dict(hand.committed)  # LOWBALL-SEVENS-RULE
    hand.phase = Phase.DRAWING
    hand.draw_requests = {}
    hand.draw_burned = False
    hand.draw_rest, hand.draw_last_seat, hand.round_discards = [], None, []
    assert hand.layout is not None
    hand.draw_pending = hand.layout.postflop_order(hand.in_hand())
    hand.prompt(seq, f"DRAW: SEAT {hand.draw_pending[0]} FIRST", PromptCode.DEAL)


def request_draw(hand: Hand, seat: int, count: int, cards: tuple[Card, ...], seq: int) -> None:
    """DRAW key: the seat draws `count` cards (discarding `cards`, when they are named)."""
    if hand.phase is not Phase.DRAWING or seat not in hand.draw_pending:
        irregular.unexpected_key(hand, Key.DRAW, seat, seq)
        return
    held = [c for c, _ in hand.cards[seat]]
    if cards:
        missing = [c for c in cards if c not in held]
        if missing:
            hand.incident(
                seq,
                "DRAW-ORDER",
                Ruling.WARNING,
                f"SEAT {seat} DISCARDS {' '.join(c.code for c in missing)} IT DOES NOT HOLD",
                seat=seat,
            )
        else:
            hand.cards[seat] = [(c, up) for c, up in hand.cards[seat] if c not in cards]
            hand.discards.setdefault(seat, []).extend(cards)
            hand.round_discards.extend(cards)
    known = bool(cards) or count == 0
    hand.discards_known[seat] = hand.discards_known.get(seat, True) and known
    hand.draw_requests[seat] = count
    hand.out.append(Action(hand.number, seq, seat, ActionKind.DRAW, count))
    plan_draws(hand, seq)


def plan_draws(hand: Hand, seq: int) -> None:
    """Queue the replacement cards of every seat whose request is known, in draw order."""
    if hand.slots or hand.state.awaiting_reshuffle:
        return
    refill = hand.refill
    if refill is not None:
        # DRAW-LAST-CARD-RESHUFFLE: the stub ran out in the middle of a seat's draw.
        if not refill.shuffled:
            refill.shuffled = True
            stub.draw_reshuffle(hand, seq)
            return
        hand.refill = None
        if refill.burn:
            hand.slots.append(Slot(Role.BURN, None, hand.street))
        _queue_draw(hand, refill.seat, refill.count, seq)
        return
    while hand.draw_pending:
        seat = hand.draw_pending[0]
        if seat not in hand.draw_requests:
            return
        count = hand.draw_requests[seat]
        hand.draw_pending.pop(0)
        if count == 0:
            continue
        # DRAW-MAX-CONSECUTIVE (001-RR11 §11 r10): at most four cards at once; the fifth
        # after everyone else has drawn.
        now = min(count, hand.profile.draw_max_consecutive)
        if now < count:
            hand.draw_rest.append((seat, count - now))
        burn = False
        if not hand.draw_burned:
            hand.draw_burned = True
            if hand.state.skip_next_burn:
                hand.state.skip_next_burn = False  # an exposed card already is the burn
            else:
                burn = True
        _queue_draw(hand, seat, now, seq, burn=burn)
        return
    if hand.draw_rest:
        seat, count = hand.draw_rest.pop(0)
        # "If the last player wishes to draw five new cards, four are dealt right away, and
        # a card is burned before the player receives a fifth card": never five in a row.
        _queue_draw(hand, seat, count, seq, burn=hand.draw_last_seat == seat)
        return
    if not hand.draw_pending and not hand.slots and hand.draw_owed:
        # EXPOSE-DRAW-ON-THE-DRAW: replacements once everyone has drawn.
        for seat in hand.draw_owed:
            hand.slots.append(Slot(Role.REPLACEMENT, seat, hand.street))
        hand.draw_owed = []
        return
    if not hand.draw_pending and not hand.slots:
        irregular.street_cards_done(hand)
        hand.open_round(seq)


def _queue_draw(hand: Hand, seat: int, count: int, seq: int, *, burn: bool = False) -> None:
    """Queue `count` draw cards for `seat`, after a burn when `burn`; what the stub cannot
    give before its last card waits for a reshuffle (DRAW-LAST-CARD-RESHUFFLE)."""
    need = int(burn) + count
    final = (
        hand.street >= hand.spec.draws
        and not hand.draw_rest
        and not hand.draw_owed
        and not any(hand.draw_requests.get(s, 1) for s in hand.draw_pending)
    )
    fit = stub.draw_fit(hand, need, final=final)
    if fit < need:
        burn_now = burn and fit > 0
        now = fit - int(burn_now)
        hand.refill = stub.Refill(seat, count - now, burn and not burn_now)
        stub.draw_shortage(hand, seat, count, now, seq)
        burn, count = burn_now, now
    if burn:
        hand.slots.append(Slot(Role.BURN, None, hand.street))
    for _ in range(count):
        hand.slots.append(Slot(Role.DRAW, seat, hand.street))
    if count:
        hand.draw_last_seat = seat
    if not hand.slots:
        plan_draws(hand, seq)
