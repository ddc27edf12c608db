"""The TDA profile's citations: the Tournament Directors Association's rules (2024 edition) for
the tournament rules where the station follows them, in the project's own words. Pure data.

Only the rules whose 2024 text and number could be checked are cited here (docs/tournaments.md
says how): rule 23 (New Hand & New Limits), rules 10 and 11 (Breaking Tables, Balancing Tables)
and the recommended procedure RP-11 (the big-blind ante). For every other rule the TDA profile
plays as Robert's Rules v11 and cites it (`rulebook.citation` falls back to 001-RR11).
"""

from __future__ import annotations

from typing import Final

from station.engine.rule_ids import Rule

SOURCE: Final = "TDA-2024"

CITATIONS: Final[dict[str, str]] = {
    Rule.TOURN_LEVELS.value: (
        "TDA-2024 r23 (New Hand & New Limits): a new level begins at the clock's signal or the "
        "floor's announcement, and its limits apply from the next hand; a hand begins with the "
        "first riffle, the push of the shuffler's button, or the dealer's push"
    ),
    Rule.TOURN_NEW_PLAYERS_AT_TABLE.value: (
        "TDA-2024 r10 (Breaking Tables): players from a broken table take on the duties of the "
        "seat they are given, any seat including the blinds or the button, and are dealt in "
        "except between the small blind and the button; r11 (Balancing Tables): the player due "
        "the big blind next moves to the worst position, which is never the small blind"
    ),
    Rule.BLIND_SHORT_BIG_BLIND.value: (
        "TDA-2024 RP-11: where one player antes for the table, the big-blind ante is recommended "
        "with the big blind taken first from a short stack, the ante from what is left"
    ),
}
