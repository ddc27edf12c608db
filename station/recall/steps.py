"""Hand recall: the journal rows of one hand turned into a frozen, step-by-step `HandRecall`
(burns, board, every action, collections, pots, incidents, prompts, floor calls, rulings).
Pure: the floor screen, `station hands show` and the PHH export all start from this.

A hand's rows are those `station.recall.hand_rows` assigns to it (the one definition every view
uses): its preparation (setup, puck, forced bets), its deal and play, what its ending input
derived, and the station rows that name it (rulings on its incidents). A bet-zone report that
changes nothing (a zone reporting 0 again) is no step. The identity of every card dealt face
down that is not meant to be seen (hole, down, draw and replacement cards, burns, stray and
eliminated cards: `PRIVATE_ROLES`) is marked `private`, unless it came off the shoe face up;
whoever renders a recall decides whether to reveal it, and revealing is a journaled,
credentialed act.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from station.engine.decisions import Action, DealSlot, Decision, DrawRole, HandEnd, Incident, Prompt
from station.formats.payload import PayloadError, decision_from_dict
from station.journal.codes import Code
from station.journal.rows import LogRow

# The cards nobody at the table sees: each view shows them only to a credential, with an audit
# row. The board, up-cards, the button draw, scraps (a boxed card, an unused joker), premature
# cards (turned on the board), chip-race and deck-check cards are seen by all.
PRIVATE_ROLES = frozenset(
    {
        DealSlot.HOLE,
        DealSlot.DOWN,
        DealSlot.DRAW,
        DealSlot.REPLACEMENT,
        DealSlot.BURN,
        DealSlot.STRAY,
        DealSlot.ELIMINATED,
    }
)
_OPS_TEXT = {
    Code.FLOOR_CALL_RAISED: "CALL FLOOR raised",
    Code.FLOOR_CALL_CLEARED: "CALL FLOOR cleared",
    Code.TILT_RAISED: "tilt raised",
    Code.TILT_CLEARED: "tilt cleared",
    Code.LINK_DOWN: "link lost",
    Code.LINK_UP: "link up",
    Code.INCIDENT_RULED: "incident ruled",
    Code.INCIDENT_REVIEWED: "incident reviewed",
    Code.INCIDENT_CLOSED: "incident closed",
    Code.LOGIN: "logged in",
    Code.LOGOUT: "logged out",
    Code.MODE_CHANGED: "mode changed",
    Code.BOOT: "station restarted",
}


class StepKind(StrEnum):
    SETUP = "setup"
    SEAT = "seat"
    BUTTON = "button"
    HAND_START = "hand_start"
    DEAL = "deal"  # a card to a seat (hole, down, up, draw, replacement)
    BURN = "burn"
    BOARD = "board"
    CARD = "card"  # scrap, premature, eliminated, stray, or a draw the engine gave no role
    ACTION = "action"
    ZONE = "zone"  # a zone change the engine did not read as an action
    COLLECT = "collect"
    KEY = "key"
    INCIDENT = "incident"
    PROMPT = "prompt"
    HAND_END = "hand_end"
    FAULT = "fault"
    STATION = "station"  # floor calls, rulings, tilts, links, logins, restarts


@dataclass(frozen=True, slots=True)
class RecallStep:
    seq: int
    utc: str
    kind: StepKind
    text: str  # never holds a private card; renderers add `card` when they may
    seat: int | None = None
    card: str | None = None
    private: bool = False
    decision: Decision | None = None


@dataclass(frozen=True, slots=True)
class HandRecall:
    hand: int
    game: str
    profile: str
    stakes: Mapping[str, int]
    button: int | None
    seats: tuple[int, ...]  # seats dealt in, in seat order
    starting_stacks: Mapping[int, int | None]
    posts: Mapping[int, int]  # live forced bets in front at NEW_HAND (blinds, straddles)
    antes: Mapping[int, int]  # forced bets taken in before NEW_HAND (antes, dead blinds)
    steps: tuple[RecallStep, ...]
    start_utc: str
    end_utc: str
    hand_end: HandEnd | None = None
    incidents: tuple[Incident, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    actions: tuple[Action, ...] = ()
    draws: tuple[DrawRole, ...] = ()
    discards: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # DRAW key seq -> cards
    notes: tuple[str, ...] = ()
    blinds: Mapping[int, str] = field(default_factory=dict)  # seat -> "SB" "BB" "BI" at the start
    straddles: tuple[int, ...] = ()  # seats whose post a STRADDLE or KILL key made a straddle
    carry: int = 0  # money forfeited to this deal by a player of the last (DECK-DEFECT-FREEROLL)

    @property
    def finished(self) -> bool:
        return self.hand_end is not None


_INPUTS = frozenset(
    {
        Code.INPUT_SETUP,
        Code.INPUT_SEAT,
        Code.INPUT_PUCK,
        Code.INPUT_KEY,
        Code.INPUT_DRAW,
        Code.INPUT_ZONE,
        Code.INPUT_CLOCK,
    }
)


def recall_hand(
    span: Sequence[LogRow],
    hand: int,
    *,
    setup: Mapping[str, Any] | None = None,
    previous_stacks: Mapping[int, int | None] | None = None,
) -> HandRecall | None:
    """Build the recall of `hand` from its rows (`hand_rows.rows_of_hand`). `setup` is the
    payload of the last setup line before the hand, `previous_stacks` the stacks the hand started
    from (the previous hand's end or the setup); both come from the journal via
    `hands.load_hand`."""
    if not any(r.hand == hand for r in span):
        return None
    b = _Builder(hand)
    for row in span:
        b.row(row)
    start = b.hand_start or {}
    seats_info: Mapping[str, Mapping[str, Any]] = start.get("seats", {})
    dealt = sorted(int(s) for s, v in seats_info.items() if v.get("status") in ("active", "allin"))
    if not dealt:
        dealt = sorted({d.seat for d in b.draws if d.seat is not None})
    setup = setup or {}
    posts, antes = forced_bets(span, hand)
    starting: dict[int, int | None] = {}
    for s in dealt:
        if previous_stacks is not None and previous_stacks.get(s) is not None:
            starting[s] = previous_stacks[s]
        else:  # not in the last hand's stacks (was away): its stack at the start, before posts
            at_start = _stack_plus_bet(seats_info.get(str(s), {}))
            starting[s] = None if at_start is None else at_start + antes.get(s, 0)
    game = str(start.get("game") or setup.get("game", ""))
    stakes = setup.get("stakes", {})
    for entry in (setup.get("rotation") or {}).get("games", ()):
        if isinstance(entry, Mapping) and entry.get("game") == game and "stakes" in entry:
            stakes = entry["stakes"]  # a mixed game: this game's own stakes
            break
    return HandRecall(
        hand=hand,
        game=game,
        profile=str(start.get("profile") or setup.get("profile", "")),
        stakes={str(k): int(v) for k, v in (start.get("stakes") or stakes).items()},
        button=start.get("button"),
        seats=tuple(dealt),
        starting_stacks=starting,
        posts={s: v for s, v in posts.items() if s in dealt},
        antes={s: v for s, v in antes.items() if s in dealt},
        steps=tuple(b.steps),
        start_utc=span[0].recorded_utc,
        end_utc=span[-1].recorded_utc,
        hand_end=b.hand_end,
        incidents=tuple(b.incidents),
        prompts=tuple(b.prompts),
        actions=tuple(b.actions),
        draws=tuple(b.draws),
        discards=dict(b.discards),
        notes=tuple(b.notes),
        blinds={
            int(seat): str(v["blind"])
            for seat, v in seats_info.items()
            if v.get("blind") and int(seat) in dealt
        },
        straddles=tuple(sorted(b.straddles & set(dealt))),
        carry=int(start.get("carry", 0)),
    )


def forced_bets(span: Sequence[LogRow], hand: int) -> tuple[dict[int, int], dict[int, int]]:
    """(posts, antes) from the zone inputs before the hand's NEW_HAND (docs/session-format.md:
    forced bets are zone amounts before NEW_HAND; antes are taken in before it, blinds stay)."""
    zone: dict[int, int] = {}
    antes: dict[int, int] = {}
    for row in span:
        if row.hand == hand and row.code in _INPUTS:
            break  # NEW_HAND
        if row.code != Code.INPUT_ZONE:
            continue
        d = row.data()
        if "seat" not in d:
            continue  # the rake zone
        seat, amount = int(d["seat"]), int(d["amount"])
        if amount < zone.get(seat, 0):  # taken in by the dealer: an ante, or a dead blind
            antes[seat] = antes.get(seat, 0) + zone[seat] - amount
        zone[seat] = amount
    return {s: a for s, a in zone.items() if a > 0}, antes


def _stack_plus_bet(info: Mapping[str, Any]) -> int | None:
    stack = info.get("stack")
    return None if stack is None else int(stack) + int(info.get("bet", 0))


class _Builder:
    def __init__(self, hand: int) -> None:
        self.hand = hand
        self._steps: list[RecallStep | None] = []
        self.hand_start: dict[str, Any] | None = None
        self.hand_end: HandEnd | None = None
        self.incidents: list[Incident] = []
        self.prompts: list[Prompt] = []
        self.actions: list[Action] = []
        self.draws: list[DrawRole] = []
        self.notes: list[str] = []
        self.discards: dict[int, tuple[str, ...]] = {}
        self.straddles: set[int] = set()  # STRADDLE / KILL keys before the hand started
        self._zones: dict[int, int] = {}  # each bet zone's total as the inputs reported it
        self._input: LogRow | None = None  # the input whose derived rows follow
        self._input_index = -1  # where its own step sits, until a draw role or action explains it

    @property
    def steps(self) -> list[RecallStep]:
        return [s for s in self._steps if s is not None]

    def row(self, row: LogRow) -> None:
        if row.code in _INPUTS:
            self._input, self._input_index = row, len(self._steps)
            if row.code == Code.INPUT_ZONE:
                d = row.data()
                seat = -1 if d.get("zone") is not None else int(d["seat"])  # -1: the rake zone
                amount = int(d["amount"])
                if self._zones.get(seat, 0) == amount:
                    self._input_index = -1  # reports what the zone already held: no step
                    return
                self._zones[seat] = amount
            self._steps.append(_input_step(row))
            if row.code == Code.INPUT_KEY and '"cards"' in row.payload:
                self.discards[row.seq] = tuple(str(c) for c in row.data().get("cards", ()))
            if row.code == Code.INPUT_KEY and self.hand_start is None:
                d = row.data()
                if d.get("key") in ("STRADDLE", "KILL") and isinstance(d.get("seat"), int):
                    self.straddles.add(int(d["seat"]))
            return
        if row.code.startswith("decision."):
            if self._input is not None and row.ref != self._input.seq:
                self._input = None  # derived from an input of another hand
            self._decision(row)
            return
        self._input = None
        if row.code == Code.HAND_START:
            self.hand_start = row.data()
            button = self.hand_start.get("button")
            self._add(row, StepKind.HAND_START, f"hand {row.hand} starts, button s{button}")
        elif row.code == Code.ENGINE_FAULT:
            self._add(row, StepKind.FAULT, f"rules engine fault ({row.data().get('error')})")
        elif row.code in _OPS_TEXT:
            self._add(row, StepKind.STATION, _ops_text(row))

    def _explained(self) -> None:
        if self._input is not None and self._input_index >= 0:
            self._steps[self._input_index] = None

    def _decision(self, row: LogRow) -> None:
        try:
            d = decision_from_dict(row.data())
        except PayloadError:
            self.notes.append(f"seq {row.seq}: unreadable decision")
            return
        match d:
            case DrawRole():
                self._explained()
                self.draws.append(d)
                kind = {DealSlot.BURN: StepKind.BURN, DealSlot.BOARD: StepKind.BOARD}.get(d.role)
                if kind is None:
                    dealt = d.role in (
                        DealSlot.HOLE,
                        DealSlot.DOWN,
                        DealSlot.UP,
                        DealSlot.DRAW,
                        DealSlot.REPLACEMENT,
                    )
                    kind = StepKind.DEAL if dealt and d.seat is not None else StepKind.CARD
                private = d.role in PRIVATE_ROLES and not self._face_up()
                seat = f"s{d.seat} " if d.seat is not None else ""
                second = " 2" if d.board else ""  # a double-board game's second board
                self._add(row, kind, f"{seat}{d.role.value}{second}", d.seat, d.card, private, d)
            case Action():
                self._explained()
                self.actions.append(d)
                amount = f" {d.amount}" if d.amount else ""
                allin = " all-in" if d.allin else ""
                text = f"s{d.seat} {d.action.value}{amount}{allin}"
                self._add(row, StepKind.ACTION, text, d.seat, decision=d)
            case Incident():
                self.incidents.append(d)
                cite = f" [{d.citation}]" if d.citation else ""
                text = f"INCIDENT {d.rule} ({d.ruling.value}){cite}: {d.text}"
                self._add(row, StepKind.INCIDENT, text, d.seat, decision=d)
            case Prompt():
                self.prompts.append(d)
                self._add(row, StepKind.PROMPT, f"prompt: {d.text}", decision=d)
            case HandEnd():
                self.hand_end = d
                self._add(row, StepKind.HAND_END, _end_text(d), decision=d)

    def _face_up(self) -> bool:
        return self._input is not None and '"face_up":true' in self._input.payload

    def _add(
        self,
        row: LogRow,
        kind: StepKind,
        text: str,
        seat: int | None = None,
        card: str | None = None,
        private: bool = False,
        decision: Decision | None = None,
    ) -> None:
        step = RecallStep(row.seq, row.recorded_utc, kind, text, seat, card, private, decision)
        self._steps.append(step)


def _input_step(row: LogRow) -> RecallStep:
    """The step for an input the engine gave no draw role or action (yet)."""
    d = row.data()
    seat = d.get("seat")
    kind, text = StepKind.KEY, ""
    if row.code == Code.INPUT_DRAW:
        card = d.get("card") or d.get("tag")
        face_up = bool(d.get("face_up", False))
        text = "card drawn face up" if face_up else "card drawn face down"
        return RecallStep(row.seq, row.recorded_utc, StepKind.CARD, text, None, card, not face_up)
    if row.code == Code.INPUT_ZONE and d.get("zone") is not None:
        kind, text = StepKind.ZONE, f"{d['zone']} zone {d.get('amount')}"
    elif row.code == Code.INPUT_ZONE:
        if d.get("amount") == 0:
            kind, text = StepKind.COLLECT, f"s{seat} zone collected"
        else:
            kind, text = StepKind.ZONE, f"s{seat} zone {d.get('amount')}"
    elif row.code == Code.INPUT_KEY:
        extra = "".join(f" {k}={d[k]}" for k in ("count", "action", "amount", "to_seat") if k in d)
        at = f" s{seat}" if seat is not None else ""
        text = f"key {d.get('key')}{at}{extra}"
    elif row.code == Code.INPUT_PUCK:
        kind, text = StepKind.BUTTON, f"button puck at s{seat}"
    elif row.code == Code.INPUT_SEAT:
        kind, text = StepKind.SEAT, f"s{seat} {'occupied' if d.get('occupied') else 'empty'}"
    elif row.code == Code.INPUT_SETUP:
        kind, text = StepKind.SETUP, f"table set up: {d.get('game')} {d.get('profile')}"
    return RecallStep(
        row.seq, row.recorded_utc, kind, text, seat if isinstance(seat, int) else None
    )


def _ops_text(row: LogRow) -> str:
    d = row.data()
    detail = d.get("reason") or d.get("tilt") or d.get("device") or d.get("mode") or ""
    if "incident" in d:
        detail = f"#{d['incident']}" + (f": {d['ruling']}" if "ruling" in d else "")
    person = row.role in ("dealer", "floor", "technician", "admin")
    who = f" by {row.actor} ({row.role})" if person else ""
    return f"{_OPS_TEXT[Code(row.code)]}{' ' + str(detail) if detail else ''}{who}"


def _won(won: Mapping[int, int]) -> str:
    return " ".join(f"s{s} {a}" for s, a in sorted(won.items()))


def _end_text(d: HandEnd) -> str:
    pots = "; ".join(
        f"pot {p.amount} won {_won(p.won)}"
        + "".join(f" ({part.name} {part.amount}: {_won(part.won)})" for part in p.parts)
        for p in d.pots
    )
    board = " / ".join(" ".join(b) for b in d.boards) if d.boards else " ".join(d.board) or "-"
    void = " VOID" if d.void else ""
    house = ""
    if d.rake is not None and d.rake.total:
        house += f"; {'time pot' if d.rake.time_pot else 'rake'} {d.rake.total}"
    if d.rake is not None and d.rake.time:
        house += f"; time {' '.join(f's{s} {a}' for s, a in sorted(d.rake.time.items()))}"
    return f"hand ends{void}: board {board}; {pots or 'no pots'}{house}"
