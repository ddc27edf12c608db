"""Who may read hidden cards, and the audit row every such read leaves. Application service over
the journal (edge).

Hole cards and burn cards are not public: a finished hand's recall shows them as `[hidden]`,
and whatever shows them (`station hands show --reveal`, `station journal export --phh`, the
demo's session export) first authenticates a floor supervisor, technician or admin and journals
a `recall.revealed` row: who (actor, role), what (payload), when (the row's time). The row is
committed before the cards are shown or written, so there is no read without its record. Public
exports (incidents, the hand list, recall without `--reveal`) stay open.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from station.journal.codes import ActorRole, Code
from station.journal.rows import LogRow
from station.journal.store import Journal
from station.people.staff import Authenticated

REVEAL_ROLES: Final = frozenset({ActorRole.FLOOR, ActorRole.TECHNICIAN, ActorRole.ADMIN})
NEEDS_CREDENTIAL: Final = (
    "holds hole and burn cards: name a floor supervisor, technician or admin with --person "
    "(their PIN is asked, and the read is journaled)"
)


def journal_reveal(
    journal: Journal, who: Authenticated, hands: Iterable[int], **what: Any
) -> LogRow:
    """Put on record that `who` is shown the hidden cards of `hands` (`what`: how, e.g.
    export="phh", to="stdout")."""
    numbers = sorted(set(hands))
    payload: dict[str, Any] = {"hands": numbers, **what}
    hand = numbers[0] if len(numbers) == 1 else None
    return journal.append([who.entry(Code.RECALL_REVEALED, payload, hand=hand)])[0]
