"""The floor's screen keys: the chip race and the forfeit of a void hand's refund. Pure.

Two engine keys have no button on the dealer panel (`hardware.inputs.names.SCREEN_KEYS`): the
floor enters them here, signed in, and the navigation hands the core a `ScreenKey`, which it
journals as an input of that person, exactly like a panel key:

- CHIP RACE (TOURN-CHIP-RACE): the new chip's value on a number pad, then START RACE; the
  engine takes the odd chips from the zones and the race cards from the shoe after that.
- FORFEIT (DECK-DEFECT-FREEROLL, DECK-FORFEITED-MONEY-ENTITLEMENT): after a void hand, a seat
  with a refund left, then an amount (none: the whole refund); it stays in the pot for the
  next deal.

What the snapshot says decides what is offered: seats without a refund get no button, and the
race pad shows only between hands. Anything else the engine refuses or corrects with an
incident of its own, which the floor then sees in the incident list.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hardware.inputs import names
from station.display.canvas import Canvas
from station.display.floor_cursor import FloorCursor
from station.display.model import Align, Rect
from station.display.pinpad import PadAccess
from station.display.theme import Edge, Style, TextRole
from station.display.widgets import (
    Button,
    button_row,
    button_w,
    label_value,
    paged_buttons,
    title_bar,
    touch_h,
)
from station.engine.events import Key, KeyPress
from station.engine.snapshot import Phase, TableSnapshot

T = TextRole.TEXT
SCREEN_KEYS = frozenset(Key(name) for name in names.SCREEN_KEYS)
PAGES = ("race", "forfeit", "forfeit-amount")
BACK = {"race": "incidents", "forfeit": "incidents", "forfeit-amount": "forfeit"}
ENTRY_MAX = 7  # digits of an amount (a 1,000,000 chip still fits)
PAD_ROWS = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("CLR", "0", "DEL"))
BETWEEN_HANDS = frozenset({Phase.BETWEEN, Phase.ENDED})
HOME_BUTTONS = (Button("CHIP RACE", "floor:race"), Button("FORFEIT", "floor:forfeit"))


@dataclass(frozen=True, slots=True)
class ScreenKey:
    """A key the floor entered on the touch screen; the core records it as the signed-in
    person's input (`KeyPress(key, seat=seat, amount=amount)`, role floor)."""

    key: Key
    role: PadAccess
    seat: int | None = None
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.key not in SCREEN_KEYS:
            raise ValueError(f"{self.key.value} is a panel key, not a screen key")
        if self.role is not PadAccess.FLOOR:
            raise ValueError("screen keys are the floor's")
        if self.key is Key.FORFEIT and self.seat is None:
            raise ValueError("a FORFEIT names the seat whose refund is forfeited")
        if self.amount is not None and self.amount < 0:
            raise ValueError(f"amount {self.amount} is not a number of chips")

    def event(self) -> KeyPress:
        return KeyPress(self.key, seat=self.seat, amount=self.amount)


# navigation -----------------------------------------------------------------------------------
def open_page(cur: FloorCursor, page: str) -> FloorCursor:
    return replace(cur, page=page, seat=None, digits="", top=0)


def act(cur: FloorCursor, verb: str, arg: str) -> tuple[FloorCursor, tuple[ScreenKey, ...]]:
    """One action on a screen-key page: "entry:7", "race:start", "forfeit:seat:3", ..."""
    match verb, arg:
        case "entry", _ if cur.page in ("race", "forfeit-amount"):
            return replace(cur, digits=edit(cur.digits, arg)), ()
        case "race", "start" if cur.page == "race":
            key = ScreenKey(Key.CHIP_RACE, PadAccess.FLOOR, amount=_amount(cur.digits))
            return replace(cur, digits=""), (key,)
        case "forfeit", "up" | "down" if cur.page == "forfeit":
            return replace(cur, top=max(0, cur.top + (1 if arg == "down" else -1))), ()
        case "forfeit", _ if cur.page == "forfeit" and arg.startswith("seat:"):
            return replace(cur, page="forfeit-amount", seat=int(arg[5:]), digits=""), ()
        case "forfeit", "confirm" if cur.page == "forfeit-amount" and cur.seat is not None:
            key = ScreenKey(Key.FORFEIT, PadAccess.FLOOR, cur.seat, _amount(cur.digits))
            return open_page(cur, "forfeit"), (key,)
    return cur, ()


def edit(digits: str, key: str) -> str:
    """A digit, DEL or CLR on the number pad; a leading zero is not kept."""
    if key in "0123456789" and len(key) == 1:
        if len(digits) >= ENTRY_MAX or (key == "0" and not digits):
            return digits
        return digits + key
    if key == "del":
        return digits[:-1]
    if key == "clr":
        return ""
    return digits


def _amount(digits: str) -> int | None:
    return int(digits) if digits else None


# screens --------------------------------------------------------------------------------------
def draw(c: Canvas, snap: TableSnapshot, cur: FloorCursor) -> None:
    match cur.page:
        case "race":
            _race(c, snap, cur.digits)
        case "forfeit-amount" if cur.seat is not None:
            _forfeit_amount(c, snap, cur.seat, cur.digits)
        case _:
            _forfeit_seats(c, snap, cur.top)


def _race(c: Canvas, snap: TableSnapshot, digits: str) -> None:
    top = title_bar(c, "CHIP RACE", [Button("BACK", "floor:back")])
    left = _left_column(c, snap.phase in BETWEEN_HANDS)
    y = top + c.pad
    if snap.phase not in BETWEEN_HANDS:
        why = "NO TABLE SET UP" if snap.phase is Phase.IDLE else "A HAND IS IN PLAY"
        y = _banner(c, left, y, why, Style.ALERT)
        c.paragraph(Rect(left.x, y, left.w, c.height - y - c.pad), "RACE BETWEEN HANDS", T)
        return
    y = _entry(c, left, y, "NEW CHIP", digits or "—")
    if snap.chip_race is not None:  # the engine has one going: that, rather than the hint
        _banner(c, left, y, f"RACE FOR {snap.chip_race} CHIPS UNDER WAY", Style.NOW)
    else:
        c.paragraph(
            Rect(left.x, y, left.w, c.height - touch_h(c) - 2 * c.pad - y),
            "THEN ODD CHIPS INTO THE ZONES, ONE CARD PER CHIP FROM SEAT 1",
            T,
            Style.DIM,
        )
    button_row(c, [Button("START RACE", "race:start", Style.NOW)], c.height - touch_h(c) - c.pad)
    _pad(c, top)


def _forfeit_seats(c: Canvas, snap: TableSnapshot, first_row: int) -> None:
    """A button for each seat with a refund left, in as many columns as fit; when the rows do
    not all fit (ten seats on the 7" panel) they scroll a row at a time with UP and DOWN (each
    shown while there is a row to scroll to), from `first_row`."""
    top = title_bar(c, f"FORFEIT · HAND {snap.hand}", [Button("BACK", "floor:back")])
    p = c.pad
    area = Rect(p, top + p, c.width - 2 * p, c.height - top - 2 * p)
    y = area.y
    if snap.carry:
        y = _banner(c, area, y, f"NEXT DEAL: {snap.carry} FORFEITED", Style.INFO)
    if not snap.refunds:
        c.paragraph(
            Rect(area.x, y, area.w, area.bottom - y),
            "NO REFUND TO FORFEIT: ONLY THE REFUNDS OF A VOID HAND CAN STAY IN THE POT",
            T,
        )
        return
    y += c.paragraph(Rect(area.x, y, area.w, 2 * c.row(T)), "WHOSE REFUND STAYS IN THE POT?", T)
    labels = [(seat, f"SEAT {seat} · {chips}") for seat, chips in snap.refunds]
    buttons = [(label, f"forfeit:seat:{seat}") for seat, label in labels]
    paged_buttons(
        c, Rect(area.x, y + p, area.w, area.bottom - y - p), buttons, first_row, "forfeit"
    )


def _forfeit_amount(c: Canvas, snap: TableSnapshot, seat: int, digits: str) -> None:
    top = title_bar(c, f"FORFEIT · SEAT {seat}", [Button("BACK", "floor:back")])
    left = _left_column(c, True)
    refund = dict(snap.refunds).get(seat, 0)
    y = top + c.pad
    if refund:
        label_value(c, Rect(left.x, y, left.w, c.row(T)), "REFUND", str(refund))
        y += c.row(T) + c.pad
    else:
        y = _banner(c, left, y, "NO REFUND LEFT", Style.ALERT)
    y = _entry(c, left, y, "FORFEIT", digits or "ALL")
    room = c.height - touch_h(c) - 2 * c.pad - y
    c.paragraph(
        Rect(left.x, y, left.w, room), "IT STAYS IN THE POT FOR THE NEXT DEAL", T, Style.DIM
    )
    label = f"FORFEIT {digits}" if digits else "FORFEIT ALL"
    button_row(c, [Button(label, "forfeit:confirm", Style.NOW)], c.height - touch_h(c) - c.pad)
    _pad(c, top)


# pieces ---------------------------------------------------------------------------------------
def _pad_geometry(c: Canvas) -> tuple[int, int, int]:
    """(key width, key height, gap) of the number pad."""
    gap = c.mm_x(c.theme.touch_gap_mm)
    key_w = max(button_w(c, "CLR"), button_w(c, "DEL"))
    return key_w, touch_h(c), gap


def _left_column(c: Canvas, with_pad: bool) -> Rect:
    """The room left of the number pad (the whole width when there is no pad)."""
    key_w, _, gap = _pad_geometry(c)
    right = c.width - c.pad - (3 * key_w + 3 * gap if with_pad else 0)
    return Rect(c.pad, 0, right - c.pad, c.height)


def _pad(c: Canvas, top: int) -> None:
    """The number pad, on the right, from below the title bar."""
    key_w, key_h, gap = _pad_geometry(c)
    x0 = c.width - c.pad - 3 * key_w - 2 * gap
    for r, keys in enumerate(PAD_ROWS):
        for col, key in enumerate(keys):
            rect = Rect(x0 + col * (key_w + gap), top + c.pad + r * (key_h + gap), key_w, key_h)
            if rect.bottom > c.height:
                c.drop(f"button {key}")
                continue
            c.button(rect, key, f"entry:{key.lower()}")


def _banner(c: Canvas, area: Rect, y: int, text: str, style: Style) -> int:
    """A line of state on its colour (wrapped on a narrow column); returns the next y."""
    row = c.row(T)
    lines = c.wrap(text, T, area.w - 2 * c.pad)
    c.box(Rect(area.x, y, area.w, row * len(lines)), style)
    for i, line in enumerate(lines):
        c.text(Rect(area.x + c.pad, y + i * row, area.w - 2 * c.pad, row), line, T, style)
    return y + row * len(lines) + c.pad


def _entry(c: Canvas, area: Rect, y: int, label: str, value: str) -> int:
    """A label over the value typed so far (or what it stands for), in a framed box wide
    enough for the longest amount; returns the next y."""
    row = c.row(T)
    c.text(Rect(area.x, y, area.w, row), label, T, Style.DIM)
    y += row
    key_row = c.row(TextRole.KEY)
    widest = c.measure("8" * ENTRY_MAX, TextRole.KEY) + 3 * c.pad
    box = Rect(area.x, y, min(area.w, widest), key_row)
    c.box(box, None, Edge.PLAIN, 2)
    c.text(box.inset(c.pad, 0), value, TextRole.KEY, Style.BASE, Align.RIGHT, key=True)
    return y + key_row + c.pad
