"""PokerKit 0.7.7 (a test oracle only) replaying a PHH hand strictly, and the two documented
ways its results may differ from the rulebooks'.

PokerKit's own `HandHistory` iteration "repairs" a history it cannot follow: it inserts checks,
folds, deals of unknown cards and shows until the hand ends (reference/pokerkit.md). A hand that
needed that is not a hand PokerKit read, so here only its bookkeeping is automated (antes,
blinds, collecting bets, burns, killing losing hands, pushing and pulling chips); any other
missing step is a failure naming the action it stopped at.
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pokerkit import HandHistory
from pokerkit.notation import parse_action

from station.recall.steps import HandRecall
from tests.differential.allowlist import NOT_GENERATED, ODD_CHIPS, SHORT_BIG_BLIND, Difference

ODD_CHIP_STUD = next(d for d in NOT_GENERATED if d.key == "CHIP-ODD-STUD")
STUD_GAMES = frozenset({"stud", "stud8", "razz"})


@dataclass(frozen=True)
class Replayed:
    stacks: list[int]
    problem: str | None  # the action PokerKit could not take, or where it stopped
    warnings: tuple[str, ...]  # PokerKit's warnings (a card dealt twice, ...)


def strict_replay(text: str) -> Replayed:
    """Time collected with the hand (`_time_collected`, a user-defined field of the export: PHH
    has none for the house's take) leaves the stacks before the deal; the rake is left to
    `rake_explains`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = HandHistory.loads(text)
        extra = history.user_defined_fields
        time = extra.get("_time_collected")
        if time:
            history = replace(
                history,
                starting_stacks=[s - t for s, t in zip(history.starting_stacks, time, strict=True)],
            )
        state = history.create_state()
        actions = deque(history.actions)
        problem: str | None = None
        while state.status or actions:
            if actions:
                try:
                    parse_action(state, actions[0], history.parse_value)
                except ValueError as exc:
                    problem = f"{actions[0]!r}: {exc}"
                else:
                    actions.popleft()
                    continue
            if state.can_post_ante():
                state.post_ante()
            elif state.can_collect_bets():
                state.collect_bets()
            elif state.can_post_blind_or_straddle():
                state.post_blind_or_straddle()
            elif state.can_burn_card():
                state.burn_card("??")
            elif state.can_kill_hand():
                state.kill_hand()
            elif state.can_push_chips():
                state.push_chips()
            elif state.can_pull_chips():
                state.pull_chips()
            else:
                problem = problem or f"stopped with actor {state.actor_index}"
                break
            problem = None
    return Replayed([int(s) for s in state.stacks], problem, tuple(str(w.message) for w in caught))


def rake_explains(
    recall: HandRecall, order: Sequence[int], ours: Sequence[int], theirs: Sequence[int]
) -> bool:
    """PokerKit's stacks are the journal's once the station's rake (`_rake`) is taken from the
    winners of the pots it was raked from. (PokerKit's rake hook cannot take it itself: when
    everyone folds, PokerKit's pot is only the others' chips, the winner's matched chips going
    back to him, where the rulebooks' pot, which the house rakes, holds both.)"""
    end = recall.hand_end
    assert end is not None
    if end.rake is None or not end.rake.total:
        return False
    raked_winners = {s for p, r in zip(end.pots, end.rake.pots, strict=False) if r for s in p.won}
    diff = {seat: b - a for seat, a, b in zip(order, ours, theirs, strict=True) if a != b}
    return (
        sum(diff.values()) == end.rake.total
        and all(d > 0 for d in diff.values())
        and set(diff) <= raked_winners
    )


def allowed_difference(
    recall: HandRecall, order: Sequence[int], ours: Sequence[int], theirs: Sequence[int]
) -> Difference | None:
    """The allow-list entry (tests/differential/allowlist.py) that explains why PokerKit's
    finishing stacks differ from the journal's, checked on this hand; None when none does."""
    end = recall.hand_end
    assert end is not None
    if sum(ours) != sum(theirs):
        return None
    differ = {seat for seat, a, b in zip(order, ours, theirs, strict=True) if a != b}
    split = [p for p in end.pots if len(p.won) > 1]
    split_winners = {s for p in split for s in p.won}
    largest = max((p.amount for p in split), default=0)
    if differ <= split_winners and all(
        abs(a - b) < largest for a, b in zip(ours, theirs, strict=True)
    ):
        # The odd chips of a split pot: one per winner from the button (stud: to the highest
        # card by suit), where PokerKit gives the remainder to its first winner.
        return ODD_CHIP_STUD if recall.game in STUD_GAMES else ODD_CHIPS
    if _short_big_blind(recall):
        return SHORT_BIG_BLIND
    return None


def _short_big_blind(recall: HandRecall) -> bool:
    """A big blind all-in for less than the blind."""
    big = next((s for s, label in recall.blinds.items() if label == "BB"), None)
    bb = recall.stakes.get("bb", 0)
    posted = recall.posts.get(big, 0) if big is not None else 0
    start: Mapping[int, int | None] = recall.starting_stacks
    return big is not None and 0 < posted < bb and start.get(big) == posted
