"""The journal `station bench console` copies into the central store for each of its tables: a
table's real session, recorded through the station's `Recorder` (so every row, incident and
recall is what a station writes), with the floor's work on it. Edge adapter (a SQLite file).

Scripted no-limit hold'em hands (`station.bench.scripted`), and in every `every`-th hand one
dealer mistake the engine rules on: a card dealt face up among the hole cards, the FLOOR key,
a board card before the betting is done, or a card the deck already dealt. The floor then rules
on the hand's incidents (`flo`), reviews (`fay`) and closes (`ada`) some of them, and clears
CALL FLOOR, with its PIN, as at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

from station.bench.scripted import nlhe_session
from station.daemon.operations import StationOps
from station.engine.events import Draw, InputEvent, Key, KeyPress
from station.incidents.exc import WorkflowError
from station.incidents.workflow import close, incidents, review, rule
from station.journal import ActorRole, Journal, ManualClock, Recorder
from station.journal.codes import IncidentState
from station.people.check import PEOPLE_CHECKS
from station.people.staff import add_person, authenticate

PINS: Final = {"ada": "739514", "flo": "482915", "fay": "602837", "dan": "915372"}
ROLES: Final = {
    "ada": ActorRole.ADMIN,
    "flo": ActorRole.FLOOR,
    "fay": ActorRole.FLOOR,
    "dan": ActorRole.DEALER,
}


@dataclass(frozen=True, slots=True)
class Template:
    path: Path
    rows: int
    hands: int
    incidents: int
    duration_s: float


def _mistake(n: int, events: list[InputEvent]) -> list[InputEvent]:
    """The hand's events with one dealer mistake after its NEW_HAND."""
    try:
        start = next(i for i, e in enumerate(events) if e == KeyPress(Key.NEW_HAND))
    except StopIteration:
        return events
    draws = [e for e in events if isinstance(e, Draw) and e.card is not None]
    match n % 4:
        case 0:  # a hole card dealt face up
            first = next(
                (i for i in range(start, len(events)) if isinstance(events[i], Draw)), None
            )
            if first is None:
                return events
            d = events[first]
            assert isinstance(d, Draw)
            return [*events[:first], Draw(d.card, face_up=True), *events[first + 1 :]]
        case 1:  # the dealer calls the floor
            return [*events[: start + 1], KeyPress(Key.FLOOR), *events[start + 1 :]]
        case 2:  # the flop's first card before the preflop betting is done
            if len(draws) < 9:
                return events
            early = draws[-5] if len(draws) >= 13 else draws[-1]
            at = start + 12 if start + 12 < len(events) else len(events) - 1
            return [*events[:at], Draw(early.card, face_up=True), *events[at:]]
        case _:  # a card of the deck dealt twice
            if not draws:
                return events
            return [*events[: start + 3], Draw(draws[0].card, face_up=True), *events[start + 3 :]]


def build_template(path: Path, station: str, rows: int, *, every: int = 6) -> Template:
    """Record hands into a new journal at `path` until it holds about `rows` rows."""
    hands_wanted = max(2, rows // 62)
    session = nlhe_session(hands_wanted, seed=11)
    # split the scripted events into hands at each NEW_HAND (the forced bets before it go
    # with it)
    timed = [(e.t, e.event) for e in session.events]
    starts = [i for i, (_, e) in enumerate(timed) if e == KeyPress(Key.NEW_HAND)]
    cut = [0] + [max(0, s - 3) for s in starts[1:]] + [len(timed)]
    duration = timed[-1][0] + 10.0 * hands_wanted
    clock = ManualClock(start_utc=datetime.now(UTC) - timedelta(seconds=duration + 600))
    journal = Journal.open(path, clock=clock, station_id=station, create=True)
    try:
        add_person(journal, "ada", ActorRole.ADMIN, PINS["ada"], by=None)
        admin = authenticate(journal, "ada", PINS["ada"], purpose="enrol")
        for name in ("flo", "fay", "dan"):
            add_person(journal, name, ROLES[name], PINS[name], by=admin)
        recorder = Recorder(journal, checks=PEOPLE_CHECKS)
        recorder.recover()
        ops = StationOps(recorder)
        ops.login("dan", PINS["dan"])
        flo = authenticate(journal, "flo", PINS["flo"], purpose="bench")
        fay = authenticate(journal, "fay", PINS["fay"], purpose="bench")
        ada = authenticate(journal, "ada", PINS["ada"], purpose="bench")
        t_now, t_shift = 0.0, 0.0
        for h in range(len(cut) - 1):
            part = timed[cut[h] : cut[h + 1]]
            events = [e for _, e in part]
            if h % every == every - 1:
                events = _mistake(h // every, events)
            times = [t for t, _ in part]
            times += [times[-1]] * (len(events) - len(times))
            for t, event in zip(sorted(times), events, strict=True):
                clock.advance(max(0.0, t + t_shift - t_now))
                t_now = max(t_now, t + t_shift)
                recorder.record(event, actor="table", role=ActorRole.DEVICE, at=t_now)
            if h % every == every - 1:
                clock.advance(20.0)
                t_shift += 20.0
                _floor_work(journal, ops, flo, fay, ada, h)
            if journal.head()[0] >= rows:
                break
        found = incidents(journal)
        hands = recorder.snapshot().hand
        count = journal.head()[0]
    finally:
        journal.close()
    return Template(path, count, hands, len(found), duration)


def _floor_work(
    journal: Journal, ops: StationOps, flo: object, fay: object, ada: object, h: int
) -> None:
    from station.people.staff import Authenticated  # noqa: PLC0415

    assert isinstance(flo, Authenticated)
    assert isinstance(fay, Authenticated)
    assert isinstance(ada, Authenticated)
    if ops.recorder.op_state().floor_call is not None:
        ops.clear_floor_call("flo", PINS["flo"], "seen at the table")
    for i, rec in enumerate(incidents(journal).values()):
        if rec.state is not IncidentState.OPEN or (i + h) % 3 == 0:
            continue
        try:
            rule(journal, rec.id, flo, rec.engine_ruling, camera=f"CAM {1 + i % 8}")
            if (i + h) % 3 == 1:
                review(journal, rec.id, fay, "checked")
                close(journal, rec.id, ada, "done")
        except WorkflowError:
            continue
