"""Every screen the display can draw from one set of inputs, by kind: the dealer screen and its
pages, the dealer sign-in, the PIN pad of each role, every floor page (the incident list
scrolled to each row, each incident scrolled to each line, its ruling picker, the recent hands,
each hand's recall at each step, the screen keys' pages) and every diagnostics page. Used by
the tests that check every drawn text on real sessions; the texts come from the inputs, nothing
is written here."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from station.display.dealer_layout import DealerPage, dealer_screen
from station.display.dealer_signin import signin_screen
from station.display.dealer_view import dealer_view
from station.display.diag_view import DiagCursor, diagnostics_screen
from station.display.floor_cursor import FloorCursor
from station.display.floor_keys import PAGES as KEY_PAGES
from station.display.floor_view import floor_screen
from station.display.model import ScreenModel
from station.display.panel import PanelConfig
from station.display.pinpad import PIN_MAX, PadAccess, PinPadState, pinpad_screen
from station.display.screens import DisplayInputs

DIAG_PAGES = ("links", "io", "deck", "sys")
PIN_MESSAGES = ("", "PIN TOO LONG", "ENTER YOUR PIN, THEN OK")


def dealer_pages(inputs: DisplayInputs, panel: PanelConfig) -> Iterator[ScreenModel]:
    """The dealer screen and, on a small panel, each page its turns lead to."""
    view = dealer_view(inputs.snapshot, inputs.status)
    for page in DealerPage:
        yield dealer_screen(view, panel, page=page, shape=inputs.table)


def signin_pages(inputs: DisplayInputs, panel: PanelConfig) -> Iterator[ScreenModel]:
    """The sign-in scrolled to each row of names, and as it is with nobody enrolled."""
    status = inputs.status
    for first in range(max(1, len(status.dealers))):
        yield signin_screen(status, inputs.snapshot.phase, first, panel)
    yield signin_screen(replace(status, dealers=()), inputs.snapshot.phase, 0, panel)


def pin_pages(panel: PanelConfig) -> Iterator[ScreenModel]:
    for role in PadAccess:
        for digits in ("", "1234", "9" * PIN_MAX):
            for message in PIN_MESSAGES:
                yield pinpad_screen(PinPadState(role, digits, message), panel)


def floor_pages(
    inputs: DisplayInputs, panel: PanelConfig, done: set[object] | None = None
) -> Iterator[ScreenModel]:
    """Every floor page; an incident's pages, or a hand's recall, in `done` (a set the caller
    keeps over many inputs) are not drawn again (they are the same pages)."""
    data, snap = inputs.floor, inputs.snapshot
    done = set() if done is None else done
    incidents = data.incidents
    for top in range(max(1, len(incidents))):  # the list scrolled to each row
        yield floor_screen(data, FloorCursor("incidents", incident=top, top=top), panel, snap)
    for i, incident in enumerate(incidents):
        if incident in done:
            continue
        done.add(incident)
        first = floor_screen(data, FloorCursor("incident", incident=i), panel, snap)
        yield first
        scrolls = [a for a in first.actions() if a.startswith("floor:scroll:")]
        while scrolls and scrolls[0] != "floor:scroll:0":  # MORE, to the last page
            line = int(scrolls[0].rsplit(":", 1)[1])
            more = floor_screen(data, FloorCursor("incident", incident=i, top=line), panel, snap)
            yield more
            scrolls = [a for a in more.actions() if a.startswith("floor:scroll:")]
        for top in range(4):  # the ruling picker, each row of it at the top
            yield floor_screen(data, FloorCursor("ruling", incident=i, top=top), panel, snap)
    for top in range(max(1, len(data.hands))):
        yield floor_screen(data, FloorCursor("hands", hand=top, top=top), panel, snap)
    for h, hand in enumerate(data.hands):
        if hand in done:
            continue
        done.add(hand)
        for step in range(max(1, len(hand.steps))):
            yield floor_screen(data, FloorCursor("recall", hand=h, step=step), panel, snap)
    seats = [s.seat for s in snap.seats]
    for page in KEY_PAGES:
        for seat in seats if page == "forfeit-amount" else [None]:
            for digits in ("", "123456"):
                cur = FloorCursor(page, seat=seat, digits=digits)
                yield floor_screen(data, cur, panel, snap)


def diag_pages(inputs: DisplayInputs, panel: PanelConfig) -> Iterator[ScreenModel]:
    for page in DIAG_PAGES:
        for top in range(3):
            yield diagnostics_screen(inputs.diag, DiagCursor(page, top=top), panel)
