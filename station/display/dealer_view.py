"""The dealer screen's view model: a table snapshot turned into labels and emphasis. Pure.

No geometry here (that is `dealer_layout`): this decides *what* the dealer reads. Every state has
its own words ("TO ACT", "FOLDED", "ALL-IN", "EMPTY"...), so nothing depends on colour alone. The
snapshot never carries a hole card, and nothing here could show one: only the board and stud
up-cards, which are public, become card faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from station.display.model import Suit
from station.display.theme import Edge, Style
from station.engine.decisions import Incident, Ruling
from station.engine.snapshot import SeatStatus, SeatView, TableSnapshot

DASH: Final = "—"

SEAT_STATUS_TEXT: Final[dict[SeatStatus, str]] = {
    SeatStatus.EMPTY: "EMPTY",
    SeatStatus.OUT: "SIT OUT",
    SeatStatus.ACTIVE: "IN HAND",
    SeatStatus.FOLDED: "FOLDED",
    SeatStatus.ALLIN: "ALL-IN",
    SeatStatus.DEAD: "DEAD",
}
TO_ACT_TEXT: Final = "TO ACT"

RULING_TEXT: Final[dict[Ruling, str]] = {
    Ruling.MISDEAL: "MISDEAL",
    Ruling.PLAY_ON: "PLAY ON",
    Ruling.VOID: "HAND VOID",
    Ruling.DEAD_HAND: "DEAD HAND",
    Ruling.STOP: "STOP DEALING",
    Ruling.REPLACE: "REPLACE CARD",
    Ruling.REDEAL: "REDEAL",
    Ruling.CORRECT_BET: "CORRECT THE BET",
    Ruling.FLOOR: "FLOOR RULES",
    Ruling.WARNING: "WARNING",
    Ruling.BURN: "BURN CARD",
    Ruling.TECHNICAL: "EQUIPMENT",
    Ruling.FORFEIT: "FORFEITED",
}

_RANKS: Final = {"T": "10"}
_SUITS: Final = {s.value: s for s in Suit}


class StepState(StrEnum):
    DONE = "done"
    NOW = "now"
    TODO = "todo"


STEP_STATE_TEXT: Final[dict[StepState, str]] = {
    StepState.DONE: "DONE",
    StepState.NOW: "NOW",
    StepState.TODO: "",
}


@dataclass(frozen=True, slots=True)
class StationStatus:
    """What the dealer screen's status strip shows besides the snapshot (from the daemon)."""

    shoe_ok: bool | None = None  # None: not known / no shoe configured
    zones_ok: bool | None = None  # the bet-zone board's link; None: not known / none configured
    role: str = "DEALER"
    alert: str = ""  # play blocked by the station itself ("JOURNAL FULL"): shown before links


@dataclass(frozen=True, slots=True)
class SeatLabel:
    seat: int
    number: str
    status: SeatStatus
    status_text: str
    to_act: bool
    markers: str  # "BTN", "SB", "BTN BB", ...
    stack: str  # chips behind, or a dash when stacks are not tracked
    bet: str  # chips in front; "" when none
    bet_amount: int  # the same as a number (what a small panel ranks its seats by)
    up_cards: tuple[tuple[str, Suit], ...]
    style: Style  # of the status label
    edge: Edge  # of the seat box


@dataclass(frozen=True, slots=True)
class PotLine:
    label: str  # "MAIN", "SIDE 1"
    amount: str
    seats: str  # "SEATS 2 5 7 9"


@dataclass(frozen=True, slots=True)
class IncidentBanner:
    rule: str
    ruling: str
    text: str
    citation: str


@dataclass(frozen=True, slots=True)
class StepLine:
    number: int
    text: str
    state: StepState


@dataclass(frozen=True, slots=True)
class RecoveryBlock:
    rule: str
    steps: tuple[StepLine, ...]


@dataclass(frozen=True, slots=True)
class DealerView:
    title: str  # "HAND 42 · NLHE"
    street: str
    status: str  # "SHOE OK", "SHOE DOWN", ""
    status_alert: bool
    seats: tuple[SeatLabel, ...]
    to_act: str
    to_call: str
    min_raise: str
    max_raise: str
    pot_total: str
    pots: tuple[PotLine, ...]
    board: tuple[tuple[str, Suit], ...]
    next_step: str
    stop_text: str | None  # None: no STOP
    stop_seat: str
    incidents: tuple[IncidentBanner, ...]  # newest first
    recovery: RecoveryBlock | None
    floor_call: bool


def parse_card(code: str) -> tuple[str, Suit] | None:
    """'Ah' -> ('A', SPADES...); 'Td' -> ('10', DIAMONDS); anything else (a joker) -> None."""
    if len(code) != 2 or code[1] not in _SUITS:
        return None
    return _RANKS.get(code[0], code[0]), _SUITS[code[1]]


def _cards(codes: tuple[str, ...]) -> tuple[tuple[str, Suit], ...]:
    return tuple(c for c in (parse_card(code) for code in codes) if c is not None)


def seat_label(seat: SeatView, to_act_seat: int | None) -> SeatLabel:
    to_act = seat.to_act or (to_act_seat is not None and seat.seat == to_act_seat)
    markers = " ".join(m for m in ("BTN" if seat.button else "", seat.blind) if m)
    if to_act:
        text, style, edge = TO_ACT_TEXT, Style.NOW, Edge.TO_ACT
    elif seat.status is SeatStatus.ALLIN:
        text, style, edge = SEAT_STATUS_TEXT[seat.status], Style.INFO, Edge.ALLIN
    elif seat.status in (SeatStatus.EMPTY, SeatStatus.OUT, SeatStatus.FOLDED, SeatStatus.DEAD):
        empty = seat.status is SeatStatus.EMPTY
        text, style = SEAT_STATUS_TEXT[seat.status], Style.DIM
        edge = Edge.EMPTY if empty else Edge.PLAIN
    else:
        text, style, edge = SEAT_STATUS_TEXT[seat.status], Style.BASE, Edge.PLAIN
    empty = seat.status is SeatStatus.EMPTY
    return SeatLabel(
        seat=seat.seat,
        number=str(seat.seat),
        status=seat.status,
        status_text=text,
        to_act=to_act,
        markers=markers,
        stack="" if empty else (DASH if seat.stack is None else str(seat.stack)),
        bet=str(seat.bet) if seat.bet else "",
        bet_amount=seat.bet,
        up_cards=_cards(seat.up),
        style=style,
        edge=edge,
    )


def _title(snap: TableSnapshot) -> str:
    parts = [f"HAND {snap.hand}" if snap.hand else "NO HAND", snap.game.upper()]
    return " · ".join(p for p in parts if p)


def _recovery(snap: TableSnapshot) -> RecoveryBlock | None:
    rec = snap.recovery
    if rec is None:
        return None
    steps = tuple(
        StepLine(
            i + 1,
            text,
            StepState.DONE
            if i < rec.current
            else StepState.NOW
            if i == rec.current
            else StepState.TODO,
        )
        for i, text in enumerate(rec.steps)
    )
    return RecoveryBlock(rec.rule, steps)


def incident_banner(incident: Incident) -> IncidentBanner:
    return IncidentBanner(
        rule=incident.rule,
        ruling=RULING_TEXT.get(incident.ruling, incident.ruling.value.upper()),
        text=incident.text,
        citation=incident.citation,
    )


def link_status(status: StationStatus) -> tuple[str, bool]:
    """The status strip's words and whether they are an alert: what is down, by name (without
    the bet-zone board the station sees no wager, so it is as much a fault as the shoe), else
    "SHOE OK"; nothing when no link is known."""
    if status.alert:
        return status.alert, True
    down = [
        name for name, ok in (("SHOE", status.shoe_ok), ("ZONES", status.zones_ok)) if ok is False
    ]
    if down:  # both: "LINKS DOWN" (the diagnostics screen tells them apart)
        return ("LINKS" if len(down) > 1 else down[0]) + " DOWN", True
    if status.shoe_ok is None and status.zones_ok is None:
        return "", False
    return ("SHOE OK" if status.shoe_ok else "ZONES OK"), False


def dealer_view(snap: TableSnapshot, status: StationStatus | None = None) -> DealerView:
    status = status or StationStatus()
    pots_total = sum(p.amount for p in snap.pots) + sum(s.bet for s in snap.seats)
    betting = snap.to_act is not None
    status_text, status_alert = link_status(status)
    stop = snap.stop
    return DealerView(
        title=_title(snap),
        street=snap.street.upper(),
        status=status_text,
        status_alert=status_alert,
        seats=tuple(seat_label(s, snap.to_act) for s in snap.seats),
        to_act=str(snap.to_act) if betting else DASH,
        to_call=str(snap.to_call) if betting else DASH,
        min_raise=str(snap.min_raise_to) if betting and snap.min_raise_to is not None else DASH,
        max_raise=str(snap.max_raise_to) if betting and snap.max_raise_to is not None else DASH,
        pot_total=str(pots_total),
        pots=tuple(
            PotLine(p.label.upper(), str(p.amount), "SEATS " + " ".join(map(str, p.eligible)))
            for p in snap.pots
        ),
        board=_cards(snap.board),
        next_step=snap.next_step.upper(),
        stop_text=stop.text if stop is not None else None,
        stop_seat=str(stop.seat) if stop is not None and stop.seat is not None else "",
        incidents=tuple(incident_banner(i) for i in reversed(snap.incidents)),
        recovery=_recovery(snap),
        floor_call=snap.floor_call,
    )
