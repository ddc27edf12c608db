"""The table's side of a hand's life: NEW_HAND starts one, a finished one settles the table. Pure.

NEW_HAND deals in the line-up (`lineup`) with the forced bets that play (`forced_bets`), or
redeals a misdealt hand; a hand left unfinished by a new setup or NEW_HAND is closed (void if it
cannot be settled). When a hand ends its stacks become the table's and the button moves to the
next player who will be dealt in.
"""

from __future__ import annotations

from station.engine import (
    collection,
    dealer_button,
    dispatch,
    drop,
    forced_bets,
    kill_pots,
    lineup,
    rotation,
    seating,
    tournament,
)
from station.engine.decisions import Action, ActionKind, Prompt, PromptCode, Ruling
from station.engine.events import KeyPress
from station.engine.games import Family
from station.engine.hand import Hand
from station.engine.positions import next_seat
from station.engine.rule_ids import Rule
from station.engine.snapshot import Phase
from station.engine.table_state import TableState

DECK_DEFECTS = frozenset({Rule.DECK_DUPLICATE_CARD, Rule.DECK_FOREIGN_BACK})


def new_hand(table: TableState, seq: int) -> None:
    """NEW_HAND: deal the next hand in, or redeal the misdealt one."""
    if table.setup is None or table.spec is None or table.profile is None:
        table.out.append(table.incident(seq, Rule.STATION_UNEXPECTED_KEY, "SET UP THE TABLE FIRST"))
        return
    if table.hand is not None and table.hand.phase is Phase.MISDEAL:
        _redeal(table, seq)
        return
    close_unfinished(table, seq)
    drop.settle(table, seq)  # the last hand's drop, if the dealer has not emptied the zone
    tournament.before_deal(table, seq)
    assert table.setup is not None  # a level may change the stakes and the game
    assert table.spec is not None
    dealt = lineup.dealt_in(table)
    if len(dealt) < 2:
        table.out.append(table.incident(seq, Rule.STATION_UNEXPECTED_KEY, "FEWER THAN TWO PLAYERS"))
        return
    table.hand_no += 1
    table.deck.hands += 1
    table.deck.round = len(dealt)
    _not_entitled(table, dealt, seq)
    if lineup.button_draw_due(table):
        # TOURN-BUTTON (001-RR11 §15 r8): dealt without the draw for the button; the hand plays
        # as the dealer posted it, and the floor is told the draw was skipped.
        table.out.append(
            table.incident(
                seq,
                Rule.TOURN_BUTTON,
                "NO DRAW FOR THE BUTTON: THE PLAYERS DRAW FOR THE HIGH CARD BEFORE THE FIRST HAND",
            )
        )
    button, blinds = lineup.positions(table, dealt)
    button = dealer_button.not_moved(table, dealt, button, blinds, seq)
    lineup.note_missed_blinds(table, dealt, button, blinds)
    forced_bets.refuse_waiting_posts(table, dealt, seq)
    kill = forced_bets.kill(table, dealt, seq)
    kill_pots.check_posted(table, dealt, kill, seq)
    straddle = forced_bets.straddle(table, dealt, button, blinds, kill, seq)
    if straddle is not None and table.profile.missed_blind_straddle:
        table.lineup.missed.pop(straddle, None)  # GN r155: back as the under-the-gun straddle
    elif straddle is not None and table.lineup.missed.get(straddle):
        straddle = None  # RR: the missed blinds are made up first (BLIND-MISSED)
    posts, dead = forced_bets.split_missed_posts(table, dealt)
    table.lineup.seat_wait = seating.waiting(table.lineup.seat_wait, dealt)
    forced_bets.note_min_chip(table, dealt, button, blinds)
    table.posting.straddle_keys, table.posting.kill_keys = set(), set()
    time_paid, time_owed = collection.at_deal(table, dealt, seq)
    table.hand = dispatch.start(
        number=table.hand_no,
        spec=table.spec,
        profile=table.profile,
        stakes=table.setup.stakes,
        dealt=dealt,
        stacks={s: table.stacks.get(s) for s in dealt},
        button=button,
        posts=posts,
        antes=dead,
        zone=table.posting.zone,
        seq=seq,
        puck=table.puck,
        blinds=blinds,
        straddle=straddle,
        kill=kill,
        absent=frozenset(s for s in dealt if s not in table.occupied),
        min_chip=table.posting.min_chip,
        carry=table.forfeit.carry,
        rake=table.setup.rake,
        time_paid=time_paid,
        time_owed=time_owed,
        last_two=tournament.last_two(table, dealt),
        winner_take_all=tournament.winner_take_all(table),
    )
    tournament.dealt(table, table.hand, seq)
    table.forfeit.forfeited = {}
    if table.posting.carried:
        _carried_posts(table.hand, seq)
    table.posting.carried = False
    for seat in set(table.posting.zone) - set(dealt):
        table.posting.offset[seat] = table.posting.zone[
            seat
        ]  # chips left at a seat not dealt in are his own
    table.posting.posted, table.posting.antes = {}, {}
    absorb(table)


def _redeal(table: TableState, seq: int) -> None:
    """MISDEAL-PROCEDURE (product default): the same hand is redealt; forced bets stay,
    voluntary chips go back."""
    old = table.hand
    assert old is not None
    assert table.spec is not None
    assert table.profile is not None
    assert table.setup is not None
    posts = dict(old.chips.posts)
    antes = {s: c for s, c in old.chips.dead.items() if c > 0}
    layout = old.layout
    blinds = (
        (layout.small_blind, layout.big_blind)
        if layout is not None and layout.big_blind is not None
        else None
    )
    table.hand = dispatch.start(
        number=old.number,
        spec=table.spec,
        profile=table.profile,
        stakes=table.setup.stakes,
        dealt=sorted(old.dealt),
        stacks={s: table.stacks.get(s) for s in old.dealt},
        button=old.button,
        posts=posts,
        antes=antes,
        zone=table.posting.zone,
        seq=seq,
        puck=table.puck,
        blinds=blinds,  # the same positions, the same straddle, kill and chip unit
        straddle=old.terms.straddle,
        kill=old.terms.kill_post,
        absent=frozenset(s for s in old.dealt if s not in table.occupied),
        min_chip=old.terms.min_chip,
        carry=old.terms.carry,
        rake=old.terms.rake,  # the time paid for the deal stays paid
        time_paid=old.terms.time_paid,
        time_owed=old.terms.time_owed,
        last_two=old.terms.last_two,
        winner_take_all=old.terms.winner_take_all,
    )
    absorb(table)


def close_unfinished(table: TableState, seq: int) -> None:
    """A new setup or hand while one is still open: settle it, or void it for the floor."""
    hand = table.hand
    if hand is None or hand.result is not None:
        return
    dispatch.finish(hand, seq)
    if hand.result is None:
        hand.incident(
            seq,
            Rule.STATION_HAND_ABANDONED,
            Ruling.FLOOR,
            f"HAND {hand.number} WAS NOT FINISHED: EVERY WAGER RETURNED, FLOOR TO CONFIRM",
        )
        dispatch.void(hand, seq)
    absorb(table)


def hand_ended(table: TableState, hand: Hand) -> None:
    """The hand's result is out: take its stacks and move the button."""
    assert hand.result is not None
    if not DECK_DEFECTS.isdisjoint(hand.alerts.rules):
        table.deck.defective = True
    if not hand.result.void:
        # The forfeited money was played for; a pass-out's antes stay for the next deal.
        table.forfeit.carry, table.forfeit.entitled = hand.result.carried, None
    collection.after_hand(table, hand.result)
    drop.hand_ended(table, hand.result)
    for s, st in hand.result.stacks.items():
        table.stacks[s] = st
    table.posting.offset = {
        s: table.posting.zone.get(s, 0) for s in set(table.posting.zone) | set(hand.seats)
    }
    table.posting.posted, table.posting.antes = {}, {}
    if _void_deal(hand):
        _void_redeal(table, hand)
    elif table.spec is not None and hand.button and not _stud_without_button(table):
        # The button moves to the next player who will be dealt in: it passes players who
        # wait for the big blind (BLIND-NEW-PLAYER, BLIND-MISSED).
        movers = [
            s
            for s in table.occupied
            if table.stacks.get(s, None) != 0
            and s not in table.lineup.newcomers
            and not table.lineup.missed.get(s)
        ]
        if hand.layout is not None and hand.layout.big_blind is None:
            # No blinds (a bomb pot, an ante game): "If a player fails to play the worst
            # position ..., the button will pass and go to the next player that posted on the
            # previous hand" (004-GN §VIII "5 Card Double Board Bomb Pot PLO" c).
            movers = [s for s in hand.dealt if table.stacks.get(s, None) != 0] or movers
        table.button = next_seat(movers, hand.button)
        table.lineup.last_button = hand.button
        if hand.layout is not None and hand.layout.big_blind is not None:
            table.lineup.last_blinds = (hand.layout.small_blind, hand.layout.big_blind)
            table.lineup.big_blinds[hand.layout.big_blind] = hand.number
        table.lineup.last_players = len(hand.dealt)
    if not _void_deal(hand):
        killer = hand.terms.kill_post[0] if hand.terms.kill_post is not None else None
        forced = sum(a for s, a in hand.chips.posts.items() if s != killer)
        kill_pots.after_pot(table, hand.result, killer, forced, hand.result.event)
        rotation.hand_played(table, len(hand.dealt), hand.result.event)
    tournament.hand_ended(table, hand.result.event, redeal=_void_deal(hand))
    lineup.prompt_posts(table, hand.result.event)


def _stud_without_button(table: TableState) -> bool:
    spec = table.spec
    return spec is not None and spec.family is Family.STUD and not spec.dealer_button


def _carried_posts(hand: Hand, seq: int) -> None:
    """The forced bets of a void deal's redeal that stayed in front: no zone moved for them
    before NEW_HAND, so the journal (its recall, its PHH export) learns them from these actions
    of the trace."""
    layout = hand.layout
    for seat, amount in sorted(hand.chips.posts.items()):
        kind = ActionKind.POST
        if layout is not None and seat == layout.small_blind:
            kind = ActionKind.SMALL_BLIND
        elif layout is not None and seat == layout.big_blind:
            kind = ActionKind.BIG_BLIND
        elif seat == hand.terms.straddle:
            kind = ActionKind.STRADDLE
        hand.out.append(Action(hand.number, seq, seat, kind, amount))


def _void_deal(hand: Hand) -> bool:
    """Whether the deal itself was void by a rule (a defective deck, GN's two boxed cards): not a
    hand the floor closed or the station abandoned after it was played at the table."""
    assert hand.result is not None
    return hand.result.void and any(
        i.ruling is Ruling.VOID and not i.rule.startswith("STATION-") for i in hand.alerts.incidents
    )


def _void_redeal(table: TableState, hand: Hand) -> None:
    """A void deal (DECK-FOREIGN-BACK, DECK-DUPLICATE-CARD: "all action is void, and all chips
    in the pot are returned", 001-RR11 §3 "Irregularities" r3-r4; 004-GN r110-r111; GN's two
    boxed cards, D08) did not count: like a misdeal it is "reshuffled and a new
    hand ... dealt" (001-RR11 glossary MISDEAL) by the same button with the same forced bets,
    and only the players of that deal are entitled to the next (§3 r6). No rulebook moves the
    button for it (MISDEAL-PROCEDURE, product default 1-2), so the button, the blinds and the
    last hand's positions stay; a blind still in front of its seat is that seat's post again."""
    if hand.button is not None:
        table.button = hand.button
    for seat, amount in hand.chips.posts.items():
        reading = table.posting.zone.get(seat, 0)
        if amount > 0 and reading >= amount and seat in table.stacks:
            table.posting.posted[seat] = amount
            table.posting.offset[seat] = reading - amount
            table.posting.carried = True


def refunds(table: TableState) -> dict[int, int]:
    """What each seat may still forfeit: its refund of the last hand, if that hand was void,
    less what it has forfeited already (DECK-DEFECT-FREEROLL). Seats with nothing left are
    not listed."""
    hand = table.hand
    if hand is None or hand.result is None or not hand.result.void:
        return {}
    left = {s: paid - table.forfeit.forfeited.get(s, 0) for s, paid in hand.result.payouts.items()}
    return {s: chips for s, chips in sorted(left.items()) if chips > 0}


def forfeit(table: TableState, event: KeyPress, seq: int) -> None:
    """FORFEIT s [amount] (the floor, after a void hand): DECK-DEFECT-FREEROLL, the player who
    knew the deck was defective and bet to freeroll loses his refund (all of it, or `amount`),
    which stays in the pot for the next deal; DECK-FORFEITED-MONEY-ENTITLEMENT, only the seats
    dealt in on this deal may receive a hand while it is there (RR11 section 3 r5-r6)."""
    hand, seat = table.hand, event.seat
    refund = refunds(table).get(seat, 0) if seat is not None else 0
    amount = refund if event.amount is None else event.amount
    if hand is None or seat is None or not 0 < amount <= refund:
        table.out.append(
            table.incident(
                seq,
                Rule.STATION_UNEXPECTED_KEY,
                "FORFEIT: ONLY A REFUND OF THE LAST HAND, IF IT WAS VOID, CAN BE FORFEITED",
                seat=seat,
            )
        )
        return
    table.forfeit.forfeited[seat] = table.forfeit.forfeited.get(seat, 0) + amount
    stack = table.stacks.get(seat)
    if stack is not None:
        table.stacks[seat] = max(0, stack - amount)
    table.forfeit.carry += amount
    table.forfeit.entitled = frozenset(hand.dealt)
    entitled = " ".join(str(s) for s in sorted(hand.dealt))
    table.out.append(
        table.incident(
            seq,
            Rule.DECK_DEFECT_FREEROLL,
            f"SEAT {seat} FORFEITS {amount}: IT STAYS IN THE POT FOR THE NEXT DEAL",
            Ruling.FORFEIT,
            seat=seat,
        )
    )
    table.out.append(
        Prompt(
            table.hand_no + 1,
            f"NEXT DEAL: POT {table.forfeit.carry} FORFEITED; ONLY SEATS {entitled} RECEIVE A HAND",
            seq,
            PromptCode.INFO,
        )
    )
    lineup.prompt_posts(table, seq)


def _not_entitled(table: TableState, dealt: list[int], seq: int) -> None:
    """DECK-FORFEITED-MONEY-ENTITLEMENT: name each seated player the deal leaves out because
    forfeited money from a deal he was not in is in the pot; a post of his stays his own."""
    if table.forfeit.entitled is None:
        return
    for seat in lineup.dealt_in(table, commit=False, entitled_only=False):
        if seat in dealt:
            continue
        posted = table.posting.posted.pop(seat, 0)
        back = f" (TAKE BACK {posted})" if posted > 0 else ""
        table.out.append(
            table.incident(
                seq,
                Rule.DECK_FORFEITED_MONEY_ENTITLEMENT,
                f"SEAT {seat} IS NOT DEALT IN: THE POT HOLDS FORFEITED MONEY OF A DEAL HE WAS "
                f"NOT IN{back}",
                seat=seat,
            )
        )


def absorb(table: TableState) -> None:
    """Take the hand's decisions; when it has just ended, settle the table."""
    hand = table.hand
    if hand is None:
        return
    decisions = hand.out
    if decisions:
        hand.out = []
        if table.out:
            table.out.extend(decisions)
        else:
            table.out = decisions
        result = hand.result
        if result is not None and any(d is result for d in decisions):
            hand_ended(table, hand)
    if hand.alerts.floor_call:
        table.floor_call = True
