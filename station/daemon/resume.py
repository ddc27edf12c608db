"""Where a restarted daemon resumes: each device's last journaled event id, the session time
of the last input, the config's table against the last journaled setup. Edge adapter (reads
the journal).

The shoe and the bet-zone board keep their events until acknowledged and replay, after a
reconnect, everything after the cursor the host states. A new process passes the cursor it
reads here (the provenance in the actor column of the input rows, folded by `OpsTracker` and so
rebuilt by recovery, from a resume row too), so a draw journaled before a crash is not delivered
again and a draw made while the daemon was down is.
"""

from __future__ import annotations

import json

from station.daemon.items import Device
from station.engine.events import Setup
from station.formats.session import event_to_dict
from station.journal import Code, Journal, Recorder


def device_cursors(recorder: Recorder) -> dict[Device, dict[str, int]]:
    """device -> serial -> highest event id journaled (event ids only grow on a device), as
    the recorder's operational fold holds it after recovery."""
    out: dict[Device, dict[str, int]] = {d: {} for d in Device}
    for name, per in recorder.ops.device_events.items():
        try:
            out[Device(name)] = dict(per)
        except ValueError:  # an actor that names no device of ours
            continue
    return out


def last_input_t(journal: Journal, seq: int) -> float:
    """The session time (`t`) of input row `seq` (0 when there is none)."""
    row = journal.row(seq) if seq else None
    if row is None:
        return 0.0
    t = row.data().get("t")
    return float(t) if isinstance(t, int | float) else 0.0


def setup_differs(journal: Journal, setup: Setup) -> bool:
    """Whether the config's table is not the one the journal last set up. A tournament table
    is the same while it plays the same event's structure: its seats, stacks and clock come
    from the event once it runs (the seat draw, the moves, the event's clock), never again
    from the config."""
    found = journal.conn.execute(
        "SELECT payload FROM log WHERE code = ? ORDER BY seq DESC LIMIT 1",
        (Code.INPUT_SETUP.value,),
    ).fetchone()
    if found is None:
        return True
    last = json.loads(str(found[0]))
    last.pop("t", None)
    mine = event_to_dict(setup)
    if setup.tournament is not None and isinstance(last.get("tournament"), dict):
        return _event(last) != _event(mine)
    return bool(last != mine)


def _event(setup: dict[str, object]) -> tuple[object, ...]:
    """A tournament setup's event: the game, the profile and the structure's levels."""
    structure = setup.get("tournament")
    assert isinstance(structure, dict)
    return (
        setup.get("game"),
        setup.get("profile"),
        structure.get("event"),
        json.dumps(structure.get("levels"), sort_keys=True),
    )
