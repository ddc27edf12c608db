"""Tilt rows for tampering a writer finds in the journal itself: the anchor not naming the last
row, protective triggers gone. Pure (builds entries; the store appends them).
"""

from __future__ import annotations

from station.journal.codes import STATION_ACTOR, ActorRole, Code, TiltCode
from station.journal.rows import Entry


def integrity_tilt(detail: str, seq: int | None) -> Entry:
    payload = {"tilt": TiltCode.JOURNAL_INTEGRITY.value, "detail": detail, "seq": seq}
    return Entry(Code.TILT_RAISED, payload, STATION_ACTOR, ActorRole.STATION)


def anchor_tilt(anchor: tuple[int, str] | None, head_seq: int) -> Entry:
    if anchor is None:
        detail, seq = "the anchor row is missing", None
    elif anchor[0] > head_seq:
        detail = (
            f"truncated: the anchor records head seq {anchor[0]}, the journal ends at {head_seq}"
        )
        seq = head_seq + 1
    elif anchor[0] < head_seq:
        detail, seq = f"rows after the anchored head seq {anchor[0]}", anchor[0] + 1
    else:
        detail, seq = f"the chain was rewritten at or before seq {head_seq}", head_seq
    return integrity_tilt(detail, seq)
