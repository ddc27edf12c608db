"""The games of issue 29 in the resume document (`station.engine.resume`): a table restarted
between hands of a Pineapple, double-board, kill, mixed, draw-high or split game resumes with
all it still shows and reads of them.

`tests/engine/test_resume.py` resumes every rule scenario from every point between hands and
holds the copy to the original; these tests make sure the scenarios reach each of these games'
fields there (so that one dropped from the writer or the reader fails), and that a document read
back gives the ended hand's result (its parts, a pass-out's carried antes) and the table's
state as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from station.engine.resume import between_hands, table_to_doc
from station.engine.resume_read import table_from_doc
from station.engine.table import Table
from station.formats.session import read_session
from tests.scenario_kit import all_scenarios

# Every `part` name of `hand_end` splits (docs/session-format.md, "The `part` names, one list")
# that a split game of the rulebooks gives: a hi-lo pot's halves, a double board's boards, the
# badugi hybrids' hands (004-GN §X-XI) and Drawmaha's Omaha and draw halves in each of its six
# forms (004-GN §VIII "Drawmaha").
PARTS = {
    "high",
    "low",
    "board 1",
    "board 2",
    "low_27",
    "low_a5",
    "badugi",
    "badugi_ace_high",
    "omaha_high",
    "draw_high",
    "draw_low_27",
    "draw_low_a5",
    "draw_badugi",
    "draw_badugi_high",
    "draw_forty_nine",
}


def _json(doc: dict[str, Any]) -> dict[str, Any]:
    back: dict[str, Any] = json.loads(json.dumps(doc, sort_keys=True))
    return back


def _between_hands() -> Iterator[tuple[str, Table, dict[str, Any]]]:
    """Every point between hands of every rule scenario: its table and its document."""
    for sc in all_scenarios():
        table = Table()
        for line in read_session(sc.path).lines:
            table.feed(line.event, seq=line.line, at=line.t)
            if between_hands(table):
                yield sc.name, table, _json(table_to_doc(table))


def _fields(doc: dict[str, Any]) -> set[str]:
    """Which of the games' fields the document holds (not empty)."""
    out = {f"setup.{k}" for k in ("structure", "kill", "rotation") if k in (doc["setup"] or {})}
    out |= {k for k in ("rotation", "carried") if doc[k]}
    out |= {f"kills.{k}" for k, v in doc["kills"].items() if v is not None}
    hand = doc["last_hand"]
    if hand is not None:
        if hand["board2"]:
            out.add("last_hand.board2")
        if any("discarded" in seat for seat in hand["seats"].values()):
            out.add("last_hand.seats.N.discarded")
        out |= {f"result.{k}" for k in ("splits", "carried", "boards") if k in hand["result"]}
    return out


def test_the_games_state_between_hands_is_all_exercised_and_read_back() -> None:
    seen: set[str] = set()
    parts: set[str] = set()
    for name, table, doc in _between_hands():
        fields = _fields(doc)
        if (
            not fields - seen
            and not {
                s["part"] for s in (doc["last_hand"] or {}).get("result", {}).get("splits", [])
            }
            - parts
        ):
            continue  # nothing new here: test_resume.py holds every point to the original
        seen |= fields
        copy = table_from_doc(doc)
        assert copy.snapshot() == table.snapshot(), name
        assert table.hand is None or (
            copy.hand is not None and copy.hand.result == table.hand.result
        ), name
        assert (copy.mix, copy.kills, copy.posting.carried, copy.forfeit.carry) == (
            table.mix,
            table.kills,
            table.posting.carried,
            table.forfeit.carry,
        ), name
        assert copy.setup == table.setup, name
        if doc["last_hand"] is not None:
            parts |= {s["part"] for s in doc["last_hand"]["result"].get("splits", [])}
    assert seen == {
        "setup.structure",
        "setup.kill",
        "setup.rotation",
        "rotation",
        "carried",
        "kills.holder",
        "kills.due",
        "last_hand.board2",
        "last_hand.seats.N.discarded",
        "result.splits",
        "result.carried",
        "result.boards",
    }
    assert parts == PARTS


def test_a_pass_out_resumed_keeps_its_antes_for_the_next_deal() -> None:
    """JACKS-OR-BETTER r1: nobody opened, the antes stay in the pot for the next deal; the
    document's result says so (`carried`), so the resumed screen says NOBODY OPENED and the
    next deal plays for them."""
    for name, table, doc in _between_hands():
        if "carried" not in ((doc["last_hand"] or {}).get("result") or {}):
            continue
        assert table.hand is not None and table.hand.result is not None
        carried = table.hand.result.carried
        assert carried > 0 and doc["last_hand"]["result"]["carried"] == carried, name
        copy = table_from_doc(doc)
        assert copy.hand is not None and copy.hand.result is not None
        assert copy.hand.result.carried == carried, name
        assert copy.forfeit.carry == table.forfeit.carry == carried, name
        return
    raise AssertionError("no scenario ends in a pass-out")
