"""PHH hand -> recorded table session (docs/session-format.md), one hand per session. Pure.

The session is what a table would have produced for the hand: forced bets, NEW_HAND, every card
leaving the shoe in dealing order (burns included), bet-zone totals, dealer keys. The conventions
(also in docs/session-format.md):

- Seats: PHH player i sits in seat i. Button games: p1 is the first seat left of the button and the
  last player is the button (heads-up too: PokerKit reverses the blinds there, so p1 posts the big
  blind, p2 is the button and posts the small blind, and p1 gets the first card). Stud: no button;
  dealing starts at the lowest seat.
- Stakes: the non-zero `blinds_or_straddles` in order are sb, bb, straddle (a single one is the bb);
  NL/PL without blinds take `min_bet` as the bb; `ante` only when every player antes the same.
  The exact forced bets per seat are also in the setup's `_antes` and `_blinds`.
- Forced bets, before NEW_HAND: antes as zone amounts, then collected (zones fall to 0); blinds and
  straddles as zone amounts that stay. A forced bet larger than the stack is the whole stack.
- Hole cards one at a time, round k giving each player his k-th card, from seat 1 up; stud third
  street is two down rounds and one up round; every draw is face down (the dealer turns board and
  up-cards after drawing them). A burn precedes the flop, turn and river, stud 4th-7th streets, and
  the replacement cards of each draw round. Unknown cards and burns come from the rest of the deck,
  shuffled by `random.Random(f"{seed}:{name}")`, so the output is deterministic.
- Betting: `f` -> FOLD, `cc` -> CHECK when nothing is owed, else the zone's new total (capped at
  the stack: an all-in call), `cbr X` -> zone X, `pb` -> zone = bring-in. A complete round is
  collected (zones with chips fall to 0, in seat order) before the next burn, draw round or
  showdown key; when all but one have folded the hand is over and nothing is collected.
- Draw rounds: per seat in draw order a DRAW key (count, discarded cards), then, before the first
  replacement card of the round, one burn, then that seat's replacement cards.
- Showdown: `sm CARDS` / `sm -` -> TABLED, bare `sm` -> MUCK, where they occur.

Pluribus split pots: some files record half chips (10112.5). When any amount of a hand is not a
whole number, every amount is multiplied by the smallest factor that makes them all whole (2 in
practice) and the setup line records `"_chip_scale"`, so the split is exact in the table's unit.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from station.engine.cards import Card
from station.engine.events import Setup, Stakes
from station.engine.games import Family, GameSpec, Structure, game_spec
from station.formats.session import event_to_dict
from station.phh.actions import Act, Action
from station.phh.deal import CardPlan, PlanError, plan_cards
from station.phh.reader import PhhHand

MAX_CHIP_SCALE = 10**6
Line = dict[str, Any]


class ConvertError(ValueError):
    """The history cannot be turned into a session (contradictory cards, impossible bets)."""


@dataclass(frozen=True, slots=True)
class Conversion:
    """One converted hand: its relative name and its session lines."""

    name: str
    lines: tuple[Line, ...]

    def text(self) -> str:
        return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in self.lines)


def chip_scale(hand: PhhHand) -> int:
    """The smallest factor that makes every amount of the hand a whole number of chips."""
    amounts: list[Fraction] = [*hand.antes, *hand.blinds]
    amounts += [x for x in (hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet) if x]
    amounts += [s for s in hand.starting_stacks if s is not None]
    amounts += list(hand.finishing_stacks or ())
    amounts += [a.amount for a in hand.actions if a.amount is not None]
    scale = 1
    for x in amounts:
        scale = math.lcm(scale, x.denominator)
    if scale > MAX_CHIP_SCALE:
        raise ConvertError(f"amounts need a chip scale of {scale}; the most is {MAX_CHIP_SCALE}")
    return scale


def _complete_initial_deal(actions: Sequence[Action], n: int, count: int) -> list[Action]:
    """Give every player his starting cards: players the history leaves out get unknown cards."""
    out = list(actions)
    end = 0
    dealt: set[int] = set()
    while end < len(out) and out[end].act is Act.DEAL_HOLE and out[end].player not in dealt:
        dealt.add(out[end].player or 0)
        end += 1
    for p in range(1, n + 1):
        if p not in dealt:
            out.insert(end, Action(Act.DEAL_HOLE, p, (None,) * count, text=f"d dh p{p} (absent)"))
            end += 1
    return out


def convert_hand(hand: PhhHand, seed: int = 0) -> Conversion:
    """The recorded session of one PHH hand (see the module docstring for the conventions)."""
    spec = game_spec(hand.game)
    n = len(hand.starting_stacks)
    for a in hand.actions:
        if a.player is not None and not 1 <= a.player <= n:
            raise ConvertError(f"{a.text!r}: there are only {n} players")
    count = 3 if spec.family is Family.STUD else spec.hole_cards
    actions = _complete_initial_deal(hand.actions, n, count)
    try:
        plan = plan_cards(actions, spec, random.Random(f"{seed}:{hand.name}"))
        return _Converter(hand, spec, actions, plan).run()
    except PlanError as exc:
        raise ConvertError(str(exc)) from None


class _Converter:
    """Walks the actions once, keeping each seat's zone and chips behind."""

    def __init__(
        self, hand: PhhHand, spec: GameSpec, actions: Sequence[Action], plan: CardPlan
    ) -> None:
        self.hand, self.spec, self.actions, self.plan = hand, spec, actions, plan
        self.scale = chip_scale(hand)
        self.n = len(hand.starting_stacks)
        self.seats = range(1, self.n + 1)
        self.behind: dict[int, int | None] = {
            s: None if st is None else self.chips(st)
            for s, st in zip(self.seats, hand.starting_stacks, strict=True)
        }
        self.zones = dict.fromkeys(self.seats, 0)
        self.folded: set[int] = set()
        self.dealt_first = False
        self.lines: list[Line] = []

    def chips(self, x: Fraction) -> int:
        v = x * self.scale
        assert v.denominator == 1
        return int(v)

    # --- output ---------------------------------------------------------------------------

    def draw(self, card: Card) -> None:
        self.lines.append({"type": "draw", "card": card.code, "face_up": False})

    def burn(self) -> None:
        self.draw(self.plan.burn())

    def key(self, key: str, seat: int | None = None, **extra: Any) -> None:
        line: Line = {"type": "key", "key": key}
        if seat is not None:
            line["seat"] = seat
        line.update(extra)
        self.lines.append(line)

    def zone(self, seat: int, amount: int, *, commit: bool = True) -> None:
        if commit:
            put = amount - self.zones[seat]
            behind = self.behind[seat]
            if behind is not None:
                if put > behind:
                    raise ConvertError(f"p{seat} puts in {put} with {behind} behind")
                self.behind[seat] = behind - put
        self.zones[seat] = amount
        self.lines.append({"type": "zone", "seat": seat, "amount": amount})

    def collect(self) -> None:
        """The dealer collects a complete round (unless the hand is over)."""
        if self.n - len(self.folded) > 1:
            for s in self.seats:
                if self.zones[s]:
                    self.zone(s, 0, commit=False)

    # --- forced bets ----------------------------------------------------------------------

    def _position_value(self, values: Sequence[Fraction], seat: int) -> int:
        """PokerKit's value for a seat: heads-up, antes and blinds are read reversed."""
        index = seat - 1 if self.n > 2 else 2 - seat
        return self.chips(values[index])

    def _capped(self, amount: int, seat: int) -> int:
        behind = self.behind[seat]
        return amount if behind is None else min(amount, behind)

    def setup(self) -> tuple[dict[int, int], dict[int, int]]:
        antes = {s: self._capped(self._position_value(self.hand.antes, s), s) for s in self.seats}
        blinds: dict[int, int] = {}
        for s in self.seats:
            behind = self.behind[s]
            after_ante = None if behind is None else behind - antes[s]
            raw = self._position_value(self.hand.blinds, s)
            blinds[s] = raw if after_ante is None else min(raw, after_ante)
        h, c = self.hand, self.chips
        nonzero = [c(b) for b in h.blinds if b]
        sb = bb = straddle = None
        if len(nonzero) == 1:
            bb = nonzero[0]
        elif len(nonzero) >= 2:
            sb, bb = nonzero[0], nonzero[1]
            straddle = nonzero[2] if len(nonzero) > 2 else None
        if bb is None and self.spec.structure is not Structure.FIXED_LIMIT and h.min_bet:
            bb = c(h.min_bet)
        raw_antes = {c(a) for a in h.antes}
        stakes = Stakes(
            sb=sb,
            bb=bb,
            ante=raw_antes.pop() if len(raw_antes) == 1 and 0 not in raw_antes else None,
            bring_in=c(h.bring_in) if h.bring_in is not None else None,
            small_bet=c(h.small_bet) if h.small_bet is not None else None,
            big_bet=c(h.big_bet) if h.big_bet is not None else None,
            straddle=straddle,
        )
        button = None if self.spec.family is Family.STUD else self.n
        seats = dict(self.behind)  # the starting stacks: nothing is posted yet
        line = event_to_dict(
            Setup(game=h.game, profile="RR11", stakes=stakes, seats=seats, button=button)
        )
        line["_source"] = h.source
        line["_variant"] = h.variant
        line["_chip_scale"] = self.scale
        line["_antes"] = {str(s): a for s, a in antes.items() if a}
        line["_blinds"] = {str(s): b for s, b in blinds.items() if b}
        line["_ante_trimming_status"] = h.ante_trimming
        if h.finishing_stacks is not None:
            line["_finishing_stacks"] = {
                str(s): c(f) for s, f in zip(self.seats, h.finishing_stacks, strict=True)
            }
        self.lines.append(line)
        return antes, blinds

    # --- the hand --------------------------------------------------------------------------

    def run(self) -> Conversion:
        antes, blinds = self.setup()
        for s in self.seats:
            if antes[s]:
                self.zone(s, antes[s])
        for s in self.seats:
            if antes[s]:
                self.zone(s, 0, commit=False)
        order = list(self.seats)
        if self.n == 2:
            order.reverse()  # heads-up the button (seat 2) posts the small blind first
        for s in order:
            if blinds[s]:
                self.zone(s, blinds[s])
        self.key("NEW_HAND")
        i = 0
        acts = self.actions
        while i < len(acts):
            a = acts[i]
            if a.act is Act.DEAL_HOLE:
                block: list[int] = []
                while (
                    i < len(acts)
                    and acts[i].act is Act.DEAL_HOLE
                    and acts[i].player not in {acts[j].player for j in block}
                ):
                    block.append(i)
                    i += 1
                self.deal_hole(block)
            elif a.act is Act.DEAL_BOARD:
                self.collect()
                self.burn()
                for card in self.plan.board[i]:
                    self.draw(card)
                i += 1
            elif a.act is Act.DISCARD:
                discards: list[int] = []
                while i < len(acts) and acts[i].act is Act.DISCARD:
                    discards.append(i)
                    i += 1
                replacements: dict[int, int] = {}
                while (
                    i < len(acts)
                    and acts[i].act is Act.DEAL_HOLE
                    and acts[i].player not in replacements
                ):
                    replacements[acts[i].player or 0] = i
                    i += 1
                self.draw_round(discards, replacements)
            elif a.act is Act.SHOW:
                self.collect()
                self.key("MUCK" if a.muck else "TABLED", a.player)
                i += 1
            else:
                self.bet(a)
                i += 1
        self.collect()
        return Conversion(self.hand.name, tuple(self.lines))

    def deal_hole(self, block: list[int]) -> None:
        by_seat = sorted((self.actions[i].player or 0, self.plan.hole[i]) for i in block)
        if not self.dealt_first:
            self.dealt_first = True
            rounds = max(len(cards) for _, cards in by_seat)
            for k in range(rounds):
                for _, cards in by_seat:
                    if k < len(cards):
                        self.draw(cards[k])
            return
        if self.spec.family is not Family.STUD:
            raise ConvertError(f"{self.actions[block[0]].text!r}: hole cards outside the deal")
        self.collect()
        self.burn()
        for _, cards in by_seat:
            for card in cards:
                self.draw(card)

    def draw_round(self, discards: list[int], replacements: dict[int, int]) -> None:
        self.collect()
        burned = False
        drawn: set[int] = set()
        for i in discards:
            seat = self.actions[i].player or 0
            cards = self.plan.discards[i]
            extra = {"count": len(cards)}
            if cards:
                extra["cards"] = [c.code for c in cards]  # type: ignore[assignment]
            self.key("DRAW", seat, **extra)
            if not cards:
                continue
            got = self.plan.hole.get(replacements.get(seat, -1), ())
            if len(got) != len(cards):
                raise ConvertError(f"p{seat} discards {len(cards)} cards and receives {len(got)}")
            if not burned:
                self.burn()
                burned = True
            for card in got:
                self.draw(card)
            drawn.add(seat)
        if set(replacements) - drawn:
            raise ConvertError(f"cards dealt to p{min(set(replacements) - drawn)} without a draw")

    def bet(self, a: Action) -> None:
        seat = a.player or 0
        if a.act is Act.FOLD:
            self.folded.add(seat)
            self.key("FOLD", seat)
        elif a.act is Act.CHECK_CALL:
            owed = max(self.zones.values()) - self.zones[seat]
            if owed <= 0:
                self.key("CHECK", seat)
            else:
                self.zone(seat, self.zones[seat] + self._capped(owed, seat))
        elif a.act is Act.BET_RAISE:
            assert a.amount is not None
            amount = self.chips(a.amount)
            if amount <= self.zones[seat]:
                raise ConvertError(f"{a.text!r}: not more than the {self.zones[seat]} in front")
            self.zone(seat, amount)
        elif a.act is Act.BRING_IN:
            if self.hand.bring_in is None:
                raise ConvertError(f"{a.text!r}: the game has no bring-in")
            self.zone(seat, self.zones[seat] + self._capped(self.chips(self.hand.bring_in), seat))
