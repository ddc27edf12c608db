"""The table: the rules engine's one entry point. Pure.

`Table.feed(event, seq=..., at=...)` takes one input event and returns the decisions it causes;
`Table.snapshot()` gives the frozen view the display shows. Same events in, same decisions out:
the journal's crash recovery and `station replay` both rely on that.

Between hands the table collects forced bets: a zone amount posted before NEW_HAND that is taken
in again before NEW_HAND is an ante (dead money); one still in front at NEW_HAND is a blind,
straddle or other live post (PRODUCT.md §4 conventions).
"""

from __future__ import annotations

from station.engine import deck_audit, seating
from station.engine.cards import Card, DeckRegistry, default_registry
from station.engine.decisions import Decision, DrawRole, Incident, Prompt, PromptCode, Role, Ruling
from station.engine.events import Draw, InputEvent, Key, KeyPress, Puck, SeatSensor, Setup, Zone
from station.engine.games import Family, GameSpec, HighEval, LowEval, Structure, game_spec
from station.engine.hand import Hand
from station.engine.positions import (
    TABLE_SEATS,
    ButtonLayout,
    button_layout,
    clockwise_after,
    dead_button_next,
    next_seat,
)
from station.engine.profiles import ButtonMethod, Profile, profile
from station.engine.rulebook import citation
from station.engine.snapshot import TableSnapshot
from station.engine.view import table_snapshot

DECK_DEFECTS = frozenset({"DECK-DUPLICATE-CARD", "DECK-FOREIGN-BACK"})


class Table:
    """A poker table: setup, seats, stacks, button, and the hand in progress."""

    def __init__(self, registry: DeckRegistry | None = None) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.setup: Setup | None = None
        self.spec: GameSpec | None = None
        self.profile: Profile | None = None
        self.hand_no = 0
        self.hand: Hand | None = None
        self.stacks: dict[int, int | None] = {}
        self.occupied: set[int] = set()
        self.button: int | None = None  # button for the next (or current) hand
        self.puck: int | None = None
        self.zone: dict[int, int] = {}
        self.offset: dict[int, int] = {}  # chips of a finished hand still in the zones
        self.posted: dict[int, int] = {}  # forced bets posted for the next hand
        self.antes: dict[int, int] = {}  # forced bets already taken in (dead money)
        self.back: str = self.registry.decks[0].back if self.registry.decks else "blue"
        self.deck_hands = 0  # DECK-CHANGE: hands dealt with the deck in play
        self.deck_round = 0  # players dealt in the last hand: a full round with this deck
        self.deck_defective = False  # the deck in play was found defective (may be changed)
        self.floor_call = False
        self.newcomers: set[int] = set()  # seated since the setup, not yet dealt in
        self.missed: dict[int, set[str]] = {}  # BLIND-MISSED: seat -> {"sb", "bb"} passed by
        self.last_blinds: tuple[int | None, int] | None = None  # (small, big) of the last hand
        self.last_button: int | None = None
        self.posts_prompt = ""
        self.last_players = 0
        self.straddle_keys: set[int] = set()  # STRADDLE pressed for the next hand
        self.kill_keys: set[int] = set()  # KILL pressed for the next hand
        self.seat_wait: dict[int, int] = {}  # BLIND-SEAT-CHANGE: seat -> hands still to wait
        self.post_chips: dict[int, tuple[int, ...]] = {}  # denominations of the forced bets
        self.button_draw: list[tuple[int, Card]] = []  # BUTTON-INITIAL-DRAW: (seat, card)
        self.away_since: dict[int, float] = {}  # MISC-ABSENCE: seat -> event time he left
        self.time_flop_due = False  # MISC-TIME-COLLECTION: the next flop names who pays time
        self.deck_check: list[Card] | None = None  # DECK_CHECK: cards scanned so far
        self.time_flop_next: float | None = None  # event time from which the next one is due
        self.away_flagged: set[int] = set()
        self.min_chip: int | None = None  # BET-SMALLEST-CHIP, CHIP-ODD-UNIT (when reported)
        self.out: list[Decision] = []

    # --- input --------------------------------------------------------------------------------

    def feed(self, event: InputEvent, *, seq: int, at: float | None = None) -> list[Decision]:
        hand = self.hand
        if hand is not None and hand.result is None:
            hand.tick(at, seq)
        if at is not None and self.away_since:
            self._absence(at, seq)
        if at is not None and self.profile is not None and self.profile.time_flop:
            if self.time_flop_next is None:
                self.time_flop_next = at + 30 * 60
            elif at >= self.time_flop_next and not self.time_flop_due:
                self.time_flop_due = True  # a new half hour: the next flop names the payer
        match event:
            case Zone():
                if hand is not None and hand.result is None and event.seat in hand.seats:
                    self.zone[event.seat] = event.amount
                    hand.on_zone(event.seat, event.amount, event.chips, seq)
                else:
                    self._zone_between(event, seq)
            case Draw():
                self._draw(event, seq)
            case KeyPress():
                self._key(event, seq)
            case SeatSensor():
                before = set(self.occupied)
                if event.occupied:
                    self.occupied.add(event.seat)
                    if event.seat not in before and event.seat not in self.stacks:
                        self.newcomers.add(event.seat)
                    self.away_since.pop(event.seat, None)
                    self.away_flagged.discard(event.seat)
                else:
                    self.occupied.discard(event.seat)
                    self.newcomers.discard(event.seat)
                    if self.stacks.get(event.seat, None) == 0:
                        del self.stacks[event.seat]  # out of chips and gone: the seat is free
                    elif at is not None and event.seat in self.stacks:
                        self.away_since.setdefault(event.seat, at)
                if hand is not None and hand.result is None and event.seat in hand.seats:
                    hand.seat_sensor(event.seat, event.occupied, seq)
                if self.occupied != before and (hand is None or hand.result is not None):
                    self._prompt_posts(seq)  # who posts what changes with who is seated
                    if event.occupied and self.missed.get(event.seat):
                        self._prompt_missed(event.seat, seq)
            case Puck():
                self.puck = event.seat
                if hand is not None:
                    hand.puck = event.seat
            case Setup():
                self._setup(event, seq)
        return self._drain()

    def finish(self, *, seq: int) -> list[Decision]:
        """End of input (end of a session file): settle what can be settled."""
        if self.hand is not None:
            self.hand.finish(seq)
            self._absorb()
        return self._drain()

    def _drain(self) -> list[Decision]:
        if self.hand is not None and self.hand.out:
            self._absorb()
        out, self.out = self.out, []
        return out

    def _absorb(self) -> None:
        """Take the hand's decisions; when it has just ended, settle the table."""
        hand = self.hand
        if hand is None:
            return
        decisions = hand.drain()
        self.out.extend(decisions)
        if hand.result is not None and any(d is hand.result for d in decisions):
            self._hand_ended(hand)
        if hand.state.floor_call:
            self.floor_call = True

    # --- between hands ------------------------------------------------------------------------

    def _setup(self, event: Setup, seq: int) -> None:
        self._close_unfinished(seq)
        self.setup = event
        self.spec = game_spec(event.game)
        self.profile = profile(event.profile).with_overrides(event.rules)
        self.stacks = dict(event.seats)
        self.occupied = set(event.seats)
        self.button = event.button
        self.newcomers = set()
        self.missed = {}
        self.last_blinds = None
        self.last_players = 0
        self.hand = None
        self.posted, self.antes = {}, {}
        self.straddle_keys, self.kill_keys, self.seat_wait = set(), set(), {}
        self.post_chips, self.min_chip = {}, None
        self.button_draw = []
        self.away_since, self.away_flagged = {}, set()
        self.time_flop_due = self.profile.time_flop
        self.time_flop_next = None
        self.offset = dict(self.zone)
        if event.deck is not None:
            self._deck_change(event.deck, seq)
        self._prompt_posts(seq)

    def _zone_between(self, event: Zone, seq: int) -> None:
        seat, reading = event.seat, event.amount
        if seat not in self.occupied and reading > 0:
            self.out.append(
                self._incident(seq, "STATION-EMPTY-SEAT", f"CHIPS AT EMPTY SEAT {seat}")
            )
        self.zone[seat] = reading
        if event.chips and reading > 0:
            self.post_chips[seat] = event.chips
        base = self.offset.get(seat, 0)
        posted = self.posted.get(seat, 0)
        if reading >= base + posted:
            self.posted[seat] = reading - base
            return
        drop = base + posted - reading
        taken = min(drop, posted)  # chips posted for this hand and taken in: an ante
        if taken:
            self.antes[seat] = self.antes.get(seat, 0) + taken
            self.posted[seat] = posted - taken
        self.offset[seat] = base - (drop - taken)

    def _new_hand(self, seq: int) -> None:
        if self.setup is None or self.spec is None or self.profile is None:
            self.out.append(self._incident(seq, "STATION-UNEXPECTED-KEY", "SET UP THE TABLE FIRST"))
            return
        if self.hand is not None and self.hand.phase.value == "misdeal":
            self._redeal(seq)
            return
        self._close_unfinished(seq)
        dealt = self._dealt_in()
        if len(dealt) < 2:
            self.out.append(self._incident(seq, "STATION-UNEXPECTED-KEY", "FEWER THAN TWO PLAYERS"))
            return
        self.hand_no += 1
        self.deck_hands += 1
        self.deck_round = len(dealt)
        button, blinds = self._positions(dealt)
        button = self._button_not_moved(dealt, button, blinds, seq)
        self._note_missed_blinds(dealt, button, blinds)
        self._refuse_waiting_posts(dealt, seq)
        kill = self._kill(dealt, seq)
        straddle = self._straddle(dealt, button, blinds, kill, seq)
        if straddle is not None and self.profile.missed_blind_straddle:
            self.missed.pop(straddle, None)  # GN r155: back as the under-the-gun straddle
        elif straddle is not None and self.missed.get(straddle):
            straddle = None  # RR: the missed blinds are made up first (BLIND-MISSED)
        posts, dead = self._split_missed_posts(dealt)
        self.seat_wait = seating.waiting(self.seat_wait, dealt)
        self._note_min_chip(dealt, button, blinds)
        self.straddle_keys, self.kill_keys = set(), set()
        self.hand = Hand.start(
            number=self.hand_no,
            spec=self.spec,
            profile=self.profile,
            stakes=self.setup.stakes,
            dealt=dealt,
            stacks={s: self.stacks.get(s) for s in dealt},
            button=button,
            posts=posts,
            antes=dead,
            zone=self.zone,
            seq=seq,
            puck=self.puck,
            blinds=blinds,
            straddle=straddle,
            kill=kill,
            absent=frozenset(s for s in dealt if s not in self.occupied),
            min_chip=self.min_chip,
        )
        for seat in set(self.zone) - set(dealt):
            self.offset[seat] = self.zone[seat]  # chips left at a seat not dealt in are his own
        self.posted, self.antes = {}, {}
        self._absorb()

    def _note_min_chip(
        self, dealt: list[int], button: int | None, blinds: tuple[int | None, int] | None
    ) -> None:
        """BET-SMALLEST-CHIP (D28): the smallest chip used in the antes and blinds (GN: in the
        big blind), when the zone sensors reported denominations."""
        assert self.profile is not None
        seen = self.post_chips
        self.post_chips = {}
        if self.profile.min_chip_from_big_blind and button is not None:
            bb = button_layout(dealt, button, blinds).big_blind
            seen = {bb: seen[bb]} if bb in seen else {}
        chips = [c for cs in seen.values() for c in cs if c > 0]
        if chips:
            self.min_chip = min(chips)

    def _kill(self, dealt: list[int], seq: int) -> tuple[int, int] | None:
        """KILL-POTS: the KILL key and a kill-sized post (2x or 1.5x the big blind) in a limit
        game: the limits of this hand go up with it."""
        assert self.setup is not None
        assert self.spec is not None
        bb = self.setup.stakes.bb or 0
        for seat in sorted(self.kill_keys):
            amount = self.posted.get(seat, 0)
            if seat not in dealt:
                continue
            if self.spec.structure is Structure.FIXED_LIMIT and seating.kill_amount(amount, bb):
                return seat, amount
            self.out.append(
                self._incident(
                    seq,
                    "KILL-POTS",
                    f"SEAT {seat}: A KILL IS {2 * bb} (HALF KILL {3 * bb // 2}) IN A LIMIT GAME",
                    Ruling.CORRECT_BET,
                    seat=seat,
                )
            )
        return None

    def _straddle(
        self,
        dealt: list[int],
        button: int | None,
        blinds: tuple[int | None, int] | None,
        kill: tuple[int, int] | None,
        seq: int,
    ) -> int | None:
        """BLIND-STRADDLE: the one straddle declared with the STRADDLE key that the profile
        allows (GN: the button has precedence); a refused straddle is flagged and its chips are
        not part of the hand."""
        assert self.setup is not None
        assert self.spec is not None
        assert self.profile is not None
        if button is None or not self.straddle_keys:
            return None
        layout = button_layout(dealt, button, blinds)
        bb = self.setup.stakes.bb or 0
        chosen: int | None = None
        for seat in sorted(self.straddle_keys, key=lambda s: s != layout.button):
            amount = self.posted.get(seat, 0)
            if seat not in dealt or amount <= 0:
                continue
            why = seating.straddle_refusal(
                seat,
                amount,
                spec=self.spec,
                profile=self.profile,
                layout=layout,
                bb=bb,
                kill=kill is not None,
            )
            if why is None and chosen is not None:
                why = "ONE STRADDLE ONLY"
            if why is None:
                chosen = seat
                continue
            self.out.append(
                self._incident(
                    seq,
                    "BLIND-STRADDLE",
                    f"SEAT {seat}: {why}: TAKE BACK {amount}",
                    Ruling.CORRECT_BET,
                    seat=seat,
                )
            )
            self.posted.pop(seat, None)  # his chips, not part of the hand
        return chosen

    def _refuse_waiting_posts(self, dealt: list[int], seq: int) -> None:
        """A new player who posted but may not be dealt in yet is told why (BLIND-NEW-PLAYER,
        LOWBALL-BLINDS); his chips stay his own."""
        assert self.setup is not None
        assert self.spec is not None
        bb = self.setup.stakes.bb or 0
        for seat in sorted(self.newcomers):
            posted = self.posted.get(seat, 0)
            if seat in dealt or posted <= 0:
                continue
            if seating.is_lowball(self.spec) and seat not in self.kill_keys:
                r = seating.lowball_refusal(seat, posted, bb)
                text, rule = r.text, r.rule
            else:
                text = (
                    f"SEAT {seat} IS NOT DEALT IN: WAIT UNTIL THE BUTTON PASSES "
                    f"(TAKE BACK {posted})"
                )
                rule = "BLIND-NEW-PLAYER"
            self.out.append(self._incident(seq, rule, text, seat=seat))
            self.posted.pop(seat, None)

    def _dealt_in(self, *, commit: bool = True) -> list[int]:
        """Seats dealt in: entitled players, plus a waiting player whom the big blind reaches
        (BLIND-NEW-PLAYER, BLIND-MISSED: "wait for the big blind"). `commit` records that a
        waiting player came in; without it this only looks ahead (for the posting prompt)."""
        present = set(self.occupied)
        if self.profile is not None and self.profile.tournament:
            # TOURN-ABSENT: a no-show or absent player is always dealt a hand.
            present |= {s for s, st in self.stacks.items() if st != 0}
        dealt = sorted(s for s in present if self._entitled(s, commit=commit))
        if self.spec is None or self.spec.family is Family.STUD or len(dealt) < 2:
            return dealt
        waiting = sorted(
            s for s in self.occupied if s not in dealt and self.stacks.get(s, None) != 0
        )
        for seat in waiting:
            trial = sorted({*dealt, seat})
            button, blinds = self._positions(trial)
            if button is not None and button_layout(trial, button, blinds).big_blind == seat:
                if commit:
                    self.newcomers.discard(seat)
                    self.missed.pop(seat, None)
                dealt = trial
        return dealt

    def _note_missed_blinds(
        self, dealt: list[int], button: int | None, blinds: tuple[int | None, int] | None
    ) -> None:
        """BLIND-MISSED: an away player (chips on the table, seat empty) whom a blind passes
        owes it when he comes back."""
        last = self.last_blinds
        if last is None or button is None:
            return
        layout = button_layout(dealt, button, blinds)
        gone = set(self.stacks) - self.occupied - set(dealt)
        away = [s for s in sorted(gone) if self.stacks[s] != 0]
        for name, before, now in (
            ("sb", last[0], layout.small_blind),
            ("bb", last[1], layout.big_blind),
        ):
            if before is None or now is None:
                continue
            passed = clockwise_after(range(1, TABLE_SEATS + 1), before)
            passed = passed[: passed.index(now)] if now in passed else []
            for seat in away:
                if seat in passed:
                    self.missed.setdefault(seat, set()).add(name)

    def _split_missed_posts(self, dealt: list[int]) -> tuple[dict[int, int], dict[int, int]]:
        """(live posts, dead money) at the deal. A player making up missed blinds posts them
        all: the big blind is live, the rest is dead (BLIND-MISSED; GN: only the big blind is
        live, D51, which is the same split here)."""
        assert self.setup is not None
        bb = self.setup.stakes.bb or 0
        posts = {s: a for s, a in self.posted.items() if a > 0}
        dead = {s: a for s, a in self.antes.items() if a > 0}
        for seat in dealt:
            if self.missed.pop(seat, None) and posts.get(seat, 0) > bb:
                dead[seat] = dead.get(seat, 0) + posts[seat] - bb
                posts[seat] = bb
        return posts, dead

    def _prompt_missed(self, seat: int, seq: int) -> None:
        assert self.setup is not None
        st = self.setup.stakes
        owed = (st.bb or 0) + (st.sb or 0 if "sb" in self.missed[seat] else 0)
        self.out.append(
            Prompt(
                self.hand_no + 1,
                f"SEAT {seat} MISSED THE BLINDS: POST {owed} ({st.bb} LIVE) OR WAIT FOR THE BIG "
                "BLIND",
                seq,
                PromptCode.POST,
            )
        )

    def _entitled(self, seat: int, *, commit: bool = True) -> bool:
        """Dealt in this hand? A seated player with chips; a new player only once he has posted
        a big blind (BLIND-NEW-PLAYER: "post an amount equal to the big blind and be dealt in
        immediately", or wait for the big blind; the profile's variants in `seating`); a player
        who changed seats away from the big blind after his wait or a big-blind post."""
        if self.stacks.get(seat, None) == 0:
            return False
        assert self.setup is not None
        assert self.spec is not None
        assert self.profile is not None
        st = self.setup.stakes
        posted = self.posted.get(seat, 0) + self.antes.get(seat, 0)
        if self.seat_wait.get(seat):
            return posted >= (st.bb or 0)
        if seat not in self.newcomers and not self.missed.get(seat):
            return True
        due: int | None = st.bb or st.ante or 0
        if seat in self.newcomers and self.spec.family is not Family.STUD:
            due = seating.newcomer_due(
                seat,
                spec=self.spec,
                profile=self.profile,
                layout=self._regulars_layout(),
                bb=st.bb or 0,
                sb=st.sb or 0,
                killed=seat in self.kill_keys,
            )
        if due is not None and posted >= due:
            if commit:
                self.newcomers.discard(seat)
            return True
        return False

    def _regulars_layout(self) -> ButtonLayout | None:
        """The next hand's button and blinds among the players already in the game."""
        regulars = sorted(
            s
            for s in self.occupied
            if self.stacks.get(s, None) != 0
            and s not in self.newcomers
            and not self.missed.get(s)
            and not self.seat_wait.get(s)
        )
        if len(regulars) < 2:
            return None
        button, blinds = self._positions(regulars)
        return button_layout(regulars, button, blinds) if button is not None else None

    def _seat_change(self, event: KeyPress, seq: int) -> None:
        """BLIND-SEAT-CHANGE: the player moves with his chips. Moving closer to the big blind is
        free; moving away he waits until the same relative position, or posts the big blind."""
        frm, to = event.seat, event.to_seat
        if frm is None or to is None or frm not in self.stacks or to == frm or to in self.stacks:
            self.out.append(
                self._incident(
                    seq,
                    "BLIND-SEAT-CHANGE",
                    f"SEAT CHANGE {frm} TO {to} NOT POSSIBLE: CHECK THE SEATS",
                    seat=frm,
                )
            )
            return
        before = self._regulars_layout()
        self.stacks[to] = self.stacks.pop(frm)
        if frm in self.missed:
            self.missed[to] = self.missed.pop(frm)
        self.newcomers.discard(frm)
        self.newcomers.discard(to)
        self.occupied.discard(frm)
        self.occupied.add(to)
        after = self._regulars_layout()
        if self.spec is None or self.spec.family is Family.STUD or before is None or after is None:
            return
        wait = seating.hands_to_big_blind(to, after) - seating.hands_to_big_blind(frm, before)
        if wait > 0:
            self.seat_wait[to] = wait
            self.out.append(
                Prompt(
                    self.hand_no + 1,
                    f"SEAT {to} (FROM {frm}) WAITS {wait} HAND{'S' if wait > 1 else ''} OR POSTS "
                    f"{self.setup.stakes.bb if self.setup else ''}",
                    seq,
                    PromptCode.POST,
                )
            )

    def _positions(self, dealt: list[int]) -> tuple[int | None, tuple[int | None, int] | None]:
        """(button, fixed blinds) for the next hand of a button game (BUTTON-METHOD)."""
        assert self.spec is not None
        assert self.profile is not None
        if self.spec.family is Family.STUD:
            return None, None
        last = self.last_blinds
        if last is not None and len(dealt) == 2 and self.last_players >= 3 and last[1] in dealt:
            # BUTTON-HEADS-UP (001-RR11 §4 r3): going heads-up, the player who had the big
            # blind most recently gets the button.
            return last[1], None
        if last is not None and self.profile.button_method is ButtonMethod.DEAD and len(dealt) > 2:
            return dead_button_next(dealt, last[0], last[1])
        return (self.button if self.button is not None else dealt[-1]), None

    def _redeal(self, seq: int) -> None:
        """MISDEAL-PROCEDURE (product default): the same hand is redealt; forced bets stay,
        voluntary chips go back."""
        old = self.hand
        assert old is not None
        assert self.spec is not None
        assert self.profile is not None
        assert self.setup is not None
        posts = dict(old.posts)
        antes = {s: c for s, c in old.dead.items() if c > 0}
        self.hand = Hand.start(
            number=old.number,
            spec=self.spec,
            profile=self.profile,
            stakes=self.setup.stakes,
            dealt=sorted(old.dealt),
            stacks={s: self.stacks.get(s) for s in old.dealt},
            button=old.button,
            posts=posts,
            antes=antes,
            zone=self.zone,
            seq=seq,
            puck=self.puck,
        )
        self._absorb()

    def _close_unfinished(self, seq: int) -> None:
        hand = self.hand
        if hand is None or hand.result is not None:
            return
        hand.finish(seq)
        if hand.result is None:
            hand.incident(
                seq,
                "STATION-HAND-ABANDONED",
                Ruling.FLOOR,
                f"HAND {hand.number} WAS NOT FINISHED: EVERY WAGER RETURNED, FLOOR TO CONFIRM",
            )
            hand.void(seq)
        self._absorb()

    def _hand_ended(self, hand: Hand) -> None:
        assert hand.result is not None
        if any(i.rule in DECK_DEFECTS for i in hand.incidents):
            self.deck_defective = True
        for s, st in hand.result.stacks.items():
            self.stacks[s] = st
        self.offset = {s: self.zone.get(s, 0) for s in set(self.zone) | set(hand.seats)}
        self.posted, self.antes = {}, {}
        if self.spec is not None and self.spec.family is not Family.STUD and hand.button:
            # The button moves to the next player who will be dealt in: it passes players who
            # wait for the big blind (BLIND-NEW-PLAYER, BLIND-MISSED).
            movers = [
                s
                for s in self.occupied
                if self.stacks.get(s, None) != 0
                and s not in self.newcomers
                and not self.missed.get(s)
            ]
            self.button = next_seat(movers, hand.button)
            self.last_button = hand.button
            if hand.layout is not None and hand.layout.big_blind is not None:
                self.last_blinds = (hand.layout.small_blind, hand.layout.big_blind)
            self.last_players = len(hand.dealt)
        self._prompt_posts(hand.result.event)

    def _prompt_posts(self, seq: int) -> None:
        spec, setup = self.spec, self.setup
        if spec is None or setup is None or spec.family is Family.STUD:
            return
        movers = self._dealt_in(commit=False)
        if len(movers) < 2 or self.button is None:
            return
        button, blinds = self._positions(movers)
        assert button is not None
        layout = button_layout(movers, button, blinds)
        st = setup.stakes
        parts = [f"BUTTON SEAT {layout.button}"]
        if st.sb and layout.small_blind is not None:
            parts.append(f"SB SEAT {layout.small_blind} {st.sb}")
        if st.bb and layout.big_blind is not None:
            parts.append(f"BB SEAT {layout.big_blind} {st.bb}")
        self.posts_prompt = " / ".join(parts)
        self.out.append(Prompt(self.hand_no + 1, self.posts_prompt, seq, PromptCode.POST))

    # --- cards and keys -----------------------------------------------------------------------

    def _draw(self, event: Draw, seq: int) -> None:
        card: Card | None = event.card
        back = event.back
        if card is None and event.tag is not None:
            info = self.registry.lookup(event.tag)
            if info is None:
                self.out.append(
                    self._incident(
                        seq,
                        "STATION-UNKNOWN-TAG",
                        f"UNKNOWN CARD TAG {event.tag}: SHOW THE CARD TO THE FLOOR",
                        ruling=Ruling.FLOOR,
                    )
                )
            else:
                card = info.card
                back = back if back is not None else info.back
        back_ok = back is None or back == self.back
        hand = self.hand
        if self.deck_check is not None and (hand is None or hand.result is not None):
            code = card.code if card is not None else "??"
            self.out.append(DrawRole(self.hand_no, seq, code, Role.AUDIT))
            if card is not None:
                self.deck_check.append(card)
            return
        if hand is None and card is not None and event.face_up and self._button_draw(card, seq):
            return
        if hand is None:
            code = card.code if card is not None else "??"
            self.out.append(DrawRole(self.hand_no, seq, code, Role.STRAY))
            self.out.append(
                self._incident(seq, "STATION-UNEXPECTED-KEY", "NO HAND IN PROGRESS: PRESS NEW HAND")
            )
            return
        board_before = len(hand.board)
        hand.on_draw(card, event.tag, event.face_up, back_ok, seq)
        if self.time_flop_due and board_before < 3 and len(hand.board) > board_before:
            self._time_flop(hand.board[board_before:3], seq)

    def _button_not_moved(
        self, dealt: list[int], button: int | None, blinds: tuple[int | None, int] | None, seq: int
    ) -> int | None:
        """The same seats posted the same blinds as last hand: the button was not moved. The hand
        is played as posted (the dealer deals from last hand's button) and the button is put right
        for the next one, so every player still gets each position once (BUTTON-MISPLACED-EARLIER,
        001-RR11 §3 "Irregularities" r1)."""
        st = self.setup.stakes if self.setup is not None else None
        last, old = self.last_blinds, self.last_button
        if button is None or blinds is not None or last is None or old is None or st is None:
            return button
        if old not in dealt or not st.sb or not st.bb or last[0] is None:
            return button
        expected = button_layout(dealt, button)
        posted = self.posted
        if (
            posted.get(last[0]) == st.sb
            and posted.get(last[1]) == st.bb
            and expected.big_blind not in posted
            and button_layout(dealt, old).small_blind == last[0]
        ):
            self.out.append(
                self._incident(
                    seq,
                    "BUTTON-MISPLACED-EARLIER",
                    f"BUTTON NOT MOVED: SEATS {last[0]} AND {last[1]} POSTED THE BLINDS AGAIN. "
                    f"THIS HAND IS PLAYED FROM BUTTON SEAT {old}; THE NEXT HAND PUTS IT RIGHT",
                )
            )
            return old
        return button

    def _time_flop(self, cards: list[Card], seq: int) -> None:
        """MISC-TIME-COLLECTION, GN time flop (004-GN §I r28): the first card seen off the flop
        names the seat that pays everyone's time for the half hour. The catalog leaves ranks
        without a seat open; the station's reading: ace = seat 1, 2-9 = that seat, ten = seat 10;
        a jack, queen or king, or a seat nobody sits in, passes to the next flop card; if no flop
        card names a player, the next flop decides."""
        for card in cards:
            seat = 1 if card.rank == 14 else card.rank
            if 1 <= seat <= TABLE_SEATS and seat in self.occupied:
                self.time_flop_due = False
                if self.time_flop_next is not None:
                    self.time_flop_next += 30 * 60
                self.out.append(
                    Prompt(
                        self.hand_no,
                        f"TIME FLOP: {card.code} - SEAT {seat} PAYS EVERYONE'S TIME",
                        seq,
                        PromptCode.INFO,
                    )
                )
                return

    def _deck_checked(self, seq: int) -> None:
        """The deck audit is complete: name missing and extra cards (DECK-MISSING-CARDS,
        DECK-EXTRA-CARD-IN-DECK). Hands already played stand either way."""
        assert self.spec is not None
        assert self.profile is not None
        scanned, self.deck_check = self.deck_check or [], None
        result = deck_audit.audit(scanned, deck_audit.game_deck(self.spec, self.profile))
        if result.missing:
            self.out.append(
                self._incident(
                    seq,
                    "DECK-MISSING-CARDS",
                    f"DECK SHORT: {_codes(result.missing)}. HANDS PLAYED STAND; CHANGE THE DECK",
                )
            )
        if result.extra:
            self.out.append(
                self._incident(
                    seq,
                    "DECK-EXTRA-CARD-IN-DECK",
                    f"DEFECTIVE DECK, EXTRA CARDS: {_codes(result.extra)}. REPLACE THE DECK",
                    Ruling.REPLACE,
                )
            )
        if result.ok:
            self.out.append(
                Prompt(self.hand_no, f"DECK CHECK OK: {len(scanned)} CARDS", seq, PromptCode.INFO)
            )

    def _absence(self, at: float, seq: int) -> None:
        """MISC-ABSENCE: away from the table longer than the profile allows (RR11 30 minutes,
        RRPG 15): the floor may pick up the chips. Times come from the events."""
        assert self.profile is not None
        limit = self.profile.absence_pickup_minutes * 60
        for seat, since in sorted(self.away_since.items()):
            if at - since > limit and seat not in self.away_flagged:
                self.away_flagged.add(seat)
                self.floor_call = True
                self.out.append(
                    self._incident(
                        seq,
                        "MISC-ABSENCE",
                        f"SEAT {seat} AWAY MORE THAN {self.profile.absence_pickup_minutes} "
                        "MINUTES: FLOOR MAY PICK UP THE CHIPS",
                        Ruling.FLOOR,
                        seat=seat,
                    )
                )

    def _button_draw(self, card: Card, seq: int) -> bool:
        """BUTTON-INITIAL-DRAW: a new button game with no button yet; one card face up to each
        active player from the dealer's left decides it: the highest card by suit (RR11: the
        lowest in low games)."""
        spec, prof = self.spec, self.profile
        if (
            spec is None
            or prof is None
            or self.button is not None
            or self.hand_no
            or spec.family is Family.STUD
        ):
            return False
        players = sorted(self.occupied)
        seat = players[len(self.button_draw) % len(players)]
        self.button_draw.append((seat, card))
        self.out.append(DrawRole(0, seq, card.code, Role.BUTTON_DRAW, seat))
        if len(self.button_draw) < len(players):
            return True
        low = prof.button_draw_low_in_low_games and spec.high is HighEval.NONE
        if low and spec.low is LowEval.D27:
            seat, _ = min(self.button_draw, key=lambda sc: (sc[1].rank, sc[1].suit_rank))
        elif low:
            seat, _ = min(self.button_draw, key=lambda sc: (sc[1].low_rank, sc[1].suit_rank))
        elif (
            not prof.button_draw_ace_high
            and spec.low in (LowEval.A5, LowEval.BADUGI)
            and (spec.high is HighEval.NONE)
        ):
            # RRPG: the highest card by suit, aces low in a game that plays them low.
            seat, _ = max(self.button_draw, key=lambda sc: (sc[1].low_rank, sc[1].suit_rank))
        else:
            seat, _ = max(self.button_draw, key=lambda sc: (sc[1].rank, sc[1].suit_rank))
        self.button_draw = []
        self.button = seat
        self._prompt_posts(seq)
        return True

    def _key(self, event: KeyPress, seq: int) -> None:
        if event.key is Key.NEW_HAND:
            self._new_hand(seq)
            return
        hand = self.hand
        if hand is not None and hand.result is not None and event.key in (Key.TABLED, Key.MUCK):
            return  # showing or mucking after the pot is pushed changes nothing
        if hand is None or hand.result is not None:
            if event.key in (Key.STRADDLE, Key.KILL) and event.seat is not None:
                keys = self.straddle_keys if event.key is Key.STRADDLE else self.kill_keys
                keys.add(event.seat)
                return
            if event.key is Key.SEAT_CHANGE:
                self._seat_change(event, seq)
                return
            if event.key is Key.DECK_CHECK:
                self.deck_check = []
                self.out.append(
                    Prompt(
                        self.hand_no,
                        "DECK CHECK: RUN EVERY CARD THROUGH THE SHOE, THEN PRESS CONFIRM",
                        seq,
                        PromptCode.INFO,
                    )
                )
                return
            if event.key is Key.CONFIRM and self.deck_check is not None:
                self._deck_checked(seq)
                return
            if event.key is Key.FLOOR:
                self.floor_call = True
                self.out.append(
                    self._incident(seq, "STATION-FLOOR-CALL", "CALL FLOOR", Ruling.FLOOR)
                )
                return
            self.out.append(
                self._incident(
                    seq, "STATION-UNEXPECTED-KEY", f"{event.key.value}: NO HAND IN PROGRESS"
                )
            )
            return
        hand.key(event, seq)

    def _deck_change(self, back: str, seq: int) -> None:
        """DECK-CHANGE (001-RR11 §2 r22): a new deck is used for at least a full round (once
        around the table) before it may be changed, unless it is defective or damaged. A setup
        line naming another back is the deck change; one too early is flagged, play goes on."""
        if back == self.back:
            return
        if 0 < self.deck_hands < self.deck_round and not self.deck_defective:
            self.out.append(
                self._incident(
                    seq,
                    "DECK-CHANGE",
                    f"DECK CHANGED AFTER {self.deck_hands} HAND(S): A NEW DECK STAYS IN PLAY FOR "
                    f"A FULL ROUND ({self.deck_round} HANDS) UNLESS IT IS DEFECTIVE",
                )
            )
        self.back = back
        self.deck_hands = 0
        self.deck_defective = False

    def _incident(
        self,
        seq: int,
        rule: str,
        text: str,
        ruling: Ruling = Ruling.WARNING,
        *,
        seat: int | None = None,
    ) -> Incident:
        source = self.profile.citation_source if self.profile is not None else "001-RR11"
        return Incident(
            hand=self.hand_no,
            rule=rule,
            ruling=ruling,
            text=text,
            event=seq,
            citation=citation(rule, source),
            events=(seq,),
            seat=seat,
            seats=(seat,) if seat is not None else (),
        )

    # --- output -------------------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        return table_snapshot(self)


def _codes(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)
