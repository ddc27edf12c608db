"""What lies on the felt in the middle of the table: the board, the pots, a finished hand's
result and, between hands, the next hand's posts. Pure.

Each part has a `*_need(c, view, width)` (the height it takes at that width, 0 when it has
nothing to show) and is drawn from the top of the rect it is given, so the layout can decide
before drawing whether it fits. The board and the pots are never left out for an alert: the
layout gives them their room first.

- The board: card faces with the rank and the suit as a shape (suit never by colour alone), at
  the key size when there is room, else the text size.
- The pots: one row each, "MAIN  800  SEATS 1 2 5", the amount at the key size.
- The result (the hand is over, until the next deal): each pot with who it went to, "MAIN 800
  TO SEAT 2"; a void hand says so and what went back to whom.
- The next hand (between hands, once its posts start, or with no result to show): the button,
  each blind with POSTED or DUE, the missed blinds owed and who waits for the big blind.
"""

from __future__ import annotations

from station.display import card_face
from station.display.canvas import Canvas
from station.display.dealer_view import DealerView, PaidLine
from station.display.fontmetrics import text_width
from station.display.model import Align, Rect, Suit
from station.display.theme import Edge, Style, TextRole

K, T = TextRole.KEY, TextRole.TEXT
EN_DASH = "\u2013"


# board ----------------------------------------------------------------------------------------
def card_size(c: Canvas, big: bool) -> tuple[int, int]:
    """A board card: its rank over its suit, each at least the card bar tall (`card_face`)."""
    role = K if big else T
    cap, suit = c.card_cap(role), c.suit_px(role)
    m = card_face.margin(cap)
    w = max(text_width("10", c.card_font(role)), suit) + 2 * m
    return w, card_face.tall_height(cap, suit)


def _board_rows(view: DealerView) -> list[tuple[tuple[str, Suit], ...]]:
    """The boards on the felt: one, or a double-board game's top and bottom board."""
    return [b for b in (view.board, view.board2) if b]


SHORT_PANEL_PX = 600  # a panel this tall or less (the 7") has no height for a second row


def side_by_side(c: Canvas, view: DealerView, big: bool) -> bool:
    """A double-board game's boards on one row: on a short panel, where a second row of cards
    would leave no room for the alerts, when the row fits across the panel."""
    return (
        bool(view.board2)
        and c.height <= SHORT_PANEL_PX
        and board_row_width(c, view, big) <= c.width - 2 * c.pad
    )


def board_width(c: Canvas, view: DealerView, big: bool) -> int:
    rows = _board_rows(view)
    if not rows:
        return 0
    if side_by_side(c, view, big):
        return board_row_width(c, view, big)
    w, _ = card_size(c, big)
    n = max(3, *(len(b) for b in rows))  # room for the flop at least; grows with the board
    return n * (w + c.pad) - c.pad


def board_need(c: Canvas, view: DealerView, big: bool) -> int:
    rows = 1 if side_by_side(c, view, big) else len(_board_rows(view))
    return rows * card_size(c, big)[1] + max(0, rows - 1) * c.pad


def draw_board(c: Canvas, view: DealerView, x: int, y: int, big: bool) -> int:
    """The board's cards from (x, y), a second board under the first (beside it on a short
    panel); returns the width used."""
    if side_by_side(c, view, big):
        draw_board_row(c, view, x, y, big)
        return board_row_width(c, view, big)
    w, h = card_size(c, big)
    role = K if big else T
    for row, board in enumerate(_board_rows(view)):
        top = y + row * (h + c.pad)
        for i, (rank, suit) in enumerate(board):
            c.card(Rect(x + i * (w + c.pad), top, w, h), rank, suit, role)
    return board_width(c, view, big)


def board_row_width(c: Canvas, view: DealerView, big: bool) -> int:
    """The boards side by side on one row (a double-board game where two rows do not fit)."""
    w, _ = card_size(c, big)
    rows = _board_rows(view)
    return sum(len(b) * (w + c.pad) for b in rows) + max(0, len(rows) - 1) * 2 * c.pad - c.pad


def draw_board_row(c: Canvas, view: DealerView, x: int, y: int, big: bool) -> None:
    """The boards side by side from (x, y), a wider gap between them."""
    w, h = card_size(c, big)
    role = K if big else T
    for board in _board_rows(view):
        for rank, suit in board:
            c.card(Rect(x, y, w, h), rank, suit, role)
            x += w + c.pad
        x += 2 * c.pad


# pots -----------------------------------------------------------------------------------------
def _pot_cols(c: Canvas, view: DealerView) -> tuple[int, int]:
    p = c.pad
    label = max(c.measure(pl.label, T) for pl in view.pots) + p
    amount = max(c.measure(pl.amount, K) for pl in view.pots) + 2 * p
    return label, amount


def _seats_text(seats: tuple[int, ...]) -> str:
    return ("SEAT " if len(seats) == 1 else "SEATS ") + " ".join(map(str, seats))


def seat_runs(seats: tuple[int, ...]) -> str:
    """Seats in order, three or more in a row said as a run, first and last with an en dash
    between: (1, 2, 3, 4, 7) -> "1-4 7"."""
    out: list[str] = []
    i = 0
    while i < len(seats):
        j = i
        while j + 1 < len(seats) and seats[j + 1] == seats[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{seats[i]}{EN_DASH}{seats[j]}")
        else:
            out += [str(s) for s in seats[i : j + 1]]
        i = j + 1
    return " ".join(out)


def pot_seats_text(view: DealerView) -> str:
    """Every pot's seats on one paragraph, runs of seats shortened (en dashes): "MAIN SEATS 1-7
    · SIDE 1 SEATS 2-7" (a small panel's SEATS page, when the pots' rows do not fit)."""
    return " · ".join(
        f"{pl.label} SEAT{'S' if len(pl.seats) > 1 else ''} {seat_runs(pl.seats)}"
        for pl in view.pots
    )


def pots_width(c: Canvas, view: DealerView) -> int:
    if not view.pots:
        return 0
    label, amount = _pot_cols(c, view)
    return label + amount + max(c.measure(_seats_text(pl.seats), T) for pl in view.pots)


def pots_need(c: Canvas, view: DealerView) -> int:
    return len(view.pots) * c.row(K)


def draw_pots(c: Canvas, view: DealerView, area: Rect) -> None:
    label_w, amount_w = _pot_cols(c, view)
    y = area.y
    for pl in view.pots:
        row = Rect(area.x, y, area.w, c.row(K))
        c.text(Rect(row.x, y, label_w, row.h), pl.label, T)
        c.text(Rect(row.x + label_w, y, amount_w - c.pad, row.h), pl.amount, K, key=True,
               align=Align.RIGHT)  # fmt: skip
        x = row.x + label_w + amount_w
        c.text(Rect(x, y, row.right - x, row.h), _seats_text(pl.seats), T)
        y += row.h


def _pot_cells(
    c: Canvas, view: DealerView, width: int, seats: bool = True
) -> list[list[str]] | None:
    """The pots in two columns (a small panel with many pots): each its label and amount, its
    seats (unless not `seats`) on the lines under them; None when a column is too narrow for a
    label and amount."""
    col = (width - c.pad) // 2
    label, amount = _pot_cols(c, view)
    if label + amount > col:
        return None
    return [c.wrap(_seats_text(pl.seats), T, col) if seats else [] for pl in view.pots]


def _grid_rows(c: Canvas, cells: list[list[str]]) -> list[int]:
    """The height of each row of two cells: the amount's row, the seats' lines."""
    return [max(c.row(K) + len(lines) * c.row(T) for lines in cells[i : i + 2])
            for i in range(0, len(cells), 2)]  # fmt: skip


def _board_in_cell(c: Canvas, view: DealerView, width: int, rows: list[int]) -> bool:
    """An odd number of pots leaves the last row's second cell free: the board goes there when
    it fits."""
    col = (width - c.pad) // 2
    return (
        len(view.pots) % 2 == 1
        and board_width(c, view, big=False) <= col
        and board_need(c, view, big=False) <= rows[-1]
    )


def middle_need(
    c: Canvas, view: DealerView, width: int, big: bool, cols: int = 1, seats: bool = True
) -> int:
    """The board and the pots: side by side when both fit the width, else one above the
    other; with `cols` 2 (a small panel with many pots, the board at the text size) the pots
    in two columns, their seats under them unless not `seats` (then the layout shows them
    elsewhere), the board in the last row's free cell or above them."""
    if cols == 2 and view.pots:
        cells = _pot_cells(c, view, width, seats)
        if cells is None:
            return 10 * c.height
        rows = _grid_rows(c, cells)
        if _board_in_cell(c, view, width, rows):
            return sum(rows)
        board_h = board_need(c, view, big=False)
        return board_h + (c.pad if board_h else 0) + sum(rows)
    board_h, pots_h = board_need(c, view, big), pots_need(c, view)
    bw, pw = board_width(c, view, big), pots_width(c, view)
    if bw and pw and bw + 2 * c.pad + pw <= width:
        return max(board_h, pots_h)
    return board_h + (c.pad if board_h and pots_h else 0) + pots_h


def middle_fits(c: Canvas, view: DealerView, area: Rect, big: bool) -> bool:
    need = middle_need_at(c, view, area.w, big)
    return need is not None and need <= area.h


def middle_need_at(c: Canvas, view: DealerView, width: int, big: bool) -> int | None:
    """`middle_need` in one column; None when the board or the pots are wider than `width`."""
    bw, pw = board_width(c, view, big), pots_width(c, view)
    return middle_need(c, view, width, big) if max(bw, pw) <= width else None


def _draw_grid(c: Canvas, view: DealerView, area: Rect, seats: bool) -> None:
    """The pots in two columns from the top of `area`; the board in the last row's free cell or
    above them (`middle_need` with `cols` 2)."""
    cells = _pot_cells(c, view, area.w, seats)
    assert cells is not None
    p = c.pad
    col = (area.w - p) // 2
    rows = _grid_rows(c, cells)
    y = area.y
    in_cell = _board_in_cell(c, view, area.w, rows)
    if view.board and not in_cell:
        draw_board(c, view, area.x + (area.w - board_width(c, view, False)) // 2, y, big=False)
        y += board_need(c, view, big=False) + p
    label_w, amount_w = _pot_cols(c, view)
    for i, row_h in enumerate(rows):
        for j, (pl, lines) in enumerate(zip(view.pots[2 * i : 2 * i + 2], cells[2 * i : 2 * i + 2],
                                            strict=True)):  # fmt: skip
            x = area.x + j * (col + p)
            c.text(Rect(x, y, label_w, c.row(K)), pl.label, T)
            c.text(Rect(x + label_w, y, amount_w - p, c.row(K)), pl.amount, K, key=True,
                   align=Align.RIGHT)  # fmt: skip
            if lines:
                c.paragraph(Rect(x, y + c.row(K), col, len(lines) * c.row(T)), " ".join(lines),
                            T)  # fmt: skip
        if in_cell and i == len(rows) - 1:
            bh = board_need(c, view, big=False)
            draw_board(c, view, area.x + col + p, y + (row_h - bh) // 2, big=False)
        y += row_h


def draw_middle(
    c: Canvas, view: DealerView, area: Rect, big: bool, cols: int = 1, seats: bool = True
) -> None:
    """The board and the pots, centred in `area` (`middle_need`)."""
    if cols == 2 and view.pots:
        need = middle_need(c, view, area.w, False, cols, seats)
        _draw_grid(c, view, Rect(area.x, area.y + max(0, (area.h - need) // 2), area.w, need),
                   seats)  # fmt: skip
        return
    bw, pw = board_width(c, view, big), pots_width(c, view)
    need = middle_need(c, view, area.w, big)
    y = area.y + max(0, (area.h - need) // 2)
    if bw and pw and bw + 2 * c.pad + pw <= area.w:
        x = area.x + (area.w - bw - 2 * c.pad - pw) // 2
        bh, ph = board_need(c, view, big), pots_need(c, view)
        draw_board(c, view, x, y + (need - bh) // 2, big)
        draw_pots(c, view, Rect(x + bw + 2 * c.pad, y + (need - ph) // 2, pw, ph))
        return
    if bw:
        draw_board(c, view, area.x + (area.w - bw) // 2, y, big)
        y += board_need(c, view, big) + c.pad
    if pw:
        draw_pots(c, view, Rect(area.x + (area.w - pw) // 2, y, pw, pots_need(c, view)))


# result ---------------------------------------------------------------------------------------
def paid_text(line: PaidLine, names: bool = True) -> str:
    """Who a pot went to and, at a showdown, with what: "TO SEAT 2: FLUSH, ACE HIGH", "TO SEAT
    5 106 · SEAT 7 105", "TO THE HOUSE". A split pot's winning hand is on a line of its own
    (`named_text`): beside the last seat it would read as that seat's alone."""
    if line.label == "CARRIED":
        return "TO THE NEXT DEAL"
    if not line.winners:
        return "TO THE HOUSE"
    if len(line.winners) == 1:
        named = f": {line.named}" if line.named and names else ""
        return f"TO SEAT {line.winners[0][0]}{named}"
    return "TO " + " · ".join(f"SEAT {s} {chips}" for s, chips in line.winners)


def named_text(line: PaidLine, names: bool = True) -> str:
    """A split pot's winning hand, said under who it went to ("" when `paid_text` says it, or
    there is none)."""
    return line.named if names and line.named and len(line.winners) > 1 else ""


def result_head(view: DealerView) -> str:
    assert view.result is not None
    if view.result.void:
        return f"HAND {view.result.hand} VOID: EVERY WAGER RETURNED"
    if [pl.label for pl in view.result.pots] == ["CARRIED"]:
        return f"HAND {view.result.hand}: NOBODY OPENED"
    return f"HAND {view.result.hand} PAID"


def _paid_lines(
    c: Canvas, view: DealerView, width: int, names: bool = True
) -> list[tuple[PaidLine, list[str], int]]:
    assert view.result is not None
    p = c.pad
    lines = []
    label_w = max(c.measure(pl.label, T) for pl in view.result.pots) + p
    for line in view.result.pots:
        head = label_w + c.measure(str(line.amount), K) + p
        if head > width:  # not even the pot and its amount: this width will not do
            return [(line, [], 10 * c.height)]
        words = c.wrap(paid_text(line, names), T, max(1, width - head))
        named = named_text(line, names)
        if len(words) > 1 or named:  # not beside the amount: on the lines below, full width
            words = c.wrap(paid_text(line, names), T, width)
            if named:
                words += c.wrap(named, T, width)
            lines.append((line, words, c.row(K) + len(words) * c.row(T)))
        else:
            lines.append((line, words, c.row(K)))
    return lines


def _cells(
    c: Canvas, view: DealerView, width: int, names: bool = True
) -> list[tuple[PaidLine, list[str]]] | None:
    """The pots in two columns: each its label and amount, who it went to on the lines under
    them; None when a column is too narrow for a pot's label and amount."""
    assert view.result is not None
    col = (width - c.pad) // 2
    label_w = max(c.measure(pl.label, T) for pl in view.result.pots) + c.pad
    if any(label_w + c.measure(str(pl.amount), K) > col for pl in view.result.pots):
        return None
    return [
        (pl, c.wrap(paid_text(pl, names), T, col) + _named_lines(c, pl, names, col))
        for pl in view.result.pots
    ]


def _named_lines(c: Canvas, line: PaidLine, names: bool, width: int) -> list[str]:
    named = named_text(line, names)
    return c.wrap(named, T, width) if named else []


def _cell_rows(c: Canvas, cells: list[tuple[PaidLine, list[str]]]) -> list[int]:
    """The height of each row of two cells."""
    return [max(c.row(K) + len(words) * c.row(T) for _, words in cells[i : i + 2])
            for i in range(0, len(cells), 2)]  # fmt: skip


def result_need(c: Canvas, view: DealerView, width: int, cols: int = 1, names: bool = False) -> int:
    """The result's height at `width`, its pots in one column or (`cols` 2, a small panel with
    many pots) two, who each went to under it; with `names`, the winning hands too (shown where
    the room allows: the least a result needs is without them)."""
    if view.result is None:
        return 0
    head = len(c.wrap(result_head(view), T, width)) * c.row(T)
    if cols == 2:
        cells = _cells(c, view, width, names)
        return head + (sum(_cell_rows(c, cells)) if cells is not None else 10 * c.height)
    return head + sum(h for _, _, h in _paid_lines(c, view, width, names))


def draw_result(c: Canvas, view: DealerView, area: Rect, cols: int = 1, names: bool = False) -> int:
    """The finished hand's pots and who they went to, from the top of `area`."""
    assert view.result is not None
    p = c.pad
    head = result_head(view)
    h = len(c.wrap(head, T, area.w)) * c.row(T)
    c.box(Rect(area.x, area.y, area.w, h), Style.INFO)
    c.paragraph(Rect(area.x, area.y, area.w, h), head, T, Style.INFO)
    y = area.y + h
    cells = _cells(c, view, area.w, names) if cols == 2 else None
    if cells is not None:
        col = (area.w - p) // 2
        label_w = max(c.measure(pl.label, T) for pl in view.result.pots) + p
        for i, row_h in enumerate(_cell_rows(c, cells)):
            for j, (line, words) in enumerate(cells[2 * i : 2 * i + 2]):
                x = area.x + j * (col + p)
                c.text(Rect(x, y, label_w, c.row(K)), line.label, T)
                c.text(Rect(x + label_w, y, col - label_w, c.row(K)), str(line.amount), K,
                       key=True)  # fmt: skip
                _lines(c, Rect(x, y + c.row(K), col, len(words) * c.row(T)), words)
            y += row_h
        return y - area.y
    label_w = max(c.measure(pl.label, T) for pl in view.result.pots) + p
    for line, words, need in _paid_lines(c, view, area.w, names):
        amount = str(line.amount)
        amount_w = c.measure(amount, K) + p
        c.text(Rect(area.x, y, label_w, c.row(K)), line.label, T)
        c.text(Rect(area.x + label_w, y, amount_w, c.row(K)), amount, K, key=True)
        if need == c.row(K):
            x = area.x + label_w + amount_w
            c.text(Rect(x, y, area.right - x, c.row(K)), words[0], T)
            y += need
            continue
        y += c.row(K)
        y += _lines(c, Rect(area.x, y, area.w, need - c.row(K)), words)
    return y - area.y


def _lines(c: Canvas, area: Rect, lines: list[str]) -> int:
    """Lines already wrapped to `area`'s width, one under another; returns the height used."""
    row = c.row(T)
    for i, line in enumerate(lines):
        c.text(Rect(area.x, area.y + i * row, area.w, row), line, T)
    return len(lines) * row


# the next hand --------------------------------------------------------------------------------
def between_lines(view: DealerView) -> list[tuple[str, Style]]:
    b = view.between
    if b is None:
        return []
    lines: list[tuple[str, Style]] = []
    if b.button is not None:
        lines.append((f"BUTTON SEAT {b.button}", Style.BASE))
    blinds = [pl for pl in b.posts if pl.kind != "ANTE"]
    for pl in blinds:
        lines.append(
            (f"{pl.kind} SEAT {pl.seat} {pl.amount} {'POSTED' if pl.posted else 'DUE'}",
             Style.BASE if pl.posted else Style.NOW)
        )  # fmt: skip
    antes = [pl for pl in b.posts if pl.kind == "ANTE"]
    if antes:
        due = [pl.seat for pl in antes if not pl.posted]
        text = f"ANTE {antes[0].amount}: " + (
            "ALL IN" if not due else "DUE FROM SEATS " + " ".join(map(str, due))
        )
        lines.append((text, Style.BASE if not due else Style.NOW))
    for seat, owed in b.missed:
        lines.append((f"SEAT {seat} MISSED BLINDS: OWES {owed}", Style.BASE))
    if b.waiting:
        seats = " ".join(map(str, b.waiting))
        lines.append((f"WAITING FOR THE BIG BLIND: SEAT{'S' if len(b.waiting) > 1 else ''} "
                      f"{seats}", Style.BASE))  # fmt: skip
    return lines


def between_need(c: Canvas, view: DealerView, width: int) -> int:
    lines = between_lines(view)
    if not lines:
        return 0
    return c.row(T) + sum(len(c.wrap(t, T, width - 2 * c.pad)) * c.row(T) for t, _ in lines)


def draw_between(c: Canvas, view: DealerView, area: Rect) -> int:
    y = area.y
    c.text(Rect(area.x, y, area.w, c.row(T)), "NEXT HAND", T, Style.DIM)
    y += c.row(T)
    for text, style in between_lines(view):
        h = len(c.wrap(text, T, area.w - 2 * c.pad)) * c.row(T)
        if style is not Style.BASE:
            c.box(Rect(area.x, y, area.w, h), style, Edge.TO_ACT, 2)
        c.paragraph(Rect(area.x + c.pad, y, area.w - 2 * c.pad, h), text, T, style)
        y += h
    return y - area.y
