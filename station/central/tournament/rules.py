"""What each rule profile says about running a tournament across tables: how close table sizes
are kept, when the field is redrawn, and how players out in the same hand-for-hand round at
different tables are placed. Pure.

The rulebooks agree on most of it; where they differ the profile decides:

- Table sizes (balancing): within one player at six tables or fewer, within two above (001-RR11
  §15 r17; 002-RRPG §15 r16; 003-RR5 §15 r16; 000-USPA §3.3.2.14). The TDA Rules leave the
  sizes to the house (TDA 2024 Rule 11: the floor should balance) and halt play at a table three
  or more players short (Rule 11D): the TDA profile keeps the same sizes as the others.
- Who moves and where: in button games the player due the big blind, to the earliest open seat
  due the big blind (001-RR11 §15 r15; 002-RRPG §15 r14; 003-RR5 §15 r14); TDA 2024 Rule 11A:
  the player to be big blind next, to the worst position (a single big blind when available,
  never the small blind) - the same seat by the same count. USPA has no rule of its own here: the
  same. Stud (no button): the seat that opened last at the short table is filled (TDA Rule 11A).
- Tables broken in a preset order, their players to empty seats (001-RR11 §15 r14; 002-RRPG §15
  r12; 003-RR5 §15 r12; 000-USPA §3.3.2.13); TDA 2024 Rule 10: by a random draw for table and seat.
- Redraws: at three, two and one table (001-RR11 §15 r18; 003-RR5 §15 r17; 000-USPA §3.3.2.15;
  RR11 and USPA: not mandatory at three when the event started with four or five tables, a
  choice the floor makes per event); at two and one, in events of three or more starting tables
  (002-RRPG §15 r17). The TDA Rules
  ask for none (a broken table's players are drawn into the empty seats, Rule 10).
- Players out on the same hand: the one who started it with more chips finishes higher; equal
  chips share the places (001-RR11 §15 r35; 002-RRPG §15 r35; 003-RR5 §15 r35; 000-USPA
  §3.3.2.29). Hand-for-hand makes every table's hand of a round "the same hand" (the rulebooks
  name no procedure for it; the floor's practice): ranked by starting stack across tables. TDA
  2024 RP-8: players out in the same hand-for-hand hand at different tables tie for the places.
- GN (the Golden Nugget's house rules) has no event rules on any of this: RR11's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class TourneyRules:
    profile: str
    redraw_at: frozenset[int]  # redraw when the field is reduced to this many tables
    redraw_min_start: int  # ... in events that started with at least this many tables
    tie_across_tables: bool  # hand-for-hand: out at different tables in one round = tied
    sources: str  # where the profile's tournament rules are

    def tolerance(self, tables: int) -> int:
        """The most two tables' sizes may differ by, with `tables` in play."""
        return 1 if tables <= SMALL_FIELD_TABLES else 2

    def redraws_at(self, tables: int, start_tables: int, *, at_three: bool = True) -> bool:
        """Is the field redrawn when it is reduced to `tables` tables (from `start_tables`)?
        `at_three` False: the floor skips the redraw at three tables, which RR11, RR5 and USPA
        allow only in an event that started with four or five tables."""
        if tables == 3 and not at_three and start_tables in OPTIONAL_AT_THREE:
            return False
        return tables in self.redraw_at and start_tables >= self.redraw_min_start


SMALL_FIELD_TABLES: Final = 6
OPTIONAL_AT_THREE: Final = frozenset({4, 5})  # starting tables: the redraw at three is optional

RR_REDRAWS: Final = frozenset({3, 2, 1})
RULES: Final[dict[str, TourneyRules]] = {
    r.profile: r
    for r in (
        TourneyRules("RR11", RR_REDRAWS, 1, False, "001-RR11 §15 r14-r18, r35"),
        TourneyRules("RRPG", frozenset({2, 1}), 3, False, "002-RRPG §15 r12-r17, r35"),
        TourneyRules("RR5", RR_REDRAWS, 1, False, "003-RR5 §15 r12-r17, r35"),
        TourneyRules("USPA", RR_REDRAWS, 1, False, "000-USPA §3.3.2.13-15, §3.3.2.29"),
        TourneyRules("GN", RR_REDRAWS, 1, False, "004-GN has none: 001-RR11 §15"),
        TourneyRules("TDA", frozenset(), 1, True, "TDA 2024 Rules 10, 11, RP-8"),
    )
}


class UnknownProfileError(ValueError):
    """Not a profile with tournament rules here (the message names it)."""


def rules_for(profile: str) -> TourneyRules:
    try:
        return RULES[profile]
    except KeyError:
        known = ", ".join(RULES)
        raise UnknownProfileError(f"profile {profile!r}: not one of {known}") from None
