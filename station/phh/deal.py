"""The card plan of a converted hand: every unknown card and burn made concrete. Pure (the random
generator is passed in, seeded by the caller).

PHH records no burns and may write `??` for cards nobody saw. A table's shoe reads every card, so
the converter needs a concrete card for each. The plan follows each player's hand through the
deal, the discards and the showdown, so that cards revealed later are the cards dealt earlier
(a hand dealt `????` and shown `AhKd` was dealt Ah and Kd; a draw-game hand shown at the end kept
the cards it shows), then fills the remaining unknown cards and the burns from the rest of the deck
(every card not seen anywhere in the hand), shuffled.

Stud: an unknown third-street up-card is chosen so that the bring-in stays with the player the
history names (catalog STUD-BRINGIN), or the session would describe another hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from station.engine.cards import SHORT_DECK, STANDARD_DECK, Card
from station.engine.games import BringIn, Family, GameSpec
from station.phh.actions import Act, Action


class PlanError(ValueError):
    """The cards of the history contradict each other (a card twice, a card shown never dealt)."""


@dataclass(slots=True)
class CardPlan:
    """Concrete cards per action index, and the shuffled stub the burns come from."""

    hole: dict[int, tuple[Card, ...]] = field(default_factory=dict)  # `d dh` actions
    board: dict[int, tuple[Card, ...]] = field(default_factory=dict)  # `d db` actions
    discards: dict[int, tuple[Card, ...]] = field(default_factory=dict)  # `pN sd` actions
    stub: list[Card] = field(default_factory=list)

    def burn(self) -> Card:
        if not self.stub:
            raise PlanError("no card left in the stub for a burn")
        return self.stub.pop()


class _Slots:
    """Card slots: each dealt card is one slot, known (a Card) or not yet (None)."""

    def __init__(self) -> None:
        self.cards: list[Card | None] = []

    def new(self, card: Card | None) -> int:
        self.cards.append(card)
        return len(self.cards) - 1

    def first_unknown(self, ids: Sequence[int]) -> int | None:
        return next((s for s in ids if self.cards[s] is None), None)


def _discard(slots: _Slots, hand: list[int], card: Card | None, who: str) -> int:
    if card is not None:
        sid = next((s for s in hand if slots.cards[s] is card), None)
        if sid is None:
            sid = slots.first_unknown(hand)
            if sid is None:
                raise PlanError(f"{who} discards {card}, which is not in the hand")
            slots.cards[sid] = card
    else:
        sid = slots.first_unknown(hand)
        if sid is None:
            sid = hand[0] if hand else None
        if sid is None:
            raise PlanError(f"{who} discards a card from an empty hand")
    hand.remove(sid)
    return sid


def _bring_in_key(spec: GameSpec) -> Callable[[Card], tuple[int, int]] | None:
    """Sort key whose *smallest* card brings in, or None for a game without a bring-in."""
    if spec.bring_in in (BringIn.LOW_CARD, BringIn.LOW_CARD_ACE_HIGH):
        return lambda c: (c.rank, c.suit_rank)
    if spec.bring_in is BringIn.HIGH_CARD:
        return lambda c: (-c.low_rank, -c.suit_rank)  # razz: the highest card, aces low
    return None


def plan_cards(actions: Sequence[Action], spec: GameSpec, rng: random.Random) -> CardPlan:
    """Make every card of the hand concrete (see the module docstring)."""
    slots = _Slots()
    hands: dict[int, list[int]] = {}
    up_cards: dict[int, int] = {}  # stud: player -> slot of his third-street up-card
    hole: dict[int, list[int]] = {}
    board: dict[int, list[int]] = {}
    discards: dict[int, list[int]] = {}
    for i, a in enumerate(actions):
        who = f"p{a.player}"
        if a.act is Act.DEAL_HOLE:
            assert a.player is not None
            ids = [slots.new(c) for c in a.cards]
            hand = hands.setdefault(a.player, [])
            if spec.family is Family.STUD and not hand and len(ids) >= 3:
                up_cards[a.player] = ids[2]
            hand.extend(ids)
            hole[i] = ids
        elif a.act is Act.DEAL_BOARD:
            board[i] = [slots.new(c) for c in a.cards]
        elif a.act is Act.DISCARD:
            assert a.player is not None
            hand = hands.setdefault(a.player, [])
            discards[i] = [_discard(slots, hand, c, who) for c in a.cards]
        elif a.act is Act.SHOW:
            assert a.player is not None
            hand = hands.setdefault(a.player, [])
            held = {slots.cards[s] for s in hand}
            for c in a.cards:
                if c is None or c in held:
                    continue
                sid = slots.first_unknown(hand)
                if sid is None:
                    raise PlanError(f"{who} shows {c}, which is not in the hand")
                slots.cards[sid] = c
                held.add(c)

    known = [c for c in slots.cards if c is not None]
    if len(set(known)) != len(known):
        twice = sorted({c.code for c in known if known.count(c) > 1})
        raise PlanError(f"the card(s) {', '.join(twice)} appear twice in the hand")
    deck = SHORT_DECK if spec.short_deck else STANDARD_DECK
    foreign = [c.code for c in known if c not in deck]
    if foreign:
        raise PlanError(f"the card(s) {', '.join(foreign)} are not in the deck of {spec.title}")
    in_play = set(known)
    stub = [c for c in deck if c not in in_play]
    rng.shuffle(stub)

    key = _bring_in_key(spec)
    if key is not None and any(slots.cards[s] is None for s in up_cards.values()):
        _choose_up_cards(actions, slots, up_cards, stub, key)
    for sid, card in enumerate(slots.cards):
        if card is None:
            if not stub:
                raise PlanError("more cards dealt than the deck holds")
            slots.cards[sid] = stub.pop()

    def concrete(ids: list[int]) -> tuple[Card, ...]:
        out = tuple(slots.cards[s] for s in ids)
        assert all(c is not None for c in out)
        return out  # type: ignore[return-value]

    return CardPlan(
        hole={i: concrete(ids) for i, ids in hole.items()},
        board={i: concrete(ids) for i, ids in board.items()},
        discards={i: concrete(ids) for i, ids in discards.items()},
        stub=stub,
    )


def _choose_up_cards(
    actions: Sequence[Action],
    slots: _Slots,
    up_cards: dict[int, int],
    stub: list[Card],
    key: Callable[[Card], tuple[int, int]],
) -> None:
    """Unknown third-street up-cards that keep the bring-in with the player who acts first."""
    opener = next((a.player for a in actions if a.act not in (Act.DEAL_HOLE, Act.DEAL_BOARD)), None)
    if opener is None or opener not in up_cards:
        return
    known_others = [
        c for p, s in up_cards.items() if p != opener and (c := slots.cards[s]) is not None
    ]
    opener_slot = up_cards[opener]
    opener_card = slots.cards[opener_slot]
    if opener_card is None:
        opener_card = min(stub, key=key)
        if known_others and key(opener_card) > min(key(c) for c in known_others):
            raise PlanError(f"no card left can make p{opener} bring in")
        stub.remove(opener_card)
        slots.cards[opener_slot] = opener_card
    for p, sid in up_cards.items():
        if p == opener or slots.cards[sid] is not None:
            continue
        pick = next((c for c in reversed(stub) if key(c) > key(opener_card)), None)
        if pick is None:
            raise PlanError(f"no card left keeps the bring-in with p{opener}")
        stub.remove(pick)
        slots.cards[sid] = pick
