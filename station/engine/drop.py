"""The drop: what the dealer set aside for the house, checked against what it is due. Pure.

A table may have a rake (drop) zone: the bet-zone board's zone 0, a session's `zone` line with
`"zone": "rake"`. Its first reading (0 will do) says the table has one; from then on, on a table
with a rake schedule, every hand's drop is checked. Chips the dealer puts into the zone (each
rise of its total) are what he took for the house; the zone falling back to 0 is the drop into
the box. The house is due the hand's rake plus any time collected with it (`hand_end` `rake`).

The check is made when the zone is emptied after the pot was pushed, or else at the next deal,
the next setup or the end of input: whatever went into the zone since the last check must be what
the house is due. A difference is not the dealer's to correct quietly: MISC-TIME-COLLECTION, the
rule that says what the house takes (004-GN §I r28 "House Rake is 10%, up to $6 maximum"; RR11
§2 r4 on collections), raised with ruling `floor` (the floor counts and rules; a card room's
controls treat a drop variance as a reviewed event: NIGC 25 CFR 543.10). The catalog has no rule
id of its own for a wrong drop, and a STATION-* id would call it an equipment fault, which it is
not; the rake rule's own id names what was broken.
"""

from __future__ import annotations

from station.engine.decisions import HandEnd, Ruling
from station.engine.rule_ids import Rule
from station.engine.table_state import TableState

RULE = Rule.MISC_TIME_COLLECTION


def reading(table: TableState, amount: int, seq: int) -> None:
    """A rake-zone reading. A fall to 0 after the push is the drop: check it."""
    ledger = table.drop
    ledger.sensor = True
    if amount > ledger.reading:
        ledger.placed += amount - ledger.reading
    if amount != ledger.reading:
        ledger.events.append(seq)
    ledger.reading = amount
    if amount == 0 and ledger.due is not None and ledger.placed:
        check(table, seq)


def hand_ended(table: TableState, result: HandEnd) -> None:
    """The pot is pushed: the house is due the hand's rake and the time collected with it."""
    rake = result.rake
    if rake is None:
        return
    ledger = table.drop
    if ledger.due is not None:
        check(table, result.event)  # two hands without a deal between (a redeal's end)
    time = sum(rake.time.values())
    ledger.due, ledger.due_hand, ledger.due_event = rake.total + time, result.hand, result.event
    ledger.due_rake, ledger.due_time = rake.total, time
    if ledger.reading == 0 and ledger.placed:
        check(table, result.event)  # set aside and dropped before the push


def settle(table: TableState, seq: int) -> None:
    """A new deal, setup or the end of input: the last hand's drop is checked now at the latest
    (chips still in the zone count as taken for it)."""
    if table.drop.due is not None:
        check(table, seq)


def check(table: TableState, seq: int) -> None:
    ledger = table.drop
    due, placed = ledger.due or 0, ledger.placed
    if ledger.sensor and placed != due:
        parts = [f"RAKE {ledger.due_rake}"] if ledger.due_rake or not ledger.due_time else []
        parts += [f"TIME {ledger.due_time}"] if ledger.due_time else []
        table.floor_call = True
        table.out.append(
            table.incident(
                seq,
                RULE,
                f"WRONG DROP: {placed} TAKEN FOR THE HOUSE, {due} DUE ({', '.join(parts)}): "
                "CALL FLOOR",
                Ruling.FLOOR,
                hand=ledger.due_hand,
                events=tuple(sorted({ledger.due_event, *ledger.events, seq})),
            )
        )
    ledger.placed, ledger.events, ledger.due = 0, [], None
