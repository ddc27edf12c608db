"""The PIN pad: entry state and its screen (twelve large keys). Pure.

The pad never checks a PIN itself: on OK the navigation passes the digits to the injected
`verify_pin(role, pin)`, which the journal/auth code provides (hashing, throttling, audit).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from station.display.canvas import Canvas
from station.display.model import Align, Rect, ScreenModel, Shape
from station.display.panel import PanelConfig
from station.display.theme import DEFAULT_THEME, Edge, Style, TextRole, Theme
from station.display.widgets import Button, title_bar

PIN_MAX = 12
DIGITS = "0123456789"
KEY_ROWS = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("DEL", "0", "OK"))
PIN_KEY_MM = 14.0  # keys well above the 9 mm bar: the pad is used standing, one finger


class PadAccess(StrEnum):
    """Whom a PIN pad admits: the floor's screen, the technician's (diagnostics) screen, the
    table's dealer signing in (the dealer screen itself needs none). Not a journal role
    (`ActorRole`): the technician's pad also admits an admin. The values appear in the
    journal's `auth.*` purposes ("tech screen") and never change."""

    FLOOR = "floor"
    TECHNICIAN = "tech"
    DEALER = "dealer"


ROLE_TITLE = {
    PadAccess.FLOOR: "FLOOR PIN",
    PadAccess.TECHNICIAN: "TECHNICIAN PIN",
    PadAccess.DEALER: "DEALER PIN",
}


@dataclass(frozen=True, slots=True)
class PinPadState:
    role: PadAccess
    digits: str = ""
    message: str = ""
    person: str = ""  # whose PIN (the dealer picked their name); "" for the role's pad

    @property
    def title(self) -> str:
        return f"{ROLE_TITLE[self.role]} · {self.person}" if self.person else ROLE_TITLE[self.role]


def press(state: PinPadState, key: str) -> PinPadState:
    """A digit, DEL or CLR; OK and CANCEL are the navigation's business."""
    if key in DIGITS and len(key) == 1:
        if len(state.digits) >= PIN_MAX:
            return replace(state, message="PIN TOO LONG")
        return replace(state, digits=state.digits + key, message="")
    if key == "DEL":
        return replace(state, digits=state.digits[:-1], message="")
    if key == "CLR":
        return replace(state, digits="", message="")
    return state


def key_action(key: str) -> str:
    return f"pin:{key.lower()}"


def pinpad_screen(
    state: PinPadState, panel: PanelConfig, theme: Theme = DEFAULT_THEME
) -> ScreenModel:
    c = Canvas("pin", panel, theme)
    top = title_bar(c, state.title, [Button("CANCEL", "pin:cancel")])
    p = c.pad
    row = c.row(TextRole.TEXT)
    # the entry: one star per digit (the font has no bullet), and the message
    entry = Rect(p, top + p, c.width - 2 * p, row)
    shown = " ".join("*" * len(state.digits)) if state.digits else "ENTER PIN, THEN OK"
    c.text(entry, shown, TextRole.TEXT, Style.BASE if state.digits else Style.DIM, Align.CENTER)
    y = entry.bottom + p
    if state.message:
        msg = Rect(p, y, c.width - 2 * p, row)
        c.box(msg, Style.ALERT)
        c.text(msg, state.message, TextRole.TEXT, Style.ALERT, Align.CENTER)
    y += row + p
    gap = c.mm_y(theme.touch_gap_mm + 0.5)
    avail = c.height - y - p
    key_h = min(c.mm_y(PIN_KEY_MM), (avail - 3 * gap) // 4)
    key_w = min(c.mm_x(PIN_KEY_MM * 1.6), (c.width - 2 * p - 2 * gap) // 3)
    x0 = (c.width - 3 * key_w - 2 * gap) // 2
    for r, keys in enumerate(KEY_ROWS):
        for col, key in enumerate(keys):
            rect = Rect(x0 + col * (key_w + gap), y + r * (key_h + gap), key_w, key_h)
            style = Style.NOW if key == "OK" else Style.BASE
            c.box(rect, style, Edge.BUTTON, max(2, c.mm_y(0.6)), Shape.ROUNDED)
            role = TextRole.KEY if key in DIGITS else TextRole.TEXT
            c.text(rect, key, role, style, Align.CENTER)
            c.target(rect, key_action(key))
    return c.model()
