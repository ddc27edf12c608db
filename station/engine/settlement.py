"""Showdown and settlement: collecting the bets, the showdown, the awards, a void hand. Pure.

At the end of each round the bets go into the middle (`collect`). The hand ends when one player
is left or the showdown is resolved: the uncalled bet goes back, the pots are built and awarded
on every board (run it twice), and a `HandEnd` records payouts and the stacks after them. A void
hand gives every chip back to the seat that put it in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from station.engine import lowball, openers, stud
from station.engine.decisions import HandEnd, PotPart, PotResult, PromptCode, Ruling
from station.engine.evaluate import HandValue
from station.engine.evaluate.labels import announce
from station.engine.games import BoardSplit, Family, HighEval, Structure
from station.engine.hand import Hand
from station.engine.pots import Pot, build_pots, uncalled
from station.engine.rake import RakeResult, rake_for, take_from_pots
from station.engine.rule_ids import Rule
from station.engine.showdown import Reader, award_pots, part_kind
from station.engine.snapshot import Phase


def collect(hand: Hand) -> None:
    """The round's bets go into the middle; remember who pushed the action (SHOW-ORDER)."""
    rnd = hand.bets.round
    if rnd is None:
        return
    played = any(seat.acted for seat in rnd.seats)
    if played:
        hand.bets.pusher = None
    elif hand.bets.last_aggressor is not None:
        hand.bets.pusher = hand.bets.last_aggressor  # the betting ended on an earlier round
    hand.bets.last_aggressor = rnd.last_aggressor
    for seat in rnd.seats:
        hand.chips.committed[seat.seat] += seat.bet
        hand.chips.offset[seat.seat] = hand.chips.offset.get(seat.seat, 0) + seat.bet
        seat.bet = 0


def showdown(hand: Hand, seq: int) -> None:
    """The last round is over with two or more players left: who shows first."""
    hand.phase = Phase.SHOWDOWN
    hand.bets.round = None
    first = show_first(hand)
    hand.prompt(seq, f"SHOWDOWN: SEAT {first} SHOWS FIRST", PromptCode.SHOWDOWN)
    try_resolve(hand, seq)


def show_first(hand: Hand) -> int:
    """SHOW-ORDER: the last bettor or raiser of the final round shows first; if everyone
    checked, the first player to act. With side pots the players of the last side pot show
    before a player all-in for less (RR11 §3 showdown r7-r8, GN r144); GN no-limit: when the
    betting ended before the river, the player who pushed all-in shows first (GN r144)."""
    live = hand.contenders() or hand.in_hand()
    top = max(hand.chips.committed.get(s, 0) for s in live)
    live = [s for s in live if hand.chips.committed.get(s, 0) == top] or live
    aggressor = hand.bets.last_aggressor
    if aggressor is not None and aggressor in live:
        return aggressor
    pusher = hand.bets.pusher
    if (
        hand.profile.show_allin_pusher_first
        and hand.spec.structure is Structure.NO_LIMIT
        and pusher is not None
        and pusher in live
    ):
        return pusher
    if hand.spec.family is Family.STUD:
        # A common card (STUD-CARD-SHORTAGE) counts in every hand showing.
        return stud.first_to_act(hand.spec, stud.showing(hand, live), hand.dealt)
    assert hand.layout is not None
    order = hand.layout.postflop_order(live)
    return order[0] if order else live[0]


def try_resolve(hand: Hand, seq: int, *, force: bool = False) -> None:
    """End the hand once every contender has shown (or mucked), or now with `force`."""
    if hand.phase is not Phase.SHOWDOWN or hand.result is not None:
        return
    left = hand.contenders()
    if not force and len(left) > 1 and not all(s in hand.show.tabled for s in left):
        return
    end(hand, seq)


def end(hand: Hand, seq: int) -> None:
    """Award the pot(s) and close the hand."""
    collect(hand)
    hand.bets.round = None
    contrib = dict(hand.chips.committed)
    payouts: dict[int, int] = {}
    for s, chips in lowball.sevens_rule(hand, set(hand.contenders()), seq).items():
        contrib[s] -= chips  # LOWBALL-SEVENS-RULE: the action after the draw is void
        payouts[s] = chips
    back_seat, back = uncalled(contrib)
    if back_seat is not None and back > 0:
        contrib[back_seat] -= back
        payouts[back_seat] = payouts.get(back_seat, 0) + back
    live = hand.in_hand()
    pots = build_pots(contrib, live, sum(hand.chips.dead.values()) + hand.terms.carry)
    contenders = openers.false_opener(hand, set(hand.contenders()) or set(live), seq)
    spec = hand.spec
    # Double board (004-GN §VIII): "the pot will be split between the best hand on the top
    # board and the best hand on the bottom board", each board's half a pot of its own, the odd
    # chip to the top board as in a run twice (004-GN r211; house practice); Ultimate Big O
    # reads each hand on whichever board is better for it (`Reader.board2`).
    two_boards = spec.boards > 1 and spec.board_split is BoardSplit.EACH
    if two_boards:
        boards = [hand.deal.board, hand.deal.board2]
    else:
        boards = [*hand.show.boards, hand.deal.board] if hand.show.boards else [hand.deal.board]
    either = hand.deal.board2 if spec.boards > 1 and not two_boards else []
    hands = hand.hands_for_showdown()
    limited = stud.limited_cards(hand) if spec.high is HighEval.MEXICAN else None
    if limited:
        hands = {s: [c for c in cards if c not in limited.get(s, ())] for s, cards in hands.items()}
    unread = sorted(s for s in contenders if s in hand.discard.unknown)
    if unread and len(contenders) > 1:
        hand.alerts.floor_call = True
        # Pineapple, Super Stud: a discard the dealer did not name. The station reads the best
        # the player could hold (his cards with the discard among them); the floor confirms.
        hand.incident(
            seq,
            Rule.SHOW_CARDS_SPEAK,
            Ruling.FLOOR,
            f"DISCARD OF SEAT{'S' if len(unread) > 1 else ''} {', '.join(map(str, unread))} "
            "NOT KEYED: READ ON THE BEST CARDS HE COULD HOLD. FLOOR TO CONFIRM THE HANDS",
            seats=tuple(unread),
        )
    rake = house_take(hand, [pot.amount for pot in pots])
    cuts = rake.pots if rake is not None else (0,) * len(pots)
    results: list[PotResult] = []
    for pot, cut in zip(pots, cuts, strict=True):
        won: dict[int, int] = {}
        parts: list[PotPart] = []
        named: list[str] = []
        # The house's cut comes out first; the rest is split as before (CHIP-ODD-*).
        share, odd = divmod(pot.amount - cut, len(boards))
        for i, board in enumerate(boards):
            # CHIP-ODD-RUN-IT-TWICE (004-GN r211): the extra chip goes to the main board.
            part = Pot(share + (odd if i == 0 else 0), pot.eligible)
            reader = Reader.of(spec, hands, board, either, limited)
            (a,) = award_pots(
                [part],
                contenders,
                reader,
                profile=hand.profile,
                button=hand.button,
                unit=hand.profile.odd_chip_unit or hand.terms.min_chip or 1,
            )
            for s, chips in a.won.items():
                won[s] = won.get(s, 0) + chips
            name = f"board {i + 1}" if two_boards else ""
            rivals = [s for s in pot.eligible if s in contenders]
            for half, amount, shares in a.halves:
                words = winning_hand(reader, rivals, shares, part=half)
                parts.append(PotPart(f"{name} {half}".strip(), amount, dict(shares), words))
            if i == 0 or two_boards:
                words = winning_hand(reader, rivals, a.won)
                if two_boards and not a.halves:
                    parts.append(PotPart(name, part.amount, dict(a.won), words))
                if words:
                    named.append(f"{name.upper()}: {words}" if two_boards else words)
        results.append(
            PotResult(pot.amount, pot.eligible, won, "; ".join(named), parts=tuple(parts))
        )
        for s, chips in won.items():
            payouts[s] = payouts.get(s, 0) + chips
    _finish(hand, seq, tuple(results), payouts, void=False, rake=rake)


def winning_hand(
    reader: Reader, contenders: list[int], won: Mapping[int, int], *, part: str | None = None
) -> str:
    """The pot's winning hand in the dealer's words, when two or more hands contested it: the
    best high among its winners, then (hi-lo) the best low ("FLUSH, ACE HIGH / LOW 8-6"), then
    the other half of a game split two other ways (`GameSpec.second`: Drawmaha's draw hand);
    one part's alone with `part` (a hi-lo half "high" or "low", or a `showdown.part_kind`)."""
    winners = [s for s, chips in won.items() if chips]
    if len(contenders) < 2 or not winners:
        return ""
    words = []
    reads: tuple[Callable[[int], HandValue | None], ...]
    if part is None:
        reads = (reader.high, reader.low, reader.second)
    elif part in ("high", "low"):
        reads = (reader.low if part == "low" else reader.high,)
    else:
        kind = part_kind(part)
        reads = (lambda s: reader.half(kind, s),)
    for read in reads:
        values = [v for s in winners if (v := read(s)) is not None]
        if values:
            best = max(values, key=lambda v: v.score)
            words.append(announce(best.kind, best.score))
    return " / ".join(words)


def house_take(hand: Hand, amounts: list[int]) -> RakeResult | None:
    """What the house takes from the pots of `hand` (main pot first), or None when the table
    has no rake schedule. MISC-TIME-COLLECTION / RAKE (004-GN §I r28): a percentage up to the
    cap, or in a time game the table's time when this is the GN time-pot."""
    schedule = hand.terms.rake
    if schedule is None:
        return None
    total = sum(amounts)
    if hand.terms.time_owed:
        taken = min(hand.terms.time_owed, total)
        return RakeResult(
            taken, take_from_pots(amounts, taken), hand.terms.time_paid, time_pot=True
        )
    rake = rake_for(
        schedule, total, game=hand.spec.name, players=len(hand.dealt), flop=_past_flop(hand)
    )
    return RakeResult(rake, take_from_pots(amounts, rake), hand.terms.time_paid)


def _past_flop(hand: Hand) -> bool:
    """No flop, no drop: did the hand see a flop (games without one: a second round)?"""
    if hand.spec.family is Family.FLOP:
        return len(hand.deal.board) >= 3 or bool(hand.show.boards)
    return hand.street >= 1


def void(hand: Hand, seq: int) -> None:
    """All action void: every chip goes back to the seat that put it in, the forced bets
    still in front at the deal among them (the first round has not booked them yet)."""
    collect(hand)
    hand.bets.round = None
    if not hand.chips.posts_booked:
        for s, amount in hand.chips.posts.items():
            seat = hand.seats[s]
            hand.chips.committed[s] += amount
            if seat.stack is not None:
                seat.stack = max(0, seat.stack - amount)  # as BettingRound.post
        hand.chips.posts_booked = True
    payouts = {
        s: hand.chips.committed[s] + hand.chips.dead.get(s, 0)
        for s in hand.dealt
        if hand.chips.committed[s] + hand.chips.dead.get(s, 0) > 0
    }
    rake = RakeResult(0, (), hand.terms.time_paid) if hand.terms.rake is not None else None
    _finish(hand, seq, (), payouts, void=True, rake=rake)


def _finish(
    hand: Hand,
    seq: int,
    pots: tuple[PotResult, ...],
    payouts: dict[int, int],
    *,
    void: bool,
    rake: RakeResult | None = None,
    carried: int = 0,
) -> None:
    stacks: dict[int, int | None] = {}
    charged: dict[int, int] = {}
    for s in hand.dealt:
        st = hand.seats[s].stack
        after = None if st is None else st + payouts.get(s, 0)
        due = hand.chips.time_charged.get(s, 0)  # GN time-flop: the payer's time, from his stack
        if due:
            charged[s] = due if after is None else min(due, after)
            after = None if after is None else after - charged[s]
        stacks[s] = after
    if charged and rake is not None:
        time = dict(rake.time)
        for s, paid in charged.items():
            time[s] = time.get(s, 0) + paid
        rake = replace(rake, time=time)
    shown = {
        s: tuple(c.code for c, _ in hand.deal.cards[s])
        for s in hand.dealt
        if s in hand.show.tabled and not hand.seats[s].folded
    }
    all_boards = [*hand.show.boards, hand.deal.board] if hand.show.boards else []
    if hand.spec.boards > 1:
        all_boards = [hand.deal.board, hand.deal.board2]  # top and bottom board
    first = all_boards[0] if all_boards else hand.deal.board
    out = eliminated(hand, stacks) if hand.profile.tournament and not void else ()
    hand.result = HandEnd(
        hand=hand.number,
        event=seq,
        board=tuple(c.code for c in first),
        boards=tuple(tuple(c.code for c in b) for b in all_boards),
        pots=pots,
        payouts=payouts,
        void=void,
        stacks=stacks,
        shown=shown,
        rake=rake,
        carried=carried,
        eliminated=out,
    )
    hand.phase = Phase.ENDED
    hand.deal.slots.clear()
    hand.alerts.stop_text = None
    hand.out.append(hand.result)
    if out:
        hand.prompt(seq, eliminated_text(out), PromptCode.INFO)
    if rake is not None and rake.total > 0:
        hand.prompt(seq, drop_text(rake), PromptCode.DROP)
    if payouts and not void:
        hand.prompt(seq, push_text(payouts), PromptCode.COLLECT)


def push_text(payouts: Mapping[int, int]) -> str:
    """PUSH: every winner and what he receives, by seat ("PUSH: SEAT 1 RECEIVES 200, SEAT 4
    RECEIVES 151"): a split or a side pot won by another player is pushed to each of them."""
    paid = ", ".join(f"SEAT {seat} RECEIVES {amount}" for seat, amount in sorted(payouts.items()))
    return f"PUSH: {paid}"


def pass_out(hand: Hand, seq: int) -> None:
    """JACKS-OR-BETTER: nobody opened. The hand is over, every ante stays in the pot for the
    next deal, and nothing is paid (the house takes nothing from a pot nobody played)."""
    collect(hand)
    hand.bets.round = None
    carried = sum(hand.chips.committed.values()) + sum(hand.chips.dead.values())
    carried += hand.terms.carry
    rake = RakeResult(0, (), hand.terms.time_paid) if hand.terms.rake is not None else None
    _finish(hand, seq, (), {}, void=False, rake=rake, carried=carried)


def eliminated(hand: Hand, stacks: dict[int, int | None]) -> tuple[tuple[int, int], ...]:
    """TOURN-ELIMINATION-ORDER: the players who started the hand with chips and end it with
    none, the one who started with more first: "If multiple players go broke on the same hand,
    the player starting the hand with the larger amount of chips finishes in the higher place"
    (001-RR11 §15 r35; 000-USPA §3.3.2.29). Equal stacks tie (listed by seat)."""
    out = [
        (s, start)
        for s, start in hand.terms.start_stacks.items()
        if start is not None and start > 0 and stacks.get(s) == 0
    ]
    return tuple(sorted(out, key=lambda sc: (-sc[1], sc[0])))


def eliminated_text(out: tuple[tuple[int, int], ...]) -> str:
    """OUT: SEAT 2 (STARTED 2000) ABOVE SEAT 5 (STARTED 1200); equal starts share a place."""
    groups: list[list[int]] = []
    starts: list[int] = []
    for seat, start in out:
        if starts and starts[-1] == start:
            groups[-1].append(seat)
        else:
            groups.append([seat])
            starts.append(start)
    parts = [
        f"SEAT {g[0]} (STARTED {st})"
        if len(g) == 1
        else f"SEATS {', '.join(str(x) for x in g)} (STARTED {st} EACH, SAME PLACE)"
        for g, st in zip(groups, starts, strict=True)
    ]
    return "OUT: " + " ABOVE ".join(parts)


def drop_text(rake: RakeResult) -> str:
    """DROP n (the dealer's prompt, before the push), naming the pots when several give."""
    head = f"TIME POT: DROP {rake.total}" if rake.time_pot else f"DROP {rake.total}"
    parts = [(i, cut) for i, cut in enumerate(rake.pots) if cut]
    if len(parts) < 2:
        return head
    names = ", ".join(f"{'MAIN' if i == 0 else f'SIDE {i}'} {cut}" for i, cut in parts)
    return f"{head}: {names}"


def finish(hand: Hand, seq: int) -> None:
    """End of input: settle a showdown the dealer did not key."""
    if hand.result is None and hand.phase is Phase.SHOWDOWN:
        try_resolve(hand, seq, force=True)
