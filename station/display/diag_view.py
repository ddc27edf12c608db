"""Diagnostics: the input records (links, GPIO, journal, platform, deck enrolment) and the
technician's screens. Pure.

The link, GPIO and journal code adapt their state to these plain records. Pages: LINKS (each
link's state, firmware, counters and last frame age; journal health; clock, CPU temperature,
undervoltage), I/O (GPIO input levels and the last frames), DECK (enrolment: scan a deck, confirm
each card, save the registry).

The I/O page is a list of rows; where they do not all fit (a 7" panel), it scrolls, with UP and
DOWN under it (and the UP and DOWN keys), so no link's frames are left out; a frame longer than a
row wraps onto the next rather than being cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from station.display.canvas import Canvas
from station.display.dealer_view import parse_card
from station.display.model import Rect, ScreenModel
from station.display.panel import PanelConfig
from station.display.theme import DEFAULT_THEME, Edge, Style, TextRole, Theme
from station.display.widgets import Button, button_row, label_value, title_bar, touch_h

T, K = TextRole.TEXT, TextRole.KEY
EN_DASH = "\u2013"


class DiagLinkState(StrEnum):
    CONNECTED = "connected"
    HANDSHAKE = "handshake"  # port open, identity not yet confirmed
    DISCONNECTED = "disconnected"


LINK_TEXT = {
    DiagLinkState.CONNECTED: "CONNECTED",
    DiagLinkState.HANDSHAKE: "HANDSHAKE",
    DiagLinkState.DISCONNECTED: "DISCONNECTED",
}


@dataclass(frozen=True, slots=True)
class LinkStatusView:
    name: str  # "SHOE", "BET ZONES"
    state: DiagLinkState
    port: str = ""
    firmware: str = ""  # "" = unknown (never identified)
    frames_rx: int = 0
    frames_tx: int = 0
    crc_errors: int = 0
    retransmits: int = 0
    duplicates: int = 0
    resyncs: int = 0
    last_frame_age_s: float | None = None
    last_frames: tuple[str, ...] = ()  # newest last, already formatted (hex or decoded)


@dataclass(frozen=True, slots=True)
class GpioLevelsView:
    levels: tuple[tuple[str, bool], ...] = ()  # (input name, level high)


@dataclass(frozen=True, slots=True)
class JournalHealthView:
    ok: bool
    events: int = 0
    last_seq: int = 0
    chain_ok: bool | None = None  # None: not verified since start
    size_mb: float = 0.0
    outbox: int = 0  # events not yet acknowledged centrally
    checking: bool = False  # the history the start took on trust is being checked
    problem: str = ""  # what is wrong with it now, in a few words ("DISK FULL")


@dataclass(frozen=True, slots=True)
class FleetView:
    """Forwarding to the central store (`station.fleet`): the daemon fills it from
    `Forwarder.status()` every second; None when the station has no `[fleet]`."""

    state: str  # disabled, connecting, online, offline, forked
    outbox_rows: int = 0  # journal rows the centre has not acknowledged yet
    outbox_age_s: float | None = None  # how long the oldest of them has waited; None: none
    central_seq: int | None = None  # the centre's head as last acknowledged
    detail: str = ""  # why it is offline, disabled or forked

    @property
    def alert(self) -> bool:
        return self.state in ("forked", "disabled")


@dataclass(frozen=True, slots=True)
class PlatformView:
    clock_utc: str = ""
    clock_synced: bool | None = None
    cpu_temp_c: float | None = None  # None where the platform does not report it
    undervoltage: bool | None = None
    clock_warning: str = ""  # "BEHIND THE JOURNAL BY 3.2 H" (found at start)


@dataclass(frozen=True, slots=True)
class EnrolmentView:
    """A deck being enrolled: the tags read so far, each paired with the card expected at that
    position of a new deck (the technician confirms each pair)."""

    deck: str  # back colour / deck id
    scanned: tuple[tuple[str, str], ...] = ()  # (tag, card code)
    scanning: bool = False


@dataclass(frozen=True, slots=True)
class DiagnosticsData:
    links: tuple[LinkStatusView, ...] = ()
    gpio: GpioLevelsView = GpioLevelsView()
    journal: JournalHealthView = JournalHealthView(ok=True)
    platform: PlatformView = PlatformView()
    enrolment: EnrolmentView | None = None
    fleet: FleetView | None = None
    tournament: str = ""  # the level clock and its source ("" not a tournament table)


@dataclass(frozen=True, slots=True)
class DiagCursor:
    page: str = "links"  # links, io, deck, sys
    confirmed: int = 0  # enrolment: how many scanned cards the technician confirmed
    rejected: tuple[int, ...] = ()  # enrolment: positions rejected (to be rescanned)
    top: int = 0  # the I/O page: the first row shown when it scrolls


def _yes_no(value: bool | None, yes: str, no: str) -> str:
    return "NOT REPORTED" if value is None else yes if value else no


def _tabs(cur: DiagCursor) -> list[Button]:
    return [
        Button(label, f"diag:{page}", Style.INFO if cur.page == page else Style.BASE)
        for label, page in (("LINKS", "links"), ("I/O", "io"), ("DECK", "deck"), ("SYS", "sys"))
    ] + [Button("EXIT", "nav:dealer")]


def diagnostics_screen(
    data: DiagnosticsData, cur: DiagCursor, panel: PanelConfig, theme: Theme = DEFAULT_THEME
) -> ScreenModel:
    c = Canvas(f"diag-{cur.page}", panel, theme)
    down = [link.name for link in data.links if link.state is not DiagLinkState.CONNECTED]
    pages = {"links": "LINKS", "io": "I/O", "deck": "DECK", "sys": "SYSTEM"}
    page = pages.get(cur.page, "LINKS")
    title = f"{page} · {', '.join(down)} DOWN" if down else f"DIAGNOSTICS · {page}"
    top = title_bar(c, title, _tabs(cur), alert=bool(down))
    area = Rect(c.pad, top + c.pad, c.width - 2 * c.pad, c.height - top - 2 * c.pad)
    match cur.page:
        case "io":
            _io(c, data, cur, area)
        case "deck":
            _deck(c, data.enrolment, cur, area)
        case "sys":
            _system(c, data, area, area.y, firmware=True, top=cur.top)
        case _:
            _links(c, data, area)
    return c.model()


def _line(c: Canvas, area: Rect, y: int, label: str, value: str, style: Style = Style.BASE) -> int:
    """A label and its value, the value wrapped beside it (rather than cut) on a small panel."""
    row = c.row(T)
    lw = c.measure(label, T) + c.pad
    lines = c.wrap(value, T, area.w - lw)
    if y + len(lines) * row > area.bottom:
        c.drop(f"{label} {value}")
        return y
    if len(lines) == 1:
        label_value(c, Rect(area.x, y, area.w, row), label, value, style)
        return y + row
    c.text(Rect(area.x, y, lw, row), label, T, Style.DIM)
    return y + c.paragraph(Rect(area.x + lw, y, area.w - lw, len(lines) * row), value, T, style)


def _flow(c: Canvas, area: Rect, y: int, text: str, style: Style = Style.BASE) -> int:
    return y + c.paragraph(Rect(area.x, y, area.w, area.bottom - y), text, T, style)


def _firmware(link: LinkStatusView) -> str:
    return f"FW {link.firmware or 'UNKNOWN'} · {link.port or 'NO PORT'}"


def _counters(link: LinkStatusView) -> str:
    return (
        f"RX {link.frames_rx}  TX {link.frames_tx}  CRC {link.crc_errors}  "
        f"RETX {link.retransmits}  DUP {link.duplicates}  RESYNC {link.resyncs}"
    )


def _links(c: Canvas, data: DiagnosticsData, area: Rect) -> None:
    """Each link's state, last frame and counters; its firmware and port too when there is
    room (a small panel shows them on the SYS page, with the journal, clock and CPU)."""
    row, p = c.row(T), c.pad
    need = sum(
        1 + len(c.wrap(_firmware(link), T, area.w)) + len(c.wrap(_counters(link), T, area.w))
        for link in data.links
    )
    with_fw = need * row + len(data.links) * (p // 2) + row <= area.h
    y = area.y
    for link in data.links:
        ok = link.state is DiagLinkState.CONNECTED
        state = LINK_TEXT[link.state]
        style = Style.BASE if ok else Style.ALERT
        head = f"{link.name} {state}"
        w = c.measure(head, T) + 2 * p
        c.box(Rect(area.x, y, w, row), style, Edge.OK if ok else Edge.FAULT, 3)
        c.text(Rect(area.x + p, y, w - 2 * p, row), head, T, style)
        age_s = link.last_frame_age_s
        if age_s is None:
            said = ("LAST FRAME NEVER", "NO FRAME YET")
        else:  # the second for a small panel
            said = (f"LAST FRAME {age_s:.1f} S AGO", f"LAST {age_s:.1f} S")
        last = next((t for t in said if c.fits(t, T, area.w - w - p)), None)
        if last is None:  # not beside a long head (a small panel): on the line under it
            y += row
            last = next((t for t in said if c.fits(t, T, area.w)), said[-1])
            c.text(Rect(area.x, y, area.w, row), last, T)
        else:
            c.text(Rect(area.x + w + p, y, area.w - w - p, row), last, T)
        y += row
        if with_fw:
            y = _flow(c, area, y, _firmware(link))
        y = _flow(c, area, y, _counters(link)) + p // 2
    if with_fw and _system_rows(c, data, area) * row <= area.bottom - y:
        _system(c, data, area, y)
    elif y + row <= area.bottom:  # a small panel: they have their own page
        see = "JOURNAL, CLOCK, CPU: SEE SYS" if with_fw else "FIRMWARE, JOURNAL, CLOCK: SEE SYS"
        c.paragraph(Rect(area.x, y, area.w, area.bottom - y), see, T, Style.DIM)
    else:
        c.drop("journal, clock and CPU (on the SYS page)")


def _system_lines(data: DiagnosticsData) -> list[tuple[str, str, Style]]:
    """(label, value, style) of the journal health, the clock and the CPU (and on the SYS page
    each link's firmware and port)."""
    j, pl = data.journal, data.platform
    journal = (
        f"{'OK' if j.ok else 'FAULT'}{' · ' + j.problem if j.problem else ''} · SEQ {j.last_seq} · "
        f"CHAIN {'CHECKING' if j.checking else _yes_no(j.chain_ok, 'OK', 'BROKEN')} · "
        f"{j.size_mb:.1f} MB · OUTBOX {j.outbox}"
    )
    temp = "NOT REPORTED" if pl.cpu_temp_c is None else f"{pl.cpu_temp_c:.1f} C"
    fleet: list[tuple[str, str, Style]] = []
    if data.fleet is not None:
        fleet = [("FLEET", fleet_text(data.fleet), Style.ALERT if data.fleet.alert else Style.BASE)]
    return [
        ("JOURNAL", journal, Style.BASE if j.ok else Style.ALERT),
        (
            "CLOCK",
            f"{pl.clock_utc or 'UNKNOWN'} · {_yes_no(pl.clock_synced, 'SYNCED', 'NOT SYNCED')}"
            + (f" · {pl.clock_warning}" if pl.clock_warning else ""),
            Style.ALERT if pl.clock_warning else Style.BASE,
        ),
        ("CPU", f"{temp} · POWER {_yes_no(pl.undervoltage, 'UNDERVOLTAGE', 'OK')}", Style.BASE),
        *fleet,
        *([("TOURNAMENT", data.tournament, Style.BASE)] if data.tournament else []),
    ]


def fleet_text(f: FleetView) -> str:
    """ "ONLINE · OUTBOX 0", "OFFLINE · OUTBOX 1234 · OLDEST 2 H 5 MIN · <why>"."""
    parts = [f.state.upper(), f"OUTBOX {f.outbox_rows}"]
    if f.outbox_age_s is not None and f.outbox_rows:
        parts.append(f"OLDEST {_age(f.outbox_age_s)}")
    if f.detail and f.state != "online":
        parts.append(f.detail.upper())
    return " · ".join(parts)


def _age(seconds: float) -> str:
    s = int(seconds)
    if s < 60:
        return f"{s} S"
    if s < 3600:
        return f"{s // 60} MIN"
    if s < 86400:
        return f"{s // 3600} H {s % 3600 // 60} MIN"
    return f"{s // 86400} D {s % 86400 // 3600} H"


def _system_rows(c: Canvas, data: DiagnosticsData, area: Rect) -> int:
    """How many text rows `_system` takes in `area`."""
    return sum(
        len(c.wrap(value, T, area.w - c.measure(label, T) - c.pad))
        for label, value, _ in _system_lines(data)
    )


def _system(
    c: Canvas, data: DiagnosticsData, area: Rect, y: int, firmware: bool = False, top: int = 0
) -> None:
    """Journal health, clock and CPU from `y` down, each value wrapped beside its label (and
    with `firmware`, the SYS page, each link's firmware and port). When the lines do not all
    fit (the SYS page of a small panel), they scroll from line `top` with UP and DOWN."""
    row, p = c.row(T), c.pad
    entries = _system_lines(data)
    if firmware:
        entries += [(link.name, _firmware(link), Style.BASE) for link in data.links]
    lines: list[tuple[str, int, str, Style]] = []  # (label on its first line, indent, text, style)
    for label, value, style in entries:
        lw = c.measure(label, T) + p
        for i, text in enumerate(c.wrap(value, T, area.w - lw)):
            lines.append((label if i == 0 else "", lw, text, style))
    fit = (area.bottom - y) // row
    if len(lines) > fit:  # scroll: the pager under the lines
        pager_y = area.bottom - touch_h(c)
        fit = max(1, (pager_y - p - y) // row)
        first = max(0, min(top, len(lines) - fit))
        up, down = max(0, first - fit + 1), min(len(lines) - fit, first + fit - 1)
        right = button_row(c, [Button("UP", f"{IO_UP}:{up}"), Button("DOWN", f"{IO_DOWN}:{down}")],
                           pager_y, area.x)  # fmt: skip
        said = f"LINES {first + 1}{EN_DASH}{min(len(lines), first + fit)} OF {len(lines)}"
        c.text(Rect(right, pager_y, area.right - right, touch_h(c)), said, T, Style.DIM)
        if first + fit < len(lines):
            c.drop(f"system: {len(lines) - first - fit} more lines (scroll down)")
        lines = lines[first : first + fit]
    for label, lw, text, style in lines:
        if label:
            c.text(Rect(area.x, y, lw, row), label, T, Style.DIM)
        if style is Style.ALERT:  # behind every line the value wraps onto, not only the first
            c.box(Rect(area.x + lw, y, area.w - lw, row), style)
        c.text(Rect(area.x + lw, y, area.w - lw, row), text, T, style)
        y += row


LAST_FRAMES = 3  # per link, the newest
IO_UP, IO_DOWN = "diag:up", "diag:down"  # + ":<first row>", the row the page scrolls to

# One row of the I/O page: (x from the left of the area, width, text, style) for each text.
IoRow = list[tuple[int, int, str, Style]]


def _gpio_rows(c: Canvas, data: DiagnosticsData, width: int) -> list[IoRow]:
    """The input levels as a grid, row by row, in as many columns as fit (each as wide as its
    widest cell)."""
    p = c.pad
    cells = [f"{name} {1 if high else 0}" for name, high in data.gpio.levels]
    if not cells:
        return [[(0, width, "NOT REPORTED", Style.BASE)]]
    cols, widths = 1, [max(c.measure(cell, T) for cell in cells)]
    for n in range(len(cells), 1, -1):
        each = [max(c.measure(cell, T) for cell in cells[i::n]) for i in range(n)]
        if sum(each) + 2 * p * (n - 1) <= width:
            cols, widths = n, each
            break
    rows: list[IoRow] = []
    for start in range(0, len(cells), cols):
        x, row = 0, []
        for cell, cell_w in zip(cells[start : start + cols], widths, strict=False):
            row.append((x, cell_w, cell, Style.BASE))
            x += cell_w + 2 * p
        rows.append(row)
    return rows


def _io_rows(
    c: Canvas, data: DiagnosticsData, width: int
) -> tuple[list[IoRow], list[int], list[int]]:
    """The page's rows; for each the index of its section's heading; and the rows a view may
    start at (not the second line of a wrapped frame)."""
    p = c.pad
    rows: list[IoRow] = [[(0, width, "GPIO INPUTS (1 = HIGH)", Style.DIM)]]
    rows += _gpio_rows(c, data, width)
    heads = [0] * len(rows)
    starts = list(range(len(rows)))
    for link in data.links:
        head = len(rows)
        starts.append(head)
        rows.append([(0, width, f"LAST FRAMES · {link.name}", Style.DIM)])
        for frame in link.last_frames[-LAST_FRAMES:] or ("NONE",):
            starts.append(len(rows))
            for i, line in enumerate(c.wrap(frame, T, width - 4 * p)):
                indent = 2 * p if i == 0 else 4 * p  # a wrapped frame's later lines stand in
                rows.append([(indent, width - indent, line, Style.BASE)])
        heads += [head] * (len(rows) - head)
    return rows, heads, starts


def _io(c: Canvas, data: DiagnosticsData, cur: DiagCursor, area: Rect) -> None:
    row, p = c.row(T), c.pad
    rows, heads, starts = _io_rows(c, data, area.w)
    n = len(rows)
    fit = area.h // row
    shown = list(range(min(n, fit)))
    if n > fit:  # scroll: the pager under the rows
        pager_y = area.bottom - touch_h(c)
        fit = max(2, (pager_y - p - area.y) // row)

        def window(first: int) -> list[int]:
            """The rows shown from `first`: a section cut at the top keeps its heading."""
            if heads[first] == first:
                return list(range(first, min(n, first + fit)))
            return [heads[first], *range(first, min(n, first + fit - 1))]

        last_first = next((s for s in starts if window(s)[-1] == n - 1), starts[-1])
        first = max(s for s in starts if s <= min(cur.top, last_first))
        shown = window(first)
        step = max(1, fit - 2)  # a page, the heading and one row seen before kept
        up = max(s for s in starts if s <= max(0, first - step))
        down = min((s for s in starts if first + step <= s <= last_first), default=last_first)
        buttons = [Button("UP", f"{IO_UP}:{up}"), Button("DOWN", f"{IO_DOWN}:{down}")]
        right = button_row(c, buttons, pager_y, area.x)
        said = f"ROWS {first + 1}{EN_DASH}{shown[-1] + 1} OF {n}"
        c.text(Rect(right, pager_y, area.right - right, touch_h(c)), said, T, Style.DIM)
    for i, index in enumerate(shown):
        y = area.y + i * row
        for x, w, text, style in rows[index]:
            c.text(Rect(area.x + x, y, w, row), text, T, style)


def _deck(c: Canvas, enrol: EnrolmentView | None, cur: DiagCursor, area: Rect) -> None:
    row, p = c.row(T), c.pad
    buttons_y = area.bottom - touch_h(c)
    if enrol is None:
        c.text(Rect(area.x, area.y, area.w, row), "NO DECK BEING ENROLLED", T, Style.DIM)
        button_row(c, [Button("SCAN A DECK", "enrol:scan", Style.NOW)], buttons_y)
        return
    n = len(enrol.scanned)
    y = _line(c, area, area.y, "DECK", f"{enrol.deck} · {n} SCANNED · {cur.confirmed} CONFIRMED")
    if cur.confirmed < n:
        tag, code = enrol.scanned[cur.confirmed]
        label = f"CARD {cur.confirmed + 1}: TAG {tag} IS"
        c.text(Rect(area.x, y, area.w, row), label, T)
        y += row + p // 2
        card = parse_card(code)
        ch = round(c.row(K) * 1.3)
        cw = max(round(ch * 0.72), c.measure("10", K) + p)
        if card is not None:
            c.card(Rect(area.x + 2 * p, y, cw, ch), card[0], card[1])
        c.text(Rect(area.x + cw + 4 * p, y, area.w - cw - 4 * p, ch), code.upper(), K)
        button_row(
            c,
            [
                Button("CONFIRM", "enrol:confirm", Style.NOW),
                Button("REJECT", "enrol:reject", Style.ALERT),
            ],
            buttons_y,
        )
        return
    status = "SCANNING..." if enrol.scanning else "ALL SCANNED CARDS CONFIRMED"
    c.text(Rect(area.x, y, area.w, row), status, T)
    if cur.rejected:
        c.text(
            Rect(area.x, y + row, area.w, row), f"REJECTED: {len(cur.rejected)} (RESCAN THEM)", T
        )
    buttons = [Button("SCAN AGAIN", "enrol:scan")]
    if n and not cur.rejected and not enrol.scanning:
        buttons.append(Button("SAVE REGISTRY", "enrol:save", Style.NOW))
    button_row(c, buttons, buttons_y)
