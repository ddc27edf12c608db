"""The dealer's sign-in page: the table's dealers by name, a tap on yours opens your PIN. Pure.

Dealers rotate every 20-30 minutes and the incoming dealer signs in themselves (the outgoing one
does not sign them in): the name button on the dealer screen's status strip (SIGN IN while
nobody is) opens this page, a tap on a name opens the PIN pad for that person, and the PIN
signs them in as the table's dealer (the core journals the LOGIN through `StationOps.login`,
which logs the dealer before out as replaced). Three touches and the PIN.

Between hands only. A push happens between hands (the incoming dealer waits behind the box
until the hand is over), and a hand is credited to the dealer signed in when it ends (the rake
report per dealer): a sign-in during a hand would credit the incoming dealer with a hand the
outgoing one dealt. During a hand the page says so in words and offers no names; the core
refuses a sign-in that arrives then anyway.
"""

from __future__ import annotations

import math
from typing import Final

from station.display.canvas import Canvas
from station.display.dealer_view import StationStatus
from station.display.model import Rect, ScreenModel
from station.display.panel import PanelConfig
from station.display.theme import DEFAULT_THEME, Style, TextRole, Theme
from station.display.widgets import Button, paged_buttons, title_bar
from station.engine.snapshot import Phase

T = TextRole.TEXT
SIGN_IN_PHASES: Final = frozenset({Phase.IDLE, Phase.BETWEEN, Phase.ENDED})
SIGN_IN: Final = "SIGN IN"  # the status strip's button while nobody is signed in
AFTER_THIS_HAND: Final = "SIGN IN AFTER THIS HAND"
WRONG_PIN: Final = "WRONG PIN"
NOT_A_DEALER: Final = "NOT A DEALER"
ACTION_OPEN: Final = "nav:signin"
TITLE: Final = "DEALER SIGN IN"


def pick_action(index: int) -> str:
    return f"signin:pick:{index}"


def locked_words(remaining_s: float) -> str:
    """A lockout in words: how long until the next try (seconds under two minutes, else whole
    minutes), rounded up."""
    seconds = max(1, math.ceil(remaining_s))
    if seconds < 120:
        return f"LOCKED OUT · TRY IN {seconds} S"
    return f"LOCKED OUT · TRY IN {math.ceil(seconds / 60)} MIN"


def signin_screen(
    status: StationStatus,
    phase: Phase,
    first_row: int,
    panel: PanelConfig,
    theme: Theme = DEFAULT_THEME,
) -> ScreenModel:
    c = Canvas("signin", panel, theme)
    top = title_bar(c, TITLE, [Button("CANCEL", "signin:cancel")])
    p = c.pad
    row = c.row(T)
    area = Rect(p, top + p, c.width - 2 * p, c.height - top - 2 * p)
    now = f"DEALER NOW: {status.dealer}" if status.dealer else "NO DEALER SIGNED IN"
    c.text(Rect(area.x, area.y, area.w, row), now, T, Style.BASE)
    y = area.y + row + p
    if phase not in SIGN_IN_PHASES:
        box = Rect(area.x, y, area.w, row)
        c.box(box, Style.ALERT)
        c.text(box.inset(p, 0), AFTER_THIS_HAND, T, Style.ALERT)
        return c.model()
    if not status.dealers:
        c.paragraph(
            Rect(area.x, y, area.w, area.bottom - y),
            "NO DEALERS ENROLLED: A SUPERVISOR ADDS THEM (STATION PEOPLE ADD)",
            T,
        )
        return c.model()
    c.text(Rect(area.x, y, area.w, row), "TAP YOUR NAME", T, Style.DIM)
    y += row
    buttons = [(name, pick_action(index)) for index, name in enumerate(status.dealers)]
    paged_buttons(c, Rect(area.x, y + p, area.w, area.bottom - y - p), buttons, first_row, "signin")
    return c.model()
