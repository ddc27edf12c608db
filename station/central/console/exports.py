"""The console's downloads, made by the station's own exporters: incidents as CSV or JSON
(`station.incidents.export`), hands as PHH (`station.phh.export`). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from station.incidents.export import fleet_to_csv, fleet_to_json
from station.incidents.records import IncidentRecord
from station.phh.export import exportable, hand_to_phh, phh_document
from station.recall.steps import HandRecall


def incidents_csv(items: Iterable[tuple[str, IncidentRecord]]) -> str:
    return fleet_to_csv(items)


def incidents_json(items: Iterable[tuple[str, IncidentRecord]]) -> str:
    return fleet_to_json(items)


def hands_phh(recalls: Sequence[HandRecall]) -> tuple[str, list[str]]:
    """(PHH text, why a hand was left out). One hand: a PHH file; several: PHHS."""
    if len(recalls) == 1 and exportable(recalls[0]):
        return hand_to_phh(recalls[0]), []
    return hands_phhs(recalls)


def hands_phhs(recalls: Sequence[HandRecall]) -> tuple[str, list[str]]:
    """(PHHS text, one table per finished hand; why a hand was left out)."""
    text, skipped = phh_document(recalls)
    unfinished = [f"hand {r.hand}: not finished" for r in recalls if not r.finished]
    return text, skipped + unfinished
