"""Finished hands as PHH (the open poker hand history format of the PokerKit project): TOML
text written by hand from a `HandRecall`. Pure.

- Player order is PHH order: the first seat after the button is p1, the button is last (stud:
  seat order from the dealer's left). `seats` maps each pN back to the table seat.
- Forced bets come from the engine's ante / blind / straddle actions; hole cards, board cards
  and actions from the draw roles and actions it journaled.
- A PHH hand is what was finally dealt and played (`played_deal`): after a misdeal, only the
  redeal (the deal before it, its cards and actions, is summed up in comments); a boxed card or
  unused joker (re-labelled a scrap) is not a hole card; an exposed card that was replaced
  leaves the seat's hand and its replacement takes its place in the deal. A void hand played no
  deal: it is no PHH hand (`VoidHand`); a document notes it in comments.
- What PHH cannot express (burns, premature and scrap cards, other posts) and every incident,
  ruling and floor call become TOML comments in the action list, at the point where they
  happened: `# RULE-ID: text [citation]`.
- Several hands make a PHHS file: each hand is a table named by its hand number.
- A raked hand: PHH has no rake field, so the house's take goes in the user-defined fields the
  format allows (a leading underscore): `_rake` (from the pots), `_rake_pots` (each pot's, main
  pot first) and `_time_collected` (per player, taken from the stacks when time was collected
  with the hand); `finishing_stacks` are after the rake and the time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from station.engine.decisions import (
    Action,
    ActionKind,
    DealSlot,
    DrawRole,
    HandEnd,
    Incident,
    Ruling,
)
from station.phh.reader import VARIANT_GAMES
from station.recall.phh_deal import UNKNOWN_CARD, played_deal
from station.recall.steps import HandRecall, RecallStep, StepKind

# Our game name -> PHH variant code: the reader's table (one to one) read the other way.
VARIANTS: Final = {game: code for code, game in VARIANT_GAMES.items()}
STUD: Final = frozenset({"F7S", "F7S/8", "FR"})
FIXED: Final = frozenset({"FT", "FO/8", "F2L3D", "FB"})
FORCED: Final = frozenset({ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND, ActionKind.STRADDLE})
SHOWDOWN: Final = frozenset({ActionKind.SHOW, ActionKind.MUCK})


class NotInPhh(ValueError):  # noqa: N818 (a reason a hand is not exported, not a failure)
    """What happened in the hand has no PHH form (the message says what)."""


class VoidHand(NotInPhh):
    """The hand was void: every wager went back, no deal played, so there is no PHH hand."""


def sat_out(recall: HandRecall) -> frozenset[int]:
    """Seats dealt in whose hand was declared dead with every chip they put in handed back (a
    stud player whose two down-cards were both exposed gets his ante back, 001-RR11 section 8
    r1): they did not play the hand, so PHH leaves them out (their cards are comments)."""
    end = recall.hand_end
    if end is None:
        return frozenset()
    dead = {i.seat for i in recall.incidents if i.ruling is Ruling.DEAD_HAND and i.seat is not None}
    return frozenset(
        s
        for s in dead
        if s in recall.starting_stacks
        and recall.starting_stacks[s] is not None
        and end.stacks.get(s) == recall.starting_stacks[s]
        and all(a.action is ActionKind.FOLD for a in recall.actions if a.seat == s)
    )


def _incident_text(d: Incident) -> str:
    cite = f" [{d.citation}]" if d.citation else ""
    return f"{d.rule}: {d.text}{cite} (ruling {d.ruling.value})"


def phh_order(seats: Sequence[int], button: int | None, stud: bool) -> list[int]:
    ordered = sorted(seats)
    if stud or button is None:
        return ordered
    after = [s for s in ordered if s > button]
    return after + [s for s in ordered if s <= button]


def toml_str(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(c if c >= " " and c != "\x7f" else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


def _comment(text: str) -> str:
    return "# " + " ".join(text.split())


def _ints(values: Iterable[int | None]) -> str:
    return "[" + ", ".join("inf" if v is None else str(v) for v in values) + "]"


def exportable(recall: HandRecall) -> bool:
    return recall.finished and recall.game in VARIANTS and bool(recall.seats)


def hand_to_phh(recall: HandRecall) -> str:
    """One finished hand as PHH text. Raise ValueError for a game PHH has no variant for."""
    variant = VARIANTS.get(recall.game)
    if variant is None:
        raise ValueError(f"PHH has no variant for the game {recall.game!r}")
    end = recall.hand_end
    if end is None:
        raise ValueError(f"hand {recall.hand} is not finished")
    if end.void:
        raise VoidHand(f"hand {recall.hand} was void: every wager went back, no deal played")
    if len(end.boards) > 1:
        raise NotInPhh(
            f"hand {recall.hand} was run {len(end.boards)} times: PHH (as PokerKit 0.7.7 reads "
            "it) has no notation for several runouts"
        )
    if recall.carry:
        raise NotInPhh(
            f"hand {recall.hand}'s pot held money forfeited on the previous deal: PHH has no "
            "chips in the pot that no player of the hand put in"
        )
    out = sat_out(recall)
    order = phh_order([s for s in recall.seats if s not in out], recall.button, variant in STUD)
    stakes = recall.stakes
    antes = dict.fromkeys(order, 0)
    blinds = dict.fromkeys(order, 0)
    forced = [a for a in recall.actions if a.action in FORCED or a.action is ActionKind.ANTE]
    for a in forced:
        if a.seat in antes and a.action is ActionKind.ANTE:
            antes[a.seat] = a.amount
        elif a.seat in blinds:
            blinds[a.seat] = a.amount
    # The zones before NEW_HAND tell the forced bets the engine did not journal as actions (it
    # journals only the blinds a void deal's redeal kept in front).
    told = {a.seat for a in forced}
    for seat, amount in recall.posts.items():
        if seat in blinds and seat not in told:
            # The blinds and straddles are PHH blinds; any other live post (a returning
            # player's missed blinds, a new player's post) is a negative blind, PHH's "post
            # bet": live, but not moving who acts first.
            regular = recall.blinds.get(seat) in ("SB", "BB") or seat in recall.straddles
            blinds[seat] = amount if regular else -amount
    # Chips taken in before NEW_HAND (antes, the dead part of a post) are dead money: PHH antes.
    antes.update({s: v for s, v in recall.antes.items() if s in antes and s not in told})
    # Heads-up, PokerKit has player i post the forced bets listed for the other player (the
    # button posts the small blind yet acts last after the flop): list them the other way round.
    posted = order[::-1] if len(order) == 2 else order
    lines = [f"variant = {toml_str(variant)}", f"antes = {_ints(antes[s] for s in posted)}"]
    if variant in STUD:
        lines.append(f"bring_in = {stakes.get('bring_in', 0)}")
    else:
        lines.append(f"blinds_or_straddles = {_ints(blinds[s] for s in posted)}")
    if variant in STUD or variant in FIXED:
        small = stakes.get("small_bet", stakes.get("bb", 0))
        lines += [f"small_bet = {small}", f"big_bet = {stakes.get('big_bet', 2 * small)}"]
    else:
        lines.append(f"min_bet = {stakes.get('bb', stakes.get('ante', 0))}")
    lines.append(f"starting_stacks = {_ints(recall.starting_stacks.get(s) for s in order)}")
    lines.append("actions = [")
    lines += [f"  {a}" for a in _actions(recall, order, [blinds[s] for s in order], end)]
    lines.append("]")
    finishing = [end.stacks.get(s) for s in order]
    if all(v is not None for v in finishing):
        lines.append(f"finishing_stacks = {_ints(finishing)}")
    if end.rake is not None:  # PHH has no rake field: user-defined (leading "_") fields
        lines.append(f"_rake = {end.rake.total}")
        lines.append(f"_rake_pots = {_ints(end.rake.pots)}")  # main pot first
        if end.rake.time:
            lines.append(f"_time_collected = {_ints(end.rake.time.get(s, 0) for s in order)}")
    lines += [
        f"hand = {recall.hand}",
        f"seats = {_ints(order)}",
        f"players = [{', '.join(toml_str(f'seat {s}') for s in order)}]",
    ]
    return "\n".join(lines) + "\n"


def _actions(
    recall: HandRecall, order: Sequence[int], blinds: Sequence[int], end: HandEnd
) -> list[str]:
    """The action list of the deal that played (see `phh_deal`)."""
    deal = played_deal(recall)
    emit = _Emitter(recall, order, blinds, end)
    emit.out += [_comment(text) for text in deal.before]
    # Flop games: every starting card is dealt before anyone acts in PHH, so a card that reached
    # its seat late (a replacement given after the round of dealing) is dealt with the others.
    starting: set[int] = set()
    if VARIANTS[recall.game] not in STUD:
        for step in deal.steps:
            d = step.decision
            kept = step.seq in deal.final or step.seq in deal.held_scraps
            if isinstance(d, DrawRole) and d.street == 0 and d.seat in emit.player and kept:
                starting.add(step.seq)
    for step in deal.steps:
        d = step.decision
        if isinstance(d, DrawRole):
            if step.seq in starting and not emit.started:
                for s in deal.steps:
                    if s.seq in starting:
                        emit.card_to(_seat_of(s), _card_of(s, deal.held_scraps))
                emit.started = True
            if step.seq in starting:
                if step.seq in deal.held_scraps:
                    emit.comment(f"{d.card} kept in seat {d.seat}'s hand (a scrap): shown as ??")
            elif step.seq in deal.final and d.seat in emit.player:
                emit.card_to(d.seat, d.card)
            elif step.seq in deal.held_scraps and d.seat in emit.player:
                emit.card_to(d.seat, UNKNOWN_CARD)
                emit.comment(f"{d.card} kept in seat {d.seat}'s hand (a scrap): shown as ??")
            elif step.seq in deal.moved:
                continue  # the engine put this card elsewhere: it is dealt where it ended
            elif d.role is DealSlot.BOARD:
                emit.board_card(d.card, d.street)
            elif step.seq in deal.not_kept or d.role is DealSlot.SCRAP:
                emit.comment(f"{d.role.value} card {d.card}{_at(d.seat)} not kept")
            else:
                emit.comment(f"{d.role.value} card {d.card}{_at(d.seat)}")
        elif isinstance(d, Incident):
            emit.comment(_incident_text(d))
            if d.ruling is Ruling.CORRECT_BET and d.seat is not None:
                emit.correcting.add(d.seat)
        elif isinstance(d, Action):
            emit.action(d)
        elif step.kind in (StepKind.STATION, StepKind.FAULT):
            emit.comment(step.text)
    return emit.finish()


def _seat_of(step: RecallStep) -> int:
    assert isinstance(step.decision, DrawRole)
    assert step.decision.seat is not None
    return step.decision.seat


def _card_of(step: RecallStep, scraps: frozenset[int]) -> str:
    assert isinstance(step.decision, DrawRole)
    return UNKNOWN_CARD if step.seq in scraps else step.decision.card


def _at(seat: int | None) -> str:
    return f" (s{seat})" if seat is not None else ""


class _Emitter:
    """Writes the PHH action lines in the order PokerKit plays them.

    - Cards dealt together (a round of hole cards, one street's board) are one PHH action; a
      comment that comes up while they are being dealt follows them.
    - A fold out of turn is binding: it takes effect when the action reaches the player (001-RR11
      section 3 "Action out of turn"; a dead hand's fold likewise), so it is written at that
      player's turn.
    - A bet corrected to the player's declaration (ruling `correct_bet`) replaces his action.
    - Hands are shown or mucked once the betting is over: when cards are still to come (an
      all-in), before they are dealt, as PokerKit plays the showdown.
    """

    def __init__(
        self, recall: HandRecall, order: Sequence[int], blinds: Sequence[int], end: HandEnd
    ) -> None:
        self.recall, self.end = recall, end
        self.player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
        self.index = {seat: i for i, seat in enumerate(order)}
        self.out: list[str] = []
        self.dealt: dict[int, list[str]] = {}
        self.board: list[str] = []
        self.board_street = -1
        self.hole: dict[int, list[str]] = {}
        self.held: list[str] = []
        self.shows: list[str] = []
        self.last_act = 0  # where the last player action (not a show or muck) ends
        self.last_line: dict[int, int] = {}  # seat -> index in `out` of its last action
        self.correcting: set[int] = set()
        self.started = False  # the starting hands are dealt (flop games)
        self.folded: set[int] = set()  # seats whose fold is written
        self.stud = VARIANTS[recall.game] in STUD
        # Stud: who opens each round depends on the up-cards, then the action goes clockwise
        # (PHH order): the first action of a round tells who opened it.
        first = None if self.stud else _first_preflop(blinds)
        self.turns = _Turns(len(order), first, opens_at_p1=not self.stud)

    def comment(self, text: str) -> None:
        (self.held if self.dealt or self.board else self.out).append(_comment(text))

    def card_to(self, seat: int, card: str) -> None:
        if self.board:
            self.flush()
        self.dealt.setdefault(seat, []).append(card)
        self.hole.setdefault(seat, []).append(card)

    def board_card(self, card: str, street: int) -> None:
        if self.dealt or (self.board and street != self.board_street):
            self.flush()  # the hole cards first; each street's board cards a deal of its own
        if not self.board:
            self.street_ends()
        self.board.append(card)
        self.board_street = street

    def flush(self) -> None:
        if self.stud and self.dealt:
            self.street_ends()  # each stud street starts with its cards
            # A hand declared dead after it acted gets no more cards, but stays in PokerKit's
            # hand until its turn comes in the next round, whose opener PokerKit finds from the
            # up-cards: PHH has no way to take it out between two streets.
            left = [s for s in self.player if s not in self.folded and not self.dealt.get(s)]
            if left:
                raise NotInPhh(
                    f"hand {self.recall.hand}: a stud hand declared dead between streets (seat "
                    f"{left[0]}): PHH cannot take it out before the next street's cards"
                )
        for seat in self.player:
            if self.dealt.get(seat):
                self._line(f"d dh {self.player[seat]} {''.join(self.dealt[seat])}")
        self.dealt.clear()
        if self.board:
            self._line(f"d db {''.join(self.board)}")
            self.board.clear()
        self.out.extend(self.held)
        self.held.clear()

    def street_ends(self) -> None:
        """A new betting round. A fold still owed by a player who has not acted in the round
        that ends is written now (the round waited for him); one who had acted waits for his
        turn in the next round."""
        for i in self.turns.owed_unreached():
            self._fold(self._seat(i))
        self.turns.new_street()

    def action(self, a: Action) -> None:
        self.flush()
        text = _action(a, self.player, self.hole, self.end, self.recall)
        if text is None:
            return
        if a.action in SHOWDOWN:
            self.shows.append(text)
            return
        if text.startswith("#"):
            self.out.append(text)
            return
        i = self.index[a.seat]
        turns = self.turns
        if a.seat in self.correcting and a.seat in self.last_line:
            self.correcting.discard(a.seat)
            at = self.last_line[a.seat]
            if at == self.last_act - 1:  # nobody acted since: the declaration replaces it
                self.out[at] = text
                return
        if turns is not None:
            if a.action is ActionKind.DRAW:
                self.street_ends()
            elif a.action is ActionKind.FOLD and turns.actor != i and turns.actor is not None:
                turns.owe(i)  # binding, but it takes effect at his turn
                return
            for j in turns.owed_before(i):
                self._fold(self._seat(j))
        self.last_line[a.seat] = len(self.out)
        self.out.append(text)
        self.last_act = len(self.out)
        if a.action is ActionKind.FOLD:
            self.folded.add(a.seat)
        if turns is not None and a.action is not ActionKind.DRAW:
            turns.acted(i, folded=a.action is ActionKind.FOLD, allin=a.allin)

    def finish(self) -> list[str]:
        self.flush()
        if self.turns is not None:  # the hand ended before the action reached them
            for i in self.turns.owed_in_turn_order():
                self._fold(self._seat(i))
        out, at = self.out, self.last_act
        return out[:at] + self.shows + out[at:]

    def _fold(self, seat: int) -> None:
        self.folded.add(seat)
        self.last_line[seat] = len(self.out)
        self._line(f"{self.player[seat]} f")
        self.last_act = len(self.out)
        if self.turns is not None:
            self.turns.acted(self.index[seat], folded=True, allin=False)

    def _seat(self, index: int) -> int:
        return next(s for s, i in self.index.items() if i == index)

    def _line(self, text: str) -> None:
        self.out.append(toml_str(text) + ",")


def _first_preflop(blinds: Sequence[int]) -> int:
    """Who acts first before the flop, by PHH index: after the last blind or straddle (heads-up,
    the button, p2)."""
    n = len(blinds)
    if n == 2:
        return 1
    posted = [i for i, b in enumerate(blinds) if b > 0]
    return (max(posted) + 1) % n if posted else 0


class _Turns:
    """The order of action in one betting round, by PHH player index (flop and draw games: p1
    acts first after the flop; stud: clockwise from whoever opens): enough to tell a fold out of
    turn and to write it where the action reaches that player."""

    def __init__(self, n: int, first: int | None, *, opens_at_p1: bool = True) -> None:
        self.n = n
        self.opens_at_p1 = opens_at_p1  # flop and draw games: p1 opens every later round
        self.out: set[int] = set()  # folded or all in: no more turns
        self.owed: set[int] = set()  # folded out of turn, not yet reached
        self.acted_now: set[int] = set()  # acted in this round
        self.actor: int | None = None if first is None else self._from(first)

    def _from(self, i: int) -> int | None:
        for k in range(self.n):
            j = (i + k) % self.n
            if j not in self.out:
                return j
        return None

    def new_street(self) -> None:
        self.actor = self._from(0) if self.opens_at_p1 else None  # None: the opener tells
        self.acted_now.clear()

    def owed_unreached(self) -> list[int]:
        """Owed folds of players who have not acted in this round, in turn order."""
        start = self.actor if self.actor is not None else 0
        found = sorted(
            (j for j in self.owed if j not in self.acted_now),
            key=lambda j: (j - start) % self.n,
        )
        for j in found:
            self.owed.discard(j)
            self.out.add(j)
        return found

    def owe(self, i: int) -> None:
        self.owed.add(i)

    def owed_before(self, i: int) -> list[int]:
        """The owed folds the action passes on its way to player i, in turn order."""
        found: list[int] = []
        j = self.actor
        while j is not None and j != i and j in self.owed:
            found.append(j)
            self.owed.discard(j)
            self.out.add(j)
            j = self._from((j + 1) % self.n)
        return found

    def owed_in_turn_order(self) -> list[int]:
        start = self.actor if self.actor is not None else 0
        found = sorted(self.owed, key=lambda j: (j - start) % self.n)
        self.owed.clear()
        return found

    def acted(self, i: int, *, folded: bool, allin: bool) -> None:
        self.acted_now.add(i)
        if folded or allin:
            self.out.add(i)
        self.actor = self._from((i + 1) % self.n)


def _action(
    a: Action,
    player: Mapping[int, str],
    hole: Mapping[int, list[str]],
    end: HandEnd,
    recall: HandRecall,
) -> str | None:
    p = player.get(a.seat)
    if p is None:
        return _comment(f"s{a.seat} {a.action.value} {a.amount} (not a player of this PHH hand)")
    kind = a.action
    if kind in FORCED or kind is ActionKind.ANTE:
        return None  # in the antes / blinds_or_straddles fields
    if kind is ActionKind.POST:
        return _comment(f"s{a.seat} posts {a.amount}")
    simple = {
        ActionKind.FOLD: f"{p} f",
        ActionKind.CHECK: f"{p} cc",
        ActionKind.CALL: f"{p} cc",
        ActionKind.BRING_IN: f"{p} pb",
        ActionKind.MUCK: f"{p} sm",
    }
    if kind in simple:
        return toml_str(simple[kind]) + ","
    if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
        return toml_str(f"{p} cbr {a.amount}") + ","
    if kind is ActionKind.SHOW:
        cards = end.shown.get(a.seat) or tuple(hole.get(a.seat, ()))
        return toml_str(f"{p} sm {''.join(cards)}".rstrip()) + ","
    # ActionKind.DRAW: stood pat, or exchanged `amount` cards
    discards = recall.discards.get(a.event, ())
    if a.amount == 0:
        return toml_str(f"{p} sd") + ","
    return toml_str(f"{p} sd {''.join(discards) or '??' * a.amount}") + ","


def phh_document(recalls: Iterable[HandRecall]) -> tuple[str, list[str]]:
    """(PHHS text with one table per exportable hand, notes about hands left out)."""
    parts: list[str] = []
    skipped: list[str] = []
    for recall in recalls:
        if not recall.finished:
            continue
        if recall.hand_end is not None and recall.hand_end.void:
            notes = [i for i in recall.incidents if i.ruling is Ruling.VOID] or recall.incidents
            why = "; ".join(_incident_text(i) for i in notes)
            parts.append(
                _comment(f"hand {recall.hand}: VOID, every wager returned, no PHH hand: {why}")
                + "\n"
            )
            continue
        if recall.game not in VARIANTS:
            skipped.append(f"hand {recall.hand}: PHH has no variant for {recall.game!r}")
            continue
        if not recall.seats:
            skipped.append(f"hand {recall.hand}: nobody was dealt in")
            continue
        parts.append(f"[{recall.hand}]\n{hand_to_phh(recall)}")
    return "\n".join(parts), skipped
