"""Bet-zone chip totals from the serial board turned into settled per-seat amounts. Pure.

See `hardware.betzone.settling`.
"""

from hardware.betzone.settling import (
    GlitchKind,
    ZoneChange,
    ZoneEvent,
    ZoneFault,
    ZoneGlitch,
    ZoneSettled,
    ZoneSettler,
    ZoneUnstable,
)

__all__ = [
    "GlitchKind",
    "ZoneChange",
    "ZoneEvent",
    "ZoneFault",
    "ZoneGlitch",
    "ZoneSettled",
    "ZoneSettler",
    "ZoneUnstable",
]
