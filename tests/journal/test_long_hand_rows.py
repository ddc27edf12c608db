"""One hand that never ends, through the journal (issue 27, item 6): the daemon's floor views
fold the incidents as rows arrive and must not keep (or walk) every incident ever raised; a
floor call and the next deal still reach the incidents they concern."""

from __future__ import annotations

from station.daemon.views import MAX_INCIDENTS, FloorViews
from station.engine.events import Key, KeyPress
from station.formats.session import parse_session
from station.incidents.records import IncidentFold, fold_incidents
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder

DEAL = (
    '{"type":"setup","game":"nlhe","stakes":{"sb":50,"bb":100},'
    '"seats":{"1":1000,"2":1000,"3":1000,"4":1000},"button":4}\n'
    '{"type":"zone","seat":1,"amount":50}\n{"type":"zone","seat":2,"amount":100}\n'
    '{"type":"key","key":"NEW_HAND"}\n'
    + "".join(
        f'{{"type":"draw","card":"{c}"}}\n'
        for c in ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]
    )
    + '{"type":"key","key":"FOLD","seat":3}\n'
)


def _press(recorder: Recorder, event: KeyPress) -> None:
    recorder.record(event, actor="panel", role=ActorRole.DEVICE, at=None)


def test_a_stuck_key_keeps_the_floor_views_fold_bounded(recorder: Recorder) -> None:
    for line in parse_session(DEAL, "deal").lines:
        recorder.record(line.event, actor="t", role=ActorRole.DEVICE, at=line.t)
    views = FloorViews(recorder)
    stuck = KeyPress(Key.FOLD, seat=3)
    for n in range(1500):
        _press(recorder, stuck)
        if n % 100 == 0:
            views.build()
    _press(recorder, KeyPress(Key.FLOOR))  # the floor is called for all of them
    shown = views.build().incidents
    everything = fold_incidents(recorder.journal.rows())
    assert len(everything) > 1500
    newest = sorted(everything.values(), key=lambda r: r.id, reverse=True)[:MAX_INCIDENTS]
    assert [r.event for r in shown] == [r.events[-1] if r.events else r.id for r in newest]
    kept = IncidentFold(keep=40)
    for row in recorder.journal.rows():
        kept.row(row)
    assert 40 <= len(kept.incidents) <= 80
    for rec in kept.incidents.values():  # what is kept is exactly what the full fold says
        assert rec == everything[rec.id]
    floor = max(everything)  # the FLOOR key's own incident
    assert all(r.floor_called_seq is not None for i, r in everything.items() if i < floor), (
        "every incident of the hand before the call has the floor called"
    )
    assert len(views._fold.incidents) <= 4 * MAX_INCIDENTS * 2
