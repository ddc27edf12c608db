"""The draw round of draw games: the requests, then the draw cards in draw order. Pure.

Each player in turn, from the left of the button, says how many cards he draws (the DRAW key,
with the discards when the shoe or the dealer names them); the replacement cards are queued in
draw order after one burn. Drawmaha (004-GN §VIII): once every player has said how many he
draws, the dealer burns and turns the turn card, then deals the draw cards.
DRAW-MAX-CONSECUTIVE: at most the profile's number of cards at once to a player (four; the
fifth after everyone else). DRAW-LAST-CARD-RESHUFFLE: what the stub
cannot give waits for a reshuffle (`stub`). EXPOSE-DRAW-ON-THE-DRAW: replacements for exposed
draw cards come after everyone has drawn. When the last draw card is out, the betting round after
the draw opens.
"""

from __future__ import annotations

from station.engine import irregular, stub
from station.engine.cards import Card
from station.engine.decisions import Action, ActionKind, DealSlot, PromptCode, Ruling
from station.engine.events import Key
from station.engine.hand import Hand
from station.engine.hand_state import Refill, Slot
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, OpenRound, Steps


def open_draw(hand: Hand, seq: int) -> None:
    """The betting before a draw closed: the draw round starts left of the button."""
    if hand.conduct.predraw is None:
        hand.conduct.predraw = dict(hand.chips.committed)  # LOWBALL-SEVENS-RULE
    hand.phase = Phase.DRAWING
    hand.draws.requests = {}
    hand.draws.burned = False
    hand.draws.rest, hand.draws.last_seat, hand.draws.round_discards = [], None, []
    assert hand.layout is not None
    hand.draws.pending = hand.layout.postflop_order(hand.in_hand())
    hand.prompt(seq, f"DRAW: SEAT {hand.draws.pending[0]} FIRST", PromptCode.DEAL)


def request_draw(hand: Hand, seat: int, count: int, cards: tuple[Card, ...], seq: int) -> Steps:
    """DRAW key: the seat draws `count` cards (discarding `cards`, when they are named)."""
    if hand.phase is not Phase.DRAWING or seat not in hand.draws.pending:
        irregular.unexpected_key(hand, Key.DRAW, seat, seq)
        return NOTHING
    if count > hand.spec.max_draw:
        hand.incident(
            seq,
            Rule.DRAW_RULES,
            Ruling.WARNING,
            f"SEAT {seat} MAY DRAW AT MOST {hand.spec.max_draw} CARDS: SAY THE DRAW AGAIN",
            seat=seat,
        )
        return NOTHING
    held = [c for c, _ in hand.deal.cards[seat]]
    if cards:
        missing = [c for c in cards if c not in held]
        if missing:
            hand.incident(
                seq,
                Rule.DRAW_ORDER,
                Ruling.WARNING,
                f"SEAT {seat} DISCARDS {' '.join(c.code for c in missing)} IT DOES NOT HOLD",
                seat=seat,
            )
        else:
            hand.deal.cards[seat] = [(c, up) for c, up in hand.deal.cards[seat] if c not in cards]
            hand.draws.discards.setdefault(seat, []).extend(cards)
            hand.draws.round_discards.extend(cards)
    known = bool(cards) or count == 0
    hand.draws.discards_known[seat] = hand.draws.discards_known.get(seat, True) and known
    hand.draws.requests[seat] = count
    hand.out.append(Action(hand.number, seq, seat, ActionKind.DRAW, count))
    return plan_draws(hand, seq)


def plan_draws(hand: Hand, seq: int) -> Steps:
    """Queue the replacement cards of every seat whose request is known, in draw order; once
    every draw card is out, the betting round after the draw opens."""
    if hand.deal.slots or hand.repair.awaiting_reshuffle:
        return NOTHING
    refill = hand.draws.refill
    if refill is not None:
        # DRAW-LAST-CARD-RESHUFFLE: the stub ran out in the middle of a seat's draw.
        if not refill.shuffled:
            refill.shuffled = True
            stub.draw_reshuffle(hand, seq)
            return NOTHING
        hand.draws.refill = None
        if refill.burn:
            hand.deal.slots.append(Slot(DealSlot.BURN, None, hand.street))
        return _queue_draw(hand, refill.seat, refill.count, seq)
    if hand.spec.draw_after and not hand.draws.burned:
        return _turn_before_draw_cards(hand, seq)
    while hand.draws.pending:
        seat = hand.draws.pending[0]
        if seat not in hand.draws.requests:
            return NOTHING
        count = hand.draws.requests[seat]
        hand.draws.pending.pop(0)
        if count == 0:
            continue
        # DRAW-MAX-CONSECUTIVE (001-RR11 §11 r10): at most four cards at once; the fifth
        # after everyone else has drawn.
        now = min(count, hand.profile.draw_max_consecutive)
        if now < count:
            hand.draws.rest.append((seat, count - now))
        burn = False
        if not hand.draws.burned:
            hand.draws.burned = True
            if hand.repair.skip_next_burn:
                hand.repair.skip_next_burn = False  # an exposed card already is the burn
            else:
                burn = True
        return _queue_draw(hand, seat, now, seq, burn=burn)
    if hand.draws.rest:
        seat, count = hand.draws.rest.pop(0)
        # "If the last player wishes to draw five new cards, four are dealt right away, and
        # a card is burned before the player receives a fifth card": never five in a row.
        return _queue_draw(hand, seat, count, seq, burn=hand.draws.last_seat == seat)
    if not hand.draws.pending and not hand.deal.slots and hand.draws.owed:
        # EXPOSE-DRAW-ON-THE-DRAW: replacements once everyone has drawn.
        for seat in hand.draws.owed:
            hand.deal.slots.append(Slot(DealSlot.REPLACEMENT, seat, hand.street))
        hand.draws.owed = []
        return NOTHING
    if not hand.draws.pending and not hand.deal.slots:
        irregular.street_cards_done(hand)
        return (OpenRound(seq),)
    return NOTHING


def _queue_draw(hand: Hand, seat: int, count: int, seq: int, *, burn: bool = False) -> Steps:
    """Queue `count` draw cards for `seat`, after a burn when `burn`; what the stub cannot
    give before its last card waits for a reshuffle (DRAW-LAST-CARD-RESHUFFLE)."""
    need = int(burn) + count
    final = (
        hand.street >= hand.spec.draws
        and not hand.draws.rest
        and not hand.draws.owed
        and not any(hand.draws.requests.get(s, 1) for s in hand.draws.pending)
    )
    fit = stub.draw_fit(hand, need, final=final)
    if fit < need:
        burn_now = burn and fit > 0
        now = fit - int(burn_now)
        hand.draws.refill = Refill(seat, count - now, burn and not burn_now)
        stub.draw_shortage(hand, seat, count, now, seq)
        burn, count = burn_now, now
    if burn:
        hand.deal.slots.append(Slot(DealSlot.BURN, None, hand.street))
    for _ in range(count):
        hand.deal.slots.append(Slot(DealSlot.DRAW, seat, hand.street))
    if count:
        hand.draws.last_seat = seat
    if not hand.deal.slots:
        return plan_draws(hand, seq)
    return NOTHING


def _turn_before_draw_cards(hand: Hand, seq: int) -> Steps:
    """Drawmaha (004-GN §VIII): "After action is complete, the players decide how many cards
    they want to draw ... The dealer burns a card, and then places the turn card out. At that
    point players may not change a card that they have designated a draw card. The dealer then
    gives each player the correct amount of draw cards": the burn and the turn once every
    request is known; the draw cards follow in draw order."""
    if any(s not in hand.draws.requests for s in hand.draws.pending):
        return NOTHING
    hand.draws.burned = True
    if hand.repair.skip_next_burn:
        hand.repair.skip_next_burn = False  # an exposed card already is the burn
    else:
        hand.deal.slots.append(Slot(DealSlot.BURN, None, hand.street))
    burn = bool(hand.deal.slots)
    for _ in range(hand.spec.board[hand.street - 1]):
        hand.deal.slots.append(Slot(DealSlot.BOARD, None, hand.street, True))
    draws = sum(hand.draws.requests.values())
    then = f", THEN {draws} DRAW CARDS" if draws else ""
    what = "BURN & TURN" if burn else "TURN (NO BURN)"
    hand.prompt(seq, f"{what}{then}", PromptCode.BURN_AND_DEAL)
    return NOTHING
