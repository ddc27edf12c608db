"""What was finally dealt and played in a hand, from its recall: the part a PHH hand history
describes. Pure.

- **The deal that played.** After a misdeal the hand is redealt: only the steps after the last
  misdeal ruling are the hand; what came before is summed up for comments.
- **Where each card ended.** The engine may give a card a new role after it was dealt: a boxed
  card or a joker not in use becomes a scrap; when the dealer dealt on past a joker, every later
  card is re-assigned to the seat it was actually dealt to. A card's last role is where it is.
- **Cards no seat kept.** A scrap is no hole card, and an exposed card that was replaced (a
  replace ruling naming its draw, then a replacement card for that seat) left the seat's hand.
- **A scrap kept in a hand.** A joker a player held and acted on stays in his (dead) hand: PHH
  shows it as an unknown card, `??`.

Each card draw is identified by the seq of its `decision.draw` row (`RecallStep.seq`): several
re-assignments may share one input event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from station.engine.decisions import DealSlot, DrawRole, Incident, Ruling
from station.recall.steps import HandRecall, RecallStep

DEALT = frozenset({DealSlot.HOLE, DealSlot.DOWN, DealSlot.UP, DealSlot.DRAW, DealSlot.REPLACEMENT})
UNKNOWN_CARD = "??"


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    steps: tuple[RecallStep, ...]  # the deal that played, in order
    final: frozenset[int]  # draw steps that put a card where it ended (in a seat's hand)
    held_scraps: frozenset[int]  # scrap steps that stay in a seat's hand (shown as "??")
    not_kept: frozenset[int]  # draw steps of cards dealt to a seat that no seat kept
    moved: frozenset[int]  # draw steps of cards the engine later re-assigned to another place
    before: tuple[str, ...]  # what the misdealt deals were, for comments


def played_deal(recall: HandRecall) -> PlayedDeal:
    steps = recall.steps
    cut = max(
        (i for i, s in enumerate(steps) if _ruling(s) is Ruling.MISDEAL),
        default=-1,
    )
    before: list[str] = []
    if cut >= 0:
        voided = steps[: cut + 1]
        cards = sum(1 for s in voided if isinstance(s.decision, DrawRole))
        misdeals = sum(1 for s in voided if _ruling(s) is Ruling.MISDEAL)
        before.append(
            f"misdealt: {misdeals} deal(s) before this one void ({cards} card(s) gathered, "
            "reshuffled and redealt; forced bets stayed, other wagers went back)"
        )
    played = tuple(steps[cut + 1 :])
    final, held, not_kept, moved = _cards(played)
    return PlayedDeal(played, final, held, not_kept, moved, tuple(before))


def _ruling(step: RecallStep) -> Ruling | None:
    return step.decision.ruling if isinstance(step.decision, Incident) else None


def _cards(
    steps: Sequence[RecallStep],
) -> tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]:
    last: dict[str, RecallStep] = {}  # card -> its last draw role (dealt or scrap)
    for step in steps:
        d = step.decision
        if isinstance(d, DrawRole) and (d.role in DEALT or d.role is DealSlot.SCRAP):
            last[d.card] = step
    final = {s.seq for s in last.values() if _role(s) in DEALT and _draw(s).seat is not None}
    dealt = [s for s in steps if isinstance(s.decision, DrawRole) and s.decision.role in DEALT]
    moved = {s.seq for s in dealt if s.seq not in final and _role(last[_draw(s).card]) in DEALT}
    not_kept = {s.seq for s in dealt if s.seq not in final and s.seq not in moved}
    # Exposed cards replaced: a replace ruling on a seat names the card's draw; a replacement
    # card for that seat then takes its place.
    owed: dict[int, list[int]] = {}  # seat -> input events named by replace rulings
    held: dict[int, int] = {}  # seat -> a scrap step it holds, until replaced
    for step in steps:
        d = step.decision
        if isinstance(d, Incident) and d.ruling is Ruling.REPLACE and d.seat is not None:
            owed.setdefault(d.seat, []).extend((d.event, *d.events))
        elif isinstance(d, DrawRole) and d.seat is not None:
            if d.role is DealSlot.SCRAP and last.get(d.card) is step:
                held[d.seat] = step.seq
            elif d.role is DealSlot.REPLACEMENT and step.seq in final:
                if held.pop(d.seat, None) is not None:
                    continue  # it replaces the scrap the seat held
                for event in owed.get(d.seat, []):
                    exposed = next(
                        (
                            s
                            for s in steps
                            if s.seq in final
                            and s.seq not in not_kept
                            and _draw(s).event == event
                            and _draw(s).seat == d.seat
                        ),
                        None,
                    )
                    if exposed is not None:
                        final.discard(exposed.seq)
                        not_kept.add(exposed.seq)
                        owed[d.seat].remove(event)
                        break
    return frozenset(final), frozenset(held.values()), frozenset(not_kept), frozenset(moved)


def _draw(step: RecallStep) -> DrawRole:
    assert isinstance(step.decision, DrawRole)
    return step.decision


def _role(step: RecallStep) -> DealSlot:
    return _draw(step).role
