"""A journal holding what a full rules engine journals for a hand: input rows followed by their
decision rows. Written with the journal's own append (the foundation engine in this tree does not
yet produce betting decisions); used to test recall, incidents and PHH export on the real store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from station.engine.cards import Card
from station.engine.decisions import (
    Action,
    ActionKind,
    DealSlot,
    Decision,
    DrawRole,
    HandEnd,
    Incident,
    PotResult,
    Prompt,
    PromptCode,
    Ruling,
)
from station.engine.events import Draw, InputEvent, Key, KeyPress, Setup, Stakes, Zone
from station.formats.decisions import decision_to_dict
from station.formats.session import event_to_dict
from station.journal.clock import ManualClock
from station.journal.codes import DECISION_CODE_BY_TYPE, INPUT_CODE_BY_TYPE, ActorRole, Code
from station.journal.rows import Entry
from station.journal.store import Journal

A = ActionKind
HOLE = {2: ("Ah", "Kh"), 5: ("7c", "7d"), 7: ("Qs", "Js")}
BOARD = ("Kd", "8s", "3h", "9c", "2h")
BURNS = ("2c", "4d", "5s")
SETUP = Setup("nlhe", "RR11", Stakes(sb=1, bb=2), {2: 200, 5: 200, 7: 200}, button=7)


class Writer:
    def __init__(self, journal: Journal, clock: ManualClock) -> None:
        self.journal = journal
        self.clock = clock
        self.t = 0.0

    def step(
        self,
        event: InputEvent,
        make: Sequence[Any] = (),
        hand: int = 0,
        start: dict[str, Any] | None = None,
    ) -> int:
        """Journal one input and the decisions `make(seq)` builds for it."""
        self.clock.advance(1.0)
        self.t += 1.0
        with self.journal.transaction() as txn:
            seq = txn.next_seq
            payload = event_to_dict(event, self.t)
            code = INPUT_CODE_BY_TYPE[payload["type"]]
            txn.add(Entry(code, payload, "table", ActorRole.DEVICE, hand=hand))
            if start is not None:
                txn.add(Entry(Code.HAND_START, start, "engine", ActorRole.ENGINE, hand, seq))
            for maker in make:
                d: Decision = maker(seq)
                body = decision_to_dict(d)
                txn.add(
                    Entry(
                        DECISION_CODE_BY_TYPE[body["type"]],
                        body,
                        "engine",
                        ActorRole.ENGINE,
                        d.hand,
                        seq,
                    )
                )
        return seq


def act(hand: int, seat: int, kind: ActionKind, amount: int = 0) -> Any:
    return lambda seq: Action(hand, seq, seat, kind, amount)


def role(hand: int, card: str, r: DealSlot, seat: int | None = None, street: int = 0) -> Any:
    return lambda seq: DrawRole(hand, seq, card, r, seat, street)


def write_hand(w: Writer, hand: int, *, setup: bool, incident: bool = True) -> dict[str, int]:
    """Hand `hand` of the example (seats 2, 5, 7; button 7). Returns seqs of note."""
    notes: dict[str, int] = {}
    prev = hand - 1
    if setup:
        w.step(SETUP, hand=prev)
    w.step(Zone(2, 1), [act(hand, 2, A.SMALL_BLIND, 1)], hand=prev)
    w.step(Zone(5, 2), [act(hand, 5, A.BIG_BLIND, 2)], hand=prev)
    seats = {str(s): {"stack": 200, "bet": 0, "status": "active"} for s in (2, 5, 7)}
    start = {"hand": hand, "game": "nlhe", "profile": "RR11", "button": 7, "seats": seats}
    notes["new_hand"] = w.step(KeyPress(Key.NEW_HAND), hand=hand, start=start)
    for i in range(2):
        for seat in (2, 5, 7):
            card = HOLE[seat][i]
            w.step(Draw(Card.parse(card)), [role(hand, card, DealSlot.HOLE, seat)], hand=hand)
    w.step(Zone(7, 6), [act(hand, 7, A.RAISE, 6)], hand=hand)
    w.step(Zone(2, 6), [act(hand, 2, A.CALL, 6)], hand=hand)
    w.step(KeyPress(Key.FOLD, seat=5), [act(hand, 5, A.FOLD)], hand=hand)
    for seat in (2, 5, 7):
        w.step(Zone(seat, 0), hand=hand)
    prompt = [lambda seq: Prompt(hand, "BURN & FLOP", seq, PromptCode.BURN_AND_DEAL)]
    notes["burn"] = w.step(
        Draw(Card.parse(BURNS[0])),
        [role(hand, BURNS[0], DealSlot.BURN, street=1), *prompt],
        hand=hand,
    )
    for card in BOARD[:3]:
        makers = [role(hand, card, DealSlot.BOARD, street=1)]
        if incident and card == "8s":
            makers.append(
                lambda seq: Incident(
                    hand,
                    "DECK-BOXED-SINGLE",
                    Ruling.PLAY_ON,
                    "BOXED CARD",
                    seq,
                    None,
                    (),
                    "001-RR11 §4 r1",
                    (seq,),
                )
            )
        seq = w.step(Draw(Card.parse(card)), makers, hand=hand)
        if card == "8s":
            notes["incident"] = seq
    w.step(KeyPress(Key.CHECK, seat=2), [act(hand, 2, A.CHECK)], hand=hand)
    w.step(Zone(7, 10), [act(hand, 7, A.BET, 10)], hand=hand)
    w.step(Zone(2, 10), [act(hand, 2, A.CALL, 10)], hand=hand)
    for seat in (2, 7):
        w.step(Zone(seat, 0), hand=hand)
    for street, (burn, card) in enumerate(zip(BURNS[1:], BOARD[3:], strict=True), start=2):
        w.step(Draw(Card.parse(burn)), [role(hand, burn, DealSlot.BURN, street=street)], hand=hand)
        w.step(
            Draw(Card.parse(card)),
            [role(hand, card, DealSlot.BOARD, street=street)],
            hand=hand,
        )
        if street == 2:
            w.step(KeyPress(Key.CHECK, seat=2), [act(hand, 2, A.CHECK)], hand=hand)
            w.step(KeyPress(Key.CHECK, seat=7), [act(hand, 7, A.CHECK)], hand=hand)
    w.step(Zone(2, 20), [act(hand, 2, A.BET, 20)], hand=hand)
    w.step(Zone(7, 20), [act(hand, 7, A.CALL, 20)], hand=hand)
    for seat in (2, 7):
        w.step(Zone(seat, 0), hand=hand)
    w.step(KeyPress(Key.TABLED, seat=2), [act(hand, 2, A.SHOW)], hand=hand)
    end = HandEnd(
        hand=hand,
        event=0,
        board=BOARD,
        pots=(PotResult(74, (2, 7), {2: 74}),),
        payouts={2: 74},
        stacks={2: 238, 5: 198, 7: 164},
        shown={2: HOLE[2]},
    )
    notes["end"] = w.step(
        KeyPress(Key.MUCK, seat=7),
        [act(hand, 7, A.MUCK), lambda seq: replace(end, event=seq)],
        hand=hand,
    )
    return notes
