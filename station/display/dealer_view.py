"""The dealer screen's view model: a table snapshot turned into typed labels. Pure.

No geometry here (that is `dealer_layout` and the modules it uses): this decides *what* the
dealer reads. Every state has its own words ("TO ACT", "FOLDED", "ALL-IN", "WAIT BB"...), so
nothing depends on colour alone. Only public cards become card faces (the board, stud up-cards);
the snapshot never carries a hole card.

The view carries typed fields for everything the layout decides on (the seat's state, the
prompt's code, the alert's owner, the pots paid): the layout never reads its own text back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final, assert_never

from station.display import prompt_forms
from station.display.clock_view import ClockLine, between_words, clock_line
from station.display.model import Suit
from station.display.rule_words import cause
from station.display.theme import Edge, Style
from station.engine.decisions import HandEnd, Incident, PromptCode, Ruling
from station.engine.settlement import drop_text
from station.engine.showdown import DRAW_PART
from station.engine.snapshot import (
    AlertOwner,
    NextHandView,
    Phase,
    PostKind,
    PotView,
    SeatStatus,
    SeatView,
    TableSnapshot,
)

DASH: Final = "—"

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


class SeatState(StrEnum):
    """What a seat is doing, as the dealer reads it (each has its own word and look)."""

    TO_ACT = "to_act"
    IN_HAND = "in_hand"
    ALL_IN = "all_in"
    FOLDED = "folded"
    DEAD = "dead"
    WINNER = "winner"  # the hand is over and the seat was paid
    BUSTED = "busted"  # the hand is over and the seat, all in, lost all its chips
    LOST = "lost"  # the hand is over; the seat was in it to the end and was paid nothing
    READY = "ready"  # between hands: dealt in next hand
    WAIT_BB = "wait_bb"  # seated, waiting for the big blind (a new player, missed blinds)
    SITTING_OUT = "sitting_out"  # seated, not dealt in, not waiting for anything we know of
    AWAY = "away"  # chips at the seat, nobody in it
    EMPTY = "empty"


SEAT_WORDS: Final[dict[SeatState, str]] = {
    SeatState.TO_ACT: "TO ACT",
    SeatState.IN_HAND: "IN HAND",
    SeatState.ALL_IN: "ALL-IN",
    SeatState.FOLDED: "FOLDED",
    SeatState.DEAD: "DEAD",
    SeatState.WINNER: "WINNER",
    SeatState.BUSTED: "BUSTED",
    SeatState.LOST: "LOST",
    SeatState.READY: "READY",
    SeatState.WAIT_BB: "WAIT BB",
    SeatState.SITTING_OUT: "SIT OUT",
    SeatState.AWAY: "AWAY",
    SeatState.EMPTY: "EMPTY",
}
# States in which a seat takes no part in the hand on show (dim, dashed where nobody sits).
QUIET: Final = frozenset(
    {
        SeatState.FOLDED,
        SeatState.DEAD,
        SeatState.BUSTED,
        SeatState.LOST,
        SeatState.SITTING_OUT,
        SeatState.AWAY,
        SeatState.EMPTY,
    }
)


class Middle(StrEnum):
    """What lies on the felt in the middle of the table."""

    PLAY = "play"  # the board and the pots
    RESULT = "result"  # the hand is over: who won what (until the next hand's posts go in)
    NEXT_HAND = "next_hand"  # the next hand's button and posts


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
    """What the dealer screen shows besides the snapshot (from the daemon): the links, and what
    the dealer key panel is in the middle of (`hardware.inputs.events.PanelStatus`)."""

    shoe_ok: bool | None = None  # None: not known / no shoe configured
    zones_ok: bool | None = None  # the bet-zone board's link; None: not known / none configured
    role: str = "DEALER"
    alert: str = ""  # play blocked by the station itself ("JOURNAL FULL"): shown before links
    selected: int | None = None  # the seat key pressed last, waiting for the key it goes with
    entry: str = ""  # an entry in progress on the panel ("VERBAL 20", "MISDEAL"), "" for none
    entry_short: str = ""  # the same where that does not fit ("V 20", "MISDEAL?")
    dealer: str = ""  # the person signed in as the table's dealer ("" nobody)
    dealers: tuple[str, ...] = ()  # the active people with role dealer: the sign-in's names
    tournament: str = ""  # the centre's word to the dealer: moves to make, hand-for-hand
    clock_source: str = ""  # EVENT CLOCK, OWN CLOCK SINCE hh:mm, OWN CLOCK ("" no tournament)
    # The session time (`t`) now: the screens count a tournament level's time down from the
    # snapshot's reading with it (the daemon publishes it every second while a tournament runs).
    session_t: float | None = None


@dataclass(frozen=True, slots=True)
class SeatLabel:
    seat: int
    number: str
    state: SeatState
    word: str  # the state in words (SEAT_WORDS)
    to_act: bool
    selected: bool  # the dealer's seat key has picked it
    button: bool
    blind: str  # "SB", "BB", "STR", "BI", or ""
    stack: str  # chips behind; a dash when stacks are not tracked; "" for an empty seat
    bet: str  # chips in front (this street, a post between hands, or what it won); "" none
    bet_amount: int
    up_cards: tuple[tuple[str, Suit], ...]
    style: Style  # of the state word
    edge: Edge  # of the seat box

    @property
    def quiet(self) -> bool:
        return self.state in QUIET


@dataclass(frozen=True, slots=True)
class PotLine:
    label: str  # "MAIN", "SIDE 1"
    amount: str
    seats: tuple[int, ...]  # the seats it is contested by


@dataclass(frozen=True, slots=True)
class IncidentLine:
    rule: str  # the catalog id: for the floor's screens, never drawn on the dealer's
    ruling: str  # in words (RULING_TEXT)
    text: str
    owner: AlertOwner
    seat: int | None
    cause: str = ""  # what happened, in words (`rule_words`)

    @property
    def head(self) -> str:
        """The cause and the ruling in words ("TWO HOLE CARDS EXPOSED: MISDEAL"); the cause
        alone when it says the ruling already ("MISDEAL CALLED BEFORE ACTION")."""
        said = self.cause or cause(self.rule)
        return said if self.ruling in said else f"{said}: {self.ruling}"


@dataclass(frozen=True, slots=True)
class StepLine:
    number: int
    text: str
    state: StepState


@dataclass(frozen=True, slots=True)
class RecoveryBlock:
    rule: str  # the catalog id (not drawn on the dealer's screen)
    ruling: str  # of its newest incident, in words ("" when none is open)
    steps: tuple[StepLine, ...]
    incidents: tuple[IncidentLine, ...]  # its own open incidents, newest first

    @property
    def cause(self) -> str:
        return cause(self.rule)

    @property
    def now(self) -> StepLine | None:
        return next((s for s in self.steps if s.state is StepState.NOW), None)


@dataclass(frozen=True, slots=True)
class NextLine:
    """The prompt in force, or what the state implies (the seat to act), with its short form."""

    code: PromptCode | None  # None: no engine prompt (the view's "ACTION: SEAT n", "NEW HAND")
    text: str
    short: str  # the designed short form ("" when the text is all there is)


@dataclass(frozen=True, slots=True)
class PaidLine:
    """One pot of a finished hand and who it went to."""

    # "MAIN", "SIDE 1", "DROP" (the house's), "UNCALLED", "RETURNED" (a void hand), "CARRIED"
    # (a hand nobody opened: the antes stay in the pot for the next deal), or a part of a pot
    # decided in parts (`part_word`: "HIGH", "BOARD 2 LOW", "OMAHA", "DRAW 49", "BADUGI")
    label: str
    amount: int
    winners: tuple[tuple[int, int], ...]  # (seat, chips), by seat; none: the house's
    named: str = ""  # the winning hand, as the engine named it at the showdown ("" none)


@dataclass(frozen=True, slots=True)
class ResultView:
    hand: int
    void: bool
    pots: tuple[PaidLine, ...]  # each pot, then any uncalled bet handed back
    payouts: tuple[tuple[int, int], ...] = ()  # (seat, chips pushed to it), by seat


@dataclass(frozen=True, slots=True)
class PostLine:
    seat: int
    kind: str  # "SB", "BB", "ANTE"
    amount: int
    posted: bool  # in front already


@dataclass(frozen=True, slots=True)
class BetweenView:
    """The next hand's line-up: button, posts due, missed blinds, who waits for the BB."""

    button: int | None
    posts: tuple[PostLine, ...]
    missed: tuple[tuple[int, int], ...]  # (seat, chips owed)
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerView:
    hand: int  # 0: no hand yet
    game: str  # "NLHE"
    street: str  # "PREFLOP", "" between hands
    phase: Phase
    status: str  # "SHOE OK", "SHOE DOWN", ""
    status_alert: bool
    entry: str  # the panel's entry in progress, in words
    entry_short: str  # ... and shorter, for a small panel's status strip
    selected: int | None  # the seat the panel's seat key picked
    seats: tuple[SeatLabel, ...]
    betting: bool
    to_act: str
    to_call: str
    min_raise: str
    max_raise: str
    pot_total: str
    pots: tuple[PotLine, ...]
    board: tuple[tuple[str, Suit], ...]
    next: NextLine
    stop_text: str | None  # None: no STOP
    stop_seat: int | None
    incidents: tuple[IncidentLine, ...]  # open, newest first, not those of the recovery
    recovery: RecoveryBlock | None
    result: ResultView | None  # the last hand, until the next deal
    between: BetweenView | None  # between hands
    middle: Middle
    floor_call: bool
    dealer: str = ""  # the person signed in as the table's dealer ("" nobody)
    board2: tuple[tuple[str, Suit], ...] = ()  # a double-board game's bottom board
    clock: ClockLine | None = None  # a tournament table's level clock (`clock_view`)

    @property
    def title(self) -> str:
        return f"HAND {self.hand}" if self.hand else "NO HAND"

    @property
    def wrong(self) -> bool:
        """Something the dealer must deal with: a STOP, a recovery, an open incident."""
        return self.stop_text is not None or self.recovery is not None or bool(self.incidents)


def parse_card(code: str) -> tuple[str, Suit] | None:
    """'Ah' -> ('A', HEARTS); 'Td' -> ('10', DIAMONDS); anything else (a joker) -> None."""
    if len(code) != 2 or code[1] not in _SUITS:
        return None
    return _RANKS.get(code[0], code[0]), _SUITS[code[1]]


def _cards(codes: tuple[str, ...]) -> tuple[tuple[str, Suit], ...]:
    if not codes:  # (most seats show no cards: every seat of every frame comes here)
        return ()
    return tuple(c for c in (parse_card(code) for code in codes) if c is not None)


def _look_of(state: SeatState) -> tuple[Style, Edge]:
    match state:
        case SeatState.TO_ACT:
            return Style.NOW, Edge.TO_ACT
        case SeatState.ALL_IN | SeatState.WINNER:
            return Style.INFO, Edge.ALLIN
        case SeatState.EMPTY:
            return Style.DIM, Edge.EMPTY
        case _ if state in QUIET:
            return Style.DIM, Edge.PLAIN
    return Style.BASE, Edge.PLAIN


_LOOKS: Final = {state: _look_of(state) for state in SeatState}  # (looked up for every seat)


_ENDED: Final = frozenset({Phase.BETWEEN, Phase.ENDED})  # a hand over, the next not dealt
_PLAYING: Final = frozenset({SeatStatus.ACTIVE, SeatStatus.ALLIN})


def seat_labels(
    snap: TableSnapshot,
    paid: Mapping[int, int] | None = None,
    selected: int | None = None,
    next_hand: bool = True,
) -> tuple[SeatLabel, ...]:
    """Every seat's label. `paid`: the result on show, (seat, chips) it pushes; `next_hand`:
    the next hand's line-up is on show (not a result): its button, blinds and who is dealt in
    go on the seats between hands."""
    end, ended = snap.result, snap.phase in _ENDED
    end_paid = None if end is None or not ended else tuple(s for s, c in end.payouts.items() if c)
    return _seat_labels(
        snap.seats,
        snap.to_act,
        tuple(paid.items()) if paid else (),
        ended,
        snap.next_hand if next_hand else None,
        end_paid,
        end is not None and end.void,
        snap.waiting,
        selected,
    )


# A frame is drawn many times from one snapshot, and most inputs leave every seat as it was (a
# card, a prompt, an alert): the labels are kept, keyed by everything they are made from.
@lru_cache(maxsize=256)
def _seat_labels(
    seats: tuple[SeatView, ...],
    to_act: int | None,
    paid_items: tuple[tuple[int, int], ...],
    ended: bool,
    between: NextHandView | None,
    end_paid: tuple[int, ...] | None,
    void: bool,
    waiting: tuple[int, ...],
    selected: int | None,
) -> tuple[SeatLabel, ...]:
    """`ended`: the hand is over and the next not dealt; `between`: the next hand's line-up,
    when it is on show; `end_paid`: the seats the hand paid once it is over (None: no hand is
    over, or there is no result)."""
    paid = dict(paid_items)
    blinds: dict[int, str] = {}  # the next hand's blind of each seat (its first post)
    lineup = between if ended else None
    if between is not None:
        waiting = (*waiting, *between.waiting)
        for post in between.posts:
            if post.kind is not PostKind.ANTE:
                blinds.setdefault(post.seat, post.kind.value)
    return tuple(
        _seat_label(seat, to_act, paid, lineup, blinds, end_paid, void, waiting, selected)
        for seat in seats
    )


def _seat_label(
    seat: SeatView,
    to_act: int | None,
    paid: Mapping[int, int],
    lineup: NextHandView | None,
    blinds: Mapping[int, str],
    end_paid: tuple[int, ...] | None,
    void: bool,
    waiting: tuple[int, ...],
    selected: int | None,
) -> SeatLabel:
    """`lineup`: the next hand's line-up, on show between hands (else None)."""
    state = _state(seat, to_act, paid, lineup, end_paid, void, waiting)
    style, edge = _LOOKS[state]
    bet, stack = seat.bet, seat.stack
    button, blind = seat.button, seat.blind
    if state is SeatState.WINNER:
        # What he won is drawn in front of him until the push: behind it, the stack he had
        # before it (the engine's stack already counts it), as with a bet in front of a seat.
        bet = paid[seat.seat]
        stack = None if stack is None else stack - bet
    if lineup is not None:
        # The next hand's positions go on the seats once its posts start going in (or no result
        # is on show); while a result is up, every marker is its own hand's.
        button = seat.seat == lineup.button
        blind = blinds.get(seat.seat, "")
    word = SEAT_WORDS[state]
    if seat.drew is not None and state in (SeatState.IN_HAND, SeatState.ALL_IN):
        word = "PAT" if seat.drew == 0 else f"DREW {seat.drew}"  # DRAW-QUERY
    return SeatLabel(
        seat=seat.seat,
        number=str(seat.seat),
        state=state,
        word=word,
        to_act=state is SeatState.TO_ACT,
        selected=seat.seat == selected,
        button=button,
        blind=blind,
        stack="" if state is SeatState.EMPTY else (DASH if stack is None else str(stack)),
        bet=str(bet) if bet else "",
        bet_amount=bet,
        up_cards=_cards(seat.up),
        style=style,
        edge=edge,
    )


def _state(
    seat: SeatView,
    to_act: int | None,
    paid: Mapping[int, int],
    lineup: NextHandView | None,
    end_paid: tuple[int, ...] | None,
    void: bool,
    waiting: tuple[int, ...],
) -> SeatState:
    if seat.to_act or (to_act is not None and seat.seat == to_act):
        return SeatState.TO_ACT
    if paid.get(seat.seat):
        return SeatState.WINNER
    if lineup is not None:
        if seat.seat in lineup.dealt:
            return SeatState.READY
        if seat.seat in lineup.waiting:
            return SeatState.WAIT_BB
    status = seat.status
    if status is SeatStatus.ALLIN and _busted(seat, end_paid):
        return SeatState.BUSTED
    if paid and not void and status in _PLAYING:
        return SeatState.LOST  # the result is on show and paid him nothing: he lost
    match status:
        case SeatStatus.ACTIVE:
            return SeatState.IN_HAND
        case SeatStatus.ALLIN:
            return SeatState.ALL_IN
        case SeatStatus.FOLDED:
            return SeatState.FOLDED
        case SeatStatus.DEAD:
            return SeatState.DEAD
        case SeatStatus.OUT:
            return SeatState.WAIT_BB if seat.seat in waiting else SeatState.SITTING_OUT
        case SeatStatus.EMPTY:
            return SeatState.AWAY if seat.stack else SeatState.EMPTY
    assert_never(status)


def _busted(seat: SeatView, end_paid: tuple[int, ...] | None) -> bool:
    """All in at a hand that is over and paid it nothing: its chips, tracked or not, all went
    to others (a seat dealt in or waiting for the next hand has said so before this).
    `end_paid`: the seats the hand on show paid, once it is over (None: none is)."""
    return end_paid is not None and seat.seat not in end_paid and not seat.stack


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
    # A STOP the recovery began with is said while it stands: once it is lifted (the betting
    # the premature card came before is complete) its words ("SEAT 4 IS STILL TO ACT", "STOP
    # DEALING") would contradict the step to do now.
    own = tuple(
        incident_line(a.incident, a.owner)
        for a in reversed(snap.alerts)
        if a.owner is AlertOwner.RECOVERY and a.incident.rule == rec.rule
        and (a.incident.ruling is not Ruling.STOP or snap.stop is not None)
    )  # fmt: skip
    return RecoveryBlock(rec.rule, own[0].ruling if own else "", steps, own)


def incident_line(incident: Incident, owner: AlertOwner) -> IncidentLine:
    return IncidentLine(
        rule=incident.rule,
        ruling=RULING_TEXT.get(incident.ruling, incident.ruling.value.upper()),
        text=incident.text,
        owner=owner,
        seat=incident.seat,
        cause=cause(incident.rule),
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


_PART_WORDS: Final[dict[str, str]] = {
    "high": "HIGH",
    "low": "LOW",
    "omaha_high": "OMAHA",
    "low_27": "2-7",
    "low_a5": "A-5",
    "low_a5_8": "LOW",
    "badugi": "BADUGI",
    "badugi_ace_high": "BADUGI",
    "badugi_high": "BADUGI HIGH",
    "forty_nine": "49",
    "high_nines": "HIGH",
    "high_joker": "HIGH",
}


def part_word(name: str) -> str:
    """A pot part's name on the screen (`hand_end` splits' `part`): a hi-lo half or a board
    ("HIGH", "BOARD 2 LOW"), or the hand a part was judged by ("OMAHA", "2-7", "BADUGI");
    Drawmaha's draw half says DRAW ("DRAW 49", "DRAW HIGH") beside the Omaha half."""
    if name.startswith(DRAW_PART):
        return "DRAW " + part_word(name.removeprefix(DRAW_PART))
    return _PART_WORDS.get(name, name.replace("_", " ").upper())


def _result(snap: TableSnapshot) -> ResultView | None:
    end: HandEnd | None = snap.result
    if end is None:
        return None
    if end.void:
        back = tuple(sorted((s, c) for s, c in end.payouts.items() if c))
        return ResultView(snap.hand, True, (PaidLine("RETURNED", sum(c for _, c in back), back),))
    lines: list[PaidLine] = []
    for i, p in enumerate(end.pots):
        name = "MAIN" if i == 0 else f"SIDE {i}"
        if not p.parts or len(end.pots) > 1:
            winners = tuple(sorted((s, c) for s, c in p.won.items() if c))
            lines.append(PaidLine(name, p.amount, winners, p.named))
            continue
        # One pot split in parts (hi-lo halves, a double-board game's boards): one line per
        # part, so the dealer pushes each to its winner ("HIGH 3 TO SEAT 2", "BOARD 2 ...").
        # With side pots each pot keeps one line, its winners' shares (the room it takes).
        for part in p.parts:
            shares = tuple(sorted((s, c) for s, c in part.won.items() if c))
            lines.append(PaidLine(part_word(part.name), part.amount, shares, part.named))
    if end.carried and not end.pots:  # JACKS-OR-BETTER: nobody opened
        lines.append(PaidLine("CARRIED", end.carried, ()))
    won: dict[int, int] = {}
    for p in end.pots:
        for seat, chips in p.won.items():
            won[seat] = won.get(seat, 0) + chips
    if end.rake is not None and end.rake.total:  # the house's cut, out of the pots first
        lines.append(PaidLine("DROP", end.rake.total, ()))
    for seat, paid in sorted(end.payouts.items()):  # an uncalled bet goes back to its owner
        if paid > won.get(seat, 0):
            lines.append(
                PaidLine("UNCALLED", paid - won.get(seat, 0), ((seat, paid - won.get(seat, 0)),))
            )
    return ResultView(snap.hand, False, tuple(lines), tuple(sorted(end.payouts.items())))


def _between(snap: TableSnapshot) -> BetweenView | None:
    nh = snap.next_hand
    if nh is None:
        return None
    posts = tuple(PostLine(p.seat, p.kind.value, p.amount, p.posted >= p.amount) for p in nh.posts)
    return BetweenView(nh.button, posts, nh.missed, nh.waiting)


def _middle(snap: TableSnapshot, result: ResultView | None, between: BetweenView | None) -> Middle:
    """The result until the next hand's posts start going in; then the next hand."""
    if snap.phase not in (Phase.BETWEEN, Phase.ENDED):
        return Middle.PLAY
    posting = between is not None and any(p.posted for p in between.posts)
    if result is not None and not posting:
        return Middle.RESULT
    if between is not None and (between.button is not None or between.posts or between.missed
                                or between.waiting):  # fmt: skip
        return Middle.NEXT_HAND
    return Middle.RESULT if result is not None else Middle.PLAY


# What the dealer does while a link is down: the station cannot see the cards (or the bets), so
# the next step it would name cannot be checked; the shoe keeps every draw and sends it on once
# it is back (nothing is lost), but a card dealt blind is not checked as it comes out.
SHOE_DOWN_NEXT: Final = NextLine(
    None, "SHOE DOWN: STOP DEALING. CHECK THE SHOE'S CABLE, WAIT FOR SHOE OK", "SHOE DOWN: WAIT"
)
ZONES_DOWN_NEXT: Final = NextLine(
    None, "ZONES DOWN: HOLD THE BETTING. CHECK THE ZONE BOARD'S CABLE", "ZONES DOWN: WAIT"
)
_IN_PLAY: Final = frozenset(
    {Phase.DEALING, Phase.BETTING, Phase.DRAWING, Phase.STREET, Phase.SHOWDOWN, Phase.MISDEAL}
)


def _next(
    snap: TableSnapshot, betting: bool, middle: Middle, status: StationStatus | None = None
) -> NextLine:
    """The prompt in force; but while a finished hand's result is on show and its rake is still
    to be dropped, the DROP: the engine says DROP, PUSH and the next hand's posts in one input
    (the last of them is the prompt in force), and the drop comes first, before the push. While a
    hand is on and the shoe (or, in a betting round, the zone board) is down, what to do about
    it: the step the station would name is not one it can follow."""
    if status is not None and snap.phase in _IN_PLAY:
        if status.shoe_ok is False and snap.phase is not Phase.BETTING:
            return SHOE_DOWN_NEXT
        if status.zones_ok is False and snap.phase is Phase.BETTING:
            return ZONES_DOWN_NEXT
    rake = snap.result.rake if snap.result is not None else None
    if snap.drop and rake is not None and middle is Middle.RESULT:
        code = PromptCode.DROP
        return NextLine(code, drop_text(rake), prompt_forms.short_form(code, snap))
    if snap.phase in _BETWEEN:
        # A tournament table between hands: the centre's word to the dealer (a move to make,
        # hand-for-hand), then a break under way and a colour-up still to race, before the
        # next deal's posts (the engine says the break, then the posts at once: they would
        # hide it); never before a step the engine asks for now (the chip race's).
        centre = status.tournament if status is not None else ""
        said = snap.prompt
        posts = said is None or said.code is PromptCode.POST
        t_now = status.session_t if status is not None else None
        words = between_words(snap.tournament, t_now) if posts else None
        texts = [t for t in (centre, words[0] if words else "") if t]
        shorts = [t for t in (tourney_short(centre), words[1] if words else "") if t]
        if texts:
            text = " · ".join(texts)
            if words and said is not None:
                text += f", THEN {said.text}"
            return NextLine(None, text, " · ".join(shorts))
    said = snap.prompt
    if said is not None and said.text == snap.next_step:
        return NextLine(said.code, said.text, prompt_forms.short_form(said.code, snap))
    if betting and snap.to_act is not None:
        return NextLine(None, snap.next_step, "")  # what the TO ACT tile says
    return NextLine(None, snap.next_step, "")


_BETWEEN = frozenset({Phase.IDLE, Phase.BETWEEN, Phase.ENDED})


def tourney_short(text: str) -> str:
    """The NEXT band's short form of the centre's words: MOVE 4 → T07 SEAT 2 · NEW 6 FROM T03 ·
    H4H WAIT."""
    parts = []
    for part in text.split(" · "):
        words = part.split()
        if part.startswith("MOVE SEAT") and len(words) >= 8:
            parts.append(f"MOVE {words[2]} TO {words[5]} SEAT {words[7]}")
        elif part.startswith("NEW PLAYER SEAT") and len(words) >= 6:
            parts.append(f"NEW {words[3]} FROM {words[5]}")
        elif part.startswith("HAND FOR HAND: "):
            parts.append("H4H " + part.removeprefix("HAND FOR HAND: "))
        else:
            parts.append(part)
    return " · ".join(parts)


_NO_STATUS: Final = StationStatus()


def dealer_view(snap: TableSnapshot, status: StationStatus | None = None) -> DealerView:
    status = status or _NO_STATUS
    pots_total = sum(p.amount for p in snap.pots) + sum(s.bet for s in snap.seats)
    betting = snap.to_act is not None
    status_text, status_alert = link_status(status)
    stop = snap.stop
    result = _result(snap)
    between = _between(snap)
    middle = _middle(snap, result, between)
    paid = dict(result.payouts) if result is not None and middle is Middle.RESULT else {}
    recovery = _recovery(snap)
    rec_rule = recovery.rule if recovery is not None else None
    incidents = tuple(
        incident_line(a.incident, a.owner)
        for a in reversed(snap.alerts)
        if a.incident.rule != rec_rule or a.owner is not AlertOwner.RECOVERY
    )
    if snap.result is not None and snap.phase not in (Phase.ENDED, Phase.BETWEEN):
        result = None  # a new deal is under way (defensive: the engine clears it)
    return DealerView(
        hand=snap.hand,
        game=header_game(snap.game),
        street=snap.street.upper(),
        phase=snap.phase,
        status=status_text,
        status_alert=status_alert,
        entry=status.entry,
        entry_short=status.entry_short,
        selected=status.selected,
        dealer=status.dealer,
        seats=seat_labels(snap, paid, status.selected, middle is not Middle.RESULT),
        betting=betting,
        to_act=str(snap.to_act) if betting else DASH,
        to_call=str(snap.to_call) if betting else DASH,
        min_raise=str(snap.min_raise_to) if betting and snap.min_raise_to is not None else DASH,
        max_raise=str(snap.max_raise_to) if betting and snap.max_raise_to is not None else DASH,
        pot_total=str(pots_total),
        pots=_pot_lines(snap.pots),
        board=_cards(snap.board),
        board2=_cards(snap.board2),
        next=_next(snap, betting, middle, status),
        stop_text=stop.text if stop is not None else None,
        stop_seat=stop.seat if stop is not None else None,
        incidents=incidents,
        recovery=recovery,
        result=result,
        between=between,
        middle=middle,
        floor_call=snap.floor_call,
        clock=clock_line(snap.tournament, status.session_t, status.clock_source),
    )


@lru_cache(maxsize=64)  # (the pots change only with the betting)
def _pot_lines(pots: tuple[PotView, ...]) -> tuple[PotLine, ...]:
    return tuple(PotLine(p.label.upper(), str(p.amount), p.eligible) for p in pots)


@lru_cache(maxsize=64)  # (a table's game changes between hands at most)
def header_game(game: str) -> str:
    """The game as the dealer screen's title names it: its id without the betting structure a
    table spreads it at (`drawmaha-high-fl` -> DRAWMAHA HIGH), which the stakes already say."""
    for structure in ("-fl", "-pl", "-nl"):
        if game.endswith(structure):
            game = game[: -len(structure)]
            break
    return game.replace("-", " ").upper()
