"""What the dealer screen still owes the dealer: each incident and prompt with the engine state
that owns it, and the last hand's result. Pure.

An alert is on the screen while the state that owns it stands, and goes for good once that
state is resolved (issue 18's alert life-cycle). The owner is decided when the incident is
raised, from the table's state right after the input that raised it:

- `RECOVERY`: a guided recovery of the same rule is under way; it goes when the last step is
  done (the premature flop's STOP stays until the betting is finished and the new flop dealt);
- `STOP`: a STOP stands (the dealer must not deal on); it goes when the STOP is lifted;
- `MISDEAL`: the hand was misdealt; it goes when the redeal starts;
- `STREET`: anything else during a hand; it goes when the street it was raised in is over;
- `DEAL`: raised between hands, or with the hand over (a void hand); it goes when the next deal
  starts.

Prompts follow the same idea: a prompt is in force while the seat to act is the one it was
said to (none, outside a betting round) in the same deal, and a recovery prompt only while the
irregularity it was about stands (the face-up question goes once BOXED or EXPOSED answers it);
the screen shows the newest prompt in force.

`AlertBook.note` is called once per input with the decisions it caused (`Table._drain`; the
book is the table state's `screen` part);
`open_alerts` and `prompt` are read by the snapshot. The hand's result is kept until the next
deal, so a re-seat between hands does not take the winners off the screen.

The book is bounded, so that a hand open for hours (a stuck key raising the same warning at
every input) costs the same per input as a short one: an incident raised again while the same
one (rule, ruling, seat, text) is open replaces it, and at most `MAX_RAISED` stay open (past
that the oldest go, those a STOP or a recovery owns last).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from station.engine.decisions import (
    DealSlot,
    Decision,
    HandEnd,
    Incident,
    Prompt,
    PromptCode,
    Ruling,
)
from station.engine.snapshot import AlertOwner, AlertView, Phase, PromptView

if TYPE_CHECKING:
    from station.engine.hand import Hand

MAX_PROMPTS = 4  # the newest prompts kept to fall back on
MAX_RAISED = 12  # open alerts kept (the screen shows a few; the journal keeps them all)
_HELD = frozenset({AlertOwner.STOP, AlertOwner.RECOVERY, AlertOwner.MISDEAL})


@dataclass(frozen=True, slots=True)
class RaisedAlert:
    """An incident, the state that owns it, and the deal and street it was raised in."""

    incident: Incident
    owner: AlertOwner
    deal: int
    street: int
    cards: int = 0  # CARD_DUE: the seat's cards when it was raised


@dataclass(frozen=True, slots=True)
class SaidPrompt:
    """A prompt with what was so when it was said (checkpoints pickle these: no leading _)."""

    prompt: Prompt
    deal: int
    to_act: int | None  # the seat to act when it was said
    irregular: bool  # a recovery prompt said while an irregularity stood


@dataclass(slots=True)
class AlertBook:
    """The table's open alerts, its recent prompts and the last result, by deal."""

    deal: int = 0  # counts deals: NEW_HAND and a misdeal's redeal each start one
    hand: Hand | None = None  # the hand of the current deal, as last seen
    raised: list[RaisedAlert] = field(default_factory=list)
    said: list[SaidPrompt] = field(default_factory=list)
    result: HandEnd | None = None
    result_deal: int = -1

    def note(self, hand: Hand | None, decisions: list[Decision]) -> None:
        """The decisions of one input, with the table's hand as that input left it."""
        if hand is not None and hand is not self.hand:
            self.deal += 1
            self.hand = hand
        for d in decisions:
            if isinstance(d, Incident):
                street = hand.street if hand is not None else 0
                held = len(hand.deal.cards.get(d.seat, ())) if hand and d.seat else 0
                self._raise(RaisedAlert(d, _owner(hand, d), self.deal, street, held))
            elif isinstance(d, Prompt):
                irregular = d.code is PromptCode.RECOVERY and _irregular(hand)
                said = SaidPrompt(d, self.deal, to_act(hand), irregular)
                self.said = [*self.said[-(MAX_PROMPTS - 1) :], said]
            elif isinstance(d, HandEnd):
                self.result, self.result_deal = d, self.deal
        # An owner once resolved stays resolved: a later STOP never brings back an old alert.
        self.raised = [r for r in self.raised if self._open(r)]

    def _raise(self, alert: RaisedAlert) -> None:
        new = alert.incident
        self.raised = [r for r in self.raised if not _same(r.incident, new)]
        self.raised.append(alert)
        while len(self.raised) > MAX_RAISED:
            drop = next((r for r in self.raised if r.owner not in _HELD), self.raised[0])
            self.raised.remove(drop)

    def _open(self, r: RaisedAlert) -> bool:
        if r.deal != self.deal:
            return False
        hand = self.hand
        if hand is None or hand.result is not None:  # a hand over: only its end is news
            return r.owner is AlertOwner.DEAL
        match r.owner:
            case AlertOwner.RECOVERY:
                rec = hand.repair.recovery
                return rec is not None and rec.rule == r.incident.rule
            case AlertOwner.STOP:
                return hand.alerts.stop_text is not None
            case AlertOwner.MISDEAL:
                return hand.phase is Phase.MISDEAL
            case AlertOwner.STREET:
                return hand.result is None and hand.street == r.street
            case AlertOwner.DEAL:
                return True
            case AlertOwner.CARD_DUE:
                return _card_due(hand, r)

    def open_alerts(self) -> tuple[AlertView, ...]:
        """The incidents whose owner still stands, oldest first."""
        return tuple(AlertView(r.incident, r.owner) for r in self.raised)

    def prompt(self, hand: Hand | None) -> PromptView | None:
        """The prompt the screen shows for the table's hand: the newest one still in force."""
        now = to_act(hand)
        for s in reversed(self.said):
            if s.deal != self.deal or s.to_act != now:
                continue
            if s.irregular and not _irregular(hand):
                continue
            return PromptView(s.prompt.code, s.prompt.text)
        return None

    def last_result(self) -> HandEnd | None:
        """The result of the last hand, until the next deal starts."""
        return self.result if self.result_deal == self.deal else None


def _same(a: Incident, b: Incident) -> bool:
    """The same alert said again (only the input that raised it differs)."""
    return a.rule == b.rule and a.ruling == b.ruling and a.seat == b.seat and a.text == b.text


def to_act(hand: Hand | None) -> int | None:
    """The seat to act in the open betting round, if any."""
    if hand is None or hand.phase is not Phase.BETTING or hand.bets.round is None:
        return None
    return hand.bets.round.to_act()


def _irregular(hand: Hand | None) -> bool:
    """An irregularity stands that a recovery prompt may be about (none once the hand is over:
    its result settles everything, and a resume document carries no irregularity)."""
    if hand is None or hand.result is not None:
        return False
    return (
        hand.alerts.stop_text is not None
        or hand.repair.recovery is not None
        or hand.repair.awaiting_reshuffle
        or hand.faults.faceup is not None
        or hand.phase is Phase.MISDEAL
    )


def _owner(hand: Hand | None, incident: Incident) -> AlertOwner:
    if hand is None or hand.result is not None:
        return AlertOwner.DEAL
    rec = hand.repair.recovery
    if rec is not None and rec.rule == incident.rule:
        return AlertOwner.RECOVERY
    if hand.alerts.stop_text is not None:
        return AlertOwner.STOP
    if hand.phase is Phase.MISDEAL:
        return AlertOwner.MISDEAL
    if incident.ruling is Ruling.REPLACE and incident.seat in hand.deal.cards:
        return AlertOwner.CARD_DUE  # "… GETS THE NEXT CARD": said until the card is dealt
    return AlertOwner.STREET


def _card_due(hand: Hand, r: RaisedAlert) -> bool:
    """A card the ruling gives a seat is still to come: a replacement owed after the deal (an
    exposed hole card), else the seat's next card (a boxed card mucked)."""
    seat = r.incident.seat
    if hand.result is not None or hand.street != r.street or seat is None:
        return False
    if any(s.role is DealSlot.REPLACEMENT and s.seat == seat for s in hand.deal.slots):
        return True
    return len(hand.deal.cards.get(seat, ())) <= r.cards
