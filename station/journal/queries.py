"""Indexed look-ups in the journal for recall, incidents and the lockout count. Edge adapter
(reads the journal's SQLite file through its one connection).

Each query uses one of the indexes of migration 0001 (`(hand, seq)`, `(code, seq)`,
`(actor, seq)`, `(boot_id, seq)`), so looking up one hand, one person's attempts or the last 100
hand ends stays quick however long the journal grows.
"""

from __future__ import annotations

from collections.abc import Iterable

from station.journal.codes import Code
from station.journal.rows import COLUMNS, LogRow
from station.journal.store import Journal

_SELECT = f"SELECT {', '.join(COLUMNS)} FROM log"


def rows_of_hands(journal: Journal, hands: Iterable[int]) -> list[LogRow]:
    wanted = sorted(set(hands))
    if not wanted:
        return []
    found = journal.conn.execute(
        f"{_SELECT} WHERE hand IN ({', '.join('?' * len(wanted))}) ORDER BY seq", wanted
    ).fetchall()
    return [LogRow.from_tuple(t) for t in found]


def rows_of_actor(journal: Journal, actor: str, codes: Iterable[str]) -> list[LogRow]:
    wanted = sorted(set(codes))
    found = journal.conn.execute(
        f"{_SELECT} WHERE actor = ? AND code IN ({', '.join('?' * len(wanted))}) ORDER BY seq",
        [actor, *wanted],
    ).fetchall()
    return [LogRow.from_tuple(t) for t in found]


def ended_hands(journal: Journal, last: int | None = None) -> list[tuple[int, int]]:
    """(hand, seq of its last hand_end row) for finished hands, oldest first; `last` keeps
    only the most recent ones: read newest first through the `(code, seq)` index, as far back
    as they go (the first row seen of a hand is its last), not every hand_end of the journal."""
    if last is None:
        found = journal.conn.execute(
            "SELECT hand, MAX(seq) FROM log WHERE code = ? AND hand > 0 GROUP BY hand",
            (Code.DECISION_HAND_END.value,),
        ).fetchall()
        return sorted((int(h), int(s)) for h, s in found)
    limit = 2 * last + 8
    while True:
        rows = journal.conn.execute(
            "SELECT hand, seq FROM log WHERE code = ? AND hand > 0 ORDER BY seq DESC LIMIT ?",
            (Code.DECISION_HAND_END.value, limit),
        ).fetchall()
        newest: dict[int, int] = {}
        for hand, seq in rows:
            newest.setdefault(int(hand), int(seq))
        if len(newest) >= last or len(rows) < limit:
            break
        limit *= 4
    return sorted(sorted(newest.items(), key=lambda hs: hs[1], reverse=True)[:last])


def latest(journal: Journal, codes: Iterable[str], before_seq: int) -> LogRow | None:
    """The last row of one of `codes` before `before_seq`."""
    best: LogRow | None = None
    for code in set(codes):
        found = journal.conn.execute(
            f"{_SELECT} WHERE code = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
            (code, before_seq),
        ).fetchone()
        if found is not None and (best is None or int(found[0]) > best.seq):
            best = LogRow.from_tuple(found)
    return best


def count(journal: Journal, code: str, hand: int) -> int:
    found = journal.conn.execute(
        "SELECT COUNT(*) FROM log WHERE hand = ? AND code = ?", (hand, code)
    ).fetchone()
    return int(found[0])


def first_row_of_boot(journal: Journal, boot_id: str) -> LogRow | None:
    found = journal.conn.execute(
        f"{_SELECT} WHERE boot_id = ? ORDER BY seq LIMIT 1", (boot_id,)
    ).fetchone()
    return None if found is None else LogRow.from_tuple(found)
