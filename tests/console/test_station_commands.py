"""The floor console's commands carried out at the station (`station.daemon.fleet_commands`):
journaled by the station's own workflow code as the same rows the table writes, with the
console's command id; a command delivered twice journaled once; what the workflow refuses
(a dealer ruling, a review by the person who ruled, clearing a CALL FLOOR that is not the one
open) answered `refused`, nothing journaled. Real journals in tmp dirs; no network."""

from __future__ import annotations

from typing import Any

from station.daemon.fleet_commands import carry_out, done_row
from station.daemon.operations import StationOps
from station.fleet.messages import Command, ReplyStatus
from station.incidents.workflow import incident, incidents
from station.journal import Journal, Recorder
from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry


def _incident(journal: Journal) -> int:
    row = journal.append(
        [
            Entry(
                Code.DECISION_INCIDENT,
                {"type": "incident", "hand": 1, "rule": "DECK-DUPLICATE-CARD", "seat": None,
                 "ruling": "void", "text": "VOID HAND", "citation": "001-RR11 §3 r4",
                 "events": [], "seats": []},
                "engine", ActorRole.ENGINE, hand=1,
            )
        ]
    )  # fmt: skip
    return row[0].seq


def _cmd(ident: int, kind: str, **body: Any) -> Command:
    return Command(ident, kind, body)


def test_a_ruling_is_journaled_as_the_table_would_with_the_command_id(
    recorder: Recorder,
) -> None:
    journal = recorder.journal
    ident = _incident(journal)
    ops = StationOps(recorder)
    reply = carry_out(
        _cmd(7, "incident.rule", incident=ident, person="flo", role="floor", ruling="void",
             camera="CAM 3"),
        journal, ops,
    )  # fmt: skip
    assert reply.status is ReplyStatus.DONE
    row = journal.row(reply.seq or 0)
    assert row is not None
    assert (row.code, row.actor, row.role) == (Code.INCIDENT_RULED, "flo", "floor")
    d = row.data()
    assert (d["incident"], d["ruling"], d["camera"]) == (ident, "void", "CAM 3")
    assert (d["via"], d["command"]) == ("console", 7)
    assert incident(journal, ident).ruling is not None
    assert done_row(journal, 7) == row.seq


def test_a_command_delivered_twice_is_journaled_once(recorder: Recorder) -> None:
    journal = recorder.journal
    ident = _incident(journal)
    ops = StationOps(recorder)
    command = _cmd(8, "incident.rule", incident=ident, person="flo", role="floor", ruling="void")
    first = carry_out(command, journal, ops)
    again = carry_out(command, journal, ops)
    assert first.status is again.status is ReplyStatus.DONE
    assert again.seq == first.seq
    assert len(incidents(journal)[ident].rulings) == 1


def test_a_dealer_may_not_rule_and_nothing_is_journaled(recorder: Recorder) -> None:
    journal = recorder.journal
    ident = _incident(journal)
    head = journal.head()[0]
    reply = carry_out(
        _cmd(9, "incident.rule", incident=ident, person="dan", role="dealer", ruling="void"),
        journal, StationOps(recorder),
    )  # fmt: skip
    assert reply.status is ReplyStatus.REFUSED
    assert "only a floor person rules" in reply.detail
    assert journal.head()[0] == head


def test_the_person_who_ruled_may_not_review(recorder: Recorder) -> None:
    journal = recorder.journal
    ident = _incident(journal)
    ops = StationOps(recorder)
    carry_out(
        _cmd(1, "incident.rule", incident=ident, person="flo", role="floor", ruling="void"),
        journal, ops,
    )  # fmt: skip
    own = carry_out(_cmd(2, "incident.review", incident=ident, person="flo", role="floor"),
                    journal, ops)  # fmt: skip
    assert own.status is ReplyStatus.REFUSED
    assert "ruled on this incident" in own.detail
    other = carry_out(
        _cmd(3, "incident.review", incident=ident, person="fay", role="floor", note="ok"),
        journal, ops,
    )  # fmt: skip
    assert other.status is ReplyStatus.DONE
    closed = carry_out(_cmd(4, "incident.close", incident=ident, person="ada", role="admin"),
                       journal, ops)  # fmt: skip
    assert closed.status is ReplyStatus.DONE
    assert incident(journal, ident).state.value == "closed"


def test_clearing_call_floor_needs_the_call_that_is_open(recorder: Recorder) -> None:
    journal = recorder.journal
    ops = StationOps(recorder)
    raised = ops.raise_floor_call("dan", ActorRole.DEALER, "FLOOR key")
    assert raised is not None
    wrong = carry_out(
        _cmd(5, "floor.clear", person="flo", role="floor", raised_seq=raised.seq + 100),
        journal, ops,
    )  # fmt: skip
    assert wrong.status is ReplyStatus.REFUSED
    tech = carry_out(_cmd(6, "floor.clear", person="tom", role="technician"), journal, ops)
    assert tech.status is ReplyStatus.REFUSED
    right = carry_out(
        _cmd(10, "floor.clear", person="flo", role="floor", raised_seq=raised.seq), journal, ops
    )
    assert right.status is ReplyStatus.DONE
    assert recorder.op_state().floor_call is None
    cleared = journal.row(right.seq or 0)
    assert cleared is not None
    assert cleared.code == Code.FLOOR_CALL_CLEARED
    assert cleared.data() == {
        "raised_seq": raised.seq, "note": "", "via": "console", "command": 10,
        "console_account": {"name": "flo", "role": "floor", "console": "",
                            "enrolled_here": False},
    }  # fmt: skip


def test_unknown_kinds_and_bad_bodies_are_answered_not_crashed(recorder: Recorder) -> None:
    journal = recorder.journal
    ops = StationOps(recorder)
    assert carry_out(_cmd(1, "table.reboot"), journal, ops).status is ReplyStatus.UNSUPPORTED
    for body in (
        {"incident": "x", "person": "flo", "role": "floor"},
        {"incident": 1, "person": "flo; drop", "role": "floor"},
        {"incident": 1, "person": "flo", "role": "engine"},
        {"incident": 1, "person": "flo", "role": "floor", "ruling": 5},
        {"incident": 999, "person": "flo", "role": "floor", "ruling": "void"},
    ):
        reply = carry_out(Command(2, "incident.rule", body), journal, ops)
        assert reply.status is ReplyStatus.REFUSED, body


def test_a_console_account_unknown_here_is_journaled_as_a_console_account(
    recorder: Recorder,
) -> None:
    """Issue 31 item 9: the person who rules from the console need not be enrolled at this
    station; the row says it was a console account (its name, console role and console) and
    that nobody of that name is enrolled here, instead of passing for a local person."""
    from station.people.staff import add_person

    journal = recorder.journal
    add_person(journal, "ada", ActorRole.ADMIN, "739514", by=None)
    first, second = _incident(journal), _incident(journal)
    ops = StationOps(recorder)
    console = "main console on central-1:8080"
    unknown = carry_out(
        _cmd(11, "incident.rule", incident=first, person="carla", role="floor", ruling="void",
             console=console, console_role="floor"),
        journal, ops,
    )  # fmt: skip
    row = journal.row(unknown.seq or 0)
    assert row is not None
    assert (row.actor, row.role) == ("carla", "floor")
    assert row.data()["console_account"] == {
        "name": "carla", "role": "floor", "console": console, "enrolled_here": False,
    }  # fmt: skip
    known = carry_out(
        _cmd(12, "incident.review", incident=first, person="ada", role="admin",
             console=console, console_role="admin"),
        journal, ops,
    )  # fmt: skip
    row = journal.row(known.seq or 0)
    assert row is not None
    assert row.data()["console_account"]["enrolled_here"] is True
    assert second  # another incident, untouched
