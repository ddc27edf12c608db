"""The house's take between hands: time collection when it falls due. Pure.

MISC-TIME-COLLECTION: "Collections (seat rental fees) are paid in advance. In all
time-collection games, the dealer is required to pick up the collection from each player before
dealing" (001-RR11 §2 "Procedures" r4; 000-USPA App III §3 r2). In a GN time game the players may
instead play a "time-pot", "the entirety of the rake for the half hour is taken from the pot on
the hand that is dealt immediately after the time collection announcement" (004-GN §I r28).

A table with a `time` schedule (`station.engine.rake`) owes its first collection on its first
deal, and the next on the first deal `minutes` after the last one (event times; a session
without times collects once). A new setup with the same schedule is a re-seat: the period runs
on. `seat` mode: each player dealt in pays `per_seat` from his stack before the cards (what he
has, when less); `pot` mode: `per_seat` for each player dealt in is owed from the pot of that
deal (settlement takes it, main pot first) and what a small pot cannot cover from the next;
`flop` mode: the first card seen off the next flop names the seat that pays `per_seat` for each
player dealt in (the station's reading of the card: `housekeeping.time_flop`), from his stack
when that hand ends (what he has, when less).
"""

from __future__ import annotations

from station.engine.decisions import HandEnd, Prompt, PromptCode
from station.engine.rake import TimeCollection, TimeMode
from station.engine.table_state import House, TableState


def setup(table: TableState) -> None:
    """A setup line: a changed (or new) time schedule starts its own first period."""
    assert table.setup is not None
    schedule = table.setup.rake
    time = schedule.time if schedule is not None else None
    house = table.house
    if time == house.time:
        return
    table.house = House(time=time, due=time is not None, now=house.now)


def tick(table: TableState, at: float) -> None:
    """An event carried the time `at`: a new period makes the next collection due."""
    house = table.house
    house.now = at
    if house.time is not None and house.next_at is not None and at >= house.next_at:
        house.due = True


def at_deal(table: TableState, dealt: list[int], seq: int) -> tuple[dict[int, int], int]:
    """A new deal: (time each seat paid now, time owed from this hand's pot)."""
    house = table.house
    time = house.time
    if time is not None and time.mode is TimeMode.FLOP:
        return _time_flop_deal(table, time, seq), 0
    if time is None or not house.due:
        if house.owed:
            table.out.append(
                Prompt(
                    table.hand_no,
                    f"TIME POT: {house.owed} STILL COMES OUT OF THIS POT",
                    seq,
                    PromptCode.TIME,
                )
            )
        return {}, house.owed
    house.due = False
    house.next_at = house.now + time.minutes * 60 if house.now is not None else None
    if time.mode is TimeMode.POT:
        house.owed += time.per_seat * len(dealt)
        table.out.append(
            Prompt(
                table.hand_no,
                f"TIME POT: {house.owed} COMES OUT OF THIS POT",
                seq,
                PromptCode.TIME,
            )
        )
        return {}, house.owed
    paid: dict[int, int] = {}
    for seat in sorted(dealt):
        stack = table.stacks.get(seat)
        amount = time.per_seat if stack is None else min(time.per_seat, stack)
        if amount > 0:
            paid[seat] = amount
            if stack is not None:
                table.stacks[seat] = stack - amount
    if paid:
        seats = " ".join(str(s) for s in paid)
        table.out.append(
            Prompt(
                table.hand_no,
                f"TIME: COLLECT {time.per_seat} FROM SEATS {seats} BEFORE THE DEAL",
                seq,
                PromptCode.TIME,
            )
        )
    return paid, 0


def _time_flop_deal(table: TableState, time: TimeCollection, seq: int) -> dict[int, int]:
    """GN time-flop: a new period arms the next flop to name the payer (a setup since may
    have disarmed the flop: it is armed again on every deal until a flop names someone)."""
    house = table.house
    if house.due:
        house.due = False
        house.next_at = house.now + time.minutes * 60 if house.now is not None else None
        house.flop_pending = True
        table.out.append(
            Prompt(
                table.hand_no,
                f"TIME FLOP: THE FIRST FLOP CARD NAMES THE SEAT THAT PAYS {time.per_seat} "
                "FOR EVERY PLAYER",
                seq,
                PromptCode.TIME,
            )
        )
    if house.flop_pending:
        table.timers.time_flop_due = True
    return {}


def flop_named(table: TableState, seat: int, seq: int) -> None:
    """The time flop named `seat`: with a time-flop schedule he pays everyone's time, from his
    stack when the hand ends (004-GN §I r28 "seat 7 pays time for everyone that half hour")."""
    house, hand = table.house, table.hand
    time = house.time
    if time is None or time.mode is not TimeMode.FLOP or not house.flop_pending or hand is None:
        return
    house.flop_pending = False
    amount = time.per_seat * len(hand.dealt)
    hand.chips.time_charged[seat] = hand.chips.time_charged.get(seat, 0) + amount
    table.out.append(
        Prompt(
            table.hand_no,
            f"TIME: SEAT {seat} PAYS {amount} FOR EVERYONE'S TIME AFTER THE HAND",
            seq,
            PromptCode.TIME,
        )
    )


def after_hand(table: TableState, result: HandEnd) -> None:
    """The hand's result is out: what a time-pot took is no longer owed."""
    rake = result.rake
    if rake is not None and rake.time_pot:
        table.house.owed = max(0, table.house.owed - rake.total)
