"""One hand, from NEW_HAND to the pot being pushed: its state and the queries the rules share. Pure.

`Hand` is made of parts, one per concern (`hand_state`: the deal, the chips, the betting, the
draw, stud, the showdown, the irregularities), each written by the module that owns it. Besides
the parts it holds what every rule reads (the game, the profile, the seats, the phase and
street) and the two outputs every rule writes: `incident` (an irregularity, with the catalog's
rule id and the profile's citation) and `prompt` (what the dealer does next).

It imports no rule module: the rules import it. How a hand goes on is
`station.engine.dispatch` (its entry points and the steps the rules return).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

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
    Ruling,
)
from station.engine.games import Family, GameSpec, Structure
from station.engine.hand_state import (
    Alerts,
    Bets,
    Chips,
    Conduct,
    Deal,
    Discarding,
    Draws,
    Faults,
    Repair,
    Showdown,
    StudState,
    Terms,
)
from station.engine.positions import ButtonLayout
from station.engine.profiles import MisdealCutoff, Profile
from station.engine.rule_ids import Rule
from station.engine.rulebook import citation
from station.engine.snapshot import Phase


@dataclass(slots=True)
class Hand:
    """A hand from NEW_HAND to the pot being pushed. Started by `dispatch.start(...)`.

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
    discard: Discarding = field(default_factory=Discarding)
    stud: StudState = field(default_factory=StudState)
    faults: Faults = field(default_factory=Faults)
    repair: Repair = field(default_factory=Repair)
    conduct: Conduct = field(default_factory=Conduct)
    alerts: Alerts = field(default_factory=Alerts)
    out: list[Decision] = field(default_factory=list)

    @property
    def button(self) -> int | None:
        return self.layout.button if self.layout is not None else None

    # --- helpers ------------------------------------------------------------------------------

    def prompt(self, seq: int, text: str, code: PromptCode) -> None:
        self.alerts.last_prompt = text
        self.out.append(Prompt(self.number, text, seq, code))

    def betting(self) -> bool:
        """A betting round is open (read afresh: handlers may have moved the hand on)."""
        return self.phase is Phase.BETTING

    def cutoff_passed(self) -> bool:
        """MISDEAL-CUTOFF-BUTTON / -STUD: has enough action occurred to forbid a misdeal?"""
        bets = self.bets
        if (
            self.spec.family is Family.STUD
            or self.profile.misdeal_cutoff is MisdealCutoff.TWO_ACTIONS
        ):
            return bets.voluntary_actions >= 2 or self.street > 0
        # GN substantial action: three actions, or two of which one put chips in.
        if self.street > 0:
            return True
        return bets.voluntary_actions >= 3 or (
            bets.voluntary_actions >= 2 and bets.chip_actions >= 1
        )

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

    def starting_cards(self) -> int:
        """Cards each player is dealt in the starting hand (a bomb pot's flop apart)."""
        if self.spec.family is Family.STUD:
            return len(self.spec.stud_start)
        return self.spec.hole_for(len(self.dealt))

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

    def first_to_receive(self) -> int | None:
        """Stud: the seat dealt first on every street (the lowest seat still in: dealing starts
        at the dealer's left)."""
        live = self.in_hand()
        return live[0] if live else None

    def empty_seat_between(self) -> bool:
        seats = sorted(self.dealt)
        return any(s not in self.seats for s in range(seats[0] + 1, seats[-1]))

    def incident(
        self,
        seq: int,
        rule: Rule,
        ruling: Ruling,
        text: str,
        *,
        seat: int | None = None,
        seats: tuple[int, ...] = (),
        events: tuple[int, ...] = (),
    ) -> Incident:
        inc = Incident(
            hand=self.number,
            rule=rule.value,
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
        floor = self.went_past(rule, ruling, text)
        if floor is not None:
            inc = replace(inc, ruling=Ruling.FLOOR, text=floor)
        kept = self.alerts.incidents
        kept.append(inc)
        if len(kept) > 2 * KEPT_INCIDENTS:  # trimmed in steps: O(1) per incident on average
            del kept[:-KEPT_INCIDENTS]
        self.alerts.rules.add(inc.rule)
        self.out.append(inc)
        return inc

    def in_hand(self) -> list[int]:
        return [s for s in self.dealt if not self.seats[s].folded]

    def one_left(self) -> bool:
        """`len(self.in_hand()) == 1`, without the list."""
        seats = self.seats
        left = 0
        for s in self.dealt:
            if not seats[s].folded:
                left += 1
                if left > 1:
                    return False
        return left == 1

    def street_name(self, street: int | None = None) -> str:
        r = self.street if street is None else street
        names = self.spec.street_names()
        if r < len(names):
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
        base = st.small_bet if self.spec.family is Family.STUD else st.bb
        if self.terms.kill_post is not None and base:
            # KILL-POTS: a full kill (2x the big blind; stud: the small bet) doubles the
            # limits, a half kill (1.5x) raises them by half.
            size = size * self.terms.kill_post[1] // base
        return size

    def raise_cap(self) -> int | None:
        if self.spec.structure is not Structure.FIXED_LIMIT:
            return None
        if self.profile.tournament and self.terms.last_two:
            # TOURN-RAISE-CAP: "the last two players in a tournament are exempted from a
            # limitation on raises" (001-RR11 §15 r23; 002-RRPG §15 r22).
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

    def return_to_stub(self, card: Card) -> None:
        """A card went back into the stub (a recovery's reshuffle): it, and its tag, may
        legitimately come out of the shoe again."""
        self.deal.seen.pop(card, None)
        tag = self.deal.card_tags.pop(card, None)
        if tag is not None:
            self.deal.tags.pop(tag, None)

    def went_past(self, rule: Rule, ruling: Ruling, text: str) -> str | None:
        """A hand can always end. Called for each incident about to be shown: when the dealer
        has gone on past what the station showed about the cards - a STOP with no card placed
        and no action booked since the STOP before it (a recovery done differently from its
        steps), or the same card instruction again with nothing done since - the station cannot
        follow the hand any more. Returns the text of the floor call to show instead (once per
        hand), so play goes on by the floor's decision rather than with a chain of STOPs; None
        otherwise."""
        al = self.alerts
        if ruling not in _CARD_INSTRUCTIONS or al.out_of_step or self.result is not None:
            return None
        said = (rule, text, al.progress)
        again = al.last_said == said
        al.last_said = said
        if ruling is Ruling.STOP:
            again = again or al.stop_progress == al.progress
            al.stop_progress = al.progress
        if not again:
            return None
        al.out_of_step = True
        al.floor_call = True
        return WENT_PAST.format(what="THE STOP" if ruling is Ruling.STOP else "THE INSTRUCTION")


KEPT_INCIDENTS = 16  # the hand's newest incidents kept for the screen (the journal has all)
_CARD_INSTRUCTIONS = frozenset({Ruling.STOP, Ruling.REPLACE, Ruling.REDEAL})
WENT_PAST = "THE DEALER WENT ON PAST {what}: CALL THE FLOOR. THE FLOOR DECIDES HOW THE HAND GOES ON"
