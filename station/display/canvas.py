"""A builder for screen models: places text that fits, wraps it, records what did not. Pure.

Widths come from `fontmetrics` (never smaller than the real rendered width), so a text the
canvas accepted fits on the glass. A text that cannot fit is shortened with an ellipsis and
recorded in `clipped`; a block left out is recorded in `dropped`; tests require both empty.
"""

from __future__ import annotations

from functools import lru_cache

from station.display import card_face
from station.display.colour import Colour
from station.display.fontmetrics import cap_px, size_for_cap, text_width
from station.display.model import (
    Align,
    Box,
    CardFace,
    Item,
    Rect,
    ScreenModel,
    SeatMarks,
    Shape,
    Suit,
    Target,
    Text,
)
from station.display.panel import PanelConfig
from station.display.theme import CARD_BAR_MM, Edge, Style, TextRole, Theme

BREAKS = ("-", "_")  # where a word too long for its line may be broken
PARTS = (" / ", " · ")  # what separates the parts of a list ("SB SEAT 1 50 / BB SEAT 2 100")


GLUED = frozenset({"SEAT", "HAND", "SIDE"})  # never at a line's end without their number


def _glued(words: list[str]) -> list[str]:
    """Words, a seat's, hand's or side pot's name kept with its number ("SEAT 4" is one word
    to the wrap: a line never ends in "SEAT" with the 4 on the next)."""
    out: list[str] = []
    for word in words:
        if out and out[-1] in GLUED and word.rstrip(".,:;").isdigit():
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def _split_after(text: str, sep: str) -> list[str]:
    """ "A / B / C" -> ["A /", "B /", "C"]."""
    pieces = text.split(sep)
    keep = sep.rstrip()
    return [p + keep for p in pieces[:-1]] + pieces[-1:]


def _fits(text: str, size: int, width: int) -> bool:
    return text_width(text, size) <= width


# A screen wraps the same few hundred texts at the same few widths again and again (each
# candidate layout measures them); the result depends on nothing else.
@lru_cache(maxsize=8192)
def wrap_lines(text: str, size: int, width: int, first: int | None = None) -> tuple[str, ...]:
    """Word wrap at font `size` (the first line `first` wide when given: after a tag), keeping
    the parts of a list whole where that takes no more lines: "BB SEAT 3 250000" or "SEAT 3
    975000" is not split between two lines when the line can break at the " / " or " · "
    before it. A word wider than the line (a long rule id, STUB_RESHUFFLE on a narrow line) is
    broken after one of its hyphens or underscores, which stays at the end of the line;
    failing that, between two characters. Nothing is ever left out."""
    greedy = _wrap_words(text, size, width, first)
    if len(greedy) < 2 or not any(sep in text for sep in PARTS):
        return greedy
    whole = _wrap_parts(text, size, width, first)
    return whole if len(whole) <= len(greedy) else greedy


def _wrap_parts(text: str, size: int, width: int, first: int | None) -> tuple[str, ...]:
    """Whole parts of a list on each line (a part wider than a line is word-wrapped)."""
    parts = [" ".join(text.split())]
    for sep in PARTS:  # "A / B" -> ["A /", "B"]: the separator ends its line
        parts = [q for part in parts for q in _split_after(part, sep)]
    lines: list[str] = []
    line = ""
    for part in parts:
        w = first if first is not None and not lines else width
        candidate = f"{line} {part}" if line else part
        if _fits(candidate, size, w):
            line = candidate
            continue
        if line:
            lines.append(line)
        w = first if first is not None and not lines else width
        pieces = _wrap_words(part, size, width, w)
        lines += pieces[:-1]
        line = pieces[-1]
    if line:
        lines.append(line)
    return tuple(lines)


def _wrap_words(text: str, size: int, width: int, first: int | None) -> tuple[str, ...]:
    """Greedy word wrap (`wrap_lines` without keeping a list's parts whole)."""
    lines: list[str] = []
    line = ""
    for word in _glued(text.split()):
        w = first if first is not None and not lines else width
        for piece in _pieces(word, size, w):
            w = first if first is not None and not lines else width
            candidate = f"{line} {piece}" if line else piece
            if line and not _fits(candidate, size, w):
                lines.append(line)
                line = piece
            else:
                line = candidate
            if piece.endswith(BREAKS) and piece is not word:
                lines.append(line)  # a broken word goes on at the start of the next line
                line = ""
    if line:
        lines.append(line)
    return tuple(lines) or ("",)


def _pieces(word: str, size: int, width: int) -> list[str]:
    """`word`, or its parts when it is wider than `width` (each but the last ending with the
    hyphen or underscore it was broken after)."""
    if _fits(word, size, width):
        return [word]
    pieces: list[str] = []
    rest = word
    while rest and not _fits(rest, size, width):
        cut = max((i + 1 for i, ch in enumerate(rest[:-1]) if ch in BREAKS
                   and _fits(rest[: i + 1], size, width)), default=0)  # fmt: skip
        if not cut:  # no break point fits: as many characters as fit
            cut = max(1, next((i for i in range(len(rest), 0, -1)
                               if _fits(rest[:i], size, width)), 1))  # fmt: skip
        pieces.append(rest[:cut])
        rest = rest[cut:]
    if rest:
        pieces.append(rest)
    return pieces


_Metrics = tuple[dict[TextRole, int], dict[TextRole, int], dict[float, int], dict[TextRole, int]]


@lru_cache(maxsize=16)
def _metrics(panel: PanelConfig, theme: Theme) -> _Metrics:
    """The sizes a panel and theme give (each role's font size and row, millimetres in pixels,
    each role's card rank size), filled in as they are asked for: shared by every canvas on
    that panel and theme (a screen's layout builds a few)."""
    return {}, {}, {}, {}


class Canvas:
    def __init__(self, screen: str, panel: PanelConfig, theme: Theme) -> None:
        self.screen = screen
        self.panel = panel
        self.theme = theme
        self.items: list[Item] = []
        self.targets: list[Target] = []
        self.clipped: list[str] = []
        self.dropped: list[str] = []
        self.seats: list[SeatMarks] = []
        self._sizes, self._rows, self._px_y, self._cards = _metrics(panel, theme)
        self._pad = self.mm_y(1.5)

    # sizes --------------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.panel.width_px

    @property
    def height(self) -> int:
        return self.panel.height_px

    def size(self, role: TextRole) -> int:
        size = self._sizes.get(role)
        if size is None:
            size = self._sizes[role] = self.theme.font_px(role, self.panel)
        return size

    def cap(self, role: TextRole) -> int:
        return cap_px(self.size(role))

    def row(self, role: TextRole) -> int:
        row = self._rows.get(role)
        if row is None:
            row = self._rows[role] = self.theme.row_px(role, self.panel)
        return row

    def descent(self, role: TextRole) -> int:
        """Room to leave under the last line of text in a filled box: the underscore and the
        comma hang below the line (a row leaves only a little under the capitals)."""
        return -(-self.cap(role) * 3 // 10)

    def measure(self, text: str, role: TextRole) -> int:
        return text_width(text, self.size(role))

    def fits(self, text: str, role: TextRole, width: int) -> bool:
        return self.measure(text, role) <= width

    def mm_x(self, mm: float) -> int:
        return self.panel.px_x(mm)

    def mm_y(self, mm: float) -> int:
        px = self._px_y.get(mm)
        if px is None:
            px = self._px_y[mm] = self.panel.px_y(mm)
        return px

    @property
    def pad(self) -> int:
        """The standard gap: about 1.5 mm."""
        return self._pad

    # drawing ------------------------------------------------------------------------------
    def box(
        self,
        rect: Rect,
        style: Style | None = None,
        edge: Edge | None = None,
        width: int = 0,
        shape: Shape = Shape.RECT,
    ) -> Rect:
        fill = self.theme.pair(style).bg if style is not None else None
        outline = self.theme.edges[edge] if edge is not None else None
        self.items.append(Box(rect, fill, outline, width if outline is not None else 0, shape))
        return rect

    def text(
        self,
        rect: Rect,
        text: str,
        role: TextRole = TextRole.TEXT,
        style: Style = Style.BASE,
        align: Align = Align.LEFT,
        key: bool = False,
    ) -> bool:
        """Place one line; returns False (and records it) when it had to be shortened."""
        size = self.size(role)
        ok = text_width(text, size) <= rect.w
        shown = text
        if not ok:
            self.clipped.append(f"{self.screen}: {text!r} in {rect.w}px")
            while shown and text_width(shown + "…", size) > rect.w:
                shown = shown[:-1]
            shown = shown.rstrip() + "…" if shown else ""
        self.items.append(Text(rect, shown, role, size, style, align, key))
        return ok

    def card(
        self, rect: Rect, rank: str, suit: Suit, role: TextRole = TextRole.KEY, wide: bool = False
    ) -> None:
        ink = self.theme.suit_ink(suit.value)
        self.items.append(
            CardFace(rect, rank, suit, self.card_font(role), wide, ink, self.suit_px(role))
        )

    def suit_px(self, role: TextRole = TextRole.TEXT) -> int:
        """A card's suit height: the bar (CARD_BAR_MM at 80 cm) or the rank's capitals."""
        bar = self.panel.px_y(self.panel.scaled_mm(CARD_BAR_MM + 0.2))
        return max(bar, cap_px(self.card_font(role)))

    def card_font(self, role: TextRole = TextRole.TEXT) -> int:
        """A card's rank: the role's size, or bigger to reach the card bar."""
        size = self._cards.get(role)
        if size is None:
            bar = self.panel.px_y(self.panel.scaled_mm(CARD_BAR_MM + 0.2))
            size = self._cards[role] = max(self.size(role), size_for_cap(bar))
        return size

    def card_cap(self, role: TextRole = TextRole.TEXT) -> int:
        return cap_px(self.card_font(role))

    def wide_card_w(self, rank: str, role: TextRole = TextRole.TEXT) -> int:
        """The width of a one-line card: its rank, then its suit beside it."""
        rank_w = text_width(rank, self.card_font(role))
        return card_face.wide_width(rank_w, self.card_cap(role), self.suit_px(role))

    def target(self, rect: Rect, action: str) -> None:
        self.targets.append(Target(rect, action))

    def button(
        self,
        rect: Rect,
        label: str,
        action: str,
        style: Style = Style.BASE,
        edge: Edge = Edge.BUTTON,
    ) -> None:
        """A touch button: outlined box, centred label, hit target."""
        self.box(rect, style, edge, max(2, self.mm_y(0.6)), Shape.ROUNDED)
        self.text(rect.inset(self.pad // 2, 0), label, TextRole.TEXT, style, Align.CENTER)
        self.target(rect, action)

    def drop(self, what: str) -> None:
        self.dropped.append(f"{self.screen}: {what}")

    # text flow ----------------------------------------------------------------------------
    def wrap(self, text: str, role: TextRole, width: int, first: int | None = None) -> list[str]:
        """`text` wrapped in lines `width` wide (`wrap_lines`) at the role's size."""
        return list(wrap_lines(text, self.size(role), width, first))

    def paragraph(
        self,
        rect: Rect,
        text: str,
        role: TextRole = TextRole.TEXT,
        style: Style = Style.BASE,
        max_lines: int | None = None,
        indent: int = 0,
    ) -> int:
        """Wrapped text from the top of `rect` (its first line `indent` in, after a tag);
        returns the height used. Lines that do not fit are left out and recorded in `dropped`
        (never squeezed into the last line)."""
        row = self.row(role)
        lines = self.wrap(text, role, rect.w, rect.w - indent if indent else None)
        room = max(0, rect.h // row)
        limit = room if max_lines is None else min(room, max_lines)
        if len(lines) > limit:
            self.drop(f"{len(lines) - limit} of {len(lines)} lines of {text!r}")
            lines = lines[:limit]
        for i, line in enumerate(lines):
            x = rect.x + (indent if i == 0 else 0)
            self.text(Rect(x, rect.y + i * row, rect.right - x, row), line, role, style)
        return len(lines) * row

    def model(self, background: Colour | None = None) -> ScreenModel:
        return ScreenModel(
            self.screen,
            self.width,
            self.height,
            background if background is not None else self.theme.background,
            tuple(self.items),
            tuple(self.targets),
            tuple(self.clipped),
            tuple(self.dropped),
            tuple(self.seats),
        )
