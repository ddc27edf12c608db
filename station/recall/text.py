"""Hand recall and hand lists as text for `station hands` (and any plain-text floor view). Pure.

Private cards (hole, down, draw and replacement cards, burns: `steps.PRIVATE_ROLES`, dealt face
down) print as `[hidden]`
unless the caller reveals them; revealing is a journaled, credentialed act (`hands show
--reveal`), never the default.
"""

from __future__ import annotations

from collections.abc import Iterable

from station.recall.hands import HandSummary
from station.recall.steps import HandRecall, RecallStep

HIDDEN = "[hidden]"


def _time(utc: str) -> str:
    return utc[11:23] if len(utc) >= 23 else utc


def step_text(step: RecallStep, reveal: bool) -> str:
    if step.card is None:
        return step.text
    card = HIDDEN if step.private and not reveal else step.card
    return f"{step.text} {card}"


def render_hand(recall: HandRecall, *, reveal: bool = False) -> list[str]:
    state = "finished" if recall.finished else "in progress"
    if recall.hand_end is not None and recall.hand_end.void:
        state = "VOID"
    button = f"s{recall.button}" if recall.button is not None else "-"
    stakes = " ".join(f"{k} {v}" for k, v in sorted(recall.stakes.items())) or "-"
    lines = [
        f"HAND {recall.hand}  {recall.game or '?'} {recall.profile}  stakes {stakes}  "
        f"button {button}  {state}",
        f"from {recall.start_utc} to {recall.end_utc}",
        "starting stacks: "
        + (
            "  ".join(
                f"s{s} {'-' if v is None else v}" for s, v in sorted(recall.starting_stacks.items())
            )
            or "-"
        ),
        "",
        f"{'seq':>7}  {'time':<12}  {'step':<10}  what",
    ]
    lines += [
        f"{s.seq:>7}  {_time(s.utc):<12}  {s.kind.value:<10}  {step_text(s, reveal)}"
        for s in recall.steps
    ]
    end = recall.hand_end
    lines.append("")
    if end is not None:
        lines.append(f"board: {' '.join(end.board) or '-'}")
        for i, pot in enumerate(end.pots):
            label = "main pot" if i == 0 else f"side pot {i}"
            eligible = " ".join(f"s{s}" for s in pot.eligible)
            won = " ".join(f"s{s} {a}" for s, a in sorted(pot.won.items()))
            lines.append(f"{label}: {pot.amount} (eligible {eligible}) won by {won or '-'}")
        payouts = "  ".join(f"s{s} {a}" for s, a in sorted(end.payouts.items()))
        lines.append(f"payouts: {payouts or '-'}")
        for seat, cards in sorted(end.shown.items()):
            lines.append(f"s{seat} showed {' '.join(cards)}")
    lines.append(f"incidents: {len(recall.incidents)}")
    for inc in recall.incidents:
        cite = f" [{inc.citation}]" if inc.citation else ""
        lines.append(f"  {inc.rule} ({inc.ruling.value}){cite} at seq {inc.event}: {inc.text}")
    lines += [f"note: {n}" for n in recall.notes]
    return lines


def render_list(hands: Iterable[HandSummary]) -> list[str]:
    lines = [f"{'hand':>6}  {'ended (UTC)':<24}  {'pot':>7}  {'incidents':>9}"]
    for h in hands:
        void = "  VOID" if h.void else ""
        lines.append(f"{h.hand:>6}  {h.end_utc:<24}  {h.pot:>7}  {h.incidents:>9}{void}")
    return lines
