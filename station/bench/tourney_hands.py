"""Tournament hands for the emulated tables: the next hand at a table, as the dealer would deal
it from what the station's screen says (its next hand's button, the seats dealt in and the
blinds due, each seat's chips), as the station's input events in order. Pure (a seeded RNG of
its own).

A hand either busts a player - the shortest stack dealt in moves all in, the biggest stack
calls and wins with aces, everyone else folds - or passes without one (everybody folds to the
big blind). The same conventions as `station.bench.scripted` (docs/session-format.md): the puck
on the button, the blinds as zone amounts before NEW_HAND, hole cards one at a time from the
seat left of the button, bets as zone totals, FOLD and CHECK keys, the dealer collecting each
round (zones to 0), burns and the board, TABLED at the showdown.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from station.engine.cards import STANDARD_DECK, Card
from station.engine.events import Draw, InputEvent, Key, KeyPress, Puck, Zone
from station.engine.snapshot import NextHandView, PostKind, SeatStatus, TableSnapshot

WINNER = ("As", "Ah")
LOSER = ("7c", "2d")
BOARD = ("Kd", "9s", "5c", "4h", "Js")  # no straight or flush for 7-2; aces win


@dataclass(frozen=True, slots=True)
class Lineup:
    """The next hand as the station's screen shows it between hands."""

    button: int
    dealt: tuple[int, ...]  # the seats dealt in, by seat number
    posts: tuple[tuple[int, int], ...]  # (seat, chips) of the forced bets due
    big_blind: int  # the seat that posts the big blind
    stacks: Mapping[int, int]  # chips behind, by seat


@dataclass(frozen=True, slots=True)
class PlannedHand:
    events: tuple[InputEvent, ...]
    loser: int | None  # the seat that goes broke (None: nobody)
    winner: int | None


IN_HAND = frozenset({SeatStatus.ACTIVE, SeatStatus.ALLIN})


def lineup(snap: TableSnapshot) -> Lineup | None:
    """The next hand as the screen shows it between hands (None: no hand to deal)."""
    nh: NextHandView | None = snap.next_hand
    if nh is None or nh.button is None or len(nh.dealt) < 2:
        return None
    big = next((p.seat for p in nh.posts if p.kind is PostKind.BB), nh.dealt[-1])
    stacks = {s.seat: int(s.stack) for s in snap.seats if s.stack}
    posts = tuple((p.seat, p.amount) for p in nh.posts)
    return Lineup(nh.button, tuple(nh.dealt), posts, big, stacks)


def started(line: Lineup, snap: TableSnapshot) -> Lineup:
    """The hand as it started after NEW_HAND (the station decides who is dealt in): its seats
    in the hand, the blinds the dealer put in (`posting`), the chips each had before them."""
    seats = {s.seat: s for s in snap.seats}
    dealt = tuple(s for s, v in sorted(seats.items()) if v.status in IN_HAND)
    posts = tuple((s, min(a, line.stacks[s])) for s, a in line.posts)
    big = next((s for s, v in seats.items() if v.blind == "BB"), line.big_blind)
    button = snap.button if snap.button is not None else line.button
    return Lineup(button, dealt, posts, big, {s: line.stacks[s] for s in dealt})


def _clockwise(seats: Sequence[int], after: int) -> list[int]:
    """`seats` in dealing order: the first one clockwise after seat `after`."""
    ordered = sorted(seats)
    later = [s for s in ordered if s > after]
    return later + [s for s in ordered if s <= after]


def posting(line: Lineup) -> list[InputEvent]:
    """Before the deal: the puck on the button, the blinds in their zones, NEW_HAND."""
    events: list[InputEvent] = [Puck(line.button)]
    for seat, amount in line.posts:
        events.append(Zone(seat, min(amount, line.stacks[seat])))
    events.append(KeyPress(Key.NEW_HAND))
    return events


def play(line: Lineup, rng: random.Random, *, bust: bool, loser: str = "shortest") -> PlannedHand:
    """After NEW_HAND: `line` is the hand as it started (the seats dealt in, the chips each
    has put in the zones for the blinds in `posts`, `stacks` the chips each had before them).
    With `bust`, the seat that goes broke is the shortest stack dealt in, or with
    `loser="second"` the biggest stack but one (the biggest always wins with aces)."""
    dealt = list(line.dealt)
    order = _clockwise(dealt, line.button)  # the deal starts left of the button
    bets = {s: a for s, a in line.posts if a > 0}
    events: list[InputEvent] = []
    out = winner = None
    if bust and len(dealt) >= 2:
        winner = max(dealt, key=lambda s: (line.stacks[s], -s))
        others = [s for s in dealt if s != winner]
        if loser == "second":
            out = max(others, key=lambda s: (line.stacks[s], -s))
        else:
            out = min(others, key=lambda s: (line.stacks[s], s))
    return _deal(line, rng, order, bets, events, out, winner)


def _deal(
    line: Lineup,
    rng: random.Random,
    order: list[int],
    bets: dict[int, int],
    events: list[InputEvent],
    loser: int | None,
    winner: int | None,
) -> PlannedHand:
    dealt = list(line.dealt)
    fixed = {*WINNER, *LOSER, *BOARD} if loser is not None else set()
    rest = [c for c in STANDARD_DECK if c.code not in fixed]
    rng.shuffle(rest)
    spare = iter(rest)
    hole: dict[int, list[Card]] = {}
    for seat in order:
        if seat == winner:
            hole[seat] = [Card.parse(c) for c in WINNER]
        elif seat == loser:
            hole[seat] = [Card.parse(c) for c in LOSER]
        else:
            hole[seat] = [next(spare), next(spare)]
    for i in range(2):
        events += [Draw(hole[seat][i]) for seat in order]
    big = line.big_blind
    current = max(bets.values(), default=0)
    heads_up = len(dealt) == 2
    acting = _clockwise(dealt, line.button if heads_up else big)
    if heads_up:  # the button (small blind) acts first before the flop
        acting = [line.button, *(s for s in acting if s != line.button)]
    pair = [s for s in acting if s in (loser, winner)]
    for seat in acting:
        stack = line.stacks[seat]
        mine = bets.get(seat, 0)
        if seat not in pair:
            if loser is None and seat == big:
                break  # everybody folded to the big blind
            events.append(KeyPress(Key.FOLD, seat=seat))
            continue
        if mine >= stack:
            continue  # all in already with the blind
        if seat == pair[0]:
            bets[seat] = stack
            current = max(current, stack)
            events.append(Zone(seat, stack))
        else:
            call = min(stack, current)
            if call <= mine:
                events.append(KeyPress(Key.CHECK, seat=seat))
            else:
                bets[seat] = call
                events.append(Zone(seat, call))
    events += [Zone(s, 0) for s in sorted(bets) if bets[s] > 0]
    if loser is None or winner is None:
        return PlannedHand(tuple(events), None, None)
    board = iter(Card.parse(c) for c in BOARD)
    for count in (3, 1, 1):
        events.append(Draw(next(spare)))  # burn
        events += [Draw(next(board)) for _ in range(count)]
    for seat in order:
        if seat in (loser, winner):
            events.append(KeyPress(Key.TABLED, seat=seat))
    return PlannedHand(tuple(events), loser, winner)
