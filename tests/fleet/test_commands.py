"""Commands from the central store to a station (the floor console's rulings, issue 21): queued
in PostgreSQL, published on the station's own commands topic while it is connected, answered
on its replies topic, and the answer stored; a command queued while the station is offline
waits for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from station.fleet.messages import Command, Reply, ReplyStatus
from tests.fleet.conftest import RunningIngest, append, forwarder, new_journal, wait_until


def test_a_queued_command_reaches_the_station_when_it_connects_and_its_reply_is_stored(
    services: Any, ingest: RunningIngest, tmp_path: Path
) -> None:
    ingest.execute(
        "INSERT INTO stations (station_id, site, head_hash) VALUES ('T05', 't', %s)", ("0" * 64,)
    )
    ingest.execute(
        "INSERT INTO commands (station_id, kind, body, created_by) VALUES"
        " ('T05', 'rule', '{\"incident\": 12}', 'flo')"
    )
    path = tmp_path / "j.sqlite"
    journal = new_journal(path, "T05")
    append(journal, 2)
    got: list[Command] = []
    fwd = forwarder(services, path, "T05", on_command=got.append)
    fwd.start()
    try:
        wait_until(lambda: bool(got), what="the command")
        assert got[0].kind == "rule"
        assert got[0].body == {"incident": 12}
        assert fwd.reply(Reply(got[0].id, ReplyStatus.DONE, seq=3))
        wait_until(
            lambda: (
                ingest.query("SELECT state FROM commands WHERE id = %s", (got[0].id,))
                == [("done",)]
            ),
            what="the reply stored",
        )
        reply = ingest.query("SELECT reply FROM commands WHERE id = %s", (got[0].id,))
        assert reply == [({"seq": 3, "detail": ""},)]
    finally:
        fwd.stop()
        journal.close()
