"""Table housekeeping around the hands: deck checks and deck changes, absence, the time flop. Pure.

- DECK-MISSING-CARDS, DECK-EXTRA-CARD-IN-DECK: DECK_CHECK, every card through the shoe, CONFIRM
  (the audit itself is `deck_audit`).
- DECK-CHANGE: a new deck stays in play for a full round unless it is defective.
- MISC-ABSENCE: a player away longer than the profile allows; the floor may pick up his chips.
- MISC-TIME-COLLECTION: the GN time flop names who pays everyone's time each half hour.

Times come from the events (`at`, monotonic seconds); nothing here reads a clock.
"""

from __future__ import annotations

from station.engine import collection, deck_audit
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole, Prompt, PromptCode, Ruling
from station.engine.positions import TABLE_SEATS
from station.engine.rule_ids import Rule
from station.engine.table_state import TableState


def timers(table: TableState, at: float, seq: int) -> None:
    """An event carried the time `at`: flag long absences, and start a new time-flop half hour."""
    if table.timers.away_since:
        absence(table, at, seq)
    if table.profile is not None and table.profile.time_flop:
        if table.timers.time_flop_next is None:
            table.timers.time_flop_next = at + 30 * 60
        elif at >= table.timers.time_flop_next and not table.timers.time_flop_due:
            table.timers.time_flop_due = True  # a new half hour: the next flop names the payer


def start_deck_check(table: TableState, seq: int) -> None:
    """DECK_CHECK: the cards that leave the shoe until CONFIRM are the deck being audited."""
    table.deck.check = []
    table.out.append(
        Prompt(
            table.hand_no,
            "DECK CHECK: RUN EVERY CARD THROUGH THE SHOE, THEN PRESS CONFIRM",
            seq,
            PromptCode.INFO,
        )
    )


def deck_check_card(table: TableState, card: Card | None, seq: int) -> None:
    """A card scanned for the deck check."""
    assert table.deck.check is not None
    code = card.code if card is not None else "??"
    table.out.append(DrawRole(table.hand_no, seq, code, DealSlot.AUDIT))
    if card is not None:
        table.deck.check.append(card)


def deck_checked(table: TableState, seq: int) -> None:
    """The deck audit is complete: name missing and extra cards (DECK-MISSING-CARDS,
    DECK-EXTRA-CARD-IN-DECK). Hands already played stand either way."""
    assert table.spec is not None
    assert table.profile is not None
    scanned, table.deck.check = table.deck.check or [], None
    result = deck_audit.audit(scanned, deck_audit.game_deck(table.spec, table.profile))
    if result.missing:
        table.out.append(
            table.incident(
                seq,
                Rule.DECK_MISSING_CARDS,
                f"DECK SHORT: {_codes(result.missing)}. HANDS PLAYED STAND; CHANGE THE DECK",
            )
        )
    if result.extra:
        table.out.append(
            table.incident(
                seq,
                Rule.DECK_EXTRA_CARD_IN_DECK,
                f"DEFECTIVE DECK, EXTRA CARDS: {_codes(result.extra)}. REPLACE THE DECK",
                Ruling.REPLACE,
            )
        )
    if result.ok:
        table.out.append(
            Prompt(table.hand_no, f"DECK CHECK OK: {len(scanned)} CARDS", seq, PromptCode.INFO)
        )


def deck_change(table: TableState, back: str, seq: int) -> None:
    """DECK-CHANGE (001-RR11 §2 r22): a new deck is used for at least a full round (once
    around the table) before it may be changed, unless it is defective or damaged. A setup
    line naming another back is the deck change; one too early is flagged, play goes on."""
    if back == table.deck.back:
        return
    if 0 < table.deck.hands < table.deck.round and not table.deck.defective:
        table.out.append(
            table.incident(
                seq,
                Rule.DECK_CHANGE,
                f"DECK CHANGED AFTER {table.deck.hands} HAND(S): A NEW DECK STAYS IN PLAY FOR "
                f"A FULL ROUND ({table.deck.round} HANDS) UNLESS IT IS DEFECTIVE",
            )
        )
    table.deck.back = back
    table.deck.hands = 0
    table.deck.defective = False


def absence(table: TableState, at: float, seq: int) -> None:
    """MISC-ABSENCE: away from the table longer than the profile allows (RR11 30 minutes,
    RRPG 15): the floor may pick up the chips. Times come from the events."""
    assert table.profile is not None
    limit = table.profile.absence_pickup_minutes * 60
    for seat, since in sorted(table.timers.away_since.items()):
        if at - since > limit and seat not in table.timers.away_flagged:
            table.timers.away_flagged.add(seat)
            table.floor_call = True
            table.out.append(
                table.incident(
                    seq,
                    Rule.MISC_ABSENCE,
                    f"SEAT {seat} AWAY MORE THAN {table.profile.absence_pickup_minutes} "
                    "MINUTES: FLOOR MAY PICK UP THE CHIPS",
                    Ruling.FLOOR,
                    seat=seat,
                )
            )


def time_flop(table: TableState, cards: list[Card], seq: int) -> None:
    """MISC-TIME-COLLECTION, GN time flop (004-GN §I r28): the first card seen off the flop
    names the seat that pays everyone's time for the half hour. The catalog leaves ranks
    without a seat open; the station's reading: ace = seat 1, 2-9 = that seat, ten = seat 10;
    a jack, queen or king, or a seat nobody sits in, passes to the next flop card; if no flop
    card names a player, the next flop decides."""
    for card in cards:
        seat = 1 if card.rank == 14 else card.rank
        if 1 <= seat <= TABLE_SEATS and seat in table.occupied:
            table.timers.time_flop_due = False
            if table.timers.time_flop_next is not None:
                table.timers.time_flop_next += 30 * 60
            table.out.append(
                Prompt(
                    table.hand_no,
                    f"TIME FLOP: {card.code} - SEAT {seat} PAYS EVERYONE'S TIME",
                    seq,
                    PromptCode.INFO,
                )
            )
            collection.flop_named(table, seat, seq)
            return


def _codes(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)
