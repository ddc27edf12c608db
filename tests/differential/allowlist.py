"""The allow-list: deliberate differences between Robert's Rules (our RR11 profile) and PokerKit.

Each entry names one rule where PokerKit 0.7.7 departs from Robert's Rules, cites the catalog rule
id and the rulebook clause, and says what each side does. Its predicate recognises the situation
from the round as the rulebook sees it (`rr_model.RRRound`) and from PokerKit's own answer. A
difference between our engine and PokerKit is allowed only when

1. exactly this situation holds (the predicate), and
2. our engine gives what the rulebook gives (`RRRound.raise_range`), checked by the driver.

Anything else is a disagreement. Every entry is pinned by a test in test_allowlist.py named after
its rule id, which builds the smallest hand that shows it and asserts both behaviours (PokerKit's
as observed, ours as derived from the rulebook text).

When the driver meets an allowed difference it counts it and steers the hand so that it stays
comparable: only actions that both engines allow are taken (a raise only PokerKit or only our
engine allows is not chosen), so every other quantity is still compared for the rest of the hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.differential.rr_model import RRRound, Structure

# PokerKit 0.7.7 refusal messages (pokerkit/state.py, `_verify_completion_betting_or_raising`).
PK_CAPPED = "No more completion, betting, or raising is permitted."
PK_SHORT_ALLIN = "Short all-in cannot be raised."
PK_ACTED = "The player already acted and hence cannot raise in face of a non-full all-in wager"


@dataclass(frozen=True, slots=True)
class Context:
    """What the driver knows at a decision point where the raise options differ."""

    structure: Structure
    street: int  # 0 = pre-flop
    seat: int
    pk_range: tuple[int, int] | None  # PokerKit's (min, max) raise-to, None = no raise
    pk_reason: str  # PokerKit's refusal message when pk_range is None
    ours_range: tuple[int, int] | None
    rr_range: tuple[int, int] | None
    rr: RRRound


@dataclass(frozen=True, slots=True)
class Difference:
    key: str  # unique name: the catalog rule id, plus a qualifier when a rule has two
    rule: str  # catalog rule id
    citation: str
    pokerkit: str  # what PokerKit 0.7.7 does
    rulebook: str  # what Robert's Rules (RR11) say, hence our engine
    test: str  # the pinned test
    applies: Callable[[Context], bool]


def _limit(c: Context) -> bool:
    return c.structure is Structure.FIXED_LIMIT


def _heads_up(c: Context) -> bool:
    return (
        _limit(c)
        and c.pk_range is None
        and c.pk_reason == PK_CAPPED
        and c.rr.uncapped
        and c.rr_range is not None
    )


def _preflop_cap(c: Context) -> bool:
    return (
        _limit(c)
        and c.street == 0
        and c.rr.capped
        and c.rr_range is None
        and c.pk_range is not None
    )


def _short_allin_not_counted(c: Context) -> bool:
    return (
        _limit(c)
        and c.pk_range is None
        and c.pk_reason == PK_CAPPED
        and not c.rr.capped
        and not c.rr.uncapped
        and c.rr.uncounted_allins > 0
        and c.rr_range is not None
    )


def _complete_the_wager(c: Context) -> bool:
    if not (_limit(c) and c.rr.short_pending() and c.rr_range and c.pk_range):
        return False
    allin = c.rr.seats[c.seat].bet + c.rr.seats[c.seat].stack
    pk_target = min(c.rr.max_bet + c.rr.bet_size, allin)
    return c.pk_range == (pk_target, pk_target) and c.rr_range[0] < pk_target


def _half_bet_is_a_full_bet(c: Context) -> bool:
    return (
        _limit(c)
        and c.pk_range is None
        and c.pk_reason in (PK_SHORT_ALLIN, PK_ACTED)
        and c.rr_range is not None
        and any(w.half for w in c.rr.wagers_since(c.seat))
    )


def _first_wager_reopens(c: Context) -> bool:
    # PokerKit starts each round's raise size at 0: the big blind is not counted pre-flop and the
    # minimum bet is not counted post-flop. So the first all-in raise or bet of a round re-opens
    # the betting however small it is. In Robert's Rules the big blind is the opening bet, and an
    # all-in below a full bet or raise (limit: below half a bet) does not re-open the betting.
    s = c.rr.seats[c.seat]
    return (
        c.pk_range is not None
        and c.rr_range is None
        and s.acted
        and c.rr.full_count == 0
        and not c.rr.capped
        and any(w.allin and not w.full for w in c.rr.wagers_since(c.seat))
    )


def _first_wager_nl(c: Context) -> bool:
    return not _limit(c) and _first_wager_reopens(c)


def _first_wager_limit(c: Context) -> bool:
    return _limit(c) and _first_wager_reopens(c)


def _cumulative_short_allins(c: Context) -> bool:
    return (
        not _limit(c)
        and c.pk_range is None
        and c.pk_reason == PK_ACTED
        and c.rr_range is not None
        and c.rr.faces_cumulative_raise(c.seat)
        and not c.rr.reopened_by_full(c.seat)
    )


ALLOW_LIST: tuple[Difference, ...] = (
    Difference(
        key="BET-CAP-HEADS-UP",
        rule="BET-CAP-HEADS-UP",
        citation='001-RR11 §3 "Betting and Raising" r5; catalog BET-CAP-HEADS-UP, D23',
        pokerkit="keeps the cap (a bet and three raises, four raises over the blind pre-flop) "
        "when the hand is or becomes heads-up (pokerkit.md §3 a2)",
        rulebook="unlimited raising once the action is heads-up (two players not all-in) "
        "before the raising is capped",
        test="test_BET_CAP_HEADS_UP_pokerkit_never_uncaps",
        applies=_heads_up,
    ),
    Difference(
        key="BET-CAP-LIMIT:preflop",
        rule="BET-CAP-LIMIT",
        citation='001-RR11 §3 "Betting and Raising" r4(a); §4 intro ("Blinds are part of a '
        'player\'s bet"); catalog BET-CAP-LIMIT, BLIND-POSITIONS ("The big blind is the opening '
        'bet")',
        pokerkit="allows four raises over the big blind pre-flop (five bets: 10/20/30/40/50 at "
        "10/20), but a bet and three raises post-flop (pokerkit.md §3 a1)",
        rulebook="the big blind is the bet, so three raises follow it: capped at 40 at 10/20",
        test="test_BET_CAP_LIMIT_preflop_blind_counts_as_the_bet",
        applies=_preflop_cap,
    ),
    Difference(
        key="BET-CAP-LIMIT:short-allin",
        rule="BET-CAP-LIMIT",
        citation='001-RR11 §3 r4 and r7; glossary "RAISE"; catalog BET-CAP-LIMIT ("All-in '
        'increases that do not qualify as a raise do not count")',
        pokerkit="counts every all-in increase toward the cap, even one of less than half a "
        "bet (pokerkit.md §3 a4)",
        rulebook="an all-in of less than half a bet is not a raise and does not count",
        test="test_BET_CAP_LIMIT_short_allin_does_not_count_toward_the_cap",
        applies=_short_allin_not_counted,
    ),
    Difference(
        key="BET-LIMIT-SHORT-ALLIN:complete",
        rule="BET-LIMIT-SHORT-ALLIN",
        citation='001-RR11 §3 "Betting and Raising" r7; catalog BET-LIMIT-SHORT-ALLIN, D24',
        pokerkit="facing an all-in of less than half a bet, the next raise goes a full bet over "
        "the all-in (bet 10, all-in 14: raise to 24) (pokerkit.md §3 b)",
        rulebook="a player not yet acted (or reopened) may fold, call or complete the wager to a "
        "full bet over the level beneath (raise to 20)",
        test="test_BET_LIMIT_SHORT_ALLIN_less_than_half_a_bet_is_completed",
        applies=_complete_the_wager,
    ),
    Difference(
        key="BET-LIMIT-SHORT-ALLIN:half-bet",
        rule="BET-LIMIT-SHORT-ALLIN",
        citation='001-RR11 §3 "Betting and Raising" r7; catalog BET-LIMIT-SHORT-ALLIN',
        pokerkit="applies the no-limit full-raise rule to limit: an all-in of half a bet or "
        "more does not re-open the betting for players who already acted (pokerkit.md §3 b)",
        rulebook="an all-in of half a bet or more is treated as a full bet: players who already "
        "acted may make a full raise (bet 10, all-in 15: the bettor may raise to 25)",
        test="test_BET_LIMIT_SHORT_ALLIN_half_bet_reopens",
        applies=_half_bet_is_a_full_bet,
    ),
    Difference(
        key="BET-NL-SHORT-ALLIN-NO-REOPEN:first-wager",
        rule="BET-NL-SHORT-ALLIN-NO-REOPEN",
        citation='001-RR11 §14 NL r2-r3; §4 intro ("Blinds are part of a player\'s bet"), r9; '
        'catalog BET-NL-SHORT-ALLIN-NO-REOPEN, BET-NL-MIN-BET, BLIND-POSITIONS ("The big blind '
        'is the opening bet")',
        pokerkit="starts each round's raise size at 0 (the big blind pre-flop and the minimum "
        "bet post-flop are not counted), so the first all-in of a round re-opens the betting "
        "however small it is: a limper, or a player who checked, may then re-raise",
        rulebook="a player who already acted and is not facing a full-size wager may not "
        "re-raise an all-in that is less than a full raise or less than the minimum bet",
        test="test_BET_NL_SHORT_ALLIN_NO_REOPEN_first_wager_of_the_round",
        applies=_first_wager_nl,
    ),
    Difference(
        key="BET-LIMIT-SHORT-ALLIN:first-wager",
        rule="BET-LIMIT-SHORT-ALLIN",
        citation='001-RR11 §3 "Betting and Raising" r7; §4 intro; catalog BET-LIMIT-SHORT-ALLIN, '
        'BLIND-POSITIONS ("The big blind is the opening bet")',
        pokerkit="as in no-limit: the first all-in of a round re-opens the betting however "
        "small (a limper may re-raise an all-in of 14 over a big blind of 10; a player who "
        "checked may raise an all-in bet of 4 on a 10 round)",
        rulebook="an all-in wager of less than half a bet does not reopen the betting for any "
        "player who has already acted and is in the pot for all previous bets",
        test="test_BET_LIMIT_SHORT_ALLIN_first_wager_of_the_round",
        applies=_first_wager_limit,
    ),
    Difference(
        key="BET-NL-SHORT-ALLIN-NO-REOPEN:cumulative",
        rule="BET-NL-SHORT-ALLIN-NO-REOPEN",
        citation="001-RR11 §14 NL r4; catalog BET-NL-SHORT-ALLIN-NO-REOPEN, D25",
        pokerkit="sums only the short all-ins since the last time their sum reached a full "
        "raise; a player who already acted and now faces a full raise made of short all-ins "
        "from both sides of that reset may not re-raise",
        rulebook="multiple all-in wagers reopen the betting if the resulting wager size to a "
        "player qualifies as a raise",
        test="test_BET_NL_SHORT_ALLIN_NO_REOPEN_cumulative_short_allins_reopen",
        applies=_cumulative_short_allins,
    ),
)

# A difference in the amount to call, handled at the first pre-flop decision (the hand is then
# not played on: every amount of the round differs, so nothing more is comparable).
SHORT_BIG_BLIND = Difference(
    key="BLIND-SHORT-BIG-BLIND",
    rule="BLIND-SHORT-BIG-BLIND",
    citation='001-RR11 §4 "Rules for using blinds" r1; §14 NL r2; catalog BLIND-SHORT-BIG-BLIND, '
    "BET-NL-MIN-BET, D27",
    pokerkit="a big blind all-in for less than the blind lowers the bet: the next player calls "
    "the short blind and the minimum raise is one big blind over it",
    rulebook="the minimum bring-in and raise sizes stay at the full blind: entrants call the "
    "full big blind, a pre-flop raiser at least doubles it",
    test="test_BLIND_SHORT_BIG_BLIND_entrants_still_call_the_full_blind",
    applies=lambda c: False,
)

# The odd chips of a split pot (final stacks). Checked by the driver: our stacks must equal
# PokerKit's once each of PokerKit's splits is redone with one odd chip per winner, in PokerKit's
# own order (lowest player index first = first clockwise from the button, CHIP-ODD-BUTTON-GAME).
ODD_CHIPS = Difference(
    key="CHIP-ODD-ONE-PER-PLAYER",
    rule="CHIP-ODD-ONE-PER-PLAYER",
    citation='001-RR11 §3 "Ties" r3-r4 and r5(a); catalog CHIP-ODD-UNIT and '
    "CHIP-ODD-ONE-PER-PLAYER, CHIP-ODD-BUTTON-GAME, D30",
    pokerkit="gives the whole remainder of a split to the first winner (a pot of 20 split "
    "three ways: 8/6/6)",
    rulebook="no player may receive more than one odd chip: 7/7/6, the odd chips going "
    "clockwise from the button",
    test="test_CHIP_ODD_ONE_PER_PLAYER_three_way_split",
    applies=lambda c: False,
)

MERGED_POTS = Difference(
    key="POT-SIDE-POTS:merged-split",
    rule="POT-SIDE-POTS",
    citation='001-RR11 §3 "Ties" r5(d); catalog POT-SIDE-POTS ("Separate splitting"), '
    "CHIP-ODD-ONE-PER-PLAYER",
    pokerkit="once the losing hands are killed, merges the main and side pots whose "
    "remaining players are the same and splits the merged pot once, so a tie gets one "
    "rounding instead of one per pot",
    rulebook="the main pot and each side pot are split as separate pots, never mixed; each "
    "split has its own odd chip, clockwise from the button",
    test="test_POT_SIDE_POTS_each_pot_is_split_separately",
    applies=lambda c: False,
)

# A decision PokerKit asks for that does not exist at the table. Checked by the driver: PokerKit
# wants an action from the one player left who is not all-in, who owes nothing and may not raise
# (nobody could call); our engine has closed the round. The driver checks it there, without a
# session line, and goes on.
NO_OPTION = Difference(
    key="BLIND-POSITIONS:option-with-nobody-to-raise",
    rule="BLIND-POSITIONS",
    citation="001-RR11 §4 r9 (the big blind's \"option of raising the pot at the first turn to "
    'act"); catalog BLIND-POSITIONS',
    pokerkit="asks the big blind to act (check) when every other player still in is all-in "
    "and the big blind owes nothing, although it may not raise",
    rulebook="the big blind's option is the option to raise; with nobody left who could call "
    "a raise there is nothing to decide, the round is complete (inferred) and the dealer "
    "goes on to the flop",
    test="test_BLIND_POSITIONS_no_option_when_nobody_can_call_a_raise",
    applies=lambda c: False,
)

# Pinned by tests but not reachable by the generator (other games).
NOT_GENERATED: tuple[Difference, ...] = (
    Difference(
        key="CHIP-ODD-STUD",
        rule="CHIP-ODD-STUD",
        citation='001-RR11 §3 "Ties" r5(b); catalog CHIP-ODD-STUD, D31',
        pokerkit="gives the odd chip of a split stud pot to the lowest player index (nearest "
        "the dealer's left) (pokerkit.md §3 f2)",
        rulebook="the odd chip goes to the highest card by suit (all the player's cards)",
        test="test_CHIP_ODD_STUD_highest_card_by_suit",
        applies=lambda c: False,
    ),
    Difference(
        key="BET-LIMIT-STRUCTURE",
        rule="BET-LIMIT-STRUCTURE",
        citation='catalog BET-LIMIT-STRUCTURE; 001-RR11 glossary "FIXED LIMIT"; §7 (Omaha '
        "high-low); docs/session-format.md (flo8 = Omaha hi-lo limit)",
        pokerkit="FixedLimitOmahaHoldemHighLowSplitEightOrBetter is pot-limit with no raise "
        "cap (inherits PotLimitPokerMixin) (pokerkit.md §3, 'An outright bug')",
        rulebook="fixed limit: every bet and raise is the fixed amount of the round, capped at "
        "a bet and three raises",
        test="test_BET_LIMIT_STRUCTURE_flo8_is_fixed_limit",
        applies=lambda c: False,
    ),
)

EVERY: tuple[Difference, ...] = (
    *ALLOW_LIST,
    SHORT_BIG_BLIND,
    ODD_CHIPS,
    MERGED_POTS,
    NO_OPTION,
    *NOT_GENERATED,
)


def explain(c: Context) -> Difference | None:
    """The allow-list entry that explains this raise difference, if any."""
    for d in ALLOW_LIST:
        if d.applies(c):
            return d
    return None
