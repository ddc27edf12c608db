"""Every prompt and incident text the engine produces, rendered at both panel sizes
(docs/performance.md: "no text ever cut or overlapping, at both panel sizes, for every text the
engine produces").

The texts are harvested by replaying all of tests/scenarios and the PHH sample through the
engine (`engine_texts`: nothing here is a frozen list, so a changed or new text is checked as
soon as the engine says it), each in the table state it was said in, deduplicated by text and
state. Each is put on the dealer screen it belongs to: a prompt as the prompt in force (shown
whole, or as its designed short form when its code has one and the whole text does not fit), an
incident as the newest open alert, a STOP, and a recovery step as the step to do now; every
incident also on the floor's incident page. A screen fails on any text cut, left out, leaving
its box, overlapping another text or a card, or under the size and contrast bars.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import pytest

from station.display.dealer_layout import DealerPage, dealer_screen
from station.display.dealer_view import DealerView, StationStatus, dealer_view
from station.display.floor_view import FloorCursor, FloorData, IncidentRow, floor_screen
from station.display.model import ScreenModel
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.table_shape import TableShape, table_for
from station.engine.decisions import Incident
from station.engine.events import Key
from station.engine.rule_ids import Rule
from tests.display.engine_texts import Kind, Said, replayed
from tests.display.screen_check import problems, reads_lines

PANELS = (PANEL_10_1, PANEL_7)
STATUS = StationStatus(shoe_ok=True, zones_ok=True)


# The two tests read the same situations on the same screens: one worker (the xdist group)
# harvests and draws them once.
pytestmark = pytest.mark.xdist_group("engine_texts")


def _harvested() -> tuple[list[Said], int]:
    situations, inputs, _ = replayed()  # (the replay checks every moment's view as well)
    return situations, inputs


@dataclass(frozen=True, slots=True)
class Screens:
    """The screens drawn for a situation, as the checks read them: each screen's texts in the
    order drawn, and every problem `screen_check.problems` finds on them ("screen: problem").
    (Not the models themselves: thousands of them kept for the second test made every garbage
    collection of the run walk them.)"""

    texts: tuple[tuple[str, ...], ...]
    problems: tuple[str, ...]


def _checked(models: list[ScreenModel], panel: PanelConfig) -> Screens:
    return Screens(
        tuple(tuple(t.text for t in m.texts()) for m in models),
        tuple(f"{m.screen}: {p}" for m in models for p in problems(m, panel)),
    )


def _situation(said: Said) -> tuple[DealerView, TableShape]:
    """The dealer view of the situation and the session's own table."""
    return dealer_view(said.snapshot, STATUS), table_for(s.seat for s in said.snapshot.seats)


# The two tests read the same screens, and a few situations are the same view (a STOP and a
# recovery step said by one input): each is drawn and checked once.
@functools.cache
def _dealer_screens(view: DealerView, shape: TableShape, panel: PanelConfig) -> Screens:
    models = [dealer_screen(view, panel, shape=shape)]
    pages = {"dealer:details": DealerPage.DETAILS, "dealer:seats": DealerPage.SEATS}
    while True:  # a small panel's other pages, as its page turns lead
        turn = next((pages.pop(a) for a in models[-1].actions() if a in pages), None)
        if turn is None:
            return _checked(models, panel)
        models.append(dealer_screen(view, panel, page=turn, shape=shape))


def _expected(said: Said) -> str:
    """The text as the screen says it: a recovery step with its number."""
    rec = said.snapshot.recovery
    if said.kind is Kind.STEP and rec is not None:
        return f"{rec.current + 1}. {said.text}"
    return said.text


def _shown(said: Said, view: DealerView, screens: list[tuple[str, ...]]) -> bool:
    if any(reads_lines(texts, _expected(said)) for texts in screens):
        return True
    if said.kind is Kind.PROMPT:  # its designed short form may stand in for it
        short = view.next.short
        return bool(short) and any(reads_lines(texts, short) for texts in screens)
    return False


@functools.cache  # an incident's floor pages are the same in every state it is said in
def _floor_screens(row: IncidentRow, panel: PanelConfig) -> Screens:
    """The incident on the floor's screens: its row in the list, its own page, the ruling
    picker it opens."""
    data = FloorData((row,))
    return _checked([floor_screen(data, FloorCursor(page), panel) for page in ("incidents",
                     "incident", "ruling")], panel)  # fmt: skip


def _row(incident: Incident) -> IncidentRow:
    return IncidentRow(incident.hand, incident.event, incident.rule, incident.citation,
                       incident.ruling.value, incident.text, seat=incident.seat)  # fmt: skip


@pytest.mark.timeout(600)  # every text of every session, at two sizes: minutes when loaded
def test_every_engine_text_fits_at_both_panel_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    situations, inputs = _harvested()
    harvested = time.monotonic() - started
    failures: list[str] = []
    frames = 0
    short_forms = 0
    for said in situations:
        view, shape = _situation(said)
        for panel in PANELS:
            drawn = [_dealer_screens(view, shape, panel)]
            if said.kind is Kind.INCIDENT:
                inc = next(a.incident for a in said.snapshot.alerts if a.incident.text == said.text)
                drawn.append(_floor_screens(_row(inc), panel))
            screens = [texts for d in drawn for texts in d.texts]
            frames += len(screens)
            where = f"{said.kind} {said.text!r} ({said.source}) on {panel.name}"
            if not _shown(said, view, screens):
                failures.append(f"{where}: not shown whole")
            elif not any(reads_lines(texts, _expected(said)) for texts in screens):
                short_forms += 1
            failures += [f"{where}, {p}" for d in drawn for p in d.problems]
    texts = len({(s.kind, s.text) for s in situations})
    with capsys.disabled():
        print(
            f"\nevery engine text: {texts} distinct texts in {len(situations)} table states "
            f"({inputs} inputs replayed in {harvested:.1f} s, each moment's dealer view checked "
            f"for the screen-truth test too), {frames} screens checked at 2 "
            f"panel sizes, {short_forms} shown as their short form; "
            f"{time.monotonic() - started:.1f} s"
        )
    assert not failures, f"{len(failures)} problems, the first 30:\n" + "\n".join(failures[:30])


CODES = tuple(k.value for k in Key if "_" in k.value) + tuple(r.value for r in Rule)


def _codes_in(text: str) -> list[str]:
    return [code for code in CODES if code in text]


@pytest.mark.timeout(600)
def test_no_dealer_screen_text_names_a_key_code_or_a_catalog_id() -> None:
    """Every text the engine can say, on the dealer screen it is said on (both sizes, every
    page): the key's printed label ("STUB RESHUFFLE"), the cause in words ("FLOP DEALT TOO
    SOON"), never a key code ("STUB_RESHUFFLE") or a catalog id ("PREMATURE-FLOP"); those are
    the floor's and the journal's."""
    situations, _ = _harvested()
    found: list[str] = []
    for said in situations:
        found += [f"{said.kind} {said.text!r} ({said.source}) names {c}"
                  for c in _codes_in(said.text)]  # fmt: skip
        view, shape = _situation(said)
        for panel in PANELS:
            for screen in _dealer_screens(view, shape, panel).texts:
                for text in screen:
                    found += [f"{said.source} on {panel.name}: {text!r} names {c}"
                              for c in _codes_in(text)]  # fmt: skip
    assert not found, f"{len(found)} codes on the dealer's screen, the first 20:\n" + "\n".join(
        sorted(set(found))[:20]
    )
