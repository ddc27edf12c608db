"""Tournament chip race: odd chips of a denomination leaving play are raced off. Pure.

TOURN-CHIP-RACE (001-RR11 §15 r11; 002-RRPG §15 r8; 003-RR5 §15 r8; 000-USPA §3.3.2.9): one card
per odd chip, dealt clockwise from seat 1, each player receiving all his cards before the next;
the highest card by suit gets the first new chip, the next highest the next, until the odd chips
are exchanged; what is left gives one more chip to the next highest card if it is half a new chip
or more. RR: nobody is raced out of the event: a player left with no chips gets a new chip before
anyone else.

Readings the sources leave open (docs/session-format.md, CHIP_RACE): a player ranks by his
highest race card and wins at most one chip (the TDA practice the rulebooks say they follow); a
player raced out (RR) gets his chip out of the exchanged odd chips, as the first of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole, Prompt, PromptCode
from station.engine.rule_ids import Rule
from station.engine.table_state import Race, TableState


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[tuple[int, Card | None], ...]  # seat and the card that won, in award order
    change: Mapping[int, int]  # seat -> chips won minus odd chips given up

    def text(self, new_chip: int) -> str:
        parts = [
            f"SEAT {seat} ({card.code if card else 'NO CHIPS LEFT'})" for seat, card in self.winners
        ]
        who = ", ".join(parts) if parts else "NOBODY"
        return f"CHIP RACE: ONE {new_chip} CHIP EACH TO {who}"


def settle(race: Race, stacks: Mapping[int, int | None], *, protect_last_chip: bool) -> Result:
    """Award the new chips. `stacks` are the seats' chips before the race (odd chips included)."""
    total = sum(sum(chips) for chips in race.odd.values())
    whole, rest = divmod(total, race.new_chip)
    if 2 * rest >= race.new_chip:
        whole += 1  # half a new chip or more left: one more chip to the next highest card
    winners: list[tuple[int, Card | None]] = []
    if protect_last_chip:
        for seat in race.order():
            stack = stacks.get(seat)
            if stack is not None and stack - sum(race.odd[seat]) <= 0 and len(winners) < whole:
                winners.append((seat, None))
    best = {seat: max(cards, key=_by_suit) for seat, cards in race.cards.items() if cards}
    ranked = sorted(best.items(), key=lambda sc: _by_suit(sc[1]), reverse=True)
    for seat, card in ranked:
        if len(winners) >= whole:
            break
        if all(seat != w for w, _ in winners):
            winners.append((seat, card))
    change = {seat: -sum(chips) for seat, chips in race.odd.items()}
    for seat, _ in winners:
        change[seat] = change.get(seat, 0) + race.new_chip
    return Result(tuple(winners), change)


def _by_suit(card: Card) -> tuple[int, int]:
    """Highest card by suit (SUIT-RANKING: spades, hearts, diamonds, clubs)."""
    return (card.rank, card.suit_rank)


# --- the table's side --------------------------------------------------------------------------


def start(table: TableState, new_chip: int | None, seq: int) -> None:
    """CHIP_RACE with `amount` = the new chip's value: the odd chips go into the zones next."""
    if not new_chip or new_chip <= 1:
        table.out.append(
            table.incident(
                seq, Rule.TOURN_CHIP_RACE, "CHIP RACE: KEY THE NEW CHIP'S VALUE AS AMOUNT"
            )
        )
        return
    table.race = Race(new_chip)
    table.out.append(
        Prompt(
            table.hand_no,
            f"CHIP RACE FOR {new_chip} CHIPS: ODD CHIPS INTO THE ZONES, THEN ONE CARD PER CHIP "
            "FROM SEAT 1",
            seq,
            PromptCode.INFO,
        )
    )


def zone(table: TableState, seat: int, chips: Sequence[int] | None, seq: int) -> None:
    """A zone reading during the race: before the first race card, the seat's odd chips."""
    race = table.race
    assert race is not None
    if race.cards:
        return  # the dealer taking the odd chips in
    if chips is None:
        table.out.append(
            table.incident(
                seq,
                Rule.TOURN_CHIP_RACE,
                f"CHIP RACE: SEAT {seat}'S ZONE DID NOT REPORT ITS CHIPS: COUNT THEM BY HAND",
                seat=seat,
            )
        )
        return
    race.add_chips(seat, chips)


def card(table: TableState, drawn: Card | None, seq: int) -> None:
    """A race card: to the next seat owed one; after the last, the new chips are awarded."""
    race = table.race
    assert race is not None
    seat = race.deal(drawn) if drawn is not None else None
    code = drawn.code if drawn is not None else "??"
    table.out.append(DrawRole(table.hand_no, seq, code, DealSlot.RACE, seat))
    if seat is None or race.next_seat() is not None:
        return
    assert table.profile is not None
    result = settle(race, table.stacks, protect_last_chip=table.profile.chip_race_protects_last)
    for s, delta in result.change.items():
        stack = table.stacks.get(s)
        if stack is not None:
            table.stacks[s] = stack + delta
    table.race = None
    table.out.append(Prompt(table.hand_no, result.text(race.new_chip), seq, PromptCode.INFO))
