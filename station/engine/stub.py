"""The stub: how many cards are left in the deck, and what the dealer does when they run out. Pure.

The shoe reads every card that leaves it, so the engine knows the stub: the deck of the game
(52 cards, 36 short deck, plus the joker where it is in use) less the cards out of it this hand
(cards put back with a reshuffle return to it).

- DRAW-LAST-CARD-RESHUFFLE (004-GN §X intro): when the dealer gets down to the last card while
  players still need cards, the discards of the previous rounds, the mucked cards and the burns
  are shuffled together to complete the draws; the discards of the round in progress are not
  used. The last card is used only if it completes all draws for the hand.
- RIT-CARD-SHORTAGE (004-GN r209, r210): with one card left in the stub, going into the last
  card of the boards it is used; if it and the burns complete the boards, the burns are shuffled
  in with it; otherwise the stub, the burns and the muck are shuffled together.
"""

from __future__ import annotations

from station.engine.cards import Card
from station.engine.decisions import DealSlot, PromptCode, Ruling
from station.engine.deck_audit import joker_in_use
from station.engine.hand import Hand
from station.engine.recovery import Expect, Recovery, Step
from station.engine.rule_ids import Rule


def deck_size(hand: Hand) -> int:
    spec = hand.spec
    return spec.deck_size + (1 if joker_in_use(spec, hand.profile) else 0)


def in_the_deck(hand: Hand, card: Card) -> bool:
    """Whether `card` is one of this game's deck: not a joker where none is in use, nor a card
    a short deck does not hold (deuces to fives, 004-GN r359), nor an eight, nine or ten in
    Mexican stud's deck. Any other is scrap paper (DECK-JOKER-NOT-IN-USE, 001-RR11 §3 r8-r9;
    DECK-EXTRA-CARD-IN-DECK) and takes no card out of the stub."""
    if card.is_joker:
        return joker_in_use(hand.spec, hand.profile)
    if card.rank in hand.spec.no_ranks:
        return False
    return not (hand.spec.short_deck and card.rank < 6)


def left(hand: Hand) -> int:
    """Cards still in the stub: the deck less the cards of it drawn this hand (a card the deck
    does not hold, read and mucked as scrap, was never in the stub)."""
    return deck_size(hand) - sum(1 for c in hand.deal.seen if in_the_deck(hand, c))


def _cards(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def _muck(hand: Hand) -> list[Card]:
    """Cards of the folded hands (in the muck)."""
    return [c for s in hand.dealt if hand.seats[s].folded for c, _ in hand.deal.cards[s]]


def _start(hand: Hand, rule: Rule, pile: list[Card], what: str, seq: int) -> None:
    hand.repair.recovery = Recovery(
        rule,
        [
            Step(f"SHUFFLE {what} WITH THE STUB, PRESS STUB RESHUFFLE", Expect.RESHUFFLE),
            Step("COMPLETE THE DEAL FROM THE RESHUFFLED CARDS", Expect.CARDS),
        ],
        reshuffle=[c for c in pile if c in hand.deal.seen],
    ).start()
    hand.repair.awaiting_reshuffle = True
    hand.prompt(
        seq, f"SHUFFLE {what} WITH THE STUB, THEN PRESS STUB RESHUFFLE", PromptCode.RECOVERY
    )


# --- draw games -------------------------------------------------------------------------------


def draw_fit(hand: Hand, need: int, *, final: bool) -> int:
    """How many of `need` cards of a draw come off the stub before a reshuffle: all of them while
    a card stays behind; the last card only when it completes all draws for the hand (`final`)."""
    n = left(hand)
    if need < n or (final and need <= n):
        return need
    return max(0, n - 1)


def draw_shortage(hand: Hand, seat: int, count: int, now: int, seq: int) -> None:
    """The incident when a seat's draw cannot be completed from the stub."""
    hand.incident(
        seq,
        Rule.DRAW_LAST_CARD_RESHUFFLE,
        Ruling.WARNING,
        f"{left(hand)} CARD(S) LEFT: SEAT {seat} GETS {now} OF {count} FROM THE STUB; THEN "
        "SHUFFLE THE EARLIER DISCARDS, THE MUCK AND THE BURNS (NOT THIS ROUND'S DISCARDS) FOR "
        "THE REST",
        seat=seat,
    )


def draw_reshuffle(hand: Hand, seq: int) -> None:
    """Ask for the reshuffle of the earlier discards, the muck and the burns."""
    current = set(hand.draws.round_discards)
    earlier = [c for cards in hand.draws.discards.values() for c in cards if c not in current]
    pile = earlier + _muck(hand) + list(hand.deal.burns)
    _start(
        hand,
        Rule.DRAW_LAST_CARD_RESHUFFLE,
        pile,
        "THE DISCARDS OF THE EARLIER DRAWS, THE MUCK AND THE BURNS",
        seq,
    )


# --- run it more than once --------------------------------------------------------------------


def rit_needed(hand: Hand) -> tuple[int, int]:
    """(cards, of which burns) still to be dealt for every board of a run-it-more-than-once."""
    board = hand.spec.board
    rounds = hand.spec.rounds
    cards = len(hand.deal.slots)
    burns = sum(1 for s in hand.deal.slots if s.role is DealSlot.BURN)
    later = range(hand.street + 1, rounds)
    cards += sum(1 + board[st - 1] for st in later)
    burns += len(later)
    boards_after = max(0, hand.show.runs - len(hand.show.boards) - 1)
    per_board = range(hand.show.run_from, rounds)
    cards += boards_after * sum(1 + board[st - 1] for st in per_board)
    burns += boards_after * len(per_board)
    return cards, burns


def rit_agreed(hand: Hand, seq: int) -> None:
    """RUN_IT: the station can tell at once whether the stub holds enough cards."""
    need, _ = rit_needed(hand)
    n = left(hand)
    if need <= n:
        return
    hand.incident(
        seq,
        Rule.RIT_CARD_SHORTAGE,
        Ruling.WARNING,
        f"{hand.show.runs} BOARDS NEED {need} CARDS, {n} ARE LEFT: WHEN ONE CARD IS LEFT, "
        "SHUFFLE THE BURNS IN WITH IT (THE MUCK TOO IF THAT IS NOT ENOUGH)",
    )


def rit_check(hand: Hand, seq: int) -> None:
    """After a card of a run-it-more-than-once: at the last card of the stub, the burns (and the
    muck if needed) are shuffled in, or the last card is the last board card (r209)."""
    if hand.show.runs < 2 or hand.result is not None or hand.repair.awaiting_reshuffle:
        return
    if left(hand) != 1:
        return
    need, burns = rit_needed(hand)
    if need <= 1:
        return
    if need - burns == 1 and burns == sum(1 for s in hand.deal.slots if s.role is DealSlot.BURN):
        # 004-GN r209: the one card left going into the last board card is used, unburned.
        hand.deal.slots = type(hand.deal.slots)(
            s for s in hand.deal.slots if s.role is not DealSlot.BURN
        )
        hand.incident(
            seq,
            Rule.RIT_CARD_SHORTAGE,
            Ruling.WARNING,
            "ONE CARD LEFT: DEAL IT AS THE LAST BOARD CARD WITHOUT BURNING",
        )
        hand.prompt(seq, "LAST CARD (NO BURN)", PromptCode.BURN_AND_DEAL)
        return
    pile = list(hand.deal.burns)
    what = "THE BURNS"
    if len(pile) + 1 < need:
        pile += _muck(hand)
        what = "THE BURNS AND THE MUCK"
    hand.incident(
        seq,
        Rule.RIT_CARD_SHORTAGE,
        Ruling.WARNING,
        f"ONE CARD LEFT, {need} NEEDED: SHUFFLE {what} IN WITH IT AND COMPLETE THE BOARDS "
        f"({_cards(pile)})",
    )
    _start(hand, Rule.RIT_CARD_SHORTAGE, pile, what, seq)
