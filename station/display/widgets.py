"""Shared pieces of the floor, diagnostics and PIN screens: title bar, buttons, lists. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from station.display.canvas import Canvas
from station.display.model import Rect, Shape
from station.display.theme import Edge, Style, TextRole

T = TextRole.TEXT


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    action: str
    style: Style = Style.BASE
    short: str = ""  # the label where the full ones do not all fit (a small panel)


def touch_h(c: Canvas) -> int:
    return max(c.mm_y(c.theme.touch_target_mm), c.row(T) + c.pad)


def button_w(c: Canvas, label: str) -> int:
    return max(c.measure(label, T) + 2 * c.pad, c.mm_x(c.theme.touch_target_mm))


def button_row(c: Canvas, buttons: Sequence[Button], y: int, x: int | None = None) -> int:
    """Buttons left to right from `x` (default: the left margin); returns the right edge."""
    gap = c.mm_x(c.theme.touch_gap_mm)
    x = c.pad if x is None else x
    h = touch_h(c)
    for b in buttons:
        w = button_w(c, b.label)
        if x + w > c.width - c.pad:
            c.drop(f"button {b.label}")
            continue
        c.button(Rect(x, y, w, h), b.label, b.action, b.style)
        x += w + gap
    return x


def title_bar(c: Canvas, title: str, buttons: Sequence[Button], alert: bool = False) -> int:
    """A title on the left, buttons on the right; returns the bar's height. When both do not
    fit on one row (a small panel), the buttons go first and the title gets its own row."""
    h = touch_h(c) + c.pad
    gap = c.mm_x(c.theme.touch_gap_mm)
    widths = [button_w(c, b.label) for b in buttons]
    if sum(widths) + gap * max(0, len(buttons) - 1) > c.width - 2 * c.pad:
        buttons = [replace(b, label=b.short) if b.short else b for b in buttons]
        widths = [button_w(c, b.label) for b in buttons]
    x = c.width - c.pad - sum(widths) - gap * max(0, len(buttons) - 1)
    style = Style.ALERT if alert else Style.INFO
    two_rows = not c.fits(title, T, x - 3 * c.pad)
    if two_rows:  # the title under the buttons, on as many lines as it takes
        x = c.pad
        lines = c.wrap(title, T, c.width - 2 * c.pad)
        title_rect = Rect(0, h, c.width, len(lines) * c.row(T) + c.pad)
        inner = Rect(c.pad, h + c.pad // 2, c.width - 2 * c.pad, len(lines) * c.row(T))
        c.box(title_rect, style)
        c.paragraph(inner, title, T, style)
    else:
        title_rect = Rect(0, 0, x - c.pad, h)
        c.box(title_rect, style)
        c.text(Rect(c.pad, title_rect.y, title_rect.w - 2 * c.pad, title_rect.h), title, T, style)
    for b, w in zip(buttons, widths, strict=True):
        if x + w > c.width:
            c.drop(f"button {b.label}")
            continue
        c.button(Rect(x, c.pad // 2, w, touch_h(c)), b.label, b.action, b.style)
        x += w + gap
    return title_rect.bottom if two_rows else h


def list_rows(
    c: Canvas,
    area: Rect,
    rows: Sequence[str],
    selected: int | None,
    top: int,
    action_prefix: str,
) -> tuple[int, int]:
    """Touchable rows (each a target `prefix:<index>`), the selected one marked; scrolled so
    that row `top` is first. A row too long for one line wraps: every row is then as tall as
    the longest needs (`list_row_h`), never cut. Returns (first, last+1) shown."""
    h = list_row_h(c, rows, area.w)
    fit = list_fit(c, area, rows)
    first = max(0, min(top, max(0, len(rows) - fit)))
    shown = rows[first : first + fit]
    for i, text in enumerate(shown):
        index = first + i
        r = Rect(area.x, area.y + i * (h + _gap(c)), area.w, h)
        chosen = index == selected
        style = Style.INFO if chosen else Style.BASE
        c.box(r, style, Edge.BUTTON if chosen else Edge.PLAIN, 3 if chosen else 1, Shape.ROUNDED)
        label = f"> {text}" if chosen else text
        inner = r.inset(c.pad, 0)
        lines = c.wrap(label, T, inner.w)
        y = inner.y + (inner.h - len(lines) * c.row(T)) // 2
        c.paragraph(Rect(inner.x, y, inner.w, len(lines) * c.row(T)), label, T, style)
        c.target(r, f"{action_prefix}:{index}")
    if not rows:
        c.text(Rect(area.x, area.y, area.w, h), "NONE", T, Style.DIM)
    return first, first + len(shown)


def paged_buttons(
    c: Canvas, area: Rect, buttons: Sequence[tuple[str, str]], first_row: int, scroll: str
) -> None:
    """(label, action) buttons in as many columns as the widest allows, in `area`; when the rows
    do not all fit they scroll a row at a time from `first_row` with UP and DOWN (actions
    `{scroll}:up` and `{scroll}:down`, each shown while there is a row to scroll to)."""
    gap = c.mm_x(c.theme.touch_gap_mm)
    h = touch_h(c)
    widest = min(area.w, max(button_w(c, label) for label, _ in buttons))
    cols = max(1, (area.w + gap) // (widest + gap))
    w = (area.w - (cols - 1) * gap) // cols
    rows = -(-len(buttons) // cols)
    grid = area
    if fit_rows(c, grid) < rows:  # leave room for the pager
        grid = Rect(grid.x, grid.y, grid.w, grid.h - h - c.pad)
    fit = fit_rows(c, grid)
    first = max(0, min(first_row, rows - fit))
    for i, (label, action) in enumerate(buttons[first * cols : (first + fit) * cols]):
        r, col = divmod(i, cols)
        c.button(Rect(grid.x + col * (w + gap), grid.y + r * (h + gap), w, h), label, action)
    pager = []
    if first > 0:
        pager.append(Button("UP", f"{scroll}:up"))
    if first + fit < rows:
        pager.append(Button("DOWN", f"{scroll}:down"))
    if pager:
        button_row(c, pager, grid.bottom + c.pad)


def _gap(c: Canvas) -> int:
    return c.mm_y(c.theme.touch_gap_mm)


def list_row_h(c: Canvas, rows: Sequence[str], width: int) -> int:
    """The height of each of `list_rows`' rows: a touch target, or the lines of the row that
    wraps onto the most (the selected one's mark included)."""
    inner = width - 2 * c.pad
    lines = max((len(c.wrap(f"> {text}", T, inner)) for text in rows), default=1)
    return max(touch_h(c), lines * c.row(T) + c.pad)


def list_fit(c: Canvas, area: Rect, rows: Sequence[str]) -> int:
    """How many of `list_rows`' rows `area` shows at once."""
    h = list_row_h(c, rows, area.w)
    return max(1, (area.h + _gap(c)) // (h + _gap(c)))


def fit_rows(c: Canvas, area: Rect) -> int:
    h, gap = touch_h(c), c.mm_y(c.theme.touch_gap_mm)
    return max(1, (area.h + gap) // (h + gap))


def label_value(c: Canvas, rect: Rect, label: str, value: str, style: Style = Style.BASE) -> None:
    lw = c.measure(label, T) + c.pad
    c.text(Rect(rect.x, rect.y, lw, rect.h), label, T, Style.DIM)
    c.text(Rect(rect.x + lw, rect.y, rect.w - lw, rect.h), value, T, style)
