"""PHH export of every hand the station has journaled, read back by PokerKit 0.7.7 (the format's
reference parser, a test oracle only): every finished hand of every rule scenario and of the
demo exports to PHH that PokerKit loads and plays, strictly (no repaired steps), to the
journal's finishing stacks. What was finally dealt and played is exported: a misdeal's redeal,
not the misdealt deal; a boxed card is no hole card; a replaced exposed card is replaced; a void
hand is no PHH hand.

The only hands that are not exported are those PHH cannot describe, each for a reason named
here; the only stacks that may differ are those of the allow-list of deliberate rulebook
differences from PokerKit (tests/differential/allowlist.py), checked on the hand.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from station.engine.decisions import Ruling
from station.engine.games import GAMES
from station.journal.clock import ManualClock
from station.journal.queries import ended_hands
from station.journal.store import Journal
from station.phh.export import VARIANTS, NotInPhh, VoidHand, hand_to_phh
from station.recall.hands import load_hand

from .phh_oracle import allowed_difference, rake_explains, strict_replay

FREE_FOLD = "There is no reason for this player to fold."


@dataclass
class Tally:
    hands: int = 0
    exported: int = 0
    reloaded: int = 0
    same_stacks: int = 0
    raked: int = 0  # of those, the same once the station's rake is taken from the winners
    allowed: Counter[str] = field(default_factory=Counter)
    not_phh: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def _check_journal(journal: Journal, name: str, tally: Tally) -> None:
    for hand, _ in ended_hands(journal):
        recall = load_hand(journal, hand)
        assert recall is not None and recall.finished
        tally.hands += 1
        where = f"{name} hand {hand}"
        if recall.game not in VARIANTS:
            tally.not_phh[f"no PHH variant for {recall.game}"] += 1
            continue
        try:
            text = hand_to_phh(recall)
        except VoidHand:
            tally.not_phh["void (every wager returned)"] += 1
            continue
        except NotInPhh as exc:
            text = str(exc)
            reason = (
                "run more than once"
                if "times:" in text
                else "stud hand dead between streets"
                if "stud hand declared dead" in text
                else "money forfeited on the previous deal"
                if "forfeited on the previous deal" in text
                else text
            )
            tally.not_phh[reason] += 1
            continue
        tally.exported += 1
        doc = tomllib.loads(text)
        replayed = strict_replay(text)
        # A dead hand is folded at its turn even where checking is free: PokerKit warns, and
        # plays it (its cash-game mode allows such a fold).
        warned = [w for w in replayed.warnings if w != FREE_FOLD]
        if FREE_FOLD in replayed.warnings and not any(
            i.ruling is Ruling.DEAD_HAND for i in recall.incidents
        ):
            warned.append(FREE_FOLD)
        if replayed.problem is not None or warned:
            tally.failures.append(f"{where}: {replayed.problem} {replayed.warnings}\n{text}")
            continue
        tally.reloaded += 1
        ours = doc["finishing_stacks"]
        if replayed.stacks == ours:
            tally.same_stacks += 1
            continue
        if rake_explains(recall, doc["seats"], ours, replayed.stacks):
            tally.same_stacks += 1
            tally.raked += 1
            continue
        why = allowed_difference(recall, doc["seats"], ours, replayed.stacks)
        if why is None:
            tally.failures.append(f"{where}: stacks {replayed.stacks} != journal {ours}\n{text}")
        else:
            tally.allowed[why.key] += 1


def test_every_scenario_hand_exports_to_phh_that_pokerkit_replays(
    scenario_journals: list[tuple[Path, Path]],
) -> None:
    tally = Tally()
    for session, path in scenario_journals:
        with Journal.open(path, clock=ManualClock()) as journal:
            _check_journal(journal, session.name, tally)
    print(  # the figures of the report (pytest -s)
        f"\nPHH round trip, scenarios: {tally.hands} finished hands, {tally.exported} exported, "
        f"{tally.reloaded} reloaded by PokerKit, {tally.same_stacks} to the same stacks "
        f"({tally.raked} once the rake is taken), "
        f"allowed differences {dict(tally.allowed)}, not PHH hands {dict(tally.not_phh)}"
    )
    assert not tally.failures, "\n\n".join(tally.failures)
    assert tally.reloaded == tally.exported
    assert tally.same_stacks + sum(tally.allowed.values()) == tally.exported
    # Games PHH has no variant for (the station's other games) are not exported.
    no_variant = {f"no PHH variant for {g}" for g in GAMES if g not in VARIANTS}
    assert set(tally.not_phh) <= {
        "void (every wager returned)",
        "run more than once",
        "stud hand dead between streets",
        "money forfeited on the previous deal",
        *no_variant,
    }
    assert tally.exported >= 55  # 68 sessions with a finished hand when this was written


def test_every_demo_hand_exports_to_phh_that_pokerkit_replays(demo_table: Path) -> None:
    tally = Tally()
    with Journal.open(demo_table / "journal.sqlite", clock=ManualClock()) as journal:
        _check_journal(journal, "demo", tally)
    print(
        f"\nPHH round trip, demo: {tally.hands} hands, {tally.exported} exported, "
        f"{tally.reloaded} reloaded, {tally.same_stacks} to the same stacks "
        f"({tally.raked} once the rake is taken), "
        f"not PHH hands {dict(tally.not_phh)}"
    )
    assert not tally.failures, "\n\n".join(tally.failures)
    # Six hands; the duplicate-card hand (5) was void, the other five played.
    assert (tally.hands, tally.exported, tally.same_stacks) == (6, 5, 5)
    assert tally.not_phh == Counter({"void (every wager returned)": 1})
