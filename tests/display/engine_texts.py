"""Every text the engine says to the dealer, harvested from real sessions: all of
tests/scenarios and the PHH sample replayed through the engine, with the table state each text
was said in. Used by the render-every-text test; nothing here is a hand-written text. The same
replay checks the dealer view at every moment for the screen-truth test (`replayed`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from station.data import phh_sample
from station.engine.decisions import Incident, Prompt, PromptCode
from station.engine.snapshot import AlertOwner, AlertView, PromptView, TableSnapshot
from station.engine.table import Table
from station.formats.session import Session, parse_session, read_session
from station.phh.convert import convert_hand
from station.phh.reader import loads_phh
from tests.display.screen_truth import Moment, Truth

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


class Kind(StrEnum):
    PROMPT = "prompt"
    INCIDENT = "incident"
    STOP = "stop"
    STEP = "step"  # a recovery step, when it is the one to do now


@dataclass(frozen=True, slots=True)
class Said:
    kind: Kind
    text: str
    source: str  # the session and input line it was said at
    snapshot: TableSnapshot  # the table as that input left it, with this text on show


def sessions() -> Iterator[tuple[str, Session]]:
    """Every rule scenario and every PHH sample hand, as recorded sessions."""
    for path in sorted(SCENARIOS.rglob("*.jsonl")):
        yield str(path.relative_to(SCENARIOS)), read_session(path)
    for name, text in phh_sample():
        (hand,) = loads_phh(text, name, name)
        yield name, parse_session(convert_hand(hand, seed=0).text(), name)


def _state(snap: TableSnapshot) -> tuple[object, ...]:
    """What decides the layout besides the text: dedupes the situations."""
    rec = snap.recovery
    return (
        snap.phase,
        snap.stop is not None,
        (rec.rule, rec.current) if rec is not None else None,
        len(snap.alerts),
        len(snap.board),
        len(snap.pots),
        len(snap.seats),
        snap.to_act is not None,
        snap.result is not None,
        any(s.up for s in snap.seats),
    )


@functools.cache  # (the every-text and the screen-truth tests share one replay on one worker)
def replayed() -> tuple[list[Said], int, Truth]:
    """The harvest, how many inputs were replayed, and the dealer view checked against the
    snapshot at every one of them (`screen_truth`), from one replay of every session."""
    truth = Truth()
    situations, inputs = harvest(truth.session)
    return situations, inputs, truth


def harvest(watch: Callable[[str], Moment] | None = None) -> tuple[list[Said], int]:
    """Every (text, state) once, and how many inputs were replayed; `watch(session)` (if
    given) is shown each moment of that session."""
    seen: set[tuple[object, ...]] = set()
    out: list[Said] = []
    inputs = 0

    def new(kind: Kind, text: str, state: tuple[object, ...]) -> bool:
        key = (kind, text, state)
        if key in seen:
            return False
        seen.add(key)
        return True

    for name, session in sessions():
        table = Table()
        moment = watch(name) if watch is not None else None
        snap = table.snapshot()
        for line in session.lines:
            before = snap  # (the table does not change between two inputs)
            decisions = table.feed(line.event, seq=line.line, at=line.t)
            inputs += 1
            snap = table.snapshot()
            if moment is not None:
                moment(line.line, before, snap)
            rec = snap.recovery
            if not decisions and snap.stop is None and rec is None:
                continue  # nothing said (most inputs: a card, a bet)
            state = _state(snap)  # (a prompt's own fields are not part of it)
            where = f"{name}:{line.line}"
            for d in decisions:
                if isinstance(d, Prompt):
                    if not new(Kind.PROMPT, d.text, state):
                        continue
                    said = replace(snap, prompt=PromptView(d.code, d.text), next_step=d.text)
                    if d.code is not PromptCode.DROP:  # said after the drop (NEXT says it first)
                        said = replace(said, drop=0)
                    out.append(Said(Kind.PROMPT, d.text, where, said))
                elif isinstance(d, Incident):
                    shown = _newest(snap, d)
                    if new(Kind.INCIDENT, d.text, _state(shown)):
                        out.append(Said(Kind.INCIDENT, d.text, where, shown))
            if snap.stop is not None and new(Kind.STOP, snap.stop.text, state):
                out.append(Said(Kind.STOP, snap.stop.text, where, snap))
            if rec is not None and rec.current < len(rec.steps):
                step = rec.steps[rec.current]
                if new(Kind.STEP, step, state):
                    out.append(Said(Kind.STEP, step, where, snap))
        table.finish(seq=len(session.lines) + 1)
    return out, inputs


def _newest(snap: TableSnapshot, incident: Incident) -> TableSnapshot:
    """The table with `incident` open and the newest of its alerts (as when it was raised; an
    alert whose owner resolved in the same input is put back, so its text is shown too)."""
    alerts = [a for a in snap.alerts if a.incident is not incident]
    own = next((a for a in snap.alerts if a.incident is incident), None)
    owner = own.owner if own is not None else AlertOwner.STREET
    return replace(snap, alerts=(*alerts, AlertView(incident, owner)))
