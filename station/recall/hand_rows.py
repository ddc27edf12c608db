"""Which hand a journal row belongs to: the one definition every view uses (`hands list`,
`hands show`, the floor screen's recall, `incidents list`, the PHH export). Pure.

- A row the engine derived (a decision, `table.hand_start`, an engine fault) belongs to the hand
  it names: its `hand` column is the engine's own word. So an incident is in the same hand in
  the incident list, in the hand list's count and in the recall.
- An input that derived rows belongs to the earliest hand those rows name: the input that ended
  hand 5 (its `hand_end` names 5, the next hand's post prompt 6) is hand 5's; a FLOOR key after
  hand 5 whose CALL FLOOR incident names hand 5 is hand 5's; a re-seat whose post prompt names
  hand 6 is hand 6's.
- An input that derived nothing belongs to the hand in progress (its `hand` column) until that
  hand has ended. Between hands, it stays with the hand that ended while the dealer only clears
  the betting zones (zones falling to 0, or reporting 0) and drops the rake; from the first
  other input on (a setup,
  a seat or puck sensor, a post, a key) it prepares the next hand and belongs to it. Before the
  first hand, the zones a bet-zone board reports as it starts belong to no hand (hand 0).
- Any other row (station, people, sign-ins, rulings, tilts, links) belongs to the hand in its
  `hand` column: the hand in progress when it was written, or, for a ruling, review or close,
  the hand of its incident.

The rows of hand N are therefore among the rows whose `hand` column is N - 1, N or N + 1
(`candidates`): the preparation inputs before N's NEW_HAND carry N - 1, the rows derived from
the input that prepared it may name N + 1 only if they belong to N + 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from station.journal.codes import DERIVED_CODES, INPUT_CODES, Code
from station.journal.rows import LogRow


def candidates(hand: int) -> tuple[int, int, int]:
    """The `hand` column values among which the rows of `hand` are found."""
    return (hand - 1, hand, hand + 1)


def _clearing(row: LogRow) -> bool:
    """A bet zone falling to (or reporting) 0, the dealer collecting or pushing chips; or the
    rake zone, where he drops the house's take of the hand that ended."""
    if row.code != Code.INPUT_ZONE:
        return False
    d = row.data()
    return d.get("amount") == 0 or d.get("zone") is not None


def owners(rows: Sequence[LogRow]) -> dict[int, int]:
    """seq -> the hand each row belongs to, for rows in sequence order. The rows must include
    every row whose `hand` column is the hand in question or the one before it (and those
    derived from them), as `candidates` selects."""
    derived: dict[int, list[int]] = {}
    ended: dict[int, int] = {0: 0}  # hand -> seq of its last hand_end row (hand 0: no hand)
    for row in rows:
        if row.code in DERIVED_CODES and row.ref is not None:
            derived.setdefault(row.ref, []).append(row.hand)
        if row.code == Code.DECISION_HAND_END:
            ended[row.hand] = max(ended.get(row.hand, 0), row.seq)
    preparing: set[int] = set()  # hands whose successor's preparation has begun
    out: dict[int, int] = {}
    for row in rows:
        if row.code in DERIVED_CODES:
            out[row.seq] = row.hand
        elif row.code in INPUT_CODES:
            named = derived.get(row.seq)
            hand = row.hand
            if named:
                out[row.seq] = min(named)
                if min(named) > hand:
                    preparing.add(hand)
            elif hand in ended and row.seq > ended[hand]:
                if hand in preparing or not _clearing(row):
                    preparing.add(hand)
                    out[row.seq] = hand + 1
                else:
                    out[row.seq] = hand
            else:
                out[row.seq] = hand
        else:
            out[row.seq] = row.hand
    return out


def rows_of_hand(rows: Iterable[LogRow], hand: int) -> list[LogRow]:
    """The rows of `hand` out of a window of rows (see `owners`), in sequence order."""
    window = sorted(rows, key=lambda r: r.seq)
    owner = owners(window)
    return [r for r in window if owner[r.seq] == hand]
