"""Discards with no card in their place: Pineapple, Crazy Pineapple, Super Stud. Pure.

004-GN §VII "Pineapple": "Each participant must discard one of the three down cards after the
first round of betting is complete and before the flop is exposed" (Crazy Pineapple: after the
second round, before the turn). 004-GN §IX "Super Stud": "Then two cards are discarded by each
participant", after the first betting round and before the first card of fourth street; "Failure
to discard ... prior to the first card on 4th street being delivered will result in a dead hand"
(r245-r246).

When the betting round before the discard closes, every player still in owes his discard (the
DISCARD key, with the cards when the dealer names them; the shoe cannot see a discard). The next
street's cards are expected as usual: its first card finds who has not discarded, and that
player's hand is dead (Super Stud by r245; Pineapple by the same reading of "must discard ...
before the flop is exposed": the hand no longer has the game's number of cards, DEAD-WRONG-CARD-
COUNT). A discard the dealer did not name is read at the showdown as the best the player could
hold, for the floor to confirm (`unknown`).
"""

from __future__ import annotations

from station.engine import deal_plan, irregular
from station.engine.cards import Card
from station.engine.decisions import Action, ActionKind, PromptCode, Ruling
from station.engine.events import Key
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase


def due_now(hand: Hand) -> bool:
    """The betting round just closed is the one the game's discard follows."""
    spec = hand.spec
    return spec.discard > 0 and hand.street == spec.discard_after + 1


def open_discards(hand: Hand) -> str:
    """Every player still in owes his discard; the text the dealer is told before the cards."""
    hand.discard.due = set(hand.in_hand())
    n = hand.spec.discard
    return f"EACH PLAYER DISCARDS {n} CARD{'S' if n > 1 else ''} (KEY DISCARD), THEN "


def discard(hand: Hand, seat: int, count: int | None, cards: tuple[Card, ...], seq: int) -> None:
    """DISCARD s [count] [cards]: the seat's discard, before the next street's first card."""
    n = hand.spec.discard
    if seat not in hand.discard.due or hand.phase is not Phase.STREET:
        irregular.unexpected_key(hand, Key.DISCARD, seat, seq)
        return
    if count is not None and count != n:
        hand.incident(
            seq,
            Rule.DEAD_MISC_GAME if hand.spec.family is Family.STUD else Rule.DEAL_HOLDEM,
            Ruling.WARNING,
            f"SEAT {seat} MUST DISCARD EXACTLY {n}: KEY DISCARD {n}",
            seat=seat,
        )
        return
    held = [c for c, _ in hand.deal.cards[seat]]
    missing = [c for c in cards if c not in held]
    if missing:
        hand.incident(
            seq,
            Rule.DEAL_HOLDEM if hand.spec.family is Family.FLOP else Rule.DEAD_MISC_GAME,
            Ruling.WARNING,
            f"SEAT {seat} DOES NOT HOLD {' '.join(c.code for c in missing)}: KEY HIS DISCARD AGAIN",
            seat=seat,
        )
        return
    hand.discard.due.discard(seat)
    if cards:
        hand.deal.cards[seat] = [(c, up) for c, up in hand.deal.cards[seat] if c not in cards]
        hand.discard.cards[seat] = cards
    else:
        hand.discard.unknown[seat] = n
    hand.out.append(Action(hand.number, seq, seat, ActionKind.DISCARD, n))
    if not hand.discard.due:
        text = deal_plan.street_prompt(hand, hand.street)
        hand.prompt(seq, f"DISCARDS DONE: {text}", PromptCode.BURN_AND_DEAL)


def missed(hand: Hand, seq: int) -> None:
    """A card of the next street is out while some players have not discarded: their hands
    are dead (004-GN r245-r246 for Super Stud; Pineapple as the module docstring says)."""
    stud = hand.spec.family is Family.STUD
    for seat in sorted(hand.discard.due):
        if hand.seats[seat].folded:
            continue
        what = "FOURTH STREET" if stud else hand.street_name().upper()
        hand.incident(
            seq,
            Rule.DEAD_MISC_GAME if stud else Rule.DEAD_WRONG_CARD_COUNT,
            Ruling.DEAD_HAND,
            f"SEAT {seat} DID NOT DISCARD BEFORE {what}: HIS HAND IS DEAD",
            seat=seat,
        )
        hand.kill(seat, refund_dead=False, seq=seq)
    hand.discard.due.clear()
