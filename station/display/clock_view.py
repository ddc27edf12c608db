"""A tournament table's level clock in words, for every screen that shows it (the dealer screen's
status strip, the floor's lists, the diagnostics). Pure.

The snapshot says where the clock stood at the latest event (`TournamentView`); the screens count
the time down from there with the session time the daemon hands them (`StationStatus.session_t`,
published every second while a tournament runs). The forms go from the longest to the shortest;
a screen takes the longest that fits:

    LEVEL 3 100-200 ANTE 25 12:05
    L3 100-200 ANTE 25 12:05
    L3 12:05

A break: BREAK 8:10 · NEXT LEVEL 4 100-200 ... BREAK 8:10. While a hand plays an older level than
the clock's (the level ended during it, or after the deal's first post) or the time has run out
before the next input: LEVEL 4 150-300 FROM NEXT HAND ... NEXT 150-300 (the blinds the dealer
will call for are what a narrow strip keeps) ... L4 NEXT HAND, highlighted. A table
that lost the event's clock says so in every form: ... · OWN CLOCK SINCE 14:05 ... L3 12:05 OWN.
"""

from __future__ import annotations

from dataclasses import dataclass

from station.display.theme import Style
from station.engine.levels import clock_text
from station.engine.snapshot import TournamentView

EVENT_CLOCK = "EVENT CLOCK"
OWN_SINCE = "OWN CLOCK SINCE "


@dataclass(frozen=True, slots=True)
class ClockLine:
    forms: tuple[str, ...]  # longest first
    style: Style

    @property
    def short(self) -> str:
        return self.forms[-1]


def short_label(label: str) -> str:
    """LEVEL 12 -> L12; BREAK stays."""
    return "L" + label.removeprefix("LEVEL ") if label.startswith("LEVEL ") else label


def clock_line(
    view: TournamentView | None, t_now: float | None, source: str = ""
) -> ClockLine | None:
    """The clock's forms at session time `t_now` (None: as the snapshot left it)."""
    if view is None:
        return None
    left = view.remaining_at(t_now)
    ran_out = left <= 0 and not view.last and bool(view.next_label) and not view.paused
    if view.hand_label or ran_out:
        label, stakes = (
            (view.next_label, view.next_stakes) if ran_out else (view.label, view.stakes)
        )
        if ran_out and view.next_label == "BREAK":
            label, stakes = view.next_label, ""
        forms = [
            f"{label} {stakes} FROM NEXT HAND".replace("  ", " "),
            f"{short_label(label)} {stakes} NEXT HAND".replace("  ", " "),
            f"{short_label(label)} {_blinds(stakes)} NEXT HAND".replace("  ", " "),
            f"NEXT {_blinds(stakes)}" if stakes else f"{short_label(label)} NEXT HAND",
            f"{short_label(label)} NEXT HAND",
        ]
        return _with_source(forms, source, Style.INFO)
    time = clock_text(left)
    if view.paused:
        time = f"PAUSED {time}"
    elif view.waiting:
        time = f"STARTS IN {time}" if t_now is None else "NOT STARTED"
    elif view.last and left <= 0:
        time = "LAST LEVEL"
    if view.is_break:
        nxt = f"NEXT {view.next_label} {view.next_stakes}" if view.next_label else ""
        forms = [f"BREAK {time} · {nxt}" if nxt else f"BREAK {time}", f"BREAK {time}"]
        return _with_source(forms, source, Style.INFO)
    forms = [
        f"{view.label} {view.stakes} {time}",
        f"{short_label(view.label)} {view.stakes} {time}",
        f"{short_label(view.label)} {_blinds(view.stakes)} {time}",
        f"{short_label(view.label)} {time}",
    ]
    return _with_source(forms, source, Style.BASE)


def _blinds(stakes: str) -> str:
    """The blinds of a level's stakes (50-100 BB ANTE 100 -> 50-100); a level that starts with
    its ante (stud) keeps it."""
    head = stakes
    for tail in (" BB ANTE", " ANTE", " LIMIT"):
        head = head.partition(tail)[0]
    return head or stakes


def _with_source(forms: list[str], source: str, style: Style) -> ClockLine:
    """The clock's source when it is not the event's clock. A table that lost the link to the
    centre (OWN CLOCK SINCE hh:mm) says so in every form, down to `L3 12:05 OWN`: its time may
    drift from the event's, and the dealer and the floor must see that it is its own. A table
    that never had the event's clock (OWN CLOCK: no centre) names it in the longest form only."""
    unique = list(dict.fromkeys(forms))
    if source.startswith(OWN_SINCE):
        since = [f"{f} · {source}" for f in unique]
        return ClockLine((*since, f"{unique[-1]} · OWN CLOCK", f"{unique[-1]} OWN"), style)
    if source and source != EVENT_CLOCK:
        unique.insert(0, f"{unique[0]} · {source}")
    return ClockLine(tuple(unique), style)


def between_words(view: TournamentView | None, t_now: float | None) -> tuple[str, str] | None:
    """What a tournament table's dealer is told between hands beyond the next deal's posts: a
    break under way (no deal until the level after it) and a colour-up still to race, as
    (text, short form); None when neither holds. The engine says both once, when the break
    begins; the next deal's posting prompt follows at once and would hide them."""
    if view is None:
        return None
    parts: list[tuple[str, str]] = []
    if view.is_break and (view.paused or view.remaining_at(t_now) > 0):
        after = view.next_label or "THE BREAK ENDS"
        parts.append(
            (f"BREAK: NO DEAL UNTIL {after}", f"BREAK: NO DEAL UNTIL {short_label(after)}")
        )
    if view.colour_up is not None:
        chip, new = view.colour_up
        parts.append(
            (
                f"COLOUR UP: RACE OFF THE {chip} CHIPS FOR {new} CHIPS",
                f"CHIP RACE {chip} FOR {new}",
            )
        )
    if not parts:
        return None
    return " · ".join(p[0] for p in parts), " · ".join(p[1] for p in parts)
