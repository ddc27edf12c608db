"""Guided recoveries: the profile's procedure after an irregularity, as steps the engine checks.
Pure.

A `Recovery` is what the dealer screen walks through: numbered steps, the one due now, and for
each step what the engine expects to see (betting to finish, a STUB_RESHUFFLE key, cards with a
given role, no burn). The hand state machine advances it as the dealer performs the steps; a
deviation becomes its own incident (a wrong recovery).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from station.engine.cards import Card
from station.engine.games import Family
from station.engine.profiles import PrematureTurn, Profile, StudPremature
from station.engine.rule_ids import Rule


class Expect(StrEnum):
    DONE = "done"  # nothing to check: done when shown
    BETTING = "betting"  # the open betting round completes
    RESHUFFLE = "reshuffle"  # the STUB_RESHUFFLE key
    CARDS = "cards"  # the street's cards are dealt as the step says
    ELIMINATE = "eliminate"  # stud: cards eliminated from play (drawn to the side)


@dataclass(frozen=True, slots=True)
class Step:
    text: str
    expect: Expect
    no_burn: bool = False  # CARDS: the street is dealt without a burn
    burn_optional: bool = False  # CARDS: a burn is expected, but action after one card takes it


@dataclass(slots=True)
class Recovery:
    rule: Rule
    steps: list[Step]
    at: int = 0
    reshuffle: list[Card] = field(default_factory=list)  # cards going back in with a reshuffle
    returned: list[Card] = field(default_factory=list)  # cards put back without a reshuffle
    eliminate: int = 0  # stud RR: cards to eliminate after the betting

    @property
    def current(self) -> Step | None:
        return self.steps[self.at] if self.at < len(self.steps) else None

    def complete(self, expect: Expect) -> bool:
        """Mark the current step done when it is the kind given; skip DONE steps after it."""
        step = self.current
        if step is None or step.expect is not expect:
            return False
        self.at += 1
        self._skip_done()
        return True

    def _skip_done(self) -> None:
        while self.at < len(self.steps) and self.steps[self.at].expect is Expect.DONE:
            self.at += 1

    def start(self) -> Recovery:
        self._skip_done()
        return self

    @property
    def finished(self) -> bool:
        return self.at >= len(self.steps)

    def texts(self) -> tuple[str, ...]:
        return tuple(s.text for s in self.steps)  # the display numbers them


def _cards(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def premature(
    *,
    family: Family,
    street: int,
    profile: Profile,
    rule: Rule,
    to_act: int | None,
    exposed: list[Card],
    active: int,
) -> Recovery:
    """The procedure after cards were dealt before betting round `street` was complete.

    `exposed` are the cards after the first (the first of a street is its burn in flop and stud
    games); `active` is the number of players still in the hand (stud elimination count)."""
    finish = Step(
        f"FINISH THE BETTING (SEAT {to_act} TO ACT)" if to_act else "FINISH THE BETTING",
        Expect.BETTING,
    )
    if family is Family.DRAW:
        return Recovery(
            rule,
            [
                Step(f"SET {_cards(exposed) or 'THE CARD'} ASIDE: IT DOES NOT PLAY", Expect.DONE),
                finish,
                Step("PUT IT BACK IN THE STUB, RESHUFFLE, PRESS STUB RESHUFFLE", Expect.RESHUFFLE),
                Step("CONTINUE THE DRAW", Expect.CARDS),
            ],
            reshuffle=list(exposed),
        ).start()
    if family is Family.STUD:
        if profile.stud_premature is StudPremature.GN:
            # 004-GN §IX r225: burn stays; card back to the stub at once, reshuffle, redeal.
            return Recovery(
                rule,
                [
                    Step("LEAVE THE BURN CARD", Expect.DONE),
                    Step(
                        f"RETURN {_cards(exposed) or 'THE CARDS'} TO THE STUB, RESHUFFLE, "
                        "PRESS STUB RESHUFFLE",
                        Expect.RESHUFFLE,
                    ),
                    finish,
                    Step("DEAL THE STREET WITHOUT BURNING", Expect.CARDS, no_burn=True),
                ],
                reshuffle=list(exposed),
            ).start()
        # 001-RR11 §8 r14: premature cards eliminated; one more per active player; burn; resume.
        return Recovery(
            rule,
            [
                Step("SET THE PREMATURE CARDS ASIDE: THEY ARE OUT OF PLAY", Expect.DONE),
                finish,
                Step(
                    f"ELIMINATE {active} MORE CARDS (ONE PER ACTIVE PLAYER), FACE DOWN TO THE SIDE",
                    Expect.ELIMINATE,
                ),
                Step("BURN AND DEAL THE STREET", Expect.CARDS),
            ],
            eliminate=active,
        ).start()
    name = ("FLOP", "TURN", "RIVER")[min(street, 2)]
    if not exposed:
        # Only the burn came out: it stays the burn, and nothing was revealed.
        return Recovery(
            rule,
            [
                Step("LEAVE THE BURN CARD: IT STAYS THE BURN", Expect.DONE),
                finish,
                Step(f"DEAL THE {name} WITHOUT BURNING", Expect.CARDS, no_burn=True),
            ],
        ).start()
    if street == 1 and profile.premature_turn is PrematureTurn.RR:
        # 001-RR11 §5 r8: burn and deal what would have been the river as the turn; reshuffle
        # with the premature card after the turn betting; river without a burn.
        return Recovery(
            rule,
            [
                Step("LEAVE THE BURN CARD", Expect.DONE),
                Step(f"SET {_cards(exposed)} ASIDE: IT DOES NOT PLAY THIS ROUND", Expect.DONE),
                finish,
                Step("BURN AND DEAL THE TURN", Expect.CARDS),
                Step(
                    f"AFTER THE TURN BETTING: PUT {_cards(exposed)} IN THE STUB (NOT THE BURNS), "
                    "RESHUFFLE, PRESS STUB RESHUFFLE",
                    Expect.RESHUFFLE,
                ),
                Step("DEAL THE RIVER WITHOUT BURNING", Expect.CARDS, no_burn=True),
            ],
            reshuffle=list(exposed),
        ).start()
    if street == 1:
        # 004-GN §VII r166: the premature turn card goes back to the stub and "what would have
        # been the river card" is put out as the turn: burned and turned like the river would
        # have been (catalog D13: with or without a burn draw, action after one card takes it
        # as the turn); the river is burned and dealt as usual.
        return Recovery(
            rule,
            [
                Step("LEAVE THE BURN CARD", Expect.DONE),
                Step(f"RETURN {_cards(exposed)} TO THE STUB", Expect.DONE),
                finish,
                Step(
                    "BURN AND TURN WHAT WOULD HAVE BEEN THE RIVER CARD AS THE TURN",
                    Expect.CARDS,
                    burn_optional=True,
                ),
            ],
            returned=list(exposed),
        ).start()
    # PREMATURE-FLOP (001-RR11 §5 r5, r7) and PREMATURE-RIVER (§5 r8; 004-GN r166): the burn
    # stays, the cards go back into the stub, reshuffle and cut, deal again without burning.
    return Recovery(
        rule,
        [
            Step("LEAVE THE BURN CARD", Expect.DONE),
            finish,
            Step(f"RETURN {_cards(exposed)} TO THE STUB", Expect.DONE),
            Step("RESHUFFLE AND CUT THE STUB, PRESS STUB RESHUFFLE", Expect.RESHUFFLE),
            Step(f"DEAL A NEW {name} WITHOUT BURNING", Expect.CARDS, no_burn=True),
        ],
        reshuffle=list(exposed),
    ).start()
