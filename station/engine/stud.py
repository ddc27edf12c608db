"""Stud: who brings in, who acts first on later streets, open pairs, who gets the cards. Pure.

STUD-BRINGIN: 7-stud and stud/8 bring in with the lowest up-card (ace high; suits clubs lowest),
razz with the highest (aces low, the king of spades highest). STUD-ACTION-LATER-STREETS: from 4th
street the best hand showing starts (razz: the lowest); ties go to the tied player who received
cards first, i.e. nearest the dealer's left. Straights and flushes showing do not count.

The hand-level rules below them (bring-in options, wrong bring-in, open pair, dealing order of
folded hands, the dealer's announcements, a short stub) are called by `Hand` at the points where
a stud hand differs from the other families.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from station.engine.betting import Wager, WagerKind
from station.engine.cards import Card
from station.engine.decisions import Action, ActionKind, DealSlot, PromptCode, Ruling
from station.engine.evaluate.mexican import showing_key
from station.engine.games import BringIn, GameSpec, HighEval, LowEval, Structure
from station.engine.hand import Hand
from station.engine.hand_state import Shortage, ShortageStage
from station.engine.recovery import Expect, Recovery, Step
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.steps import NOTHING, AfterAction, Steps


def bring_in_seat(spec: GameSpec, up_cards: dict[int, Card]) -> int | None:
    """The seat that must bring in, from each seat's third-street up-card (`up_cards` in deal
    order). Mexican stud: the high card, a joker counting as an ace, the tie to the first
    clockwise of the button (004-GN r249)."""
    if not up_cards:
        return None
    if spec.dealer_button:
        return max(up_cards, key=lambda s: 14 if up_cards[s].is_joker else up_cards[s].rank)
    if spec.bring_in is BringIn.HIGH_CARD:
        return max(up_cards, key=lambda s: (up_cards[s].low_rank, up_cards[s].suit_rank))
    if spec.bring_in is BringIn.HIGH_CARD_ACE_HIGH:
        return max(up_cards, key=lambda s: (up_cards[s].rank, up_cards[s].suit_rank))
    return min(up_cards, key=lambda s: (up_cards[s].rank, up_cards[s].suit_rank))


def _high_showing(cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    counts = Counter(c.rank for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return tuple(n for _, n in groups), tuple(r for r, _ in groups)


def _low_showing(cards: Sequence[Card], aces_low: bool = True) -> tuple[int, tuple[int, ...]]:
    """Razz: fewer paired cards is better, then the highest card lowest; negated for max().
    Kansas City razz (deuce-to-seven) counts the ace high."""
    counts = Counter(c.low_rank if aces_low else c.rank for c in cards)
    paired = sum(n - 1 for n in counts.values())
    ranks = sorted(counts, reverse=True)
    return (-paired, tuple(-r for r in ranks))


def first_to_act(
    spec: GameSpec, showing: Mapping[int, Sequence[Card]], order: Sequence[int]
) -> int:
    """The seat that acts first on 4th street and later; `order` is the deal order. The low hand
    in razz and its kin (`later_low`: razz, Kansas City razz, stud hi-lo regular, Razzdugi and
    Razzduci, 004-GN r233, r243, r319, r325), the high hand otherwise; Mexican stud reads an up
    joker as an ace (r249-r250)."""
    low = spec.later_low
    aces_low = spec.low is not LowEval.D27
    best: int | None = None
    best_key: object = None
    for seat in order:
        if seat not in showing:
            continue
        if spec.high is HighEval.MEXICAN:
            key: object = showing_key(showing[seat])
        elif low:
            key = _low_showing(showing[seat], aces_low)
        else:
            key = _high_showing(showing[seat])
        if best is None or key > best_key:  # type: ignore[operator]
            best, best_key = seat, key
    return best if best is not None else order[0]


def has_open_pair(showing: Mapping[int, Sequence[Card]]) -> bool:
    """STUD-LIMITS-PER-STREET: a pair showing on 4th street allows the big bet (7-stud only)."""
    return any(len({c.rank for c in cards}) < len(cards) for cards in showing.values())


# --- hand-level stud rules --------------------------------------------------------------------
#
# The functions below are called by `Hand` where a stud hand differs from the other families.
# They read and change the hand (and its `stud_state`); like the rest of the engine they are pure.


_RANK_NAMES = {
    14: "ACES",
    13: "KINGS",
    12: "QUEENS",
    11: "JACKS",
    10: "TENS",
    9: "NINES",
    8: "EIGHTS",
    7: "SEVENS",
    6: "SIXES",
    5: "FIVES",
    4: "FOURS",
    3: "THREES",
    2: "TWOS",
}


def _is_razz(spec: GameSpec) -> bool:
    """Razz and its kin: the low hand starts the later streets (`GameSpec.later_low`)."""
    return spec.later_low


def limited_cards(hand: Hand) -> dict[int, list[Card]]:
    """Mexican stud: each seat's joker that plays limited (an ace, or a straight or flush card):
    one dealt face up, or shown by its owner; a joker the dealer exposed plays as if dealt down
    (004-GN r248, r251)."""
    by_dealer = {c for _, c, _ in hand.faults.exposed if c is not None}
    return {
        s: [c]
        for s, cards in hand.deal.cards.items()
        for c, up in cards
        if c.is_joker and up and c not in by_dealer
    }


def show_down_card(hand: Hand, seat: int, seq: int) -> None:
    """Mexican stud, TABLED before a street's cards: after each betting round every player in
    decides, in the order of the betting, whether to expose his down card; one who does gets
    his next card down (004-GN §IX "Mexican Poker"). Shown at any other time it is not an
    exposed card and plays as a down card (r256)."""
    down = [c for c, up in hand.deal.cards.get(seat, []) if not up]
    street = hand.street
    ahead = [x for x in hand.deal.slots if x.seat == seat and x.street == street and x.street > 0]
    if hand.phase is Phase.STREET and down and ahead and not hand.deal.street_log:
        hand.reveal(seat, down[0])
        for slot in ahead:
            slot.role, slot.up = DealSlot.DOWN, False
        hand.out.append(Action(hand.number, seq, seat, ActionKind.SHOW, 0))
        hand.prompt(
            seq,
            f"SEAT {seat} SHOWS {down[0].code}: HIS NEXT CARD COMES DOWN",
            PromptCode.DEAL,
        )
        return
    hand.incident(
        seq,
        Rule.EXPOSE_MEXICAN_STUD,
        Ruling.PLAY_ON,
        f"SEAT {seat} SHOWED A CARD OUTSIDE THE TIME TO EXPOSE: IT PLAYS AS A DOWN CARD",
        seat=seat,
    )


def card_up(hand: Hand, seat: int, street: int) -> bool:
    """Whether the seat's card of `street` is dealt face up. Mexican stud: up while he holds
    his one down card, down once he has shown it (004-GN §IX "Mexican Poker")."""
    if hand.spec.dealer_button and hand.spec.high is HighEval.MEXICAN:
        return any(not up for _, up in hand.deal.cards.get(seat, []))
    return hand.spec.stud_streets[street - 1]


def receivers(hand: Hand) -> list[int]:
    """DEAL-STUD-ORDER: the seats a street is dealt to, in dealing order. A hand folded when
    there was no wager keeps receiving cards until a bet kills it (001-RR11 §8 r9)."""
    ghosts = hand.stud.ghosts
    return [s for s in hand.dealt if not hand.seats[s].folded or s in ghosts]


def showing(hand: Hand, seats: Sequence[int]) -> dict[int, list[Card]]:
    """Each seat's up-cards, with a common card in the centre counted in every hand."""
    return {s: [c for c, up in hand.deal.cards[s] if up] + list(hand.deal.board) for s in seats}


def _next_active(hand: Hand, seat: int) -> int | None:
    """The first player on the seat's left who can still act (not folded, not all-in)."""
    i = hand.dealt.index(seat)
    for s in hand.dealt[i + 1 :] + hand.dealt[:i]:
        st = hand.seats[s]
        if not st.folded and not st.allin:
            return s
    return None


def open_third_street(hand: Hand) -> None:
    """STUD-BRINGIN: name the seat that opens third street.

    The low card brings in (001-RR11 §8 r2). If he is all-in for the ante (STUD-BRINGIN-ALL-IN,
    §8 r4), or his low card is a downcard the dealer turned up (EXPOSE-STUD-DOWNCARD-INITIAL,
    §8 r1), the first active player on his left opens instead, and may fold, open for the forced
    bet or open for a full bet."""
    live = hand.in_hand()
    for s in live:
        seat = hand.seats[s]
        if seat.stack == 0:
            seat.allin = True  # the ante took his last chip
    up = {s: c for s in live for c, is_up in hand.deal.cards[s] if is_up}
    low = bring_in_seat(hand.spec, up)
    hand.stud.low_card = low
    hand.stud.opener_option = False
    hand.stud.bring_in_seat = low
    if low is None:
        return
    if hand.seats[low].allin or up[low] in hand.stud.exposed_downcards:
        hand.stud.bring_in_seat = _next_active(hand, low)
        hand.stud.opener_option = True


def bring_in_prompt(hand: Hand) -> str | None:
    """STUD-DEALER-ANNOUNCEMENTS: the low card by seat and card (004-GN r223), and who opens."""
    low, opener = hand.stud.low_card, hand.stud.bring_in_seat
    if low is None or opener is None:
        return None
    up = [c for c, is_up in hand.deal.cards[low] if is_up]
    card = up[-1].code if up else "?"
    bring, full = hand.terms.stakes.bring_in, hand.bet_size(0)
    if hand.spec.dealer_button and not hand.stud.opener_option:
        # Mexican stud: "a bring-in bet, of either the smaller or larger betting limit" (r249).
        big = hand.bet_size(hand.spec.big_bet_from())
        return f"BRING-IN: SEAT {low} ({card}) BETS {full} OR {big}"
    if not hand.stud.opener_option:
        return f"BRING-IN: SEAT {low} ({card}) POSTS {bring} OR COMPLETES TO {full}"
    why = "IS ALL-IN" if hand.seats[low].allin else "WAS DEALT UP IN ERROR"
    return (
        f"LOW CARD SEAT {low} ({card}) {why}: SEAT {opener} MAY FOLD, BRING IN {bring} OR "
        f"COMPLETE TO {full}"
    )


def round_starter(hand: Hand, street: int, live: list[int]) -> int:
    """The seat that begins betting round `street` (STUD-ACTION-LATER-STREETS). A starter who is
    all-in is passed over by the betting round itself (001-RR11 §8 r4)."""
    start: int | None = None
    if street == 0:
        start = hand.stud.bring_in_seat if hand.stud.bring_in_seat in live else live[0]
    elif (
        street == hand.spec.rounds - 1
        and hand.stud.seventh_exposed is not None
        and hand.profile.stud_seventh_gn
    ):
        # EXPOSE-STUD-FINAL-DOWNCARD (004-GN r228): the hand that began 6th street starts again.
        before = hand.stud.starters.get(street - 1)
        start = before if before in live else None
    if start is None:
        start = first_to_act(hand.spec, showing(hand, live), hand.dealt)
    hand.stud.starters[street] = start
    return start


def announce_street(hand: Hand, seq: int) -> None:
    """STUD-DEALER-ANNOUNCEMENTS (001-RR11 §8 r12, 004-GN r223): from 4th street the dealer
    announces the high hand (razz: the low hand) and the pairs; never straights or flushes. Razz
    announces a pair the first time it shows, never a pair of face cards (§9 r4)."""
    rnd = hand.bets.round
    if rnd is None or rnd.complete():
        return
    live = hand.in_hand()
    start = hand.stud.starters.get(hand.street)
    razz = _is_razz(hand.spec)
    shown = showing(hand, live)
    parts = [f"{hand.street_name().upper()}:"]
    if start is not None:
        cards = " ".join(c.code for c in shown.get(start, []))
        parts.append(f"{'LOW' if razz else 'HIGH'} HAND SEAT {start} ({cards}) ACTS FIRST.")
    pairs: list[str] = []
    for s in live:
        newest = [c for c, up in hand.deal.cards[s] if up][-1:]
        counts = Counter(c.rank for c in shown[s])
        said: list[tuple[int, int]] = []  # (cards, rank) of each pair or more the seat shows
        for rank, n in sorted(counts.items(), key=lambda kv: -kv[0]):
            if n < 2:
                continue
            if razz and (rank in (11, 12, 13) or not any(c.rank == rank for c in newest)):
                continue
            said.append((n, rank))
        if len(said) == 2 and said[0][0] == said[1][0] == 2:  # as a dealer calls it
            hi, lo = (_RANK_NAMES.get(r, str(r)) for _, r in said)
            pairs.append(f"SEAT {s} TWO PAIR, {hi} AND {lo}")
            continue
        for n, rank in said:
            what = {2: "PAIR OF", 3: "THREE", 4: "FOUR"}[min(n, 4)]
            pairs.append(f"SEAT {s} {what} {_RANK_NAMES.get(rank, str(rank))}")
    if pairs:
        parts.append("; ".join(pairs) + ".")
    if open_pair_option(hand):
        small, big = hand.bet_size(1), hand.bet_size(hand.spec.big_bet_from())
        parts.append(f"OPEN PAIR: BET {small} OR {big}.")
    hand.prompt(seq, " ".join(parts), PromptCode.ACTION)


def open_pair_option(hand: Hand) -> bool:
    """STUD-LIMITS-PER-STREET: an open pair on 4th street lets any player bet or raise either
    limit (001-RR11 §8 r7; 7-stud only: razz and stud/8 keep the small bet)."""
    if not hand.spec.open_pair or hand.street != 1 or hand.bets.round is None:
        return False
    if hand.spec.structure is not Structure.FIXED_LIMIT:
        return False
    return has_open_pair({s: [c for c, up in hand.deal.cards[s] if up] for s in hand.in_hand()})


def open_pair_wager(hand: Hand, total: int) -> None:
    """A wager of the upper limit on 4th street with an open pair showing: from then on every
    raise is of the upper limit (001-RR11 §8 r7)."""
    rnd = hand.bets.round
    if rnd is None or not open_pair_option(hand):
        return
    big = hand.bet_size(hand.spec.big_bet_from())
    if rnd.bet_size >= big:
        return
    if total - rnd.max_bet == big:
        rnd.bet_size = big


def on_fold(hand: Hand, seat: int) -> None:
    """Before a fold is booked: a fold with no wager keeps the seat in the dealing order
    (DEAL-STUD-ORDER); the opener passing his option hands it to his left (001-RR11 §8 r1, r4)."""
    rnd = hand.bets.round
    betting = rnd is not None and hand.betting() and seat in rnd
    if not (betting and rnd is not None and rnd.max_bet > 0):
        hand.stud.ghosts.add(seat)
    if hand.bring_in_pending() and seat == hand.stud.bring_in_seat:
        hand.stud.bring_in_seat = _next_active(hand, seat)
        hand.stud.opener_option = True


def refuse_check(hand: Hand, seat: int, seq: int) -> None:
    """STUD-BRINGIN: third street cannot be checked; the opener must bring in or complete (or,
    when the low card passed the option to him, fold)."""
    bring, full = hand.terms.stakes.bring_in, hand.bet_size(0)
    choice = "FOLD, BRING IN" if hand.stud.opener_option else "BRING IN"
    hand.incident(
        seq,
        Rule.STUD_BRINGIN,
        Ruling.CORRECT_BET,
        f"NO CHECK ON THIRD STREET: SEAT {seat} MUST {choice} {bring} OR COMPLETE TO {full}",
        seat=seat,
    )


def bet_made(hand: Hand) -> None:
    """A bet kills the hands folded without a wager: they get no more cards."""
    hand.stud.ghosts.clear()


def post_bring_in(hand: Hand, seat: int, total: int, seq: int) -> None:
    """Book the forced bet of `seat` (a short all-in bring-in still sets the full amount)."""
    rnd = hand.bets.round
    assert rnd is not None
    rnd.post(seat, total)
    rnd.max_bet = max(total, hand.terms.stakes.bring_in or 0)
    s = rnd.seat(seat)
    s.acted, s.level = True, rnd.max_bet
    rnd.last_actor = seat
    hand.stud.wrong_bring_in = None
    bet_made(hand)
    hand.out.append(Action(hand.number, seq, seat, ActionKind.BRING_IN, total, s.allin))


def complete_from_bring_in(hand: Hand, seat: int, total: int) -> None:
    """STUD-BRINGIN (001-RR11 §8 r3): the opener may open for a full bet instead of the forced
    bet; in limit that is a completion of the bring-in, not a bet (§8 r6)."""
    rnd = hand.bets.round
    bring = hand.terms.stakes.bring_in or 0
    if rnd is None or hand.spec.structure is not Structure.FIXED_LIMIT or total <= bring:
        return
    rnd.max_bet = bring


def wrong_bring_in_stands(hand: Hand, seat: int, seq: int) -> bool:
    """STUD-BRINGIN-WRONG-PLAYER (001-RR11 §8 r5): once the player after a wrong bring-in has
    acted, that wager stands, the action goes on from there and the real low card has no
    obligation. True when it was booked so (the caller then books `seat`'s action as usual)."""
    rnd = hand.bets.round
    if hand.stud.wrong_bring_in is None or rnd is None:
        return False
    wrong, total, at = hand.stud.wrong_bring_in
    if seat in (wrong, hand.stud.bring_in_seat):
        return False
    if (
        hand.seats[wrong].folded
        or hand.chips.zone.get(wrong, 0) - hand.chips.offset.get(wrong, 0) < total
    ):
        hand.stud.wrong_bring_in = None  # the chips were taken back
        return False
    if _next_active(hand, wrong) != seat:
        return False
    low = hand.stud.bring_in_seat
    hand.incident(
        seq,
        Rule.STUD_BRINGIN_WRONG_PLAYER,
        Ruling.PLAY_ON,
        f"SEAT {seat} ACTED AFTER SEAT {wrong}'S BRING-IN: IT STANDS, ACTION CONTINUES; SEAT "
        f"{low} HAS NO OBLIGATION",
        seat=wrong,
        events=(at, seq),
    )
    hand.stud.bring_in_seat = wrong
    bring = hand.terms.stakes.bring_in or 0
    if total <= bring:
        post_bring_in(hand, wrong, total, at)
        return True
    complete_from_bring_in(hand, wrong, total)
    result = rnd.wager(wrong, total)
    hand.stud.wrong_bring_in = None
    if isinstance(result, Wager):
        kind = ActionKind.COMPLETE if result.kind is WagerKind.COMPLETE else ActionKind.RAISE
        bet_made(hand)
        hand.out.append(Action(hand.number, at, wrong, kind, result.total, result.allin))
    return True


def bring_in(hand: Hand, seat: int, total: int, seq: int) -> Steps | None:
    """STUD-BRINGIN: the bring-in seat posts the bring-in (or completes). None when the wager
    is to be booked as usual; otherwise it was handled here, and what follows."""
    rnd = hand.bets.round
    assert rnd is not None
    if seat != hand.stud.bring_in_seat:
        if wrong_bring_in_stands(hand, seat, seq):
            return None  # the wrong bring-in stands: `seat` acts in turn after it
        hand.incident(
            seq,
            Rule.STUD_BRINGIN_WRONG_PLAYER,
            Ruling.CORRECT_BET,
            f"SEAT {seat} IS NOT LOW: SEAT {hand.stud.bring_in_seat} BRINGS IN. TAKE BACK {total}",
            seat=seat,
        )
        hand.stud.wrong_bring_in = (seat, total, seq)
        return NOTHING
    bring = hand.terms.stakes.bring_in or 0
    if total <= bring:
        post_bring_in(hand, seat, total, seq)
        return (AfterAction(seq),)
    big = hand.bet_size(hand.spec.big_bet_from())
    if hand.spec.dealer_button and total == big and rnd.raise_cap is not None:
        # Mexican stud: the bring-in of the larger limit; every raise after it is a large one.
        post_bring_in(hand, seat, total, seq)
        rnd.bet_size = big
        return (AfterAction(seq),)
    complete_from_bring_in(hand, seat, total)  # 001-RR11 §8 r3: open for a full bet
    return None


# --- STUD-CARD-SHORTAGE -----------------------------------------------------------------------


def _cards_left(hand: Hand) -> int:
    """Cards still in the stub: the deck less every card drawn (a joker that is no card of
    this game's deck was a scrap of paper, not one of them)."""
    joker = hand.spec.joker
    out = sum(1 for c in hand.deal.seen if joker or not c.is_joker)
    return hand.spec.deck_size + (1 if joker else 0) - out


def _out_of_play(hand: Hand) -> list[Card]:
    """The burn cards and the cards eliminated from play (PREMATURE-STUD-STREET), which may be
    scrambled back in when the stub runs short; never a player's cards or a boxed scrap."""
    if hand.spec.discard:
        # Super Stud: "shuffle the last card in the stub, burn cards and the muck together"
        # (004-GN r247): the discards and the folded hands go back in too.
        live = [s for s in hand.dealt if not hand.seats[s].folded]
        held = {c for s in live for c, _ in hand.deal.cards.get(s, [])}
    else:
        held = {c for cards in hand.deal.cards.values() for c, _ in cards}
    kept = held | set(hand.deal.board) | {c for c, _ in hand.faults.boxed if c is not None}
    burns = set(hand.deal.burns)
    eliminated = [c for c in hand.deal.seen if c not in kept and c not in burns and not c.is_joker]
    return [*hand.deal.burns, *eliminated]


def _seat_list(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)


def check_shortage(hand: Hand, seq: int) -> None:
    """STUD-CARD-SHORTAGE, before a street is dealt: the engine counts the stub exactly (every
    card out is known), so it can tell the dealer the procedure before the cards run out.

    RR (001-RR11 §8 r15): deal every card but the last, mix it with the burn cards (and any
    eliminated cards), scramble and cut, burn again and deliver the remaining cards; without a
    card to spare, no burn; without enough fresh cards, a common card. GN (004-GN r226): count
    players + 2; if the burn cards make up the shortfall, scramble them with the stub first;
    otherwise a community card (after scrambling stub and burns when two or fewer are left)."""
    if hand.stud.shortage is not None or hand.repair.recovery is not None:
        return
    seats = receivers(hand)
    street = hand.street
    burn = not hand.repair.skip_next_burn
    left = _cards_left(hand)
    gn = hand.profile.stud_shortage_gn
    need = len(seats) + (2 if gn else int(burn))
    if left >= need:
        return
    pool = _out_of_play(hand)
    name = hand.street_name(street).upper()
    steps: list[Step] = []
    # Super Stud never uses a community card: the muck is shuffled in (004-GN r247).
    common = left + len(pool) < (need if gn else len(seats)) and not hand.spec.discard
    if common:
        # Not enough fresh cards for everyone: one common card plays in every hand.
        scramble = left <= (2 if gn else 1)
        text = f"NOT ENOUGH CARDS FOR {name}: A COMMON CARD IN THE CENTRE PLAYS FOR EVERYONE"
        if scramble:
            steps.append(_scramble_step(pool))
            text += ". SCRAMBLE THE STUB WITH THE BURN CARDS FIRST"
        steps.append(Step("BURN AND TURN ONE COMMON CARD FACE UP IN THE CENTRE", Expect.CARDS))
        hand.stud.shortage = Shortage(street, [], [], False, True, True, ShortageStage.REST)
    elif gn:
        steps.append(_scramble_step(pool))
        steps.append(Step(f"BURN AND DEAL {name}", Expect.CARDS))
        text = (
            f"{left} CARDS IN THE STUB, {need} NEEDED FOR {name}: SCRAMBLE THE STUB WITH THE "
            f"{len(pool)} BURN CARDS, THEN BURN AND DEAL"
        )
        hand.stud.shortage = Shortage(street, [], seats, False, True, False, ShortageStage.REST)
    else:
        dealt_now = max(0, left - 1 - int(burn))  # every card but the last one
        first, rest = seats[:dealt_now], seats[dealt_now:]
        burn_first = burn and left >= 2
        scrambled = (1 if left >= 1 else 0) + len(pool) + int(burn_first)
        burn_rest = scrambled >= len(rest) + 1
        if not first and not burn_first:
            # Nothing to deal before the scramble: the stub and the burns are scrambled first.
            steps.append(_scramble_step(pool))
            steps.append(Step(f"{'BURN AND ' if burn_rest else ''}DEAL {name}", Expect.CARDS))
            text = (
                f"{left} CARDS LEFT, {need} NEEDED FOR {name}: SCRAMBLE THEM WITH THE BURN "
                f"CARDS, {'BURN ' if burn_rest else 'NO BURN '}AND DEAL"
            )
            hand.stud.shortage = Shortage(
                street, [], seats, False, burn_rest, False, ShortageStage.REST
            )
            _start_shortage(hand, steps, pool, text, seq)
            return
        steps.append(
            Step(
                f"{'BURN, ' if burn_first else ''}DEAL SEATS {_seat_list(first) or 'NONE'}; "
                "KEEP THE LAST CARD",
                Expect.CARDS,
            )
        )
        steps.append(
            Step(
                "MIX THE LAST CARD WITH THE BURN CARDS, SCRAMBLE AND CUT, PRESS STUB RESHUFFLE",
                Expect.RESHUFFLE,
            )
        )
        steps.append(
            Step(
                f"{'BURN AGAIN, ' if burn_rest else 'NO BURN, '}DEAL SEATS {_seat_list(rest)}",
                Expect.CARDS,
                no_burn=not burn_rest,
            )
        )
        text = (
            f"{left} CARDS LEFT, {need} NEEDED FOR {name}: DEAL ALL BUT THE LAST CARD (SEATS "
            f"{_seat_list(first) or 'NONE'}), MIX IT WITH THE BURN CARDS, SCRAMBLE, "
            f"{'BURN AGAIN ' if burn_rest else 'NO BURN '}AND DEAL SEATS {_seat_list(rest)}"
        )
        hand.stud.shortage = Shortage(
            street, first, rest, burn_first, burn_rest, False, ShortageStage.FIRST
        )
    _start_shortage(hand, steps, pool, text, seq)


def _start_shortage(
    hand: Hand, steps: list[Step], pool: Sequence[Card], text: str, seq: int
) -> None:
    hand.repair.recovery = Recovery(Rule.STUD_CARD_SHORTAGE, steps).start()
    if steps[0].expect is Expect.RESHUFFLE:
        _return_to_stub(hand, pool)
    hand.incident(seq, Rule.STUD_CARD_SHORTAGE, Ruling.PLAY_ON, text)


def _scramble_step(pool: Sequence[Card]) -> Step:
    return Step(
        f"SCRAMBLE THE STUB WITH THE {len(pool)} BURN CARDS, CUT, PRESS STUB RESHUFFLE",
        Expect.RESHUFFLE,
    )


def _return_to_stub(hand: Hand, pool: Sequence[Card]) -> None:
    """The cards go back into the stub with the next STUB_RESHUFFLE: they may come out again."""
    rec = hand.repair.recovery
    assert rec is not None
    rec.reshuffle.extend(pool)
    hand.deal.burns = [c for c in hand.deal.burns if c not in pool]


def street_plan(hand: Hand, street: int, burn: bool) -> tuple[bool, list[int], bool]:
    """(burn, seats dealt, common card) for the cards of `street`."""
    seats = receivers(hand)
    sh = hand.stud.shortage
    if sh is None or sh.street != street or sh.stage is ShortageStage.DONE:
        return burn, seats, False
    if sh.stage is ShortageStage.FIRST:
        sh.stage = ShortageStage.PAUSE
        return burn and sh.burn_first, [s for s in sh.first if s in seats], False
    sh.stage = ShortageStage.DONE
    if sh.common:
        return sh.burn_rest, [], True
    return sh.burn_rest, [s for s in sh.rest if s in seats], False


def street_paused(hand: Hand, seq: int) -> bool:
    """RR shortage: the cards before the last one are out; the dealer now mixes the last card
    with the burns and scrambles. True while the street waits for STUB_RESHUFFLE."""
    sh = hand.stud.shortage
    rec = hand.repair.recovery
    if sh is None or sh.stage is not ShortageStage.PAUSE or rec is None:
        return False
    sh.stage = ShortageStage.REST
    rec.complete(Expect.CARDS)
    _return_to_stub(hand, _out_of_play(hand))
    hand.repair.awaiting_reshuffle = True
    hand.alerts.stop_text = "STUB SHORT: SCRAMBLE THE LAST CARD WITH THE BURN CARDS"
    hand.prompt(
        seq,
        "KEEP THE LAST CARD: MIX IT WITH THE BURN CARDS, SCRAMBLE AND CUT, THEN PRESS "
        "STUB RESHUFFLE",
        PromptCode.RECOVERY,
    )
    return True
