"""One betting round: who is to act, what a wager means, when the round is complete. Pure.

Amounts are street totals ("raise to"), as the bet zones report them. The round books what each
wager legally is; a physical amount that is not a legal wager yields a `Correction` telling the
dealer what the wager must be (catalog §8: BET-UNDERSIZED-CORRECTION, BET-FULL-PLUS-HALF,
BET-SINGLE-OVERSIZED-CHIP, BET-PL-OVERSIZE, BET-CAP-LIMIT).

Re-opening follows catalog §8: a full raise re-opens the betting to everyone; an all-in raise that
is not a full raise does not re-open it for players who have already acted, unless several short
all-ins together amount to a full raise (D25). In fixed limit an all-in of half a bet or more
counts as a full raise (BET-LIMIT-SHORT-ALLIN).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from station.engine.games import Structure
from station.engine.profiles import HeadsUpUncap, Profile, ShortAllinOption
from station.engine.rule_ids import Rule


class WagerKind(StrEnum):
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    COMPLETE = (
        "complete"  # stud: bring-in completed to the small bet; limit: short all-in completed
    )
    BRING_IN = "bring_in"


@dataclass(frozen=True, slots=True)
class Correction:
    """The physical amount differs from the legal wager: the dealer must fix the zone."""

    rule: Rule
    text: str
    required: int  # the street total the zone must show


class Wager(NamedTuple):
    kind: WagerKind
    total: int  # booked street total after the wager
    allin: bool
    full: bool  # a full bet or raise (re-opens the betting, counts toward the cap)
    correction: Correction | None = None


class RoundMark(NamedTuple):
    """A round as it stood before one seat's wager: `BettingRound.restore` takes the wager
    back (a verbal declaration made just after the chips, BET-VERBAL-BINDING)."""

    seat: int
    # max_bet, min_raise, raises, opened, capped, uncapped, full_raises, last_aggressor,
    # last_actor, short_level
    fields: tuple[
        int, int, int, bool, bool, bool, int, int | None, int | None, tuple[int, int] | None
    ]
    # the seat's bet, stack, allin, acted, level, full_seen, no_raise
    seat_fields: tuple[int, int | None, bool, bool, int, int, bool]


@dataclass(slots=True)
class Seat:
    seat: int
    stack: int | None  # chips behind the line; None when stacks are not tracked
    bet: int = 0  # booked street total
    folded: bool = False
    allin: bool = False
    acted: bool = False
    level: int = 0  # the highest wager when this seat last acted voluntarily
    full_seen: int = 0  # the round's full-raise count when this seat last acted
    no_raise: bool = False  # checked out of turn: may not bet or raise this turn (RR11 §3 r11)

    @property
    def live(self) -> bool:
        """Still able to act: neither folded nor all-in."""
        return not self.folded and not self.allin

    def cap_total(self) -> int | None:
        """The most this seat can have in front of it (bet plus stack)."""
        return None if self.stack is None else self.bet + self.stack


@dataclass(slots=True)
class BettingRound:
    """A betting round over `seats`, in action order starting with the first to act."""

    seats: list[Seat]
    structure: Structure
    profile: Profile
    bet_size: int  # limit: the bet for this round; big-bet: the minimum bet (big blind)
    pot_before: int = 0  # chips already in the middle (collected earlier streets, antes)
    max_bet: int = 0  # the wager every live seat must match
    min_raise: int = 0  # big-bet: the size of the last full bet or raise
    raise_cap: int | None = None  # limit: raises allowed after the bet; None = unlimited
    raises: int = 0  # limit: full raises so far (the opening bet is not counted)
    opened: bool = False  # a full bet has been made (blinds or bring-in completed count)
    capped: bool = False
    uncapped: bool = False  # heads-up raising is unlimited for the rest of the round
    full_raises: int = 0
    last_aggressor: int | None = None
    last_actor: int | None = None
    pl_blind_bonus: int = 0  # pot-limit: extra pot counted while the SB counts as a BB
    # Limit: when the highest wager is an all-in of less than half a bet, (that total, the
    # full level beneath it); otherwise None.
    short_level: tuple[int, int] | None = None
    _by_seat: dict[int, Seat] = field(default_factory=dict)
    _order: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_seat = {s.seat: s for s in self.seats}
        self._order = [s.seat for s in self.seats]
        if (
            self.raise_cap is not None
            and self.profile.headsup_uncap is HeadsUpUncap.ROUND_START_ONLY
        ):
            self.uncapped = self.live_count() == 2 and self._uncap_allowed()

    # --- queries ------------------------------------------------------------------------------

    def seat(self, seat: int) -> Seat:
        return self._by_seat[seat]

    def __contains__(self, seat: int) -> bool:
        return seat in self._by_seat

    def live_count(self) -> int:
        return sum(1 for s in self.seats if s.live)

    def in_hand(self) -> list[Seat]:
        return [s for s in self.seats if not s.folded]

    def total_bets(self) -> int:
        return sum(s.bet for s in self.seats)

    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when the round is complete."""
        if self.complete():
            return None
        return self.next_to_act()

    def next_to_act(self) -> int | None:
        """`to_act` of a round known not to be complete."""
        order = self._order
        by_seat = self._by_seat
        start = 0 if self.last_actor is None else order.index(self.last_actor) + 1
        n = len(order)
        m = self.max_bet
        for i in range(n):
            s = by_seat[order[(start + i) % n]]
            if not s.folded and not s.allin and (not s.acted or s.bet < m):
                return s.seat
        return None

    def complete(self) -> bool:
        """Whether the round is over (one pass over the seats: this runs on every event)."""
        m = self.max_bet
        in_hand = live = 0
        owing = needs = False
        for s in self.seats:
            if s.folded:
                continue
            in_hand += 1
            if s.allin:
                continue
            live += 1
            if s.bet < m:
                owing = needs = True
            elif not s.acted:
                needs = True
        if in_hand <= 1:
            return True
        if live <= 1:
            # Nobody left to bet against: only a live seat still owing chips must act.
            return not owing
        return not needs

    def to_call(self, seat: int) -> int:
        s = self._by_seat[seat]
        owe = max(0, self.max_bet - s.bet)
        return owe if s.stack is None else min(owe, s.stack)

    def may_raise(self, seat: int) -> bool:
        """Whether the seat may bet or raise now (re-opening and cap rules)."""
        s = self._by_seat[seat]
        if not s.live or self.capped or s.no_raise:
            return False
        if s.stack is not None and s.stack <= self.max_bet - s.bet:
            return False  # calling already puts it all in
        if not any(self._could_call_more(o) for o in self.seats if o is not s):
            return False  # every other player is all-in or covered: nobody could call a raise
        if not s.acted:
            return True
        if self.full_raises > s.full_seen:
            return True
        if not self.profile.aggregate_short_allins:
            return False
        if self.structure is Structure.FIXED_LIMIT:
            # Several short all-ins together "act as a raise ... if the resulting wager size to
            # a player qualifies as a raise" (001-RR11 §3 r7): half a bet qualifies in limit.
            return 2 * (self.max_bet - s.level) >= self.bet_size
        return self.max_bet - s.level >= self._full_step()

    def not_reopened(self, seat: int) -> bool:
        """The seat faces more chips but may only call or fold because the wager since its last
        action was not a full raise (the re-opening rule, and nothing else, stops a raise)."""
        s = self._by_seat[seat]
        if not s.live or not s.acted or self.capped or s.no_raise or self.max_bet <= s.bet:
            return False
        if s.stack is not None and s.stack <= self.max_bet - s.bet:
            return False
        if not any(self._could_call_more(o) for o in self.seats if o is not s):
            return False
        return not self.may_raise(seat)

    def _single_chip_call(self, s: Seat, m: int) -> Wager:
        """BET-SINGLE-OVERSIZED-CHIP: one chip with no raise called is a call."""
        return self._book(
            s,
            WagerKind.CALL,
            m,
            False,
            full=False,
            correction=Correction(
                Rule.BET_SINGLE_OVERSIZED_CHIP,
                f"ONE CHIP, NO RAISE CALLED: SEAT {s.seat} CALLS {m}",
                m,
            ),
        )

    def _could_call_more(self, o: Seat) -> bool:
        """Could this player put in more than the current wager (and so answer a raise)?"""
        cap = o.cap_total()
        return o.live and (cap is None or cap > self.max_bet)

    def _opponents_cap(self, s: Seat) -> int | None:
        """The most any other live seat can put in this round; None when a stack is unknown.

        A wager that reaches it is as good as a full raise: nobody could call more, and any
        chips above it would come back uncalled (PokerKit <= 0.7.3 rules the same way)."""
        caps = [o.cap_total() for o in self.seats if o is not s and o.live]
        if not caps or any(c is None for c in caps):
            return None
        return max(c for c in caps if c is not None)

    def min_raise_size(self) -> int:
        """The increment a full raise must add now."""
        return self._full_step()

    def _full_step(self) -> int:
        """The increment a full raise must add now."""
        if self.structure is Structure.FIXED_LIMIT:
            return self.bet_size
        return max(self.min_raise, self.bet_size)

    def _limit_target(self, s: Seat) -> int:
        """Fixed limit: the street total a full bet or raise by `s` goes to."""
        if not self.opened:
            base = 0
            if self.short_level is not None and self.profile.limit_short_allin_option is (
                ShortAllinOption.RAISE
            ):
                base = self.max_bet
            return base + self.bet_size  # the opening bet, or completing a bring-in
        if (
            self.short_level is not None
            and (not s.acted or self.full_raises > s.full_seen)
            and self.profile.limit_short_allin_option is ShortAllinOption.COMPLETE
        ):
            # Facing an all-in of less than half a bet, an unacted player may complete it to
            # a full bet over the level beneath (RR); GN lets him raise over it (D24).
            return self.short_level[1] + self.bet_size
        return self.max_bet + self.bet_size

    def pot_limit_max(self, seat: int) -> int:
        """BET-PL-MAX: call, then raise by the whole pot including the call."""
        s = self._by_seat[seat]
        call = self.max_bet - s.bet
        pot = self.pot_before + self.total_bets() + self.pl_blind_bonus + call
        unit = self.profile.pl_round_unit
        if unit:
            pot = -(-pot // unit) * unit  # BET-PL-POT-ROUNDING: odd pots round up to the unit
        return self.max_bet + pot

    def raise_range(self, seat: int) -> tuple[int, int | None] | None:
        """(min, max) street totals for a bet or raise by `seat`; None when it may not raise.
        max None means no upper limit is known (stacks not tracked, no-limit)."""
        if not self.may_raise(seat):
            return None
        s = self._by_seat[seat]
        cap = s.cap_total()
        if self.structure is Structure.FIXED_LIMIT:
            target = self._limit_target(s)
            if cap is not None and cap < target:
                return cap, cap
            return target, target
        low = self.max_bet + self._full_step() if self.max_bet else self.bet_size
        high: int | None = cap
        if self.structure is Structure.POT_LIMIT:
            pl = self.pot_limit_max(seat)
            high = pl if cap is None else min(pl, cap)
        if high is not None and high < low:
            low = high
        return low, high

    # --- actions ------------------------------------------------------------------------------

    def _acted(self, s: Seat) -> None:
        s.acted = True
        s.no_raise = False
        s.level = self.max_bet
        s.full_seen = self.full_raises
        self.last_actor = s.seat

    def fold(self, seat: int) -> None:
        s = self._by_seat[seat]
        s.folded = True
        self.last_actor = seat
        self._update_cap()  # BET-CAP-HEADS-UP: a fold may leave two players before the cap

    def check(self, seat: int) -> bool:
        """A check; False when the seat owes chips (a check is then not possible)."""
        s = self._by_seat[seat]
        if s.bet < self.max_bet:
            return False
        self._acted(s)
        return True

    def post(self, seat: int, amount: int, *, live: bool = True) -> None:
        """A forced bet before the deal (blind, straddle, bring-in). Not an action."""
        s = self._by_seat[seat]
        s.bet = amount
        if s.stack is not None:
            s.stack = max(0, s.stack - amount)
            s.allin = s.stack == 0
        if live and amount > self.max_bet:
            self.max_bet = amount

    def mark(self, seat: int) -> RoundMark:
        """The round now, before a wager of `seat` (see `restore`). Runs on every wager."""
        s = self._by_seat[seat]
        return RoundMark(
            seat,
            (
                self.max_bet,
                self.min_raise,
                self.raises,
                self.opened,
                self.capped,
                self.uncapped,
                self.full_raises,
                self.last_aggressor,
                self.last_actor,
                self.short_level,
            ),
            (s.bet, s.stack, s.allin, s.acted, s.level, s.full_seen, s.no_raise),
        )

    def restore(self, mark: RoundMark) -> None:
        """Put the round back as it was at `mark` (nobody has acted since)."""
        (
            self.max_bet,
            self.min_raise,
            self.raises,
            self.opened,
            self.capped,
            self.uncapped,
            self.full_raises,
            self.last_aggressor,
            self.last_actor,
            self.short_level,
        ) = mark.fields
        s = self._by_seat[mark.seat]
        s.bet, s.stack, s.allin, s.acted, s.level, s.full_seen, s.no_raise = mark.seat_fields

    def mark_allin(self, seat: int) -> None:
        """ALLIN key: the seat has no chips behind (stacks not tracked)."""
        s = self._by_seat[seat]
        s.stack = 0
        s.allin = True

    def wager(
        self,
        seat: int,
        total: int,
        *,
        allin: bool = False,
        single_chip: bool = False,
        declared_raise: bool = False,
    ) -> Wager | Correction:
        """Book a wager that brings the seat's street total up to `total`.

        Returns the booked `Wager` (which may carry a correction the dealer must make), or a
        `Correction` alone when nothing legal has happened yet (a short call)."""
        s = self._by_seat[seat]
        cap = s.cap_total()
        if cap is not None and total >= cap:
            total, allin = cap, True
        m = self.max_bet
        if total <= m:
            if total < m and not allin:
                return Correction(
                    Rule.BET_UNDERSIZED_CORRECTION,
                    f"SEAT {seat} SHORT {m - total}: CALL IS {m}",
                    m,
                )
            return self._book(s, WagerKind.CALL, total, allin, full=False)
        if self.structure is Structure.FIXED_LIMIT:
            return self._limit_wager(s, total, allin, single_chip, declared_raise)
        return self._big_bet_wager(s, total, allin, single_chip, declared_raise)

    def _limit_wager(
        self, s: Seat, total: int, allin: bool, single_chip: bool, declared: bool
    ) -> Wager:
        m = self.max_bet
        target = self._limit_target(s)
        opp = self._opponents_cap(s)
        kind = WagerKind.BET if not self.opened and m == 0 else WagerKind.RAISE
        if not self.opened and m > 0:
            kind = WagerKind.COMPLETE
        if not self.may_raise(s.seat):
            rule = Rule.BET_CAP_LIMIT if self.capped else Rule.BET_LIMIT_SHORT_ALLIN
            why = "THE BETTING IS CAPPED" if self.capped else "THE BETTING IS NOT REOPENED"
            return self._book(
                s,
                WagerKind.CALL,
                m,
                False,
                full=False,
                correction=Correction(rule, f"{why}: SEAT {s.seat} CALLS {m}", m),
            )
        if single_chip and not declared:
            return self._single_chip_call(s, m)
        if self.short_level is not None and target == self.short_level[1] + self.bet_size:
            kind = WagerKind.COMPLETE  # completing a short all-in to a full bet (D24)
        if total == target or (opp is not None and opp <= total < target):
            # A wager that covers everything every opponent can still put in is as good as a
            # full raise: nobody can call more, any excess would come back uncalled.
            return self._book(s, kind, total, allin, full=True)
        if total < target and m == 0 and not allin:
            # BET-UNDERSIZED-CORRECTION: a bet below the size of the round is brought up.
            return self._book(
                s,
                kind,
                target,
                False,
                full=True,
                correction=Correction(
                    Rule.BET_UNDERSIZED_CORRECTION,
                    f"SEAT {s.seat}: THE BET IS {target} ON THIS ROUND",
                    target,
                ),
            )
        if total < target:
            if allin:
                # BET-LIMIT-SHORT-ALLIN: half a bet or more counts as a full bet or raise.
                half = 2 * (total - (m if self.opened else 0)) >= self.bet_size
                return self._book(s, kind, total, True, full=half, short=not half)
            if 2 * (total - m) >= (target - m) or declared:
                return self._book(
                    s,
                    kind,
                    target,
                    False,
                    full=True,
                    correction=Correction(
                        Rule.BET_FULL_PLUS_HALF,
                        f"SEAT {s.seat}: COMPLETE THE RAISE TO {target}",
                        target,
                    ),
                )
            return self._book(
                s,
                WagerKind.CALL,
                m,
                False,
                full=False,
                correction=Correction(
                    Rule.BET_UNDERSIZED_CORRECTION,
                    f"SEAT {s.seat} CALLS {m}: TAKE BACK {total - m}",
                    m,
                ),
            )
        return self._book(
            s,
            kind,
            target,
            False,
            full=True,
            correction=Correction(
                Rule.BET_LIMIT_STRUCTURE,
                f"LIMIT: SEAT {s.seat} RAISES TO {target}, TAKE BACK {total - target}",
                target,
            ),
        )

    def _big_bet_wager(
        self, s: Seat, total: int, allin: bool, single_chip: bool, declared: bool
    ) -> Wager:
        m = self.max_bet
        kind = WagerKind.BET if m == 0 else WagerKind.RAISE
        if not self.may_raise(s.seat):
            return self._book(
                s,
                WagerKind.CALL,
                m,
                False,
                full=False,
                correction=Correction(
                    Rule.BET_NL_SHORT_ALLIN_NO_REOPEN,
                    f"THE BETTING IS NOT REOPENED: SEAT {s.seat} CALLS {m}",
                    m,
                ),
            )
        pl_range = self.raise_range(s.seat) if self.structure is Structure.POT_LIMIT else None
        if single_chip and not declared and m == 0 and pl_range is not None:
            high_pl = pl_range[1]
            if high_pl is not None and total > high_pl:
                # BET-PL-OVERSIZED-CHIP: one chip larger than the pot, without comment and not
                # facing a bet, is a pot-size bet.
                return self._book(
                    s,
                    kind,
                    high_pl,
                    False,
                    full=True,
                    correction=Correction(
                        Rule.BET_PL_OVERSIZED_CHIP,
                        f"ONE CHIP LARGER THAN THE POT: SEAT {s.seat} BETS THE POT, {high_pl}",
                        high_pl,
                    ),
                )
        if single_chip and not declared and m > 0:
            return self._single_chip_call(s, m)
        rng = self.raise_range(s.seat)
        assert rng is not None
        high = rng[1]
        full_min = m + self._full_step() if m else self.bet_size  # BET-NL-MIN-RAISE / -MIN-BET
        opp = self._opponents_cap(s)
        if high is not None and total > high and not allin:
            return self._book(
                s,
                kind,
                high,
                False,
                full=high >= full_min,
                correction=Correction(
                    Rule.BET_PL_OVERSIZE,
                    f"OVER THE POT BY {total - high}: SEAT {s.seat} BETS {high}",
                    high,
                ),
            )
        if total >= full_min or (opp is not None and opp <= total):
            return self._book(s, kind, total, allin, full=True)
        if allin:
            return self._book(s, kind, total, True, full=False, short=True)
        if m == 0:
            # BET-NL-MIN-BET: a bet below the minimum by a player with more chips is brought up.
            return self._book(
                s,
                kind,
                full_min,
                False,
                full=True,
                correction=Correction(
                    Rule.BET_NL_MIN_BET, f"SEAT {s.seat}: THE MINIMUM BET IS {full_min}", full_min
                ),
            )
        overcall_raises = (
            self.profile.gn_overcall_min_raise or self.structure is Structure.POT_LIMIT
        )
        if declared or (overcall_raises and 2 * (total - m) >= self._full_step()):
            return self._book(
                s,
                kind,
                full_min,
                False,
                full=True,
                correction=Correction(
                    Rule.BET_FULL_PLUS_HALF if not declared else Rule.BET_NL_MIN_RAISE,
                    f"SEAT {s.seat}: RAISE TO AT LEAST {full_min}",
                    full_min,
                ),
            )
        return self._book(
            s,
            WagerKind.CALL,
            m,
            False,
            full=False,
            correction=Correction(
                Rule.BET_UNDERSIZED_CORRECTION, f"SEAT {s.seat} CALLS {m}: TAKE BACK {total - m}", m
            ),
        )

    def _book(
        self,
        s: Seat,
        kind: WagerKind,
        total: int,
        allin: bool,
        *,
        full: bool,
        short: bool = False,
        correction: Correction | None = None,
    ) -> Wager:
        added = total - s.bet
        s.bet = total
        if s.stack is not None:
            s.stack -= added
            if s.stack <= 0:
                s.stack, allin = 0, True
        if allin:
            s.allin = True
        m = self.max_bet
        if total > m:
            if full:
                if self.structure is not Structure.FIXED_LIMIT:
                    self.min_raise = max(self.min_raise, total - m)
                if self.opened and self.raise_cap is not None:
                    self.raises += 1
                self.opened = True
                self.full_raises += 1
                self.short_level = None
                self.last_aggressor = s.seat
            elif short:
                below = m if self.short_level is None else self.short_level[1]
                self.short_level = (total, below)
                self.last_aggressor = s.seat
            self.max_bet = total
        self._acted(s)
        self._update_cap()
        return Wager(kind, total, s.allin, full, correction)

    def _uncap_allowed(self) -> bool:
        # D23: RR keeps the cap heads-up in tournaments; USPA states no such exception.
        return not self.profile.tournament or self.profile.headsup_uncap_in_tournaments

    def _update_cap(self) -> None:
        if self.raise_cap is None or self.uncapped or self.capped:
            return
        if (
            self.profile.headsup_uncap is HeadsUpUncap.BEFORE_CAP
            and self._uncap_allowed()
            and self.live_count() == 2
        ):
            self.uncapped = True
            return
        if self.raises >= self.raise_cap:
            self.capped = True
