"""Floor review: the input records (incidents, hand recall) and their screens. Pure.

The journal adapts its rows to these plain records; the display depends on nothing else. The
screens are: the incident list, one incident (rule id, citation, triggering events, ruling,
ACKNOWLEDGE / UPHOLD / CHANGE RULING), the ruling picker, the list of recent hands and the
step-by-step recall of one hand. Both lists end with the floor's screen keys, CHIP RACE and
FORFEIT, whose pages are in `floor_keys`.
"""

from __future__ import annotations

from dataclasses import dataclass

from station.display import floor_keys
from station.display.canvas import Canvas
from station.display.clock_view import ClockLine
from station.display.dealer_view import RULING_TEXT, parse_card
from station.display.floor_cursor import FloorCursor
from station.display.model import Rect, ScreenModel
from station.display.panel import PanelConfig
from station.display.theme import DEFAULT_THEME, Style, TextRole, Theme
from station.display.widgets import (
    Button,
    button_row,
    button_w,
    fit_rows,
    list_fit,
    list_rows,
    title_bar,
    touch_h,
)
from station.engine.decisions import Ruling
from station.engine.snapshot import TableSnapshot

T, K = TextRole.TEXT, TextRole.KEY
__all__ = [
    "FloorCursor",
    "FloorData",
    "HandRecallView",
    "IncidentRow",
    "RecallStep",
    "floor_screen",
]


@dataclass(frozen=True, slots=True)
class IncidentRow:
    """One incident as the floor reviews it."""

    hand: int
    event: int  # the input event that triggered it (journal sequence)
    rule: str  # catalog rule id
    citation: str  # rulebook reference, e.g. "001-RR11 §5 r7"
    ruling: str  # a Ruling code
    text: str
    status: str = "open"  # open, acknowledged, ruled, closed
    seat: int | None = None
    triggers: tuple[str, ...] = ()  # one line per triggering event, oldest first
    at_utc: str = ""  # "2026-09-02T21:14:03Z"


@dataclass(frozen=True, slots=True)
class RecallStep:
    seq: int  # journal sequence of the event
    text: str  # "seat 5 raises to 6", "burn", "flop Kd 9s 4h"
    board: tuple[str, ...] = ()  # the board after this step
    pot: int | None = None  # chips in the middle and in front after this step
    board2: tuple[str, ...] = ()  # a double-board game's second board after this step


@dataclass(frozen=True, slots=True)
class HandRecallView:
    hand: int
    game: str
    started_utc: str
    steps: tuple[RecallStep, ...]
    result: str = ""  # "seat 7 wins 571", "void"


@dataclass(frozen=True, slots=True)
class FloorData:
    incidents: tuple[IncidentRow, ...] = ()  # newest first
    hands: tuple[HandRecallView, ...] = ()  # newest first (at most `RECALL_DEPTH`)


def ruling_text(code: str) -> str:
    try:
        return RULING_TEXT[Ruling(code)]
    except ValueError:
        return code.upper()


def _tabs(cur: FloorCursor, floor_call: bool) -> list[Button]:
    tabs = [
        Button("INCIDENTS", "floor:incidents", Style.INFO if cur.page != "hands" else Style.BASE),
        Button("HANDS", "floor:hands", Style.INFO if cur.page == "hands" else Style.BASE),
    ]
    if floor_call:
        tabs.append(Button("CLEAR CALL", "floor:clear_call", Style.ALERT, short="CLEAR"))
    tabs.append(Button("EXIT", "nav:dealer"))
    return tabs


def _clocked(c: Canvas, title: str, clock: ClockLine | None) -> str:
    """A list's title with the level clock: the longest form that keeps it on one line beside
    the tabs (half the panel), else the shortest."""
    if clock is None:
        return title
    room = c.width // 2
    for form in clock.forms:
        if c.fits(f"{title} · {form}", T, room):
            return f"{title} · {form}"
    return f"{title} · {clock.short}"


def floor_screen(
    data: FloorData,
    cur: FloorCursor,
    panel: PanelConfig,
    snapshot: TableSnapshot | None = None,
    theme: Theme = DEFAULT_THEME,
    clock: ClockLine | None = None,
) -> ScreenModel:
    """`clock`: a tournament table's level clock, beside the lists' titles."""
    c = Canvas(f"floor-{cur.page}", panel, theme)
    snap = snapshot if snapshot is not None else TableSnapshot.empty()
    floor_call = snap.floor_call
    match cur.page:
        case page if page in floor_keys.PAGES:
            floor_keys.draw(c, snap, cur)
        case "incident" | "ruling" if data.incidents:
            inc = data.incidents[min(cur.incident, len(data.incidents) - 1)]
            if cur.page == "ruling":
                _ruling_picker(c, inc, cur.top)
            else:
                _incident(c, inc, cur.top)
        case "hands":
            top = title_bar(
                c, _clocked(c, "RECENT HANDS", clock), _tabs(cur, floor_call), floor_call
            )
            rows = [
                f"HAND {h.hand} · {h.game.upper()} · {h.started_utc[11:16]}  {h.result}"
                for h in data.hands
            ]
            area = Rect(
                c.pad, top + c.pad, c.width - 2 * c.pad, c.height - top - 2 * c.pad - touch_h(c)
            )
            list_rows(c, area, rows, cur.hand, cur.top, "floor:hand")
            _footer(c, area, rows)
        case "recall" if data.hands:
            _recall(c, data.hands[min(cur.hand, len(data.hands) - 1)], cur.step)
        case _:
            title = _clocked(c, f"INCIDENTS ({len(data.incidents)})", clock)
            top = title_bar(c, title, _tabs(cur, floor_call), floor_call)
            rows = [
                f"H{i.hand} · {i.rule} · {ruling_text(i.ruling)} · {i.status.upper()}"
                for i in data.incidents
            ]
            area = Rect(
                c.pad, top + c.pad, c.width - 2 * c.pad, c.height - top - 2 * c.pad - touch_h(c)
            )
            list_rows(c, area, rows, cur.incident, cur.top, "floor:incident")
            _footer(c, area, rows)
    return c.model()


def _footer(c: Canvas, area: Rect, rows: list[str]) -> None:
    """Under a list: UP and DOWN on the left when it scrolls, the screen keys on the right."""
    y = area.bottom + c.pad
    if len(rows) > list_fit(c, area, rows):
        button_row(c, [Button("UP", "floor:up"), Button("DOWN", "floor:down")], y)
    gap = c.mm_x(c.theme.touch_gap_mm)
    keys = floor_keys.HOME_BUTTONS
    width = sum(button_w(c, b.label) for b in keys) + gap * (len(keys) - 1)
    button_row(c, keys, y, c.width - c.pad - width)


def _incident_lines(c: Canvas, inc: IncidentRow, width: int) -> list[tuple[str, Style]]:
    """The incident as lines of text, most important first: rule and ruling, what the dealer
    was told, status, citation, the events that triggered it."""
    lines = [(line, Style.ALERT) for line in c.wrap(f"{inc.rule} · {ruling_text(inc.ruling)}",
                                                    T, width)]  # fmt: skip
    lines += [(line, Style.BASE) for line in c.wrap(inc.text, T, width)]
    status = f"STATUS {inc.status.upper()} · EVENT {inc.event}"
    status += f" · SEAT {inc.seat}" if inc.seat else ""
    lines += [(line, Style.DIM) for line in c.wrap(status, T, width)]
    lines += [(line, Style.DIM) for line in c.wrap(f"CITATION {inc.citation or '—'}", T, width)]
    if inc.triggers:
        lines.append(("TRIGGERED BY", Style.DIM))
        for trigger in inc.triggers:
            lines += [(line, Style.BASE) for line in c.wrap(trigger, T, width)]
    return lines


def _incident(c: Canvas, inc: IncidentRow, top_line: int) -> None:
    """One incident, whole: its lines from `top_line`; when they do not all fit (a long text
    on a small panel), UP and DOWN scroll them."""
    top = title_bar(c, f"INCIDENT · HAND {inc.hand}", [Button("BACK", "floor:back")])
    p, row = c.pad, c.row(T)
    x, w = 2 * p, c.width - 4 * p
    buttons_y = c.height - touch_h(c) - p
    y = top + p
    lines = _incident_lines(c, inc, w)
    fit = max(1, (buttons_y - p - y) // row)
    first = max(0, min(top_line, len(lines) - fit))
    for text, style in lines[first : first + fit]:
        if style is Style.ALERT:
            c.box(Rect(p, y, c.width - 2 * p, row), Style.ALERT)
        c.text(Rect(x, y, w, row), text, T, style)
        y += row
    buttons = [
        Button("ACKNOWLEDGE", "incident:ack", Style.NOW, short="ACK"),
        Button("UPHOLD RULING", "incident:uphold", short="UPHOLD"),
        Button("CHANGE RULING", "incident:change", short="CHANGE"),
    ]
    if len(lines) > fit:  # one button pages down, and from the last page back to the top
        last = first + fit >= len(lines)
        target = 0 if last else min(first + fit, len(lines) - fit)
        buttons.append(Button("TOP" if last else "MORE", f"floor:scroll:{target}"))
        if not last:
            c.drop(f"incident: {len(lines) - first - fit} more lines (scroll down)")
    gap = c.mm_x(c.theme.touch_gap_mm)
    if sum(button_w(c, b.label) + gap for b in buttons) - gap > c.width - 2 * p:
        buttons = [Button(b.short or b.label, b.action, b.style) for b in buttons]
    button_row(c, buttons, buttons_y)


def _ruling_picker(c: Canvas, inc: IncidentRow, first_row: int) -> None:
    """Every ruling as a touch button, in as many columns as fit; when the rows do not all fit
    (the 7" panel) they scroll with UP and DOWN, from grid row `first_row`."""
    top = title_bar(c, f"RULE {inc.rule}", [Button("BACK", "floor:back")])
    p = c.pad
    gap = c.mm_x(c.theme.touch_gap_mm)
    h = touch_h(c)
    widest = max(c.measure(t, T) for t in RULING_TEXT.values()) + 3 * p
    cols = max(1, (c.width - 2 * p + gap) // (widest + gap))
    w = (c.width - 2 * p - (cols - 1) * gap) // cols
    rulings = list(Ruling)
    rows = -(-len(rulings) // cols)
    area = Rect(p, top + p, c.width - 2 * p, c.height - top - 2 * p)
    if fit_rows(c, area) < rows:  # leave room for the pager
        area = Rect(p, top + p, c.width - 2 * p, c.height - top - 3 * p - touch_h(c))
    fit = fit_rows(c, area)
    first = max(0, min(first_row, rows - fit))
    for i, ruling in enumerate(rulings[first * cols : (first + fit) * cols]):
        r, col = divmod(i, cols)
        rect = Rect(p + col * (w + gap), area.y + r * (h + gap), w, h)
        style = Style.INFO if ruling.value == inc.ruling else Style.BASE
        c.button(rect, RULING_TEXT[ruling], f"ruling:{ruling.value}", style)
    if fit < rows:
        button_row(c, [Button("UP", "floor:up"), Button("DOWN", "floor:down")], area.bottom + p)


def _recall_window(lines: dict[int, list[str]], step: int, room: int) -> list[int]:
    """The steps shown around `step` in `room` lines: about as many lines before it as after,
    then whatever room is left on either side."""
    used = len(lines[step])
    lo, hi = step, step
    before = (room - used) // 2
    while lo > 0 and len(lines[lo - 1]) <= before:
        lo -= 1
        before -= len(lines[lo])
        used += len(lines[lo])
    while hi + 1 in lines and used + len(lines[hi + 1]) <= room:
        hi += 1
        used += len(lines[hi])
    while lo > 0 and used + len(lines[lo - 1]) <= room:
        lo -= 1
        used += len(lines[lo])
    return list(range(lo, hi + 1))


def _recall(c: Canvas, hand: HandRecallView, step: int) -> None:
    n = len(hand.steps)
    step = max(0, min(step, n - 1))
    title = f"RECALL HAND {hand.hand} · STEP {step + 1} OF {n}" if n else f"RECALL HAND {hand.hand}"
    top = title_bar(c, title, [Button("BACK", "floor:back")])
    p, row = c.pad, c.row(T)
    buttons_y = c.height - touch_h(c) - p
    # the state after the current step: board and pot
    y = top + p
    cur = hand.steps[step] if n else None
    info = f"{hand.game.upper()} · {hand.started_utc.replace('T', ' ').rstrip('Z')}"
    if cur is not None and cur.pot is not None:
        info += f" · POT {cur.pot}"
    c.text(Rect(2 * p, y, c.width - 4 * p, row), info, T)
    y += row
    boards = [b for b in ((cur.board, cur.board2) if cur is not None else ()) if b]
    for k, board in enumerate(boards):  # a double-board game: the second under the first
        ch = round(c.row(K) * 1.1)
        cw = max(round(ch * 0.72), c.measure("10", K) + p)
        label = "BOARD" if len(boards) == 1 else f"BOARD {k + 1}"
        c.text(Rect(2 * p, y, c.measure("BOARD 2", T) + p, ch), label, T, Style.DIM)
        x = 3 * p + c.measure("BOARD 2", T)
        for i, code in enumerate(board):
            card = parse_card(code)
            if card is not None:
                c.card(Rect(x + i * (cw + p), y, cw, ch), card[0], card[1])
        y += ch + p
    # the steps, the current one in the middle of the window (and, at the last, the result),
    # each on as many lines as it takes
    width = c.width - 4 * p
    result = c.wrap(f"RESULT: {hand.result}", T, width) if n and hand.result else []
    room = max(1, (buttons_y - p - y) // row)
    if result and step == n - 1 and room > len(result):
        room -= len(result)
    lines = {i: c.wrap(f"{i + 1}. #{s.seq} {s.text}", T, width) for i, s in enumerate(hand.steps)}
    for i in _recall_window(lines, step, room) if n else []:
        h = len(lines[i]) * row
        r = Rect(p, y, c.width - 2 * p, h)
        style = Style.NOW if i == step else Style.DIM if i < step else Style.BASE
        if i == step:
            c.box(r, Style.NOW)
        c.paragraph(r.inset(p, 0), " ".join(lines[i]), T, style)
        y += h
    if result and step == n - 1 and y + len(result) * row <= buttons_y:
        r = Rect(p, y, c.width - 2 * p, len(result) * row)
        c.box(r, Style.INFO)
        c.paragraph(r.inset(p, 0), f"RESULT: {hand.result}", T, Style.INFO)
    button_row(
        c,
        [
            Button("FIRST", "recall:first"),
            Button("PREV", "recall:prev"),
            Button("NEXT", "recall:next", Style.NOW),
            Button("LAST", "recall:last"),
        ],
        buttons_y,
    )
