"""Rule profiles RR11, RRPG, RR5, USPA, GN, TDA and their switches (catalog Part B). Pure data.

Each switch names the Part B row (Dnn) it settles. A session's setup line may override single
switches with `"rules": {...}`; unknown switches and wrong values are errors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class AbsentKill(StrEnum):
    """When an absent player's hand is killed (DEAD-ABSENT, TOURN-ABSENT; D73)."""

    NEVER = "never"
    DEAL_END = "deal_end"  # not at the seat when every starting hand is complete
    TURN = "turn"  # not at the seat when the action reaches him


class MisdealCutoff(StrEnum):
    TWO_ACTIONS = "two_actions"  # RR/USPA: two players after the blinds have acted (D01)
    SUBSTANTIAL = "substantial"  # GN: substantial action (D01)


class HeadsUpUncap(StrEnum):
    BEFORE_CAP = "before_cap"  # RR/USPA: heads-up before the cap lifts it (D23)
    ROUND_START_ONLY = "round_start_only"  # GN: only a round that begins heads-up (D23)


class ButtonMethod(StrEnum):
    MOVING = "moving"
    DEAD = "dead"


class OddChipStud(StrEnum):
    ALL_CARDS = "all_cards"  # RR/USPA: highest/lowest card by suit using all cards (D31)
    FIVE_CARDS = "five_cards"  # GN: only the five cards played (D31)


class OotPolicy(StrEnum):
    RR11 = "rr11"  # binding unless the action changes by a bet or raise (D40)
    RR = "rr"  # USPA/RRPG/RR5: may be binding if no intervening bet, call or raise (D40)
    GN = "gn"  # binding if the action has not changed; check/call/fold do not change it (D40)


class PrematureTurn(StrEnum):
    RR = "rr"  # D13
    GN = "gn"


class FlopExtraCard(StrEnum):
    REDEAL = "redeal"  # D15
    GN_SELECT = "gn_select"


class BurnErrorRule(StrEnum):
    RR11 = "rr11"  # D16
    RR5 = "rr5"
    HPT = "hpt"
    FLOOR = "floor"


class StudPremature(StrEnum):
    RR = "rr"  # D17: eliminate the cards plus one per active player, burn, resume
    GN = "gn"  # D17: return to the stub, reshuffle, redeal without a burn


class ShortAllinOption(StrEnum):
    COMPLETE = "complete"  # RR/USPA: fold, call or complete (D24)
    RAISE = "raise"  # GN: fold, call or raise (D24)


class FaceUpPolicy(StrEnum):
    EXPOSED = "exposed"  # product default (catalog section 1)
    BOXED = "boxed"


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    title: str
    citation_source: str  # the catalog's source tag, e.g. "001-RR11"
    misdeal_cutoff: MisdealCutoff = MisdealCutoff.TWO_ACTIONS
    holdem_exposed_misdeal_cards: int = 2  # D04
    boxed_two_void_anytime: bool = False  # D08
    foreign_back_stub_needs_substantial: bool = False  # D09
    redeal_burn: bool = False  # D12
    premature_turn: PrematureTurn = PrematureTurn.RR  # D13
    flop_extra_card: FlopExtraCard = FlopExtraCard.REDEAL  # D15
    burn_error_rule: BurnErrorRule = BurnErrorRule.RR11  # D16
    stud_premature: StudPremature = StudPremature.RR  # D17
    stud_min_cards_at_showdown: int = 7  # D19 (GN: 6); RR: a missing seventh may be ruled live
    raise_cap_multi_round: int = 3  # D21: raises after the bet, games with 3+ rounds
    raise_cap_two_round: int = 4  # D21: raises after the bet, games with two rounds
    headsup_uncap: HeadsUpUncap = HeadsUpUncap.BEFORE_CAP  # D23
    headsup_uncap_in_tournaments: bool = False  # D23: USPA states no tournament exception
    limit_short_allin_option: ShortAllinOption = ShortAllinOption.COMPLETE  # D24
    aggregate_short_allins: bool = True  # D25
    odd_chip_stud: OddChipStud = OddChipStud.ALL_CARDS  # D31
    button_method: ButtonMethod = ButtonMethod.MOVING  # D52
    missed_blind_live_only_bb: bool = False  # D51
    oot_policy: OotPolicy = OotPolicy.RR11  # D40
    time_forfeit_count: int = 3  # D41
    gn_overcall_min_raise: bool = False  # D44
    pl_sb_counts_as_bb: bool = False  # D47: strict pot limit; GN counts the SB as a BB
    pl_round_unit: int = 0  # D47; 0 = no rounding
    straddle_button_allowed: bool = False  # D48
    straddle_limit_allowed: bool = False  # D48: GN allows a live straddle in limit games
    missed_blind_straddle: bool = False  # D51: GN: a returning player may come back as the straddle
    newcomer_free_nl_pl: bool = False  # D50: GN: new NL/PL players need not post
    newcomer_buy_button: bool = False  # D49: GN: a new player may buy the button (BB + dead SB)
    lowball_newcomer_post_bb: bool = False  # D50: RR lowball: kill or wait; GN: may post the BB
    tourn_newcomer_takes_position: bool = False  # D71: RRPG/RR5: even the SB or button seat
    absent_kill_cash: AbsentKill = AbsentKill.NEVER  # DEAD-ABSENT: GN r79 at the deal's end
    absent_kill_tournament: AbsentKill = AbsentKill.DEAL_END  # D73: USPA when his turn comes
    show_allin_pusher_first: bool = False  # SHOW-ORDER: GN r144 (no limit, all in early)
    odd_chip_unit: int = 0  # CHIP-ODD-UNIT: 0 = the smallest chip seen in the forced bets, else 1
    clock_seconds: int = 60  # MISC-CLOCK: time to act once the clock is put on (RR NL r16, GN r180)
    clock_warning_seconds: int = 10  # MISC-CLOCK: the warning before the hand is dead
    button_draw_low_in_low_games: bool = True  # BUTTON-INITIAL-DRAW: RRPG and GN: always high
    button_draw_ace_high: bool = True  # D55: GN ace of spades highest; RRPG: the game's ranking
    absence_pickup_minutes: int = 30  # MISC-ABSENCE: RRPG 15
    time_flop: bool = False  # MISC-TIME-COLLECTION: GN r28 time games may play a "time flop"
    chip_race_protects_last: bool = True  # TOURN-CHIP-RACE: RR; USPA states no such protection
    min_chip_from_big_blind: bool = False  # D28: GN: the smallest chip used to make the big blind
    small_chips_play_allin: bool = False  # D29: GN: smaller chips play for face value all-in
    stud_exposed_three_misdeal: bool = False  # D06: GN misdeal only when all three exposed
    exposed_holecard_floor: bool = False  # D05: GN: the floor decides take or replacement
    stud_seventh_gn: bool = False  # D18: GN seventh-street exposure procedure
    stud_shortage_gn: bool = False  # D20: GN r226 counts players + 2 and adds the burns first
    draw_max_consecutive: int = 4  # D57
    joker_in_use_a5: bool = True  # D60
    sevens_rule: bool = True  # D59
    faceup_draw_policy: FaceUpPolicy = FaceUpPolicy.EXPOSED
    require_explicit_checks: bool = True
    tournament: bool = False
    tourn_show_wta_heads_up: bool = (
        True  # TOURN-SHOWING-CARDS: RR11/RR5 heads-up if winner-take-all
    )
    tourn_show_may_kill: bool = False  # TOURN-SHOWING-CARDS: USPA: the hand may be ruled dead
    tourn_button_dealer_right: bool = (
        False  # TOURN-BUTTON: GN: first live seat to the dealer's right
    )
    tourn_newcomer_not_before_sb: bool = False  # TDA r10: dealt in, but not between button and SB
    a5_limit_check_raise: bool = False  # D58: RR/USPA: not permitted unless announced; GN: yes

    def with_overrides(self, overrides: Mapping[str, object]) -> Profile:
        """A copy with single switches replaced; raises ValueError naming a bad switch."""
        if not overrides:
            return self
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, object] = {}
        for key, value in overrides.items():
            if key in ("name", "title", "citation_source") or key not in fields:
                raise ValueError(f"unknown rule switch {key!r}")
            current = getattr(self, key)
            changes[key] = _coerce(key, current, value)
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _coerce(key: str, current: object, value: object) -> object:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"rule switch {key!r} needs true or false, not {value!r}")
        return value
    if isinstance(current, StrEnum):
        enum_type = type(current)
        try:
            return enum_type(str(value)) if isinstance(value, str) else enum_type(value)  # type: ignore[arg-type]
        except ValueError:
            allowed = ", ".join(m.value for m in enum_type)
            raise ValueError(
                f"rule switch {key!r} must be one of {allowed}, not {value!r}"
            ) from None
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"rule switch {key!r} needs a whole number, not {value!r}")
        return value
    raise ValueError(f"rule switch {key!r} cannot be set")


PROFILES: Final[dict[str, Profile]] = {
    p.name: p
    for p in (
        Profile("RR11", "Robert's Rules of Poker v11 (cardroom)", "001-RR11"),
        Profile(
            "RRPG",
            "Robert's Rules of Poker, private games",
            "002-RRPG",
            holdem_exposed_misdeal_cards=1,
            raise_cap_two_round=3,
            oot_policy=OotPolicy.RR,
            tourn_newcomer_takes_position=True,
            button_draw_low_in_low_games=False,
            button_draw_ace_high=False,
            absence_pickup_minutes=15,
            tourn_show_wta_heads_up=False,
        ),
        Profile(
            "RR5",
            "Robert's Rules of Poker v5 (HomePokerTourney)",
            "003-RR5",
            burn_error_rule=BurnErrorRule.RR5,
            oot_policy=OotPolicy.RR,
            tourn_newcomer_takes_position=True,
        ),
        Profile(
            "USPA",
            "USPA Laws of Poker",
            "000-USPA",
            holdem_exposed_misdeal_cards=1,
            oot_policy=OotPolicy.RR,
            headsup_uncap_in_tournaments=True,
            absent_kill_tournament=AbsentKill.TURN,
            chip_race_protects_last=False,
            tourn_show_wta_heads_up=False,
            tourn_show_may_kill=True,
        ),
        Profile(
            "GN",
            "Golden Nugget 2025 house rules",
            "004-GN",
            misdeal_cutoff=MisdealCutoff.SUBSTANTIAL,
            boxed_two_void_anytime=True,
            foreign_back_stub_needs_substantial=True,
            premature_turn=PrematureTurn.GN,
            flop_extra_card=FlopExtraCard.GN_SELECT,
            stud_premature=StudPremature.GN,
            stud_min_cards_at_showdown=6,
            raise_cap_multi_round=4,
            raise_cap_two_round=4,
            headsup_uncap=HeadsUpUncap.ROUND_START_ONLY,
            limit_short_allin_option=ShortAllinOption.RAISE,
            odd_chip_stud=OddChipStud.FIVE_CARDS,
            button_method=ButtonMethod.DEAD,
            missed_blind_live_only_bb=True,
            oot_policy=OotPolicy.GN,
            time_forfeit_count=2,
            gn_overcall_min_raise=True,
            pl_sb_counts_as_bb=True,
            straddle_button_allowed=True,
            straddle_limit_allowed=True,
            missed_blind_straddle=True,
            newcomer_free_nl_pl=True,
            newcomer_buy_button=True,
            lowball_newcomer_post_bb=True,
            absent_kill_cash=AbsentKill.DEAL_END,
            show_allin_pusher_first=True,
            button_draw_low_in_low_games=False,
            min_chip_from_big_blind=True,
            small_chips_play_allin=True,
            stud_exposed_three_misdeal=True,
            exposed_holecard_floor=True,
            stud_seventh_gn=True,
            stud_shortage_gn=True,
            draw_max_consecutive=5,
            joker_in_use_a5=False,
            sevens_rule=False,
            a5_limit_check_raise=True,
            tourn_button_dealer_right=True,
        ),
        Profile(
            # Tournaments under the TDA's rules (station.engine.tda cites them): a tournament
            # table with a dead button; players moved in take on their seat's duties and are
            # dealt in at once, except between the small blind and the button (r10). Where the
            # TDA text was not checked, Robert's Rules v11.
            "TDA",
            "Poker TDA tournament rules (2024)",
            "TDA-2024",
            tournament=True,
            button_method=ButtonMethod.DEAD,
            tourn_newcomer_takes_position=True,
            tourn_newcomer_not_before_sb=True,
        ),
    )
}


class UnknownProfileError(ValueError):
    pass


def profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise UnknownProfileError(name) from None
