"""Rule ids and their citations for the active profile. Pure.

`rulebook_data.RULES` is generated from the catalog snapshot (docs/RULES-CATALOG.md) by
tools/gen_rulebook.py. An incident cites the clauses of the profile's own rulebook when the
catalog lists them, otherwise Robert's Rules v11, otherwise every source the catalog gives.
"""

from __future__ import annotations

import re
from functools import cache

from station.engine import tda
from station.engine.rulebook_data import RULES

_SOURCE = re.compile(r"(000-USPA|001-RR11|002-RRPG|003-RR5|003-HPT|004-GN|001-PN)")

# Station-level ids for equipment and input faults; they are not rulebook rules.
STATION_RULES: dict[str, str] = {
    "STATION-UNKNOWN-TAG": "A tag no enrolled deck knows was drawn",
    "STATION-EMPTY-SEAT": "Chips or an action at a seat that is not in the hand",
    "STATION-HAND-ABANDONED": "A new deal started before the previous hand was finished",
    "STATION-LINK-DOWN": "The shoe or bet-zone link was lost",
    "STATION-ZONE-OVER-STACK": "A bet zone shows more chips than the seat had",
    "STATION-UNEXPECTED-KEY": "A key that makes no sense at this moment",
    "STATION-FLOOR-CALL": "The dealer called the floor",
    "STATION-HAND-OUT-OF-STEP": "The table went on to a showdown the station could not follow",
    "STATION-FLOOR-CLOSED": "The floor closed a hand the station could not follow",
}


def title(rule_id: str) -> str:
    if rule_id in RULES:
        return RULES[rule_id][0]
    return STATION_RULES.get(rule_id, rule_id)


@cache
def citation(rule_id: str, source_tag: str) -> str:
    """The clauses behind `rule_id` in the rulebook `source_tag` (e.g. "004-GN")."""
    if source_tag == tda.SOURCE and rule_id in tda.CITATIONS:
        return tda.CITATIONS[rule_id]
    if rule_id not in RULES:
        return "station rule" if rule_id in STATION_RULES else ""
    text = RULES[rule_id][3]
    segments: dict[str, list[str]] = {}
    current = ""
    for part in (p.strip() for p in text.split(";")):
        m = _SOURCE.match(part)
        if m:
            current = m.group(1)
        if current:
            segments.setdefault(current, []).append(part)
    for tag in (source_tag, "001-RR11"):
        if tag in segments:
            return "; ".join(segments[tag])
    return text
