"""One hand, from NEW_HAND to the pot being pushed: its state and its entry points. Pure.

The shoe cannot see where a card goes, so every draw takes the role of the next expected slot
(catalog §1, "deal sequence model"): hole card for seat N, burn, board, stud up/down card, draw
replacement. A draw when no slot is expected is an irregularity (a premature card while betting
is open, a rabbit hunt after the hand). Bets are bet-zone amounts, checks and folds are keys.

`Hand` holds the state and the small queries and slot edits the rule modules share; the flow
lives in modules of one concept each, which the entry points here call:

- `deal_plan` (the slots expected next), `deal_sequence` (each draw takes its slot's role),
  `draw_round` (the draw of draw games);
- `rounds` (betting rounds: open, close, next street), `wagers` (bet-zone readings become
  wagers), `actions` (keys: fold, check, verbal, show, muck, run it);
- `settlement` (showdown, awards, a void hand).

Irregularity rules live in `station.engine.irregular`, `deal_errors` and `burn_errors`, the rules
of particular games and of the stub in `stud`, `lowball` and `stub`; the flow calls into them
where it meets something it does not expect.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

from station.engine import (
    actions,
    deal_plan,
    deal_sequence,
    irregular,
    rounds,
    settlement,
    wagers,
)
from station.engine.betting import Seat
from station.engine.cards import Card
from station.engine.decisions import (
    Action,
    ActionKind,
    Decision,
    HandEnd,
    Incident,
    Prompt,
    PromptCode,
    Role,
    Ruling,
)
from station.engine.events import KeyPress, Stakes
from station.engine.games import Family, GameSpec, Structure
from station.engine.hand_state import (
    Alerts,
    Bets,
    Chips,
    Conduct,
    Deal,
    Draws,
    Faults,
    Repair,
    Showdown,
    StudState,
    Terms,
)
from station.engine.positions import ButtonLayout, button_layout, clockwise_after, stud_order
from station.engine.profiles import Profile
from station.engine.rake import RakeSchedule
from station.engine.rulebook import citation
from station.engine.snapshot import Phase

STREET_NAMES = {
    Family.FLOP: ("preflop", "flop", "turn", "river"),
    Family.STUD: ("3rd street", "4th street", "5th street", "6th street", "7th street"),
}


@dataclass(slots=True)
class Hand:
    """A hand from NEW_HAND to the pot being pushed. Create with `Hand.start(...)`.

    The state is made of parts, one per concern (`station.engine.hand_state`): each part is
    written by the module its docstring names."""

    number: int
    spec: GameSpec
    profile: Profile
    dealt: list[int]  # deal order
    seats: dict[int, Seat]
    layout: ButtonLayout | None
    terms: Terms
    chips: Chips
    phase: Phase = Phase.DEALING
    street: int = 0
    result: HandEnd | None = None
    deal: Deal = field(default_factory=Deal)
    bets: Bets = field(default_factory=Bets)
    show: Showdown = field(default_factory=Showdown)
    draws: Draws = field(default_factory=Draws)
    stud: StudState = field(default_factory=StudState)
    faults: Faults = field(default_factory=Faults)
    repair: Repair = field(default_factory=Repair)
    conduct: Conduct = field(default_factory=Conduct)
    alerts: Alerts = field(default_factory=Alerts)
    out: list[Decision] = field(default_factory=list)

    @property
    def button(self) -> int | None:
        return self.layout.button if self.layout is not None else None

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
        carry: int = 0,
        rake: RakeSchedule | None = None,
        time_paid: dict[int, int] | None = None,
        time_owed: int = 0,
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
            dealt=order,
            seats=seats,
            layout=layout,
            terms=Terms(
                stakes=stakes,
                straddle=straddle if straddle in seats else None,
                kill_post=kill if kill is not None and kill[0] in seats else None,
                min_chip=min_chip,
                carry=carry,
                rake=rake,
                time_paid=dict(time_paid or {}),
                time_owed=time_owed,
            ),
            chips=Chips(
                committed=dict.fromkeys(order, 0),
                dead={s: antes.get(s, 0) for s in order},
                posts={s: a for s, a in posts.items() if s in seats and a > 0},
                zone=dict(zone),
                offset={s: zone.get(s, 0) - posts.get(s, 0) for s in order},
            ),
        )
        hand.deal.puck = puck
        hand.bets.absent = {s for s in absent if s in seats}
        chips = hand.chips
        for s in order:
            hand.deal.cards[s] = []
            st = seats[s].stack
            if st is not None:
                seats[s].stack = st - antes.get(s, 0)
                post = chips.posts.get(s)
                if post is not None and post > max(0, st - antes.get(s, 0)):
                    # A forced bet larger than the stack is the whole stack; the rest in the
                    # zone is his own (it would be paid back as chips he never had).
                    chips.posts[s] = max(0, st - antes.get(s, 0))
                    chips.offset[s] = chips.zone.get(s, 0) - chips.posts[s]
        deal_plan.plan_initial_deal(hand)
        rounds.check_blinds(hand, seq)
        if hand.deal.puck is not None and hand.button is not None and hand.deal.puck != hand.button:
            hand.prompt(seq, f"MOVE THE BUTTON TO SEAT {hand.button}", PromptCode.BUTTON)
        first = order[0]
        hand.prompt(seq, f"DEAL: FIRST CARD TO SEAT {first}", PromptCode.DEAL)
        return hand

    # --- helpers ------------------------------------------------------------------------------

    def prompt(self, seq: int, text: str, code: PromptCode) -> None:
        self.alerts.last_prompt = text
        self.out.append(Prompt(self.number, text, seq, code))

    def betting(self) -> bool:
        """A betting round is open (read afresh: handlers may have moved the hand on)."""
        return self.phase is Phase.BETTING

    def cutoff_passed(self) -> bool:
        return irregular.cutoff_passed(self)

    def declare_misdeal(self) -> None:
        self.alerts.misdeal = True
        self.phase = Phase.MISDEAL
        self.deal.slots.clear()
        self.alerts.stop_text = "MISDEAL: RESHUFFLE, THEN PRESS NEW HAND"
        self.alerts.stop_seat = None

    def take_back(self, seat: int, card: Card) -> None:
        self.deal.cards[seat] = [(c, up) for c, up in self.deal.cards[seat] if c is not card]

    def reveal(self, seat: int, card: Card | None) -> None:
        """A card of the seat is face up for everyone (stud exposures)."""
        self.deal.cards[seat] = [(c, up or c is card) for c, up in self.deal.cards[seat]]

    def last_card_of(self, seat: int) -> Card | None:
        held = self.deal.cards.get(seat, [])
        return held[-1][0] if held else None

    def deal_index(self, seq: int) -> int | None:
        """1-based position of the draw `seq` among the starting-hand cards."""
        return self.deal.deal_draws.index(seq) + 1 if seq in self.deal.deal_draws else None

    def slots_since(self, seq: int) -> bool:
        return self.deal.last_draw_seq > seq

    def kill(self, seat: int, *, refund_dead: bool, seq: int) -> None:
        """The seat's hand is dead; with `refund_dead` its ante goes back to it."""
        s = self.seats[seat]
        s.folded = True
        if refund_dead and self.chips.dead.get(seat):
            back = self.chips.dead.pop(seat)
            if s.stack is not None:
                s.stack += back
        self.deal.slots = deque(slot for slot in self.deal.slots if slot.seat != seat)
        self.out.append(Action(self.number, seq, seat, ActionKind.FOLD, s.bet))

    def first_to_receive(self, street: int) -> int | None:
        """Stud: the seat dealt first on `street` (the lowest seat still in)."""
        live = self.in_hand()
        return live[0] if live else None

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
        if ruling is Ruling.STOP and self.alerts.out_of_step:
            return inc  # the floor was called for the STOPs the dealer went past: no chain
        floor = irregular.went_past(self, rule, ruling, text)
        if floor is not None:
            inc = replace(inc, ruling=Ruling.FLOOR, text=floor)
        self.alerts.incidents.append(inc)
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
        st = self.terms.stakes
        if self.spec.structure is Structure.FIXED_LIMIT:
            small = st.small_bet or st.bb or 1
            big = st.big_bet or 2 * small
            size = big if street >= self.spec.big_bet_from() else small
        else:
            size = st.bb or st.small_bet or st.ante or 1
        if self.terms.kill_post is not None and st.bb:
            # KILL-POTS: a full kill (2x the big blind) doubles the limits, a half kill (1.5x)
            # raises them by half.
            size = size * self.terms.kill_post[1] // st.bb
        return size

    def raise_cap(self) -> int | None:
        if self.spec.structure is not Structure.FIXED_LIMIT:
            return None
        if self.spec.rounds >= 3:
            return self.profile.raise_cap_multi_round
        return self.profile.raise_cap_two_round

    def bring_in_pending(self) -> bool:
        return (
            self.spec.family is Family.STUD
            and self.street == 0
            and self.bets.round is not None
            and self.bets.round.max_bet == 0
            and not self.bets.round.opened
            and self.bets.round.live_count() > 1  # nobody left to bet against: no bring-in
        )

    def contenders(self) -> list[int]:
        return [s for s in self.in_hand() if s not in self.show.mucked]

    def hands_for_showdown(self) -> dict[int, list[Card]]:
        return {s: [c for c, _ in self.deal.cards[s]] for s in self.dealt}

    def seats_clockwise_from_button(self, seats: list[int]) -> list[int]:
        return clockwise_after(seats, self.button if self.button is not None else 0)

    # --- entry points: the table's inputs -----------------------------------------------------

    def on_draw(
        self, card: Card | None, tag: str | None, face_up: bool, back_ok: bool, seq: int
    ) -> None:
        """A card left the shoe. `card` is None for a tag no deck knows."""
        deal_sequence.on_draw(self, card, tag, face_up, back_ok, seq)

    def on_zone(self, seat: int, amount: int, chips: tuple[int, ...] | None, seq: int) -> None:
        """A bet-zone reading (with the chips' denominations, when the sensor reports them)."""
        wagers.on_zone(self, seat, amount, chips, seq)

    def key(self, k: KeyPress, seq: int) -> None:
        actions.key(self, k, seq)

    def tick(self, at: float | None, seq: int) -> None:
        """An event arrived (with its time, when it carries one): run any timer that expired."""
        self.conduct.now = at
        if self.conduct.clock is not None:
            irregular.clock_tick(self, seq)

    def seat_sensor(self, seat: int, occupied: bool, seq: int) -> None:
        """A dealt-in player left or came back to his seat."""
        if occupied:
            self.bets.absent.discard(seat)
        elif not self.seats[seat].folded:
            self.bets.absent.add(seat)
            rounds.after_action(self, seq)

    def finish(self, seq: int) -> None:
        """End of input: settle a showdown the dealer did not key."""
        settlement.finish(self, seq)

    # --- flow steps the rule modules call back ------------------------------------------------

    def fold(self, seat: int, seq: int) -> None:
        actions.fold(self, seat, seq)

    def check(self, seat: int, seq: int) -> None:
        actions.check(self, seat, seq)

    def wager(self, seat: int, total: int, seq: int, *, single_chip: bool = False) -> None:
        wagers.wager(self, seat, total, seq, single_chip=single_chip)

    def open_round(self, seq: int) -> None:
        """Start betting round `self.street` (its cards are out)."""
        rounds.open_round(self, seq)

    def after_bring_in(self, seq: int) -> None:
        rounds.after_action(self, seq)

    def open_short_deal(self, seq: int) -> None:
        """MISDEAL-WRONG-CARD-COUNT: action began with the last starting card still due. The
        first betting round opens; the card keeps its slot and goes to its seat when drawn."""
        deal_sequence.open_short_deal(self, seq)

    def street_dealt(self, seq: int) -> None:
        """The street's cards are out (after a correction): open its betting round."""
        deal_sequence.street_dealt(self, seq)

    def street_draws(self) -> list[tuple[Card | None, Role, int]]:
        """(card, role, seq) of the draws placed for the current street's cards."""
        return deal_sequence.street_draws(self)

    def relabel_burn_as_board(self, seq: int) -> None:
        """BURN-ERROR-ANY-STREET: the card taken as the burn was turned up and stands."""
        deal_sequence.relabel_burn_as_board(self, seq)

    def resume_after_reshuffle(self, seq: int) -> None:
        """STUB_RESHUFFLE done: deal the street the recovery was holding back."""
        deal_sequence.resume_after_reshuffle(self, seq)

    def return_to_stub(self, card: Card) -> None:
        """A card went back into the stub (a recovery's reshuffle): it, and its tag, may
        legitimately come out of the shoe again."""
        self.deal.seen.pop(card, None)
        tag = self.deal.card_tags.pop(card, None)
        if tag is not None:
            self.deal.tags.pop(tag, None)

    def void(self, seq: int) -> None:
        """All action void: every chip goes back to the seat that put it in."""
        settlement.void(self, seq)
