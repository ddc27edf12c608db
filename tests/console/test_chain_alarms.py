"""Clearing a central chain alarm without SQL (follow-up to issue 20): a fourth station, T09,
forwards its journal through the running fleet's broker and ingest, then comes back behind the
central store (an older copy of its journal put back: a rollback) and with a rewritten journal
(a fork), so the ingest raises real alarms. On the console the table's alarms are listed with
what, when and which rows; a floor supervisor or technician clears one with a required reason,
recorded on the alarm (who, role, when, why) and in the audit log, and the cleared alarm stays
as history; an auditor or dealer is refused (403). `station central alarms list|clear` does the
same from the shell (exit 2 on bad input). The database keeps alarms: never deleted, a cleared
one never changed.

T09 joins the floor map when this module runs (after test_browser's three-table map).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from station.daemon.operations import StationOps
from station.journal import Journal, Recorder, SystemClock
from tests.conftest import StationRun
from tests.console.fleet import Fleet, fill_journal
from tests.console.test_http import sign_in
from tests.fleet.conftest import forwarder, wait_until

ROOT = Path(__file__).resolve().parents[2]
STATION = "T09"
TECH, TECH_PASSWORD = "tom", "tech-violet-anchor"


@dataclass
class Alarmed:
    fleet: Fleet
    folder: Path
    central_head: int
    older_head: int

    def open_alarm(self, kind: str) -> int:
        """An open alarm of `kind` at T09 (the station comes back behind or rewritten again
        when the last one was cleared: the ingest raises a new one)."""
        found = self.open_ids(kind)
        if found:
            return found[0]
        source = {"rollback": "older.sqlite", "fork": "forged.sqlite"}[kind]
        path = self.folder / f"again-{kind}.sqlite"
        shutil.copy(self.folder / source, path)
        fwd = forwarder(self.fleet.services, path, STATION)
        fwd.start()
        try:
            wait_until(lambda: bool(self.open_ids(kind)), 30, f"an open {kind} alarm at T09")
        finally:
            fwd.stop()
        return self.open_ids(kind)[0]

    def open_ids(self, kind: str) -> list[int]:
        return [
            int(r[0])
            for r in self.fleet.query(
                "SELECT id FROM alarms WHERE station_id = %s AND kind = %s"
                " AND cleared_at IS NULL ORDER BY id",
                (STATION, kind),
            )
        ]

    def row(self, ident: int) -> tuple[Any, ...]:
        return self.fleet.query(
            "SELECT kind, seq, cleared_at IS NOT NULL, cleared_by, cleared_role, note"
            " FROM alarms WHERE id = %s",
            (ident,),
        )[0]


@pytest.fixture(scope="module")
def alarmed(fleet: Fleet, tmp_path_factory: pytest.TempPathFactory) -> Alarmed:
    """T09's journal (a dealt hand, then the shoe's link down and up five times: real station
    rows) forwarded; then an older copy (before the link rows) and a rewritten journal (other
    hands, other times: other hashes from the first row on) offered: a rollback and a fork
    alarm, raised by the ingest."""
    from station.central.console import accounts

    folder = tmp_path_factory.mktemp("t09")
    path = folder / "journal.sqlite"
    fill_journal(path, STATION, ["scripted:1"])
    older = Journal.open(path, clock=SystemClock())
    older_head = older.head()[0]
    older.close()  # merges the WAL: the file alone is the journal
    shutil.copy(path, folder / "older.sqlite")
    journal = Journal.open(path, clock=SystemClock(), station_id=STATION)
    try:
        recorder = Recorder(journal)
        recorder.recover()
        ops = StationOps(recorder)
        for _ in range(5):
            ops.link_down("shoe", "unplugged")
            ops.link_up("shoe", "back")
        head = journal.head()[0]
    finally:
        journal.close()
    fwd = forwarder(fleet.services, path, STATION)
    fwd.start()
    try:
        wait_until(lambda: fwd.status().acked_seq == head, 30, "T09 delivered")
    finally:
        fwd.stop()
    fill_journal(folder / "forged.sqlite", STATION, ["scripted:4"])
    import psycopg

    with psycopg.connect(fleet.cfg.conninfo(), autocommit=True) as conn:
        if accounts.get_account(conn, TECH) is None:
            accounts.add_account(conn, TECH, accounts.Role.TECH, TECH_PASSWORD, by="cli")
    made = Alarmed(fleet, folder, head, older_head)
    made.open_alarm("rollback")
    made.open_alarm("fork")
    return made


def _station(*args: str) -> subprocess.CompletedProcess[str]:
    """`station central ARGS` as a process (the other tests run it in this one: `station_cli`)."""
    return subprocess.run(
        [sys.executable, "-m", "station", "central", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip


@pytest.fixture
def config(alarmed: Alarmed, tmp_path: Path) -> Path:
    written: Path = alarmed.fleet.services.write_central_toml(tmp_path / "central.toml")
    return written


def _clear(client: httpx.Client, csrf: str, fleet: Fleet, ident: int, reason: str) -> Any:
    return client.post(
        f"/tables/{STATION}/alarms/{ident}/clear",
        data={"csrf": csrf, "reason": reason},
        headers={"origin": fleet.console_url},
    )


def _audit(fleet: Fleet, ident: int) -> list[tuple[Any, ...]]:
    return fleet.query(
        "SELECT account, role, station_id, detail->>'reason', detail->>'via', detail->>'kind'"
        " FROM console_audit WHERE action = 'alarm.cleared' AND target = %s ORDER BY id",
        (str(ident),),
    )


def test_the_alarms_of_a_table_are_listed_with_what_when_and_which_rows(
    alarmed: Alarmed, signed: Any, shots: Path
) -> None:
    rollback = alarmed.open_alarm("rollback")
    fork = alarmed.open_alarm("fork")
    page = signed("flo").page
    tile = page.locator(f"#table-{STATION}")
    assert "CHAIN ALARM" in tile.locator(".state").inner_text()
    page.screenshot(path=str(shots / "console-map-alarm.png"), full_page=True)
    tile.locator("a:has-text('CHAIN ALARM')").click()
    page.wait_for_url(f"**/tables/{STATION}/alarms")
    first = page.locator(f"#alarm-{rollback}").inner_text()
    # what: a rollback; which rows: the station came back at its older head, the centre holds
    # the rows after it
    old, central = alarmed.older_head, alarmed.central_head
    assert "ROLLBACK" in first
    assert f"row {old}" in first
    assert f"the station announced head {old}; the central store holds {central}" in first
    assert "stored:" in first
    assert "Raised" in first
    # the fork keeps the row the station offered next to the stored one
    second = page.locator(f"#alarm-{fork}").inner_text()
    assert "another history" in second
    assert "offered by the station" in second
    assert "stored:" in second
    assert page.locator(f"#alarm-{rollback} button:text('Clear alarm {rollback}')").count() == 1
    page.screenshot(path=str(shots / "console-alarms-open.png"), full_page=True)


def test_a_floor_supervisor_clears_an_alarm_with_a_reason_and_it_stays_as_history(
    alarmed: Alarmed, signed: Any, shots: Path
) -> None:
    fleet = alarmed.fleet
    ident = alarmed.open_alarm("rollback")
    before = len(fleet.query("SELECT id FROM alarms WHERE station_id = %s", (STATION,)))
    page = signed("flo").page
    page.goto(f"{fleet.console_url}/tables/{STATION}/alarms")
    page.wait_for_selector("#live:text('live')")
    form = page.locator(f"#alarm-{ident} form.clear-alarm")
    reason = "older SD card image restored by the technician; checked with the pit boss"
    form.locator("input[name=reason]").fill(reason)
    form.locator("button").click()
    page.wait_for_selector(f"#alarm-{ident}.alarm-cleared")
    shown = page.locator(f"#alarm-{ident}").inner_text()
    assert "CLEARED" in shown
    assert "by flo (floor)" in shown
    assert reason in shown
    assert f"row {alarmed.older_head}" in shown  # what it found is still there
    page.screenshot(path=str(shots / "console-alarm-cleared.png"), full_page=True)

    kind, seq, cleared, by, role, note = alarmed.row(ident)
    assert (kind, seq, cleared, by, role, note) == (
        "rollback",
        alarmed.older_head,
        True,
        "flo",
        "floor",
        reason,
    )
    assert _audit(fleet, ident) == [("flo", "floor", STATION, reason, "console", "rollback")]
    # history: the alarm row is still there, only cleared
    after = len(fleet.query("SELECT id FROM alarms WHERE station_id = %s", (STATION,)))
    assert after == before
    # the map counts only what is open
    page.goto(f"{fleet.console_url}/map")
    open_now = len(alarmed.open_ids("rollback")) + len(alarmed.open_ids("fork"))
    tile = page.locator(f"#table-{STATION}").inner_text()
    if open_now:
        assert f"CHAIN ALARM ({open_now} open)" in tile
    else:
        assert "CHAIN ALARM" not in tile


@pytest.mark.parametrize(("name", "role"), [("aud", "auditor"), ("dan", "dealer")])
def test_a_role_without_the_right_sees_no_form_and_is_refused_403(
    alarmed: Alarmed, name: str, role: str
) -> None:
    fleet = alarmed.fleet
    ident = alarmed.open_alarm("fork")
    client, csrf = sign_in(fleet, name)
    with contextlib.closing(client):
        page = client.get(f"/tables/{STATION}/alarms")
        assert page.status_code == 200
        assert 'class="stack clear-alarm"' not in page.text
        assert f"needs a floor or tech account; you are signed in as {role}" in page.text
        answer = _clear(client, csrf, fleet, ident, "I looked at it")
    assert answer.status_code == 403
    assert f"{role} accounts may not clear chain alarms (only floor and tech accounts may)" in (
        answer.text
    )
    assert alarmed.row(ident)[2] is False  # still open
    assert _audit(fleet, ident) == []


def test_a_clearing_needs_a_reason_the_console_s_token_and_an_open_alarm(
    alarmed: Alarmed,
) -> None:
    fleet = alarmed.fleet
    ident = alarmed.open_alarm("fork")
    client, csrf = sign_in(fleet, "fay")
    with contextlib.closing(client):
        blank = _clear(client, csrf, fleet, ident, "   \n ")
        assert blank.status_code == 400
        assert "give the reason for clearing the alarm" in blank.text
        assert alarmed.row(ident)[2] is False
        forged = _clear(client, "not-the-token", fleet, ident, "a reason")
        assert forged.status_code == 403
        assert alarmed.row(ident)[2] is False
        elsewhere = client.post(
            f"/tables/T01/alarms/{ident}/clear", data={"csrf": csrf, "reason": "wrong table"},
            headers={"origin": fleet.console_url},
        )  # fmt: skip
        assert elsewhere.status_code == 404
        assert client.get("/tables/T99/alarms").status_code == 404
        done = _clear(client, csrf, fleet, ident, "rewritten card image found and kept")
        assert done.status_code == 303
        again = _clear(client, csrf, fleet, ident, "once more")
        assert again.status_code == 409
        assert f"alarm {ident} was already cleared by fay" in again.text
    assert alarmed.row(ident)[3:] == ("fay", "floor", "rewritten card image found and kept")
    assert len(_audit(fleet, ident)) == 1


def test_the_command_line_lists_and_clears_as_a_technician(alarmed: Alarmed, config: Path) -> None:
    fleet = alarmed.fleet
    ident = alarmed.open_alarm("rollback")
    listed = _station("alarms", "list", "--table", STATION, "--open", "--config", str(config))
    assert listed.returncode == 0, listed.stderr
    lines = [line.split("\t") for line in listed.stdout.splitlines()]
    mine = next(f for f in lines if f[0] == str(ident))
    old, central = alarmed.older_head, alarmed.central_head
    assert mine[1:4] == [STATION, "rollback", f"row {old}"]
    assert mine[5] == "OPEN"
    assert mine[6] == f"the station announced head {old}; the central store holds {central}"
    assert all(f[5] == "OPEN" for f in lines)

    reason = "restored image replaced by the current journal; chain verified"
    done = _station(
        "alarms", "clear", str(ident), "--by", TECH, "--reason", reason, "--config", str(config)
    )
    assert done.returncode == 0, done.stderr
    said = f"alarm {ident} (rollback at {STATION}, row {old}) cleared by tom (tech)"
    assert done.stdout.strip() == said
    assert alarmed.row(ident)[2:] == (True, TECH, "tech", reason)
    assert _audit(fleet, ident) == [(TECH, "tech", STATION, reason, "cli", "rollback")]

    history = _station("alarms", "list", "--table", STATION, "--config", str(config))
    cleared = next(f for f in (x.split("\t") for x in history.stdout.splitlines())
                   if f[0] == str(ident))  # fmt: skip
    assert cleared[5].startswith("cleared ")
    assert cleared[5].endswith(f"by tom (tech): {reason}")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["clear", "{id}", "--by", TECH], "--reason: give the reason for clearing the alarm"),
        (["clear", "{id}", "--by", TECH, "--reason", "  "], "--reason: give the reason"),
        (["clear", "{id}", "--reason", "x"], "give --by NAME"),
        (["clear", "--by", TECH, "--reason", "x"], "give the alarm's number"),
        (["clear", "{id}", "--by", "nobody", "--reason", "x"], "no active console account nobody"),
        (
            ["clear", "{id}", "--by", "aud", "--reason", "x"],
            "auditor accounts may not clear chain alarms (only floor and tech accounts may)",
        ),
        (["clear", "999999", "--by", TECH, "--reason", "x"], "no alarm 999999"),
        (["clear", "nine", "--by", TECH, "--reason", "x"], "invalid int value: 'nine'"),
        (["list", "--table", "T99"], "--table: no table T99 in the central store"),
    ],
)
def test_bad_command_line_input_is_exit_2_with_the_reason(
    alarmed: Alarmed, config: Path, args: list[str], message: str, station_cli: StationRun
) -> None:
    ident = alarmed.open_alarm("fork")
    done = station_cli("central", "alarms", *[a.replace("{id}", str(ident)) for a in args],
                       "--config", str(config))  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr
    assert alarmed.row(ident)[2] is False  # nothing cleared


def test_a_cleared_alarm_cannot_be_cleared_again_from_the_shell(
    alarmed: Alarmed, config: Path, station_cli: StationRun
) -> None:
    ident = alarmed.open_alarm("fork")
    args = ["central", "alarms", "clear", str(ident), "--by", "flo", "--config", str(config)]
    assert station_cli(*args, "--reason", "checked").returncode == 0
    again = station_cli(*args, "--reason", "checked twice")
    assert again.returncode == 2
    assert re.search(rf"alarm {ident} was already cleared by flo at .+: checked$", again.stderr)
    assert alarmed.row(ident)[5] == "checked"


def test_the_database_keeps_alarms_never_deleted_and_a_cleared_one_never_changed(
    alarmed: Alarmed,
) -> None:
    import psycopg

    fleet = alarmed.fleet
    ident = alarmed.open_alarm("rollback")
    with pytest.raises(psycopg.errors.RaiseException, match="never changed"):
        fleet.ingest.execute("UPDATE alarms SET seq = 3 WHERE id = %s", (ident,))
    with pytest.raises(psycopg.errors.CheckViolation, match="alarms_cleared_with_reason"):
        fleet.ingest.execute(
            "UPDATE alarms SET cleared_at = now(), cleared_by = 'x' WHERE id = %s", (ident,)
        )
    fleet.ingest.execute(
        "UPDATE alarms SET cleared_at = now(), cleared_by = 'sql', note = 'by hand' WHERE id = %s",
        (ident,),
    )
    with pytest.raises(psycopg.errors.RaiseException, match="stays as it was cleared"):
        fleet.ingest.execute("UPDATE alarms SET note = 'rewritten' WHERE id = %s", (ident,))
    with pytest.raises(psycopg.errors.RaiseException, match="never delete"):
        fleet.ingest.execute("DELETE FROM alarms WHERE id = %s", (ident,))
    assert alarmed.row(ident)[5] == "by hand"
