"""A small reference model of one betting round as Robert's Rules v11 words it (RR11 profile).

It is written from the rulebook text (catalog §8 and the 001-RR11 rules it cites), not from the
engine, and it is used for one thing only: when our engine and PokerKit disagree on a raise, the
differential driver asks this model what Robert's Rules say. A disagreement is allowed only when
our engine agrees with this model *and* a named allow-list predicate (allowlist.py) says which
documented PokerKit departure explains it.

The rules modelled:

- 001-RR11 §3 "Betting and Raising" r4 (BET-CAP-LIMIT): limit, three or more players not all-in:
  a bet and three raises; pre-flop the big blind is the bet (§4 intro: "Blinds are part of a
  player's bet"; catalog BLIND-POSITIONS: "The big blind is the opening bet"), so three raises
  may follow it.
- r5 (BET-CAP-HEADS-UP): unlimited raising whenever the action becomes heads-up (two players not
  all-in) before the raising is capped; a capped round is not uncapped by a later fold. Where the
  text does not settle the order (the capping raise itself leaves two players not all-in), the
  model reads it as "heads-up before the cap", like the engine; the driver never reaches that
  corner without noticing, because both readings are checked against PokerKit.
- r6 and §14 NL r3 (BET-NL-MIN-RAISE): a raise is at least the previous bet or raise.
- r7 (BET-LIMIT-SHORT-ALLIN): limit: an all-in of less than half a bet does not reopen the betting
  for players who already acted; a player not yet acted (or reopened) may fold, call or *complete*
  the wager (to a full bet over the level beneath); an all-in of half a bet or more is treated as
  a full bet; several short all-ins that together reach a raise reopen the betting.
- §14 NL r2 and §4 r1 (BET-NL-MIN-BET, BLIND-SHORT-BIG-BLIND): the minimum bet is the big blind
  on every round; a short big blind does not lower the bring-in (entrants call the full blind, a
  pre-flop raiser at least doubles it); after an all-in below the minimum bet a raise is at least
  a minimum bet above it.
- §14 NL r3-r4 (BET-NL-SHORT-ALLIN-NO-REOPEN): big-bet: an all-in that is not a full raise does
  not reopen the betting for a player who already acted and is not facing a full raise; several
  short all-ins reopen it for a player facing a cumulative full raise.
- §14 "Pot-Limit Rules" (BET-PL-MAX): the largest raise is the pot after the call; strict
  pot-limit (RR11: pl_sb_counts_as_bb false).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Structure(StrEnum):
    NO_LIMIT = "nl"
    POT_LIMIT = "pl"
    FIXED_LIMIT = "fl"


@dataclass(slots=True)
class Wager:
    """One voluntary wager of the round, as the rulebook classifies it."""

    seat: int
    total: int  # street total after the wager
    allin: bool
    full: bool  # a full bet or raise (or, limit, an all-in of half a bet or more)
    half: bool  # limit: an all-in of at least half a bet but less than a full bet


@dataclass(slots=True)
class RRSeat:
    seat: int
    stack: int  # chips behind
    bet: int = 0
    folded: bool = False
    acted: bool = False
    level: int = 0  # the highest wager when this seat last acted voluntarily
    full_seen: int = 0  # full wagers made before this seat last acted
    acted_at: int = -1  # index in `wagers` at this seat's last voluntary action

    @property
    def allin(self) -> bool:
        return not self.folded and self.stack == 0

    @property
    def live(self) -> bool:
        return not self.folded and self.stack > 0


@dataclass(slots=True)
class RRRound:
    structure: Structure
    bet_size: int  # limit: the bet of this round; big-bet: the minimum bet (the big blind)
    seats: dict[int, RRSeat]
    pot_before: int  # chips collected on earlier rounds
    preflop: bool
    raise_cap: int | None  # limit: raises allowed after the opening bet
    max_bet: int = 0
    full_level: int = 0  # limit: the highest full level (bet or completed raise)
    last_full: int = 0  # big-bet: size of the largest full bet or raise this round
    opened: bool = False
    raises: int = 0  # limit: full raises after the opening bet
    full_count: int = 0
    capped: bool = False
    uncapped: bool = False
    wagers: list[Wager] = field(default_factory=list)
    uncounted_allins: int = 0  # limit: all-in raises that did not count toward the cap

    # --- setup ---------------------------------------------------------------------------------

    def post_blinds(self, posts: dict[int, int], big_blind: int) -> None:
        """Pre-flop: blinds are live bets; the big blind is the opening bet at its full size even
        when the poster is short (001-RR11 §4 r1, §14 NL r2)."""
        for seat, amount in posts.items():
            s = self.seats[seat]
            s.bet = amount
            s.stack -= amount
        self.max_bet = big_blind
        self.full_level = big_blind
        self.last_full = big_blind
        self.opened = True
        self._update_cap()

    # --- queries -------------------------------------------------------------------------------

    def live_count(self) -> int:
        return sum(1 for s in self.seats.values() if s.live)

    def total_bets(self) -> int:
        return sum(s.bet for s in self.seats.values())

    def step(self) -> int:
        """The increment a full raise must add now."""
        if self.structure is Structure.FIXED_LIMIT:
            return self.bet_size
        return max(self.last_full, self.bet_size)

    def to_call(self, seat: int) -> int:
        s = self.seats[seat]
        return min(s.stack, max(0, self.max_bet - s.bet))

    def reopened_by_full(self, seat: int) -> bool:
        s = self.seats[seat]
        return self.full_count > s.full_seen

    def faces_cumulative_raise(self, seat: int) -> bool:
        """Several short all-ins that together make a legal raise to this seat (r7, §14 r4)."""
        s = self.seats[seat]
        return self.max_bet - s.level >= self.step()

    def may_raise(self, seat: int) -> bool:
        s = self.seats[seat]
        if not s.live or self.capped:
            return False
        if s.stack <= self.max_bet - s.bet:
            return False  # calling puts the whole stack in
        if not any(o.live for o in self.seats.values() if o is not s):
            return False  # nobody left who could call a raise
        if not s.acted:
            return True
        return self.reopened_by_full(seat) or self.faces_cumulative_raise(seat)

    def short_pending(self) -> bool:
        """Limit: the highest wager is an all-in above the last full level by less than a raise."""
        return (
            self.structure is Structure.FIXED_LIMIT
            and self.max_bet > self.full_level
            and self.max_bet - self.full_level < self.bet_size
        )

    def limit_target(self, seat: int) -> int:
        if self.short_pending():
            # "may fold, call, or complete the wager": a full bet over the level beneath.
            return self.full_level + self.bet_size
        return self.max_bet + self.bet_size

    def pot_limit_max(self, seat: int) -> int:
        s = self.seats[seat]
        call = self.max_bet - s.bet
        return self.max_bet + self.pot_before + self.total_bets() + call

    def raise_range(self, seat: int) -> tuple[int, int] | None:
        if not self.may_raise(seat):
            return None
        s = self.seats[seat]
        allin = s.bet + s.stack
        if self.structure is Structure.FIXED_LIMIT:
            target = min(self.limit_target(seat), allin)
            return target, target
        low = self.max_bet + self.step() if self.max_bet else self.bet_size
        high = allin
        if self.structure is Structure.POT_LIMIT:
            high = min(high, self.pot_limit_max(seat))
        return min(low, high), high

    # --- actions -------------------------------------------------------------------------------

    def _acted(self, s: RRSeat) -> None:
        s.acted = True
        s.level = self.max_bet
        s.full_seen = self.full_count
        s.acted_at = len(self.wagers)

    def fold(self, seat: int) -> None:
        self.seats[seat].folded = True
        self._update_cap()

    def check_or_call(self, seat: int) -> None:
        s = self.seats[seat]
        pay = self.to_call(seat)
        s.bet += pay
        s.stack -= pay
        self._acted(s)
        self._update_cap()

    def raise_to(self, seat: int, total: int) -> None:
        s = self.seats[seat]
        pay = total - s.bet
        s.bet = total
        s.stack -= pay
        allin = s.stack == 0
        inc = total - self.max_bet
        if self.structure is Structure.FIXED_LIMIT:
            completing = self.short_pending() and total == self.full_level + self.bet_size
            half = allin and not completing and inc < self.bet_size <= 2 * inc
            full = completing or half or inc >= self.bet_size
        else:
            full = inc >= self.step()
            half = False
        self.wagers.append(Wager(seat, total, allin, full, half))
        if full:
            if self.structure is Structure.FIXED_LIMIT:
                if self.opened:
                    self.raises += 1
                self.full_level = total
            else:
                self.last_full = max(self.last_full, inc)
            self.opened = True
            self.full_count += 1
        elif self.structure is Structure.FIXED_LIMIT:
            self.uncounted_allins += 1
        self.max_bet = max(self.max_bet, total)
        self._acted(s)
        self._update_cap()

    def _update_cap(self) -> None:
        if self.raise_cap is None or self.capped or self.uncapped:
            return
        if self.live_count() <= 2:
            self.uncapped = True  # r5: heads-up before the cap
            return
        if self.raises >= self.raise_cap:
            self.capped = True

    def wagers_since(self, seat: int) -> list[Wager]:
        s = self.seats[seat]
        start = s.acted_at if s.acted else 0
        return self.wagers[start:]


def new_round(
    structure: Structure,
    *,
    bet_size: int,
    stacks: dict[int, int],
    in_hand: list[int],
    pot_before: int,
    preflop: bool,
) -> RRRound:
    """A round over the seats still in the hand (`stacks` = chips behind now)."""
    seats = {s: RRSeat(s, stacks[s]) for s in in_hand}
    cap = 3 if structure is Structure.FIXED_LIMIT else None
    rnd = RRRound(structure, bet_size, seats, pot_before, preflop, cap)
    rnd._update_cap()
    return rnd
