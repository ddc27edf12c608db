"""Lockstep differential driver: our engine against PokerKit 0.7.7 (pinned; a test oracle only).

One random hand is played in both at once. PokerKit gets the hand through its own API with only
the bookkeeping automated (antes, blinds, bet collection, hand killing, chips pushing/pulling);
every card is dealt explicitly. Our engine gets the same hand as a recorded table session built
exactly as docs/session-format.md says:

- setup line: seats 1..n, button = seat n. PokerKit's player i is seat i + 1. For three or more
  players PokerKit's player 0 is the small blind (first left of the button) and player n-1 the
  button. Heads-up PokerKit reverses the blinds (`State.get_effective_blind_or_straddle` reads
  `blinds_or_straddles[not i]`): player 0 posts the big blind, player 1 the small blind and is the
  button; player 0 gets the first hole card and player 1 acts first pre-flop. So heads-up seat 1
  is the big blind and seat 2 the button/small blind, again button = seat n (BUTTON-HEADS-UP).
- the blinds as zone amounts (each the smaller of blind and stack) before NEW_HAND;
- hole cards one draw at a time, round-robin from the first seat left of the button (heads-up:
  the big blind first), the same order PokerKit's `deal_hole` rotates through;
- calls, bets and raises as zone amounts (the seat's street total), checks and folds as keys;
  an all-in is simply the zone reaching the stack;
- after each complete betting round a zone 0 line for every seat with chips in front (the dealer
  collecting), then a burn draw and the board draws of the next street;
- at the showdown a TABLED key for every player still in, in PokerKit's showdown order (after the
  last board card even when PokerKit shows all-in hands before the runout).

At every decision point both are compared: seat to act, amount to call, minimum and maximum raise
(street totals; None = may not raise), and the collected pots (amount and eligible seats); at the
end the final stacks. The action taken is always one both engines allow; raise sizes are drawn
from the common range, often at its ends (minimum, maximum, all-in, one chip short of all-in).
A raise difference is allowed only through `allowlist.explain` and only when our engine agrees
with the rulebook model (`rr_model`); the hand is then steered away from raising at that point.
Anything else is a disagreement: the hand stops and its session is kept for replay.

PokerKit's hand evaluation is remembered for the length of a hand (tests/pokerkit_memo.py): its
hand killing asks every player still in whether they can win, each time evaluating every shown
hand again, and each comparison of two hands looks both up again. `Hand.from_game` and
`Hand.entry` are pure functions of the cards (same cards, same answer; no state), so the memos
cannot change a result; they only stop the same work being done over and over (about two thirds
of the run's CPU before). Every comparison above is still made on every hand.
"""

from __future__ import annotations

import contextlib
import json
import random
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pokerkit
from pokerkit import Automation

from station.engine.decisions import Decision, HandEnd, Incident
from station.engine.snapshot import TableSnapshot
from station.engine.table import Table
from station.formats.session import event_from_dict
from tests import pokerkit_memo
from tests.differential import allowlist, known_bugs, pk_games, settle
from tests.differential.rr_model import RRRound, Structure, new_round

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PULLING,
)  # chips pushing is done by the driver, to record every split (CHIP-ODD-ONE-PER-PLAYER)

# (small blind, big blind). Limit games play small bet = big blind, big bet = 2 big blinds.
BLINDS: tuple[tuple[int, int], ...] = ((1, 2), (5, 10), (2, 5), (1, 3), (10, 20), (25, 50))
PLAYER_WEIGHTS = {2: 18, 3: 14, 4: 12, 5: 11, 6: 12, 7: 11, 8: 11, 9: 11}
SHORT_BIG_BLIND_RATE = 0.01  # hands whose big blind cannot post the full blind


@dataclass(frozen=True, slots=True)
class GameInfo:
    name: str
    structure: Structure
    hole: int
    pokerkit_class: Any
    boards: int = 1  # Double Board Omaha, the bomb pot: 2
    low: bool = False  # hi-lo: PokerKit's second hand type is the low
    bomb: bool = False  # antes only, no betting before the flop (the bomb pot)
    max_players: int = 9
    by_players: tuple[tuple[int, int], ...] = ()  # The Big Easy: (most players, hole cards)

    def hole_for(self, n: int) -> int:
        return next((cards for most, cards in self.by_players if n <= most), self.hole)

    def pokerkit_for(self, n: int) -> Any:
        if not self.by_players:
            return self.pokerkit_class
        return pk_games.omaha(self.hole_for(n), "8" if self.low else None)


_PL = Structure.POT_LIMIT
GAMES: dict[str, GameInfo] = {
    "nlhe": GameInfo("nlhe", Structure.NO_LIMIT, 2, pokerkit.NoLimitTexasHoldem),
    "plo": GameInfo("plo", Structure.POT_LIMIT, 4, pokerkit.PotLimitOmahaHoldem),
    "flhe": GameInfo("flhe", Structure.FIXED_LIMIT, 2, pokerkit.FixedLimitTexasHoldem),
    # The Omaha games of 004-GN §VIII PokerKit can play (pk_games.py; issue 29).
    "plo5": GameInfo("plo5", _PL, 5, pk_games.omaha(5), max_players=8),
    "o8reg": GameInfo("o8reg", _PL, 4, pk_games.omaha(4, "regular"), low=True),
    "bigo": GameInfo("bigo", _PL, 5, pk_games.omaha(5, "8"), low=True, max_players=8),
    "bigeasy": GameInfo(
        "bigeasy", _PL, 5, None, low=True, max_players=8, by_players=((4, 7), (6, 6))
    ),
    "dbo": GameInfo("dbo", _PL, 4, pokerkit.PotLimitOmahaHoldem, boards=2, max_players=8),
    "bomb5": GameInfo(
        "bomb5", _PL, 5, pk_games.PotLimitBombPotOmaha, boards=2, bomb=True, max_players=8
    ),
}


@dataclass(frozen=True, slots=True)
class Deal:
    """Everything random about one hand except the action choices (seeded by `action_seed`)."""

    game: str
    stacks: tuple[int, ...]  # seat i + 1 = PokerKit player i
    sb: int
    bb: int
    deck: tuple[str, ...]  # the shoe order
    action_seed: int
    fold_rate: float
    raise_rate: float
    ante: int = 0  # the bomb pot's (no blinds then)

    @property
    def n(self) -> int:
        return len(self.stacks)

    @property
    def button(self) -> int:
        return self.n

    @property
    def sb_seat(self) -> int:
        return 2 if self.n == 2 else 1

    @property
    def bb_seat(self) -> int:
        return 1 if self.n == 2 else 2

    def posted(self) -> dict[int, int]:
        if GAMES[self.game].bomb:
            return {}
        return {
            self.sb_seat: min(self.sb, self.stacks[self.sb_seat - 1]),
            self.bb_seat: min(self.bb, self.stacks[self.bb_seat - 1]),
        }

    @property
    def short_bb(self) -> bool:
        """The big blind could not post all of it (BLIND-SHORT-BIG-BLIND)."""
        posted = self.posted()
        return self.bb_seat in posted and posted[self.bb_seat] < self.bb

    def stakes(self) -> dict[str, int]:
        if self.ante:
            return {"ante": self.ante, "bb": self.bb}
        out = {"sb": self.sb, "bb": self.bb}
        if GAMES[self.game].structure is Structure.FIXED_LIMIT:
            out |= {"small_bet": self.bb, "big_bet": 2 * self.bb}
        return out


def _stack(rng: random.Random, bb: int) -> int:
    r = rng.random()
    if r < 0.15:
        return rng.randint(1, 3 * bb)  # short: all-in pre-flop, short all-ins in limit
    if r < 0.35:
        return rng.randint(3 * bb, 15 * bb)
    if r < 0.70:
        return rng.randint(15 * bb, 60 * bb)
    return rng.randint(60 * bb, 250 * bb)


def random_deal(rng: random.Random, game: str) -> Deal:
    n = rng.choices(list(PLAYER_WEIGHTS), weights=list(PLAYER_WEIGHTS.values()))[0]
    n = min(n, GAMES[game].max_players)
    sb, bb = rng.choice(BLINDS)
    stacks = [_stack(rng, bb) for _ in range(n)]
    bb_index = 0 if n == 2 else 1
    ante = 0
    if GAMES[game].bomb:
        ante = bb  # every player's ante: at least the stack (no all-in for the ante here)
        stacks = [max(s, ante + 1) for s in stacks]
    elif rng.random() < SHORT_BIG_BLIND_RATE:
        stacks[bb_index] = rng.randint(1, bb - 1)
    elif stacks[bb_index] < bb:
        stacks[bb_index] = bb + rng.randint(0, 3 * bb)
    deck = list(DECK)
    rng.shuffle(deck)
    return Deal(
        game=game,
        stacks=tuple(stacks),
        sb=sb,
        bb=bb,
        deck=tuple(deck),
        action_seed=rng.getrandbits(64),
        fold_rate=rng.uniform(0.05, 0.35),
        raise_rate=rng.uniform(0.1, 0.55),
        ante=ante,
    )


# --- results ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Disagreement:
    kind: str  # "to_act", "to_call", "raise", "pots", "stacks", "incident", "flow", "crash"
    text: str
    ours: Any
    pokerkit: Any
    seat: int | None = None
    line: int = 0  # the difference is seen after this many session lines


@dataclass(slots=True)
class HandResult:
    deal: Deal
    compared: int = 0
    allowed: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)  # known engine bugs met (steered past)
    first_known: Disagreement | None = None
    disagreement: Disagreement | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    stopped: bool = False  # played no further (an allowed difference made nothing comparable)
    allins: int = 0
    side_pots: int = 0
    showdown: bool = False

    def session_text(self) -> str:
        """The hand as a recorded session; a '#' line on top holds PokerKit's values and the
        number of the line after which the difference was seen (the '#' line not counted)."""
        d = self.disagreement or self.first_known
        head: dict[str, Any] = {"game": self.deal.game}
        if d is not None:
            head |= {
                "disagreement": d.kind,
                "seat": d.seat,
                "text": d.text,
                "engine": _jsonable(d.ours),
                "pokerkit": _jsonable(d.pokerkit),
                "after_line": d.line,
            }
        out = ["# pokerkit 0.7.7: " + json.dumps(head, separators=(",", ":"))]
        out += [json.dumps(line, separators=(",", ":")) for line in self.lines]
        return "\n".join(out) + "\n"


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


class _StopError(Exception):
    """The hand cannot go on (a disagreement, or an allowed difference that ends the hand)."""


# --- the lockstep driver ------------------------------------------------------------------------


@dataclass(slots=True)
class PKView:
    actor: int | None  # seat
    to_call: int | None
    raise_range: tuple[int, int] | None
    reason: str
    pots: list[tuple[int, tuple[int, ...]]]


class Lockstep:
    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.info = GAMES[deal.game]
        self.rng = random.Random(deal.action_seed)
        self.table = Table()
        self.result = HandResult(deal)
        self.cards = iter(deal.deck)
        self.seats = list(range(1, deal.n + 1))
        self.zone = dict.fromkeys(self.seats, 0)
        self.behind = {s: deal.stacks[s - 1] for s in self.seats}
        self.folded: set[int] = set()
        self.collected = 0
        self.shown: list[int] = []
        self.hand_end: HandEnd | None = None
        self.rr: RRRound | None = None
        self.rr_street: int | None = None
        self.state: Any = None
        self.put_in = dict.fromkeys(self.seats, 0)  # chips each seat put in this hand
        self.hands: dict[int, Any] | None = None  # PokerKit's hands at the first push
        # Every board's and hand type's (high, low) hands, for the games with more than one.
        self.part_hands: dict[tuple[int, int], dict[int, Any]] = {}

    # --- session side --------------------------------------------------------------------------

    def feed(self, line: dict[str, Any]) -> None:
        self.result.lines.append(line)
        _, event = event_from_dict(line)
        try:
            out = self.table.feed(event, seq=len(self.result.lines))
        except Exception as exc:
            self.fail("crash", f"engine raised {type(exc).__name__}: {exc}", _tb(exc), None)
        self._decisions(out)

    def _decisions(self, out: list[Decision]) -> None:
        for d in out:
            if isinstance(d, Incident):
                self.fail(
                    "incident",
                    f"engine incident {d.rule} ({d.ruling}): {d.text}",
                    d.rule,
                    None,
                    d.seat,
                )
            if isinstance(d, HandEnd):
                self.hand_end = d

    def fail(self, kind: str, text: str, ours: Any, pk: Any, seat: int | None = None) -> None:
        self.result.disagreement = Disagreement(kind, text, ours, pk, seat, len(self.result.lines))
        raise _StopError

    def zone_line(self, seat: int, amount: int) -> None:
        self.zone[seat] = amount
        self.feed({"type": "zone", "seat": seat, "amount": amount})

    def key_line(self, key: str, seat: int | None = None) -> None:
        line: dict[str, Any] = {"type": "key", "key": key}
        if seat is not None:
            line["seat"] = seat
        self.feed(line)

    def draw_line(self, card: str) -> None:
        self.feed({"type": "draw", "card": card, "face_up": False})

    # --- PokerKit side -------------------------------------------------------------------------

    def _new_state(self) -> Any:
        """PokerKit's state for the hand, its hand evaluation remembered for the hand
        (tests/pokerkit_memo.py: pure, it cannot change a result)."""
        return pokerkit_memo.remember_hands(self._create_state())

    def _create_state(self) -> Any:
        d = self.deal
        cls = self.info.pokerkit_for(d.n)
        if self.info.structure is Structure.FIXED_LIMIT:
            return cls.create_state(
                AUTOMATIONS, True, 0, (d.sb, d.bb), d.bb, 2 * d.bb, d.stacks, d.n
            )
        if self.info.bomb:
            return cls.create_state(
                AUTOMATIONS, True, d.ante, 0, d.bb, d.stacks, d.n, starting_board_count=2
            )
        return cls.create_state(
            AUTOMATIONS,
            True,
            0,
            (d.sb, d.bb),
            d.bb,
            d.stacks,
            d.n,
            starting_board_count=self.info.boards,
        )

    def pk_view(self) -> PKView:
        st = self.state
        lo = st.min_completion_betting_or_raising_to_amount
        hi = st.max_completion_betting_or_raising_to_amount
        reason = ""
        if lo is None:
            try:
                st.verify_completion_betting_or_raising_to()
            except ValueError as exc:
                reason = str(exc)
        pots = [(p.amount, tuple(sorted(i + 1 for i in p.player_indices))) for p in st.pots]
        actor = st.actor_index
        return PKView(
            actor=None if actor is None else actor + 1,
            to_call=st.checking_or_calling_amount,
            raise_range=None if lo is None else (lo, hi),
            reason=reason,
            pots=pots,
        )

    # --- one hand ------------------------------------------------------------------------------

    def run(self) -> HandResult:
        with warnings.catch_warnings(), pokerkit_memo.kept_entries():
            # A PokerKit warning (a card it does not expect, a pointless fold) would mean the
            # driver dealt or acted wrongly: make it an error here, locally.
            warnings.simplefilter("error")
            with contextlib.suppress(_StopError):
                self._play()
        return self.result

    def _play(self) -> None:
        self._start()
        while self._advance():
            self._decide()
        self._finish()

    def _start(self) -> None:
        """The setup line, the blinds in the zones, NEW_HAND; PokerKit posts its blinds."""
        d = self.deal
        setup = {
            "type": "setup",
            "game": d.game,
            "profile": "RR11",
            "stakes": d.stakes(),
            "seats": {str(s): d.stacks[s - 1] for s in self.seats},
            "button": d.button,
        }
        self.feed(setup)
        if d.ante:  # the antes in the zones, then into the middle, before the deal
            for seat in self.seats:
                self.zone_line(seat, d.ante)
                self.behind[seat] -= d.ante
                self.put_in[seat] += d.ante
            for seat in self.seats:
                self.zone_line(seat, 0)
            self.collected += d.ante * d.n
        for seat, amount in sorted(self.deal.posted().items(), key=lambda kv: kv[1]):
            self.zone_line(seat, amount)
            self.behind[seat] -= amount
            self.put_in[seat] += amount
        self.key_line("NEW_HAND")
        self.state = self._new_state()

    def _advance(self) -> bool:
        """Deal, collect, show and push until PokerKit wants a player's decision (True) or the
        hand is over (False). PokerKit's betting is a phase of its own (`actor_index` is set only
        between `_begin_betting` and `_end_betting`, when nothing can be dealt, shown or pushed),
        so a wanted decision is looked for first, before probing the other operations."""
        st = self.state
        while st.status:
            if st.actor_index is not None:
                return True
            if st.can_deal_hole():
                card = next(self.cards)
                st.deal_hole(card)
                self.draw_line(card)
            elif st.can_burn_card():
                self._round_over()
                card = next(self.cards)
                st.burn_card(card)
                self.draw_line(card)
            elif st.can_deal_board():
                cards = [next(self.cards) for _ in range(st.board_dealing_count)]
                st.deal_board("".join(cards))
                for card in cards:
                    self.draw_line(card)
            elif st.can_show_or_muck_hole_cards():
                self._round_over()
                seat = st.showdown_index + 1
                st.show_or_muck_hole_cards(True)
                self.shown.append(seat)
            elif st.can_push_chips():
                self._push()
            else:
                raise AssertionError(f"PokerKit state stuck: {st.operations[-3:]}")
        return False

    def _round_over(self) -> None:
        """PokerKit has closed the betting round: our engine must agree, then collect."""
        snap = self.table.snapshot()
        if snap.to_act is not None and self._short_big_blind_open(snap):
            self.result.allowed[allowlist.SHORT_BIG_BLIND.key] += 1
            self.result.stopped = True
            raise _StopError
        if snap.to_act is not None:
            self.fail(
                "flow",
                f"PokerKit closed the betting round; the engine still waits for seat {snap.to_act}",
                snap.to_act,
                None,
                snap.to_act,
            )
        for seat in self.seats:
            if self.zone[seat] > 0:
                self.collected += self.zone[seat]
                self.zone_line(seat, 0)
        self.rr = None

    def _push(self) -> None:
        st = self.state
        if self.hands is None and sum(st.statuses) > 1:
            self.hands = {i + 1: h for i, h in enumerate(st.get_up_hands(0, 0))}
            self.part_hands = {
                (j, k): {i + 1: h for i, h in enumerate(st.get_up_hands(j, k))}
                for j in range(st.board_count)
                for k in range(st.hand_type_count)
            }
        st.push_chips()

    def _short_big_blind_open(self, snap: TableSnapshot) -> bool:
        """BLIND-SHORT-BIG-BLIND when PokerKit has no decision at all: the big blind posted less
        than the small blind, so PokerKit closes the round; the rulebook (and our engine) still
        asks the small blind to bring it in to the full blind or fold."""
        if not self.deal.short_bb or self.state.street_index != 0:
            return False
        if self.rr is None and self.state.street_index == 0:
            self._rr_round()
        rr = self.rr
        seat = snap.to_act
        return (
            rr is not None
            and seat is not None
            and seat in rr.seats
            and rr.to_call(seat) == snap.to_call > 0
        )

    def _explain_stacks(self, ours: dict[int, int | None], pk: dict[int, int]) -> str | None:
        """Final stacks differ: allowed only when ours are the rulebook settlement and
        PokerKit's are the same pots settled its own way (settle.py)."""
        if self.hands is None:
            return None
        live = [s for s in self.seats if s not in self.folded]
        back, pots = settle.pot_layers(self.put_in, live)
        left = {s: self.deal.stacks[s - 1] - self.put_in[s] + back.get(s, 0) for s in self.seats}
        if self.info.boards > 1 or self.info.low:
            return self._explain_parts(ours, pk, pots, left)
        rulebook = settle.rulebook_split(pots, self.hands)
        if ours != {s: left[s] + rulebook[s] for s in self.seats}:
            return None
        for merge, key in (
            (False, allowlist.ODD_CHIPS.key),
            (True, allowlist.MERGED_POTS.key),
        ):
            won = settle.pokerkit_split(pots, self.hands, merge=merge)
            if pk == {s: left[s] + won[s] for s in self.seats}:
                return key
        return None

    def _explain_parts(
        self,
        ours: dict[int, int | None],
        pk: dict[int, int],
        pots: list[tuple[int, list[int]]],
        left: dict[int, int],
    ) -> str | None:
        """The same for a game settled in parts (two boards, a high and a low half)."""
        parts = self.part_hands
        rulebook = settle.rulebook_split_parts(pots, parts)
        if ours != {s: left[s] + rulebook[s] for s in self.seats}:
            return None
        for merge, key in ((False, allowlist.ODD_CHIPS.key), (True, allowlist.MERGED_POTS.key)):
            won = settle.pokerkit_split_parts(pots, parts, merge=merge)
            if pk == {s: left[s] + won[s] for s in self.seats}:
                return key
        return None

    def _finish(self) -> None:
        st = self.state
        for seat in self.shown:
            self.key_line("TABLED", seat)
        if self.hand_end is None:
            self._decisions(self.table.finish(seq=len(self.result.lines)))
        self.result.showdown = bool(self.shown)
        end = self.hand_end
        if end is None:
            self.fail("flow", "PokerKit finished the hand; the engine did not end it", None, None)
        assert end is not None
        ours = {s: end.stacks.get(s) for s in self.seats}
        pk = {i + 1: st.stacks[i] for i in range(self.deal.n)}
        if ours != pk:
            key = self._explain_stacks(ours, pk)
            if key is None:
                self.fail("stacks", "final stacks differ", ours, pk)
            else:
                self.result.allowed[key] += 1
        self.result.side_pots += max(0, len(end.pots) - 1)

    # --- a decision ----------------------------------------------------------------------------

    def _rr_round(self) -> RRRound:
        st = self.state
        if self.rr is None or self.rr_street != st.street_index:
            in_hand = [s for s in self.seats if s not in self.folded]
            preflop = st.street_index == 0 and not self.info.bomb
            size = self.deal.bb
            if self.info.structure is Structure.FIXED_LIMIT and st.street_index >= 2:
                size = 2 * self.deal.bb
            stacks = {s: self.behind[s] + (self.zone[s] if preflop else 0) for s in in_hand}
            self.rr = new_round(
                self.info.structure,
                bet_size=size,
                stacks=stacks,
                in_hand=in_hand,
                pot_before=self.collected,
                preflop=preflop,
            )
            if preflop:
                self.rr.post_blinds(
                    {s: a for s, a in self.deal.posted().items() if s in in_hand}, self.deal.bb
                )
            self.rr_street = st.street_index
        return self.rr

    def _decide(self) -> None:
        pk = self.pk_view()
        snap = self.table.snapshot()
        rr = self._rr_round()
        seat = pk.actor
        assert seat is not None
        self.result.compared += 1
        if snap.to_act is None and self._no_option(pk, rr, seat):
            return
        if snap.to_act != seat:
            self.fail("to_act", "seat to act differs", snap.to_act, seat, seat)
        ours_range = _ours_range(snap)
        short_bb = self.deal.short_bb
        if snap.to_call != pk.to_call:
            if short_bb and self._short_big_blind(snap, rr, seat, ours_range):
                return
            self.fail("to_call", "amount to call differs", snap.to_call, pk.to_call, seat)
        ours_pots = [(p.amount, tuple(p.eligible)) for p in snap.pots]
        if ours_pots != pk.pots:
            self.fail("pots", "collected pots differ", ours_pots, pk.pots, seat)
        common = pk.raise_range
        if ours_range != pk.raise_range:
            if short_bb and self._short_big_blind(snap, rr, seat, ours_range):
                return
            ctx = allowlist.Context(
                structure=self.info.structure,
                street=self.state.street_index,
                seat=seat,
                pk_range=pk.raise_range,
                pk_reason=pk.reason,
                ours_range=ours_range,
                rr_range=rr.raise_range(seat),
                rr=rr,
            )
            entry = allowlist.explain(ctx)
            if entry is not None and ctx.rr_range == ours_range:
                self.result.allowed[entry.key] += 1
            elif (bug := known_bugs.match(ctx)) is not None:
                self._known(bug, ctx, pk)
            else:
                why = (
                    "no allow-list entry explains it"
                    if entry is None
                    else f"{entry.key} applies but the engine departs from the rulebook "
                    f"(rulebook: {ctx.rr_range})"
                )
                pk_detail = {"range": pk.raise_range, "reason": pk.reason}
                self.fail("raise", f"raise range differs; {why}", ours_range, pk_detail, seat)
            common = _intersection(ours_range, pk.raise_range)
        self._act(seat, pk, rr, common)

    def _known(self, bug: known_bugs.KnownBug, ctx: allowlist.Context, pk: PKView) -> None:
        self.result.known[bug.case] += 1
        if self.result.first_known is None:
            self.result.first_known = Disagreement(
                f"known:{bug.case}",
                bug.diagnosis,
                ctx.ours_range,
                {"range": pk.raise_range, "reason": pk.reason},
                ctx.seat,
                len(self.result.lines),
            )

    def _no_option(self, pk: PKView, rr: RRRound, seat: int) -> bool:
        """BLIND-POSITIONS: PokerKit asks the last player not all-in, who owes nothing and may
        not raise, to act; our engine has closed the round. Check it in PokerKit only."""
        others_out = all(not s.live for s in rr.seats.values() if s.seat != seat)
        if not (pk.to_call == 0 and pk.raise_range is None and others_out):
            return False
        self.state.check_or_call()
        rr.check_or_call(seat)
        self.result.allowed[allowlist.NO_OPTION.key] += 1
        return True

    def _short_big_blind(
        self, snap: TableSnapshot, rr: RRRound, seat: int, ours_range: tuple[int, int] | None
    ) -> bool:
        """BLIND-SHORT-BIG-BLIND at the first pre-flop decision: check our engine against the
        rulebook, count the allowed difference and stop the hand."""
        if self.state.street_index != 0:
            return False
        if (snap.to_call, ours_range) != (rr.to_call(seat), rr.raise_range(seat)):
            return False
        self.result.allowed[allowlist.SHORT_BIG_BLIND.key] += 1
        self.result.stopped = True
        raise _StopError

    def _act(self, seat: int, pk: PKView, rr: RRRound, rng_range: tuple[int, int] | None) -> None:
        """Take one action both engines allow: fold (when facing a bet), check or call, or a
        raise within `rng_range` (the range both allow; None = no raise)."""
        to_call = pk.to_call or 0
        rng = self.rng
        if to_call > 0 and rng.random() < self.deal.fold_rate:
            self.apply(seat, "fold")
        elif rng_range is not None and rng.random() < self.deal.raise_rate:
            self.apply(seat, "raise", self._raise_size(seat, rng_range))
        else:
            self.apply(seat, "call")

    def apply(self, seat: int, action: str, total: int = 0) -> None:
        """One action in PokerKit, in the rulebook model and as session lines for our engine:
        "fold" (FOLD key), "call" (CHECK key, or the zone raised by the call) or "raise" (the
        zone at `total`, the street total)."""
        st = self.state
        rr = self._rr_round()
        if action == "fold":
            st.fold()
            rr.fold(seat)
            self.folded.add(seat)
            self.key_line("FOLD", seat)
            return
        if action == "raise":
            st.complete_bet_or_raise_to(total)
            rr.raise_to(seat, total)
            paid = total - self.zone[seat]
        else:
            paid = st.checking_or_calling_amount
            st.check_or_call()
            rr.check_or_call(seat)
            if paid == 0:
                self.key_line("CHECK", seat)
                return
        self.behind[seat] -= paid
        self.put_in[seat] += paid
        if self.behind[seat] == 0:
            self.result.allins += 1
        self.zone_line(seat, self.zone[seat] + paid)

    def _raise_size(self, seat: int, rng_range: tuple[int, int]) -> int:
        lo, hi = rng_range
        allin = self.zone[seat] + self.behind[seat]
        choices = [(lo, 30), (hi, 25)]
        if lo <= allin - 1 <= hi:
            choices.append((allin - 1, 15))
        if lo < hi:
            choices.append((self.rng.randint(lo, hi), 30))
        amounts, weights = zip(*choices, strict=True)
        return int(self.rng.choices(amounts, weights=weights)[0])


def _intersection(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    if a is None or b is None:
        return None
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else None


def _ours_range(snap: TableSnapshot) -> tuple[int, int] | None:
    if snap.min_raise_to is None and snap.max_raise_to is None:
        return None
    return (snap.min_raise_to, snap.max_raise_to)  # type: ignore[return-value]


def _tb(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip() + (
        " at " + traceback.extract_tb(exc.__traceback__)[-1].filename.split("/station/")[-1]
        if exc.__traceback__
        else ""
    )


def play(deal: Deal) -> HandResult:
    return Lockstep(deal).run()


# --- many hands ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Summary:
    hands: int = 0
    compared_actions: int = 0
    disagreements: int = 0  # unexplained ones plus known engine bugs met
    unexplained: int = 0  # hands stopped by a disagreement no entry explains
    allowed: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)
    stopped: int = 0
    allins: int = 0
    side_pots: int = 0
    showdowns: int = 0
    by_game: Counter[str] = field(default_factory=Counter)
    failures: list[HandResult] = field(default_factory=list)

    def add(self, r: HandResult) -> None:
        self.hands += 1
        self.by_game[r.deal.game] += 1
        self.compared_actions += r.compared
        self.allowed.update(r.allowed)
        self.known.update(r.known)
        self.disagreements += sum(r.known.values())
        self.stopped += r.stopped
        self.allins += r.allins
        self.side_pots += r.side_pots
        self.showdowns += r.showdown
        if r.disagreement is not None:
            self.disagreements += 1
            self.unexplained += 1
        if r.disagreement is not None or r.known:
            self.failures.append(r)


def hand_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index) & 0xFFFF_FFFF_FFFF


def run_many(
    hands: int,
    seed: int,
    games: tuple[str, ...],
    *,
    on_hand: Callable[[int, HandResult], None] | None = None,
) -> Summary:
    summary = Summary()
    for k in range(hands):
        rng = random.Random(hand_seed(seed, k))
        deal = random_deal(rng, games[k % len(games)])
        result = play(deal)
        summary.add(result)
        if on_hand is not None:
            on_hand(k, result)
    return summary


def dump(result: HandResult, directory: Path, name: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.jsonl"
    path.write_text(result.session_text(), encoding="utf-8")
    return path
