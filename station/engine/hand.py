"""One hand: the deal sequence, the betting rounds, the showdown. Pure.

The shoe cannot see where a card goes, so every draw takes the role of the next expected slot
(catalog §1, "deal sequence model"): hole card for seat N, burn, board, stud up/down card, draw
replacement. A draw when no slot is expected is an irregularity (a premature card while betting
is open, a rabbit hunt after the hand). Bets are bet-zone amounts, checks and folds are keys.

Irregularity rules live in `station.engine.irregular`; this module calls into it where the
normal flow meets something it does not expect.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from station.engine import burn_errors, deal_errors, irregular, lowball, stub, stud
from station.engine.betting import BettingRound, Correction, Seat, Wager, WagerKind
from station.engine.cards import Card
from station.engine.decisions import (
    Action,
    ActionKind,
    Decision,
    DrawRole,
    HandEnd,
    Incident,
    PotResult,
    Prompt,
    PromptCode,
    Role,
    Ruling,
)
from station.engine.events import Key, KeyPress, Stakes, VerbalAction
from station.engine.games import Family, GameSpec, Structure
from station.engine.positions import ButtonLayout, button_layout, clockwise_after, stud_order
from station.engine.pots import Pot, build_pots, uncalled
from station.engine.profiles import AbsentKill, Profile
from station.engine.recovery import Expect
from station.engine.rulebook import citation
from station.engine.showdown import Reader, award_pots
from station.engine.snapshot import Phase

STREET_NAMES = {
    Family.FLOP: ("preflop", "flop", "turn", "river"),
    Family.STUD: ("3rd street", "4th street", "5th street", "6th street", "7th street"),
}


@dataclass(slots=True)
class Slot:
    role: Role
    seat: int | None = None
    street: int = 0
    up: bool = False
    k: int = 0  # dealing round of the starting hands (each player's k-th card)


@dataclass(slots=True)
class Hand:
    """A hand from NEW_HAND to the pot being pushed. Create with `Hand.start(...)`."""

    number: int
    spec: GameSpec
    profile: Profile
    stakes: Stakes
    dealt: list[int]  # deal order
    seats: dict[int, Seat]
    button: int | None
    layout: ButtonLayout | None
    committed: dict[int, int]  # live chips in the middle per seat (collected streets)
    dead: dict[int, int]  # dead money per seat (antes): in the main pot, never matched
    phase: Phase = Phase.DEALING
    street: int = 0
    slots: deque[Slot] = field(default_factory=deque)
    cards: dict[int, list[tuple[Card, bool]]] = field(default_factory=dict)  # seat -> (card, up)
    board: list[Card] = field(default_factory=list)
    burns: list[Card] = field(default_factory=list)
    seen: dict[Card, int] = field(default_factory=dict)  # card -> seq of its draw
    tags: dict[str, int] = field(default_factory=dict)  # tag -> seq of its draw
    card_tags: dict[Card, str] = field(default_factory=dict)  # card -> the tag it was read by
    round: BettingRound | None = None
    posts: dict[int, int] = field(default_factory=dict)  # forced bets in front at the deal
    zone: dict[int, int] = field(default_factory=dict)  # physical zone readings
    offset: dict[int, int] = field(default_factory=dict)  # earlier streets' chips still in zones
    tabled: set[int] = field(default_factory=set)
    mucked: set[int] = field(default_factory=set)
    discards: dict[int, list[Card]] = field(default_factory=dict)
    discards_known: dict[int, bool] = field(default_factory=dict)
    draw_requests: dict[int, int] = field(default_factory=dict)  # draw round: seat -> count
    draw_pending: list[int] = field(default_factory=list)  # seats still to receive draw cards
    draw_burned: bool = False
    allin_pending: set[int] = field(default_factory=set)
    declared_raise: set[int] = field(default_factory=set)
    raise_motion: dict[int, int] = field(default_factory=dict)  # TOURN-STRING-BET: first motion
    info_told: set[tuple[int, int, int]] = field(default_factory=set)  # BET-INFO-RIGHTS prompts
    voluntary_actions: int = 0  # misdeal cutoff: actions after the forced bets
    chip_actions: int = 0
    incidents: list[Incident] = field(default_factory=list)
    stop_text: str | None = None
    stop_seat: int | None = None
    last_prompt: str = ""
    result: HandEnd | None = None
    bring_in_seat: int | None = None
    last_aggressor: int | None = None  # of the last betting round played (SHOW-ORDER)
    pusher: int | None = None  # SHOW-ORDER (GN r144): aggressor of a round before a final
    # round without betting (everyone all-in)
    puck: int | None = None  # where the button puck physically sits (None: no puck sensor)
    deal_draws: list[int] = field(default_factory=list)  # seq of each starting-hand card
    street_log: list[tuple[Card | None, Role, int]] = field(default_factory=list)
    draw_owed: list[int] = field(default_factory=list)  # draw round: replacements due after it
    draw_rest: list[tuple[int, int]] = field(default_factory=list)  # DRAW-MAX-CONSECUTIVE
    draw_last_seat: int | None = None  # draw round: the seat given the cards queued last
    round_discards: list[Card] = field(default_factory=list)  # discards of the draw round
    refill: stub.Refill | None = None  # DRAW-LAST-CARD-RESHUFFLE: cards due after a reshuffle
    last_kind: dict[int, ActionKind] = field(default_factory=dict)  # this round, per seat
    chips_due: dict[int, int] = field(default_factory=dict)  # booked but not yet in the zone
    exposed_downcards: set[Card] = field(default_factory=set)  # stud: third card dealt down
    seventh_exposed: int | None = None  # stud: the seat whose seventh card came face up
    stud_state: stud.StudState = field(default_factory=stud.StudState)  # stud bookkeeping
    runs: int = 1  # RIT: the remaining board is dealt this many times
    straddle: int | None = None  # BLIND-STRADDLE: the seat that straddled (acts last preflop)
    absent: set[int] = field(default_factory=set)  # dealt in but not at the seat (seat sensor)
    min_chip: int | None = None  # BET-SMALLEST-CHIP: smallest chip in the forced bets, if seen
    now: float | None = None  # the time carried by the event being handled, if any
    kill_post: tuple[int, int] | None = None  # KILL-POTS: (killer seat, kill amount)
    run_from: int = 0  # RIT: first street dealt again for every board
    shared_board: list[Card] = field(default_factory=list)
    boards: list[list[Card]] = field(default_factory=list)  # finished boards of earlier runs
    last_draw_seq: int = 0
    state: irregular.State = field(default_factory=irregular.State)
    out: list[Decision] = field(default_factory=list)

    # --- construction -------------------------------------------------------------------------

    @staticmethod
    def start(
        *,
        number: int,
        spec: GameSpec,
        profile: Profile,
        stakes: Stakes,
        dealt: list[int],
        stacks: dict[int, int | None],
        button: int | None,
        posts: dict[int, int],
        antes: dict[int, int],
        zone: dict[int, int],
        seq: int,
        puck: int | None = None,
        blinds: tuple[int | None, int] | None = None,
        straddle: int | None = None,
        kill: tuple[int, int] | None = None,
        absent: frozenset[int] = frozenset(),
        min_chip: int | None = None,
    ) -> Hand:
        layout: ButtonLayout | None = None
        if spec.family is Family.STUD:
            order = stud_order(dealt)
        else:
            layout = button_layout(dealt, button if button is not None else max(dealt), blinds)
            order = list(layout.deal_order)
        seats = {s: Seat(s, stacks.get(s)) for s in order}
        hand = Hand(
            number=number,
            spec=spec,
            profile=profile,
            stakes=stakes,
            dealt=order,
            seats=seats,
            button=layout.button if layout else None,
            layout=layout,
            committed=dict.fromkeys(order, 0),
            dead={s: antes.get(s, 0) for s in order},
            posts={s: a for s, a in posts.items() if s in seats and a > 0},
            zone=dict(zone),
            offset={s: zone.get(s, 0) - posts.get(s, 0) for s in order},
            puck=puck,
            straddle=straddle if straddle in seats else None,
            absent={s for s in absent if s in seats},
            min_chip=min_chip,
            kill_post=kill if kill is not None and kill[0] in seats else None,
        )
        for s in order:
            hand.cards[s] = []
            st = seats[s].stack
            if st is not None:
                seats[s].stack = st - antes.get(s, 0)
        hand._plan_initial_deal()
        hand._check_blinds(seq)
        if hand.puck is not None and hand.button is not None and hand.puck != hand.button:
            hand._prompt(seq, f"MOVE THE BUTTON TO SEAT {hand.button}", PromptCode.BUTTON)
        first = order[0]
        hand._prompt(seq, f"DEAL: FIRST CARD TO SEAT {first}", PromptCode.DEAL)
        return hand

    # --- helpers ------------------------------------------------------------------------------

    def _prompt(self, seq: int, text: str, code: PromptCode) -> None:
        self.last_prompt = text
        self.out.append(Prompt(self.number, text, seq, code))

    prompt = _prompt

    def _check_blinds(self, seq: int) -> None:
        """BLIND-POSITIONS: in a two-blind game the seats due for the blinds must have posted."""
        layout, st = self.layout, self.stakes
        if layout is None or not st.sb or not st.bb:
            return
        for seat, amount, name in (
            (layout.small_blind, st.sb, "SMALL BLIND"),
            (layout.big_blind, st.bb, "BIG BLIND"),
        ):
            if seat is not None and seat in self.seats and seat not in self.posts:
                self.incident(
                    seq,
                    "BLIND-POSITIONS",
                    Ruling.CORRECT_BET,
                    f"SEAT {seat} MUST POST THE {name} ({amount}) BEFORE THE DEAL",
                    seat=seat,
                )

    def betting(self) -> bool:
        """A betting round is open (read afresh: handlers may have moved the hand on)."""
        return self.phase is Phase.BETTING

    def cutoff_passed(self) -> bool:
        return irregular.cutoff_passed(self)

    def declare_misdeal(self) -> None:
        self.state.misdeal = True
        self.phase = Phase.MISDEAL
        self.slots.clear()
        self.stop_text = "MISDEAL: RESHUFFLE, THEN PRESS NEW HAND"
        self.stop_seat = None

    def take_back(self, seat: int, card: Card) -> None:
        self.cards[seat] = [(c, up) for c, up in self.cards[seat] if c is not card]

    def reveal(self, seat: int, card: Card | None) -> None:
        """A card of the seat is face up for everyone (stud exposures)."""
        self.cards[seat] = [(c, up or c is card) for c, up in self.cards[seat]]

    def last_card_of(self, seat: int) -> Card | None:
        held = self.cards.get(seat, [])
        return held[-1][0] if held else None

    def deal_index(self, seq: int) -> int | None:
        """1-based position of the draw `seq` among the starting-hand cards."""
        return self.deal_draws.index(seq) + 1 if seq in self.deal_draws else None

    def slots_since(self, seq: int) -> bool:
        return self.last_draw_seq > seq

    def owe_after_round(self, slot: Slot) -> None:
        """DECK-BOXED-LATE: the seat gets its card after the current round of dealing."""
        i = 0
        while i < len(self.slots) and self.slots[i].k <= slot.k and self.slots[i].street == 0:
            i += 1
        self.slots.insert(i, Slot(Role.REPLACEMENT, slot.seat, slot.street, slot.up, slot.k))

    def owe_after_deal(self, seat: int) -> None:
        """The seat gets a replacement card once the starting hands are dealt."""
        self.slots.append(Slot(Role.REPLACEMENT, seat, 0, False, 99))
        if self.phase is Phase.BETTING and self.street == 0:
            self.phase = Phase.DEALING  # the replacement is due before the betting goes on

    def third_card_down(self, seat: int) -> None:
        """EXPOSE-STUD-DOWNCARD-INITIAL: the seat's third-street up-card is dealt down."""
        for slot in self.slots:
            if slot.seat == seat and slot.street == 0 and slot.role is Role.UP:
                slot.role, slot.up = Role.DOWN, False
                return

    def kill(self, seat: int, *, refund_dead: bool, seq: int) -> None:
        """The seat's hand is dead; with `refund_dead` its ante goes back to it."""
        s = self.seats[seat]
        s.folded = True
        if refund_dead and self.dead.get(seat):
            back = self.dead.pop(seat)
            if s.stack is not None:
                s.stack += back
        self.slots = deque(slot for slot in self.slots if slot.seat != seat)
        self.out.append(Action(self.number, seq, seat, ActionKind.FOLD, s.bet))

    def first_to_receive(self, street: int) -> int | None:
        """Stud: the seat dealt first on `street` (the lowest seat still in)."""
        live = self.in_hand()
        return live[0] if live else None

    def seventh_up(self) -> None:
        """004-GN r228: the remaining seventh-street cards are dealt face up."""
        for slot in self.slots:
            if slot.street == 4 and slot.role is Role.DOWN:
                slot.role, slot.up = Role.UP, True

    def empty_seat_between(self) -> bool:
        seats = sorted(self.dealt)
        return any(s not in self.seats for s in range(seats[0] + 1, seats[-1]))

    def incident(
        self,
        seq: int,
        rule: str,
        ruling: Ruling,
        text: str,
        *,
        seat: int | None = None,
        seats: tuple[int, ...] = (),
        events: tuple[int, ...] = (),
    ) -> Incident:
        inc = Incident(
            hand=self.number,
            rule=rule,
            ruling=ruling,
            text=text,
            event=seq,
            seat=seat,
            seats=seats or ((seat,) if seat is not None else ()),
            citation=citation(rule, self.profile.citation_source),
            events=events or (seq,),
        )
        self.incidents.append(inc)
        self.out.append(inc)
        return inc

    def drain(self) -> list[Decision]:
        out, self.out = self.out, []
        return out

    def in_hand(self) -> list[int]:
        return [s for s in self.dealt if not self.seats[s].folded]

    def street_name(self, street: int | None = None) -> str:
        r = self.street if street is None else street
        names = STREET_NAMES.get(self.spec.family)
        if names is not None and r < len(names):
            return names[r]
        return "before the draw" if r == 0 else f"after draw {r}"

    def bet_size(self, street: int) -> int:
        st = self.stakes
        if self.spec.structure is Structure.FIXED_LIMIT:
            small = st.small_bet or st.bb or 1
            big = st.big_bet or 2 * small
            size = big if street >= self.spec.big_bet_from() else small
        else:
            size = st.bb or st.small_bet or st.ante or 1
        if self.kill_post is not None and st.bb:
            # KILL-POTS: a full kill (2x the big blind) doubles the limits, a half kill (1.5x)
            # raises them by half.
            size = size * self.kill_post[1] // st.bb
        return size

    def raise_cap(self) -> int | None:
        if self.spec.structure is not Structure.FIXED_LIMIT:
            return None
        if self.spec.rounds >= 3:
            return self.profile.raise_cap_multi_round
        return self.profile.raise_cap_two_round

    # --- dealing ------------------------------------------------------------------------------

    def _plan_initial_deal(self) -> None:
        if self.spec.family is Family.STUD:
            for k in range(3):
                for s in self.dealt:
                    self.slots.append(Slot(Role.UP if k == 2 else Role.DOWN, s, 0, k == 2, k))
        else:
            for k in range(self.spec.hole_cards):
                for s in self.dealt:
                    self.slots.append(Slot(Role.HOLE, s, 0, False, k))

    def plan_street(self, street: int) -> None:
        """Expected draws for the cards of betting round `street` (> 0)."""
        self.street_log = []
        rec = self.state.recovery
        step = rec.current if rec is not None else None
        burn = not self.state.skip_next_burn and not (step is not None and step.no_burn)
        self.state.skip_next_burn = False
        if rec is not None and step is not None and step.expect is Expect.ELIMINATE:
            for _ in range(rec.eliminate):
                self.slots.append(Slot(Role.ELIMINATED, None, street))
        if self.spec.family is Family.FLOP:
            if burn:
                self.slots.append(Slot(Role.BURN, None, street))
            for _ in range(self.state.extra_burns):  # BURN-ERROR-ANY-STREET
                self.slots.append(Slot(Role.BURN, None, street))
            self.state.extra_burns = 0
            for _ in range(self.spec.board[street - 1]):
                self.slots.append(Slot(Role.BOARD, None, street, True))
        elif self.spec.family is Family.STUD:
            burn, seats, common = stud.street_plan(self, street, burn)
            if burn:
                self.slots.append(Slot(Role.BURN, None, street))
            if common:  # STUD-CARD-SHORTAGE: one common card in the centre
                self.slots.append(Slot(Role.BOARD, None, street, True))
            up = street < 4
            for s in seats:
                self.slots.append(Slot(Role.UP if up else Role.DOWN, s, street, up))

    def on_draw(
        self, card: Card | None, tag: str | None, face_up: bool, back_ok: bool, seq: int
    ) -> None:
        """A card left the shoe. `card` is None for a tag no deck knows."""
        if self.result is not None:
            irregular.after_hand(self, card, seq, back_ok=back_ok)
            return
        if tag is not None and tag in self.tags:
            return  # the same tag read again: a sensor re-read, not a second card
        if not back_ok:
            irregular.foreign_back(self, card, seq)
            return
        if card is not None and card in self.seen:
            irregular.duplicate(self, card, seq)
            return
        if card is not None:
            self.seen[card] = seq
        if tag is not None:
            self.tags[tag] = seq
            if card is not None:
                self.card_tags[card] = tag
        if card is not None and card.is_joker and not self._joker_in_use():
            irregular.joker_not_in_use(self, card, seq)
            return
        if self.state.awaiting_reshuffle:
            irregular.wrong_recovery(self, card, seq)
            return
        if face_up or self.phase is not Phase.DEALING or deal_errors.must_settle_at_next_card(self):
            # During the deal the dealer may still answer BOXED after the next card
            # (DECK-BOXED-LATE); another face-up card or a later street settles the question.
            deal_errors.settle_face_up(self, seq)
        first = self.last_draw_seq == 0
        self.last_draw_seq = seq
        if first and deal_errors.button_check(self, seq):
            self.out.append(DrawRole(self.number, seq, card.code if card else "??", Role.STRAY))
            return
        if self.phase is Phase.MISDEAL or self.result is not None:
            irregular.unexpected_draw(self, card, face_up, seq)
            return
        if not self.slots:
            irregular.unexpected_draw(self, card, face_up, seq)
            return
        slot = self.slots[0]
        if face_up and deal_errors.face_up(self, slot, card, seq):
            return
        self.slots.popleft()
        self.place(slot, card, seq)
        if slot.street == 0 and slot.role in (Role.HOLE, Role.DOWN, Role.UP):
            self.deal_draws.append(seq)
        if not self.slots:
            self._slots_done(seq)
        stub.rit_check(self, seq)

    def _joker_in_use(self) -> bool:
        return self.spec.joker and self.profile.joker_in_use_a5

    def place(self, slot: Slot, card: Card | None, seq: int) -> None:
        """Give a drawn card its role."""
        code = card.code if card is not None else "??"
        if card is not None:
            match slot.role:
                case Role.BURN:
                    self.burns.append(card)
                case Role.BOARD:
                    self.board.append(card)
                case Role.HOLE | Role.DOWN | Role.UP | Role.DRAW | Role.REPLACEMENT:
                    if slot.seat is not None:
                        self.cards[slot.seat].append((card, slot.up))
                case _:
                    pass
        self.out.append(DrawRole(self.number, seq, code, slot.role, slot.seat, slot.street))
        if slot.street > 0:
            self.street_log.append((card, slot.role, seq))

    def street_draws(self) -> list[tuple[Card | None, Role, int]]:
        """(card, role, seq) of the draws placed for the current street's cards."""
        return [x for x in self.street_log if x[1] is not Role.ELIMINATED]

    def relabel_burn_as_board(self, seq: int) -> None:
        """BURN-ERROR-ANY-STREET: the card taken as the burn was turned up and stands."""
        for card, role, s in self.street_log:
            if s == seq and role is Role.BURN and card is not None:
                self.burns.remove(card)
                self.board.append(card)
                self.out.append(
                    DrawRole(self.number, seq, card.code, Role.BOARD, None, self.street)
                )

    def open_short_deal(self, seq: int) -> None:
        """MISDEAL-WRONG-CARD-COUNT: action began with the last starting card still due. The
        first betting round opens; the card keeps its slot and goes to its seat when drawn."""
        self.street = 0
        self._open_round(seq)

    def street_dealt(self, seq: int) -> None:
        """The street's cards are out (after a correction): open its betting round."""
        self.slots.clear()
        irregular.street_cards_done(self)
        self._open_round(seq)

    def _slots_done(self, seq: int) -> None:
        """Every expected card of the current step has been drawn."""
        if self.phase is Phase.DEALING:
            deal_errors.settle_face_up(self, seq)
            if self.phase is not Phase.DEALING or self.slots:
                return  # the answer misdealt the hand or owes a replacement card first
            self.phase = Phase.BETTING
            if self.round is not None:
                return  # a replacement card came in before the betting went on
            self.street = 0
            self._open_round(seq)
        elif self.phase is Phase.DRAWING:
            self._plan_draws(seq)
        elif self.phase is Phase.STREET:
            if self.spec.family is Family.STUD and stud.street_paused(self, seq):
                return  # STUD-CARD-SHORTAGE: the rest of the street comes after a scramble
            irregular.street_cards_done(self)
            self._open_round(seq)

    # --- betting rounds -----------------------------------------------------------------------

    def _open_round(self, seq: int) -> None:
        """Start betting round `self.street` (its cards are out)."""
        self.phase = Phase.BETTING
        street = self.street
        size = self.bet_size(street)
        live = self.in_hand()
        self.last_kind = {}
        self.chips_due = {}
        self.raise_motion = {}
        for s in live:
            seat = self.seats[s]
            seat.bet, seat.acted, seat.level, seat.full_seen = 0, False, 0, 0
        pot = sum(self.committed.values()) + sum(self.dead.values())
        if self.spec.family is Family.STUD and street == 0:
            stud.open_third_street(self)
        if self.spec.family is Family.STUD:
            order = self._stud_order(street)
        elif street == 0:
            assert self.layout is not None
            order = [s for s in self.layout.preflop_order(self._last_forced()) if s in live]
            if self.straddle is not None and self.straddle == self.layout.button:
                # BLIND-STRADDLE (GN r160): with a button straddle the action begins under the
                # gun and the button acts last.
                order = [s for s in order if s != self.straddle] + [self.straddle]
        else:
            assert self.layout is not None
            order = self.layout.postflop_order(live)
        rnd = BettingRound(
            seats=[self.seats[s] for s in order],
            structure=self.spec.structure,
            profile=self.profile,
            bet_size=size,
            pot_before=pot,
            raise_cap=self.raise_cap(),
            min_raise=size,
        )
        self.round = rnd
        if street == 0 and self.spec.family is not Family.STUD:
            self._post_blinds(rnd)
        if street == 0 and self.spec.family is Family.STUD:
            self._announce_bring_in(seq)
        elif self.spec.family is Family.STUD:
            stud.announce_street(self, seq)  # STUD-DEALER-ANNOUNCEMENTS
        if street == 0 and self._absent_policy() is AbsentKill.DEAL_END:
            for gone in sorted(self.absent & set(live)):
                self._kill_absent(gone, seq)
        self._after_action(seq)

    def _absent_policy(self) -> AbsentKill:
        p = self.profile
        if p.tournament:
            return p.absent_kill_tournament
        if self.spec.family is Family.STUD and p.absent_kill_cash is AbsentKill.NEVER:
            # DEAD-ABSENT, stud (001-RR11 §8 r8): "the hand will be killed when the betting
            # reaches your seat".
            return AbsentKill.TURN
        return p.absent_kill_cash

    def _kill_absent(self, seat: int, seq: int) -> None:
        """DEAD-ABSENT / TOURN-ABSENT: the absent player's hand is dead; his forced bets stay in
        the pot and the action goes on as if he had folded."""
        rule = "TOURN-ABSENT" if self.profile.tournament else "DEAD-ABSENT"
        self.incident(
            seq,
            rule,
            Ruling.DEAD_HAND,
            f"SEAT {seat} IS NOT AT THE TABLE: HAND DEAD, KILL IT",
            seat=seat,
        )
        self.absent.discard(seat)
        self.seats[seat].folded = True
        self.slots = deque(slot for slot in self.slots if slot.seat != seat)
        self.out.append(Action(self.number, seq, seat, ActionKind.FOLD, self.seats[seat].bet))

    def tick(self, at: float | None, seq: int) -> None:
        """An event arrived (with its time, when it carries one): run any timer that expired."""
        self.now = at
        if self.state.clock is not None:
            irregular.clock_tick(self, seq)

    def return_to_stub(self, card: Card) -> None:
        """A card went back into the stub (a recovery's reshuffle): it, and its tag, may
        legitimately come out of the shoe again."""
        self.seen.pop(card, None)
        tag = self.card_tags.pop(card, None)
        if tag is not None:
            self.tags.pop(tag, None)

    def seat_sensor(self, seat: int, occupied: bool, seq: int) -> None:
        """A dealt-in player left or came back to his seat."""
        if occupied:
            self.absent.discard(seat)
        elif not self.seats[seat].folded:
            self.absent.add(seat)
            self._after_action(seq)

    def _last_forced(self) -> int | None:
        """The last seat of the run of forced bets after the button (small blind, big blind,
        straddles; a single-blind game has just one): the first round starts after it. Past
        the big blind only a post of at least twice the one before is a straddle: a returning
        player's big blind or a kill acts in turn (BLIND-MISSED, KILL-POTS)."""
        assert self.layout is not None
        order = list(self.layout.deal_order)
        if len(order) == 2:
            return self.layout.big_blind  # heads-up: the button (small blind) acts first
        if self.straddle is not None and self.straddle != self.layout.button:
            return self.straddle
        last, before, past_bb = None, 0, False
        killer = self.kill_post[0] if self.kill_post is not None else None
        for s in order:
            amount = self.posts.get(s, 0)
            if amount <= 0 or s == killer or (past_bb and amount < 2 * before):
                break
            last, before = s, amount
            past_bb = past_bb or s == self.layout.big_blind
        if last is not None:
            return last
        if self.layout.big_blind in self.posts:
            return self.layout.big_blind  # a dead small blind: the big blind is still posted
        return order[-1]  # a button blind, or no blinds: action starts left of the button

    def _post_blinds(self, rnd: BettingRound) -> None:
        bb = self.stakes.bb or 0
        top = 0
        for s, amount in self.posts.items():
            if s in rnd:
                rnd.post(s, amount)
                top = max(top, amount)
                self.zone_for_round(s)
        rnd.max_bet = max(top, bb if self.posts else 0)
        rnd.opened = rnd.max_bet > 0
        if self.straddle is not None and self.straddle in rnd and rnd.raise_cap is not None:
            rnd.raises += 1  # BLIND-STRADDLE (GN r125): a limit straddle counts for the cap
        if self.spec.structure is not Structure.FIXED_LIMIT:
            # A straddle sets a new minimum bring-in: the next raise adds at least that much.
            rnd.min_raise = max(bb, rnd.max_bet)
            if (
                self.spec.structure is Structure.POT_LIMIT
                and self.profile.pl_sb_counts_as_bb
                and self.layout is not None
                and self.layout.small_blind in self.posts
            ):
                rnd.pl_blind_bonus = max(0, bb - self.posts[self.layout.small_blind])
                rnd.big_blind_seat = self.layout.big_blind

    def zone_for_round(self, seat: int) -> None:
        """Align the physical offset so the zone shows offset + booked bet."""
        self.offset[seat] = self.zone.get(seat, 0) - self.seats[seat].bet

    def _stud_order(self, street: int) -> list[int]:
        live = self.in_hand()
        start = stud.round_starter(self, street, live)
        i = self.dealt.index(start)
        ring = self.dealt[i:] + self.dealt[:i]
        return [s for s in ring if s in live]

    def _announce_bring_in(self, seq: int) -> None:
        text = stud.bring_in_prompt(self)
        if text is not None:
            self._prompt(seq, text, PromptCode.ACTION)

    def _after_action(self, seq: int) -> None:
        """Close the round if it is complete; end the hand if one player is left."""
        rnd = self.round
        if rnd is None or self.phase is not Phase.BETTING:
            return
        if len(self.in_hand()) == 1:
            self._collect()
            self._end(seq)
            return
        if self.bring_in_pending():
            return
        if not rnd.complete() and self._absent_policy() is AbsentKill.TURN:
            while (seat := rnd.to_act()) is not None and seat in self.absent:
                self._kill_absent(seat, seq)  # USPA §3.3.2.12: absent when his turn comes
            if len(self.in_hand()) == 1:
                self._collect()
                self._end(seq)
                return
        if not rnd.complete():
            irregular.apply_pending_oot(self, seq)
            self._tell_not_reopened(seq)
            return
        self._collect()
        irregular.round_complete(self, seq)
        self._next_street(seq)

    def _tell_not_reopened(self, seq: int) -> None:
        """BET-INFO-RIGHTS (001-RR11 §2 "Decision-Making" r9): before he acts a player is entitled
        to know whether a wager is big enough to reopen the betting; the station says it when it is
        not, as the action reaches him."""
        rnd = self.round
        if rnd is None or self.phase is not Phase.BETTING or rnd.complete():
            return
        seat = rnd.to_act()
        if seat is None or not rnd.not_reopened(seat):
            return
        told = (self.street, seat, rnd.max_bet)
        if told in self.info_told:
            return
        self.info_told.add(told)
        self._prompt(
            seq,
            f"SEAT {seat}: CALL {rnd.to_call(seat)} OR FOLD - THE BETTING WAS NOT REOPENED",
            PromptCode.ACTION,
        )

    def bring_in_pending(self) -> bool:
        return (
            self.spec.family is Family.STUD
            and self.street == 0
            and self.round is not None
            and self.round.max_bet == 0
            and not self.round.opened
            and self.round.live_count() > 1  # nobody left to bet against: no bring-in
        )

    def after_bring_in(self, seq: int) -> None:
        self._after_action(seq)

    def _collect(self) -> None:
        rnd = self.round
        if rnd is None:
            return
        played = any(seat.acted for seat in rnd.seats)
        if played:
            self.pusher = None
        elif self.last_aggressor is not None:
            self.pusher = self.last_aggressor  # the betting ended on an earlier round
        self.last_aggressor = rnd.last_aggressor
        for seat in rnd.seats:
            self.committed[seat.seat] += seat.bet
            self.offset[seat.seat] = self.offset.get(seat.seat, 0) + seat.bet
            seat.bet = 0

    def _next_street(self, seq: int) -> None:
        if self.street >= self.spec.rounds - 1:
            if len(self.boards) + 1 < self.runs:
                # RIT (004-GN r204): the next board is dealt the same way, from the same street.
                self.boards.append(list(self.board))
                self.board = list(self.shared_board)
                self.street = self.run_from - 1
                self._prompt(seq, f"BOARD {len(self.boards) + 1}:", PromptCode.INFO)
            else:
                self._showdown(seq)
                return
        self.street += 1
        if self.spec.family is Family.STUD:
            stud.check_shortage(self, seq)  # STUD-CARD-SHORTAGE: counted before the street
        rec = self.state.recovery
        if rec is not None and rec.current is not None and rec.current.expect is Expect.RESHUFFLE:
            self.phase = Phase.STREET
            self.state.awaiting_reshuffle = True
            self._prompt(seq, "RESHUFFLE THE STUB, THEN PRESS STUB_RESHUFFLE", PromptCode.RECOVERY)
            return
        self._deal_street(seq)

    def _deal_street(self, seq: int) -> None:
        if self.spec.family is Family.DRAW:
            self._open_draw(seq)
            return
        self.phase = Phase.STREET
        self.plan_street(self.street)
        self._prompt(seq, self._street_prompt(self.street), PromptCode.BURN_AND_DEAL)

    def resume_after_reshuffle(self, seq: int) -> None:
        """STUB_RESHUFFLE done: deal the street the recovery was holding back (or go on with the
        cards already expected: a stub that ran out in the middle of a street or a draw)."""
        if self.state.awaiting_reshuffle:
            self.state.awaiting_reshuffle = False
            if self.phase is Phase.DRAWING:
                self._plan_draws(seq)
            elif not self.slots:
                self._deal_street(seq)

    def _street_prompt(self, street: int) -> str:
        roles = [slot.role for slot in self.slots]
        burn = Role.BURN in roles
        if Role.ELIMINATED in roles:
            n = roles.count(Role.ELIMINATED)
            return f"ELIMINATE {n} CARDS, THEN BURN & DEAL {self.street_name(street).upper()}"
        if self.spec.family is Family.FLOP:
            what = ("FLOP", "TURN", "RIVER")[street - 1]
        else:
            what = f"{self.street_name(street).upper()}"
        return f"BURN & {what}" if burn else f"{what} (NO BURN)"

    def live_players(self) -> int:
        return sum(1 for s in self.in_hand() if not self.seats[s].allin)

    def round_skippable(self) -> bool:
        return self.live_players() <= 1

    # --- draw rounds --------------------------------------------------------------------------

    def _open_draw(self, seq: int) -> None:
        if self.state.predraw is None:
            self.state.predraw = dict(self.committed)  # LOWBALL-SEVENS-RULE
        self.phase = Phase.DRAWING
        self.draw_requests = {}
        self.draw_burned = False
        self.draw_rest, self.draw_last_seat, self.round_discards = [], None, []
        assert self.layout is not None
        self.draw_pending = self.layout.postflop_order(self.in_hand())
        self._prompt(seq, f"DRAW: SEAT {self.draw_pending[0]} FIRST", PromptCode.DEAL)

    def request_draw(self, seat: int, count: int, cards: tuple[Card, ...], seq: int) -> None:
        if self.phase is not Phase.DRAWING or seat not in self.draw_pending:
            irregular.unexpected_key(self, Key.DRAW, seat, seq)
            return
        held = [c for c, _ in self.cards[seat]]
        if cards:
            missing = [c for c in cards if c not in held]
            if missing:
                self.incident(
                    seq,
                    "DRAW-ORDER",
                    Ruling.WARNING,
                    f"SEAT {seat} DISCARDS {' '.join(c.code for c in missing)} IT DOES NOT HOLD",
                    seat=seat,
                )
            else:
                self.cards[seat] = [(c, up) for c, up in self.cards[seat] if c not in cards]
                self.discards.setdefault(seat, []).extend(cards)
                self.round_discards.extend(cards)
        known = bool(cards) or count == 0
        self.discards_known[seat] = self.discards_known.get(seat, True) and known
        self.draw_requests[seat] = count
        self.out.append(Action(self.number, seq, seat, ActionKind.DRAW, count))
        self._plan_draws(seq)

    def _plan_draws(self, seq: int) -> None:
        """Queue the replacement cards of every seat whose request is known, in draw order."""
        if self.slots or self.state.awaiting_reshuffle:
            return
        refill = self.refill
        if refill is not None:
            # DRAW-LAST-CARD-RESHUFFLE: the stub ran out in the middle of a seat's draw.
            if not refill.shuffled:
                refill.shuffled = True
                stub.draw_reshuffle(self, seq)
                return
            self.refill = None
            if refill.burn:
                self.slots.append(Slot(Role.BURN, None, self.street))
            self._queue_draw(refill.seat, refill.count, seq)
            return
        while self.draw_pending:
            seat = self.draw_pending[0]
            if seat not in self.draw_requests:
                return
            count = self.draw_requests[seat]
            self.draw_pending.pop(0)
            if count == 0:
                continue
            # DRAW-MAX-CONSECUTIVE (001-RR11 §11 r10): at most four cards at once; the fifth
            # after everyone else has drawn.
            now = min(count, self.profile.draw_max_consecutive)
            if now < count:
                self.draw_rest.append((seat, count - now))
            burn = False
            if not self.draw_burned:
                self.draw_burned = True
                if self.state.skip_next_burn:
                    self.state.skip_next_burn = False  # an exposed card already is the burn
                else:
                    burn = True
            self._queue_draw(seat, now, seq, burn=burn)
            return
        if self.draw_rest:
            seat, count = self.draw_rest.pop(0)
            # "If the last player wishes to draw five new cards, four are dealt right away, and
            # a card is burned before the player receives a fifth card": never five in a row.
            self._queue_draw(seat, count, seq, burn=self.draw_last_seat == seat)
            return
        if not self.draw_pending and not self.slots and self.draw_owed:
            # EXPOSE-DRAW-ON-THE-DRAW: replacements once everyone has drawn.
            for seat in self.draw_owed:
                self.slots.append(Slot(Role.REPLACEMENT, seat, self.street))
            self.draw_owed = []
            return
        if not self.draw_pending and not self.slots:
            irregular.street_cards_done(self)
            self._open_round(seq)

    def _queue_draw(self, seat: int, count: int, seq: int, *, burn: bool = False) -> None:
        """Queue `count` draw cards for `seat`, after a burn when `burn`; what the stub cannot
        give before its last card waits for a reshuffle (DRAW-LAST-CARD-RESHUFFLE)."""
        need = int(burn) + count
        final = (
            self.street >= self.spec.draws
            and not self.draw_rest
            and not self.draw_owed
            and not any(self.draw_requests.get(s, 1) for s in self.draw_pending)
        )
        fit = stub.draw_fit(self, need, final=final)
        if fit < need:
            burn_now = burn and fit > 0
            now = fit - int(burn_now)
            self.refill = stub.Refill(seat, count - now, burn and not burn_now)
            stub.draw_shortage(self, seat, count, now, seq)
            burn, count = burn_now, now
        if burn:
            self.slots.append(Slot(Role.BURN, None, self.street))
        for _ in range(count):
            self.slots.append(Slot(Role.DRAW, seat, self.street))
        if count:
            self.draw_last_seat = seat
        if not self.slots:
            self._plan_draws(seq)

    # --- wagers from bet zones and keys -------------------------------------------------------

    def on_zone(self, seat: int, amount: int, chips: tuple[int, ...] | None, seq: int) -> None:
        self.zone[seat] = amount
        if self.phase is Phase.MISDEAL:
            return  # chips going back to their owners before the redeal
        deal_errors.settle_face_up(self, seq)
        s = self.seats[seat]
        base = self.offset.get(seat, 0)
        booked = s.bet if self.round is not None and seat in self.round else 0
        due = self.chips_due.get(seat)
        if due is not None:
            if amount < base + due:
                return  # a declared or corrected wager whose chips are still coming in
            del self.chips_due[seat]
        if amount == base + booked:
            return
        if amount < base + booked:
            if amount >= booked:
                self.offset[seat] = amount - booked  # the dealer collecting earlier streets
                return
            self.offset[seat] = 0
            irregular.withdrawal(self, seat, amount, booked, seq)
            return
        total = amount - base
        rnd = self.round
        if (
            rnd is not None
            and self.phase is Phase.BETTING
            and rnd.last_actor == seat
            and self.last_kind.get(seat) is ActionKind.CALL
            and seat not in self.declared_raise
            and total > booked
        ):
            # BET-STRING-RAISE: chips added in a second motion after a call, with no raise
            # declared: only the call stands (001-RR11 §3 r14).
            self.chips_due.pop(seat, None)
            self.incident(
                seq,
                "BET-STRING-RAISE",
                Ruling.CORRECT_BET,
                f"STRING RAISE: ONLY SEAT {seat}'S CALL OF {booked} STANDS. "
                f"TAKE BACK {total - booked}",
                seat=seat,
            )
            return
        if (
            self.phase is Phase.DEALING
            and self.round is None
            and not deal_errors.short_deal(self, seq)
        ):
            return
        if self.phase is Phase.STREET:
            # Chips while a street's cards are still due: the dealer may not have burned.
            handled = bool(self.slots) and burn_errors.missing_burn(self, seq)
            if not self.betting():
                if not handled:
                    irregular.chips_out_of_round(self, seat, total, seq)
                return
        if self.phase is not Phase.BETTING or self.round is None or s.folded:
            irregular.chips_out_of_round(self, seat, total, seq)
            return
        if seat in self.declared_raise and rnd is not None and self._tournament_string(seat):
            if seat not in self.raise_motion:
                if total <= rnd.max_bet:
                    self.raise_motion[seat] = total  # the one motion did not make the raise
                    return
            else:
                self._string_bet(seat, total, base, seq)
                return
        if seat in self.declared_raise and rnd is not None and total <= rnd.max_bet:
            return  # "raise" declared: the chips may come in several moves (001-RR11 §14 r6)
        if chips and self.min_chip:
            total = self._smallest_chip(seat, total, booked, chips, seq)
            if total <= booked:
                return
        self.wager(seat, total, seq, single_chip=chips is not None and len(chips) == 1)

    def _tournament_string(self, seat: int) -> bool:
        """TOURN-STRING-BET: in a big-bet tournament 'raise' without an amount allows one motion."""
        return self.profile.tournament and self.spec.structure is not Structure.FIXED_LIMIT

    def _string_bet(self, seat: int, total: int, base: int, seq: int) -> None:
        """TOURN-STRING-BET (001-RR11 §15 r24): a second motion after 'raise' with no amount is
        a string bet: the declared raise stands at its minimum, the rest goes back."""
        rnd = self.round
        assert rnd is not None
        self.raise_motion.pop(seat, None)
        self.declared_raise.discard(seat)
        target = min(total, rnd.max_bet + rnd.min_raise_size())
        self.incident(
            seq,
            "TOURN-STRING-BET",
            Ruling.CORRECT_BET,
            f"STRING BET: 'RAISE' WITHOUT AN AMOUNT IS ONE MOTION. SEAT {seat} RAISES TO "
            f"{target}, TAKE BACK {total - target}",
            seat=seat,
        )
        self.offset[seat] = base + total - target
        self.wager(seat, target, seq)

    def _smallest_chip(
        self, seat: int, total: int, booked: int, chips: tuple[int, ...], seq: int
    ) -> int:
        """BET-SMALLEST-CHIP: chips smaller than the smallest chip of the forced bets do not
        play, even in quantity (GN: they play for face value all-in). Returns what plays."""
        floor = self.min_chip or 0
        small = sum(c for c in chips if c < floor)
        stack = self.seats[seat].stack
        allin = stack is not None and total >= stack + booked
        if not small or (allin and self.profile.small_chips_play_allin):
            return total
        plays = total - small
        self.offset[seat] = self.offset.get(seat, 0) + small
        self.incident(
            seq,
            "BET-SMALLEST-CHIP",
            Ruling.CORRECT_BET,
            f"CHIPS SMALLER THAN {floor} DO NOT PLAY: SEAT {seat} WAGERS {plays}, "
            f"TAKE BACK {small}",
            seat=seat,
        )
        return plays

    def wager(self, seat: int, total: int, seq: int, *, single_chip: bool = False) -> None:
        rnd = self.round
        assert rnd is not None
        if self.bring_in_pending() and irregular.bring_in(self, seat, total, seq):
            return
        to_act = rnd.to_act()
        if seat != to_act:
            irregular.out_of_turn_wager(self, seat, total, to_act, seq)
            return
        total = lowball.check_raise(self, seat, total, seq)
        if self.spec.family is Family.STUD:
            stud.open_pair_wager(self, total)  # STUD-LIMITS-PER-STREET: open pair, big bet
        allin = seat in self.allin_pending
        declared = seat in self.declared_raise
        result = rnd.wager(
            seat, total, allin=allin, single_chip=single_chip, declared_raise=declared
        )
        self.declared_raise.discard(seat)
        if isinstance(result, Correction):
            self.incident(seq, result.rule, Ruling.CORRECT_BET, result.text, seat=seat)
            return
        self._booked(seat, result, seq)

    def _booked(self, seat: int, w: Wager, seq: int) -> None:
        if w.correction is not None:
            self.incident(seq, w.correction.rule, Ruling.CORRECT_BET, w.correction.text, seat=seat)
        kind = {
            WagerKind.BET: ActionKind.BET,
            WagerKind.RAISE: ActionKind.RAISE,
            WagerKind.CALL: ActionKind.CALL,
            WagerKind.COMPLETE: ActionKind.COMPLETE,
            WagerKind.BRING_IN: ActionKind.BRING_IN,
        }[w.kind]
        self.allin_pending.discard(seat)
        if kind is ActionKind.CALL:
            self.state.calls += 1
        stud.bet_made(self)  # DEAL-STUD-ORDER: a bet kills hands folded without a wager
        self.last_kind[seat] = kind
        physical = self.zone.get(seat, 0) - self.offset.get(seat, 0)
        if physical < w.total:
            self.chips_due[seat] = w.total  # the zone has not caught up with the wager yet
        self.out.append(Action(self.number, seq, seat, kind, w.total, w.allin))
        self.count_action(chips=True)
        self._after_action(seq)

    def count_action(self, *, chips: bool) -> None:
        if self.street == 0:
            self.voluntary_actions += 1
            if chips:
                self.chip_actions += 1

    def fold(self, seat: int, seq: int) -> None:
        rnd = self.round
        stud_hand = self.spec.family is Family.STUD
        if stud_hand and self.bring_in_pending():
            stud.wrong_bring_in_stands(self, seat, seq)
        if rnd is not None and self.phase is Phase.BETTING and seat in rnd:
            to_act = rnd.to_act()
            if seat != to_act:
                irregular.out_of_turn_key(self, Key.FOLD, seat, to_act, seq)
                return
            if stud_hand:
                stud.on_fold(self, seat)
            rnd.fold(seat)
        else:
            if stud_hand:
                stud.on_fold(self, seat)
            self.seats[seat].folded = True
        self.out.append(Action(self.number, seq, seat, ActionKind.FOLD, self.seats[seat].bet))
        self.count_action(chips=False)
        if self.phase is Phase.BETTING:
            self._after_action(seq)
        elif len(self.in_hand()) == 1:
            self._end(seq)
        elif self.phase is Phase.SHOWDOWN:
            self.try_resolve(seq)

    def check(self, seat: int, seq: int) -> None:
        rnd = self.round
        if rnd is None or self.phase is not Phase.BETTING or seat not in rnd:
            irregular.unexpected_key(self, Key.CHECK, seat, seq)
            return
        to_act = rnd.to_act()
        if seat != to_act:
            irregular.out_of_turn_key(self, Key.CHECK, seat, to_act, seq)
            return
        if self.bring_in_pending():
            stud.refuse_check(self, seat, seq)  # STUD-BRINGIN: third street is never checked
            return
        if not rnd.check(seat):
            owe = rnd.to_call(seat)
            self.incident(
                seq,
                "BET-UNDERSIZED-CORRECTION",
                Ruling.CORRECT_BET,
                f"SEAT {seat} CANNOT CHECK: CALL {owe} MORE OR FOLD",
                seat=seat,
            )
            return
        self.out.append(Action(self.number, seq, seat, ActionKind.CHECK, self.seats[seat].bet))
        self.state.checks.add((self.street, seat))
        self.count_action(chips=False)
        self._after_action(seq)

    def key(self, k: KeyPress, seq: int) -> None:
        if k.key not in (Key.BOXED, Key.EXPOSED, Key.FLASH):
            deal_errors.settle_face_up(self, seq)  # any other key answers "exposed"
        if (
            self.phase is Phase.DEALING
            and self.round is None
            and k.key in (Key.FOLD, Key.CHECK)
            and not deal_errors.short_deal(self, seq)
        ):
            return
        if (
            self.phase is Phase.STREET
            and self.slots
            and k.key in (Key.FOLD, Key.CHECK)
            and burn_errors.missing_burn(self, seq)
            and not self.betting()
        ):
            return  # the action found the missing burn; the street is being corrected
        seat = k.seat
        to_act = (
            self.round.to_act() if self.round is not None and self.phase is Phase.BETTING else None
        )
        if seat is None and k.key in (Key.FOLD, Key.CHECK, Key.ALLIN, Key.VERBAL):
            seat = to_act
        if seat is not None and seat not in self.seats:
            irregular.unexpected_key(self, k.key, seat, seq)
            return
        match k.key:
            case Key.FOLD if seat is not None:
                if self.phase is Phase.SHOWDOWN:
                    self.muck(seat, seq)
                else:
                    self.fold(seat, seq)
            case Key.CHECK if seat is not None:
                self.check(seat, seq)
            case Key.ALLIN if seat is not None:
                self.allin(seat, seq)
            case Key.VERBAL if seat is not None:
                self.verbal(seat, k, seq)
            case Key.TABLED if seat is not None:
                self.table_hand(seat, seq)
            case Key.MUCK if seat is not None:
                self.muck(seat, seq)
            case Key.DRAW if seat is not None:
                self.request_draw(seat, k.count or 0, k.cards, seq)
            case Key.RUN_IT:
                self.run_it(k.count or 1, seq)
            case _:
                irregular.key(self, k, seat, seq)

    def allin(self, seat: int, seq: int) -> None:
        rnd = self.round
        s = self.seats[seat]
        if rnd is not None and rnd.last_actor == seat and s.stack is None:
            rnd.mark_allin(seat)  # the chips are already in: they were the whole stack
            return
        self.allin_pending.add(seat)

    def verbal(self, seat: int, k: KeyPress, seq: int) -> None:
        """BET-VERBAL-BINDING: a declaration in turn binds; the chips must follow."""
        match k.action:
            case VerbalAction.FOLD:
                self.fold(seat, seq)
            case VerbalAction.CHECK:
                self.check(seat, seq)
            case VerbalAction.CALL:
                if self.round is not None and self.phase is Phase.BETTING:
                    self.wager(seat, max(self.round.max_bet, self.seats[seat].bet), seq)
            case VerbalAction.ALLIN:
                self.allin_pending.add(seat)
            case VerbalAction.BET | VerbalAction.RAISE | VerbalAction.COMPLETE:
                self.declared_raise.add(seat)
                if k.amount is not None and self.round is not None and self.phase is Phase.BETTING:
                    self.wager(seat, k.amount, seq)
            case None:
                pass

    # --- showdown and the end -----------------------------------------------------------------

    def _showdown(self, seq: int) -> None:
        self.phase = Phase.SHOWDOWN
        self.round = None
        first = irregular.show_first(self)
        self._prompt(seq, f"SHOWDOWN: SEAT {first} SHOWS FIRST", PromptCode.SHOWDOWN)
        self.try_resolve(seq)

    def table_hand(self, seat: int, seq: int) -> None:
        if self.seats[seat].folded:
            irregular.unexpected_key(self, Key.TABLED, seat, seq)
            return
        self.tabled.add(seat)
        self.mucked.discard(seat)
        self.out.append(Action(self.number, seq, seat, ActionKind.SHOW, 0))
        if self.phase is Phase.SHOWDOWN:
            self.try_resolve(seq)

    def muck(self, seat: int, seq: int) -> None:
        if self.phase is Phase.BETTING:
            self.fold(seat, seq)
            return
        self.mucked.add(seat)
        self.tabled.discard(seat)
        self.out.append(Action(self.number, seq, seat, ActionKind.MUCK, 0))
        if self.phase is Phase.SHOWDOWN:
            self.try_resolve(seq)

    def run_it(self, count: int, seq: int) -> None:
        """RUN_IT n: deal the rest of the board n times (004-GN r203-r211; 001-RR11 §14 r17
        "deal twice"): allowed when a player is all-in and no action is pending."""
        cards_out = any(role is not Role.BURN for _, role, _ in self.street_log)
        if (
            self.spec.family is not Family.FLOP
            or count < 2
            or self.runs > 1
            or not self.round_skippable()
            or self.phase is not Phase.STREET
            or cards_out
            or self.street == 0
        ):
            irregular.unexpected_key(self, Key.RUN_IT, None, seq)
            return
        self.runs = count
        self.run_from = self.street
        self.shared_board = list(self.board)
        self._prompt(seq, f"RUN IT {count} TIMES: DEAL BOARD 1", PromptCode.INFO)
        stub.rit_agreed(self, seq)

    def contenders(self) -> list[int]:
        return [s for s in self.in_hand() if s not in self.mucked]

    def try_resolve(self, seq: int, *, force: bool = False) -> None:
        if self.phase is not Phase.SHOWDOWN or self.result is not None:
            return
        left = self.contenders()
        if not force and len(left) > 1 and not all(s in self.tabled for s in left):
            return
        self._end(seq)

    def hands_for_showdown(self) -> dict[int, list[Card]]:
        return {s: [c for c, _ in self.cards[s]] for s in self.dealt}

    def _end(self, seq: int) -> None:
        """Award the pot(s) and close the hand."""
        self._collect()
        self.round = None
        contrib = dict(self.committed)
        payouts: dict[int, int] = {}
        for s, chips in lowball.sevens_rule(self, set(self.contenders()), seq).items():
            contrib[s] -= chips  # LOWBALL-SEVENS-RULE: the action after the draw is void
            payouts[s] = chips
        back_seat, back = uncalled(contrib)
        if back_seat is not None and back > 0:
            contrib[back_seat] -= back
            payouts[back_seat] = payouts.get(back_seat, 0) + back
        live = self.in_hand()
        pots = build_pots(contrib, live, sum(self.dead.values()))
        contenders = set(self.contenders()) or set(live)
        boards = [*self.boards, self.board] if self.boards else [self.board]
        results: list[PotResult] = []
        for pot in pots:
            won: dict[int, int] = {}
            share, odd = divmod(pot.amount, len(boards))
            for i, board in enumerate(boards):
                # CHIP-ODD-RUN-IT-TWICE (004-GN r211): the extra chip goes to the main board.
                part = Pot(share + (odd if i == 0 else 0), pot.eligible)
                reader = Reader.of(self.spec, self.hands_for_showdown(), board)
                (a,) = award_pots(
                    [part],
                    contenders,
                    reader,
                    profile=self.profile,
                    button=self.button,
                    unit=self.profile.odd_chip_unit or self.min_chip or 1,
                )
                for s, chips in a.won.items():
                    won[s] = won.get(s, 0) + chips
            results.append(PotResult(pot.amount, pot.eligible, won))
            for s, chips in won.items():
                payouts[s] = payouts.get(s, 0) + chips
        self._finish(seq, tuple(results), payouts, void=False)

    def void(self, seq: int) -> None:
        """All action void: every chip goes back to the seat that put it in."""
        self._collect()
        self.round = None
        payouts = {
            s: self.committed[s] + self.dead.get(s, 0)
            for s in self.dealt
            if self.committed[s] + self.dead.get(s, 0) > 0
        }
        self._finish(seq, (), payouts, void=True)

    def _finish(
        self, seq: int, pots: tuple[PotResult, ...], payouts: dict[int, int], *, void: bool
    ) -> None:
        stacks: dict[int, int | None] = {}
        for s in self.dealt:
            st = self.seats[s].stack
            stacks[s] = None if st is None else st + payouts.get(s, 0)
        shown = {
            s: tuple(c.code for c, _ in self.cards[s])
            for s in self.dealt
            if s in self.tabled and not self.seats[s].folded
        }
        all_boards = [*self.boards, self.board] if self.boards else []
        first = all_boards[0] if all_boards else self.board
        self.result = HandEnd(
            hand=self.number,
            event=seq,
            board=tuple(c.code for c in first),
            boards=tuple(tuple(c.code for c in b) for b in all_boards),
            pots=pots,
            payouts=payouts,
            void=void,
            stacks=stacks,
            shown=shown,
        )
        self.phase = Phase.ENDED
        self.slots.clear()
        self.stop_text = None
        self.out.append(self.result)
        if payouts and not void:
            best = max(payouts.items(), key=lambda kv: kv[1])
            self._prompt(seq, f"PUSH: SEAT {best[0]} RECEIVES {best[1]}", PromptCode.COLLECT)

    def finish(self, seq: int) -> None:
        """End of input: settle a showdown the dealer did not key."""
        if self.result is None and self.phase is Phase.SHOWDOWN:
            self.try_resolve(seq, force=True)

    def seats_clockwise_from_button(self, seats: list[int]) -> list[int]:
        return clockwise_after(seats, self.button if self.button is not None else 0)
