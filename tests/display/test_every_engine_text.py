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

import pytest

from station.display.dealer_layout import DealerPage, dealer_screen
from station.display.dealer_view import StationStatus, dealer_view
from station.display.floor_view import FloorCursor, FloorData, IncidentRow, floor_screen
from station.display.model import ScreenModel
from station.display.panel import PANEL_7, PANEL_10_1, PanelConfig
from station.display.table_shape import table_for
from station.engine.decisions import Incident
from station.engine.events import Key
from station.engine.rule_ids import Rule
from tests.display.engine_texts import Kind, Said, replayed
from tests.display.screen_check import problems, reads

PANELS = (PANEL_10_1, PANEL_7)
STATUS = StationStatus(shoe_ok=True, zones_ok=True)


# The two tests read the same situations on the same screens: one worker (the xdist group)
# harvests and draws them once.
pytestmark = pytest.mark.xdist_group("engine_texts")


def _harvested() -> tuple[list[Said], int]:
    situations, inputs, _ = replayed()  # (the replay checks every moment's view as well)
    return situations, inputs


_MODELS: dict[tuple[int, str], list[ScreenModel]] = {}


def _dealer_models(said: Said, panel: PanelConfig) -> list[ScreenModel]:
    key = (id(said), panel.name)  # the harvest's objects live as long as the cache
    if key not in _MODELS:
        _MODELS[key] = _draw_dealer(said, panel)
    return _MODELS[key]


def _draw_dealer(said: Said, panel: PanelConfig) -> list[ScreenModel]:
    view = dealer_view(said.snapshot, STATUS)
    shape = table_for(s.seat for s in said.snapshot.seats)  # the session's own table
    models = [dealer_screen(view, panel, shape=shape)]
    pages = {"dealer:details": DealerPage.DETAILS, "dealer:seats": DealerPage.SEATS}
    while True:  # a small panel's other pages, as its page turns lead
        turn = next((pages.pop(a) for a in models[-1].actions() if a in pages), None)
        if turn is None:
            return models
        models.append(dealer_screen(view, panel, page=turn, shape=shape))


def _expected(said: Said) -> str:
    """The text as the screen says it: a recovery step with its number."""
    rec = said.snapshot.recovery
    if said.kind is Kind.STEP and rec is not None:
        return f"{rec.current + 1}. {said.text}"
    return said.text


def _shown(said: Said, models: list[ScreenModel]) -> bool:
    if any(reads(m, _expected(said)) for m in models):
        return True
    if said.kind is Kind.PROMPT:  # its designed short form may stand in for it
        short = dealer_view(said.snapshot, STATUS).next.short
        return bool(short) and any(reads(m, short) for m in models)
    return False


def _floor_models(incident: Incident, panel: PanelConfig) -> list[ScreenModel]:
    """The incident on the floor's screens: its row in the list, its own page, the ruling
    picker it opens."""
    row = IncidentRow(incident.hand, incident.event, incident.rule, incident.citation,
                      incident.ruling.value, incident.text, seat=incident.seat)  # fmt: skip
    data = FloorData((row,))
    return [floor_screen(data, FloorCursor(page), panel) for page in ("incidents", "incident",
                                                                      "ruling")]  # fmt: skip


@functools.cache  # an incident's floor pages are the same in every state it is said in
def _problems(model: ScreenModel, panel: PanelConfig) -> list[str]:
    return problems(model, panel)


@pytest.mark.timeout(600)  # every text of every session, at two sizes: minutes when loaded
def test_every_engine_text_fits_at_both_panel_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    situations, inputs = _harvested()
    harvested = time.monotonic() - started
    failures: list[str] = []
    frames = 0
    short_forms = 0
    for said in situations:
        for panel in PANELS:
            models = list(_dealer_models(said, panel))  # (the floor's are added to a copy)
            if said.kind is Kind.INCIDENT:
                inc = next(a.incident for a in said.snapshot.alerts if a.incident.text == said.text)
                models += _floor_models(inc, panel)
            frames += len(models)
            where = f"{said.kind} {said.text!r} ({said.source}) on {panel.name}"
            if not _shown(said, models):
                failures.append(f"{where}: not shown whole")
            elif not any(reads(m, _expected(said)) for m in models):
                short_forms += 1
            for m in models:
                failures += [f"{where}, {m.screen}: {p}" for p in _problems(m, panel)]
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
        for panel in PANELS:
            for m in _dealer_models(said, panel):
                for t in m.texts():
                    found += [f"{said.source} on {panel.name}: {t.text!r} names {c}"
                              for c in _codes_in(t.text)]  # fmt: skip
    assert not found, f"{len(found)} codes on the dealer's screen, the first 20:\n" + "\n".join(
        sorted(set(found))[:20]
    )
