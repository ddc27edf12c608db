"""Game forms: what is dealt, how it is bet and how it is judged. Pure data.

Catalog section 7.1 is the source of each row, and `source` names the rulebook section each game
follows. A `GameSpec` holds no behaviour; the hand state machine reads it to know the expected
dealing pattern of each street. A setup may choose another of the game's `structures`
(`with_structure`); `station games` lists every row.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final


class Family(StrEnum):
    FLOP = "flop"  # button games with a board: hold'em, Omaha, short deck
    STUD = "stud"  # bring-in games with up-cards
    DRAW = "draw"  # button games with draws: lowball, badugi, draw high


class Structure(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class HighEval(StrEnum):
    NONE = "none"
    STANDARD = "standard"  # best five of any cards
    OMAHA = "omaha"  # exactly two hole + three board
    SHORT_DECK = "short_deck"  # flush beats full house, A-6-7-8-9 straight
    JOKER = "joker"  # draw high: the joker as an ace or to complete a straight or flush
    NINES = "nines"  # Archie: a pair of nines or better qualifies
    MEXICAN = "mexican"  # 41 cards, a joker wild; flush beats full house, 5-6-7-J-Q a straight


class LowEval(StrEnum):
    NONE = "none"
    A5 = "a5"  # ace-to-five (razz, A-5 lowball): straights and flushes ignored
    A5_8 = "a5_8"  # ace-to-five, eight or better qualifier (hi-lo)
    OMAHA_A5_8 = "omaha_a5_8"  # two hole + three board, eight or better
    OMAHA_A5 = "omaha_a5"  # two hole + three board, ace-to-five, no qualifier
    D27 = "d27"  # deuce-to-seven: straights and flushes count, ace high
    BADUGI = "badugi"


class Second(StrEnum):
    """The other half of a split pot, when it is judged neither as the high nor as the low:
    the second low of a low-low split (Baduci, Badaci, Razzdugi, Razzduci) or Drawmaha's draw
    hand, read from the hole cards alone."""

    NONE = "none"
    BADUGI = "badugi"
    BADUGI_ACE_HIGH = "badugi_ace_high"  # Baduci: the ace is high
    D27 = "d27"
    HIGH = "high"  # Drawmaha High: the best five-card poker hand of the five hole cards
    A5 = "a5"
    BADUGI_HIGH = "badugi_high"
    FORTY_NINE = "forty_nine"


class SplitOdd(StrEnum):
    """Who gets the odd chip when a pot is split between its two halves."""

    FIRST = "first"  # the first half: the high (CHIP-ODD-HILO), Razzdugi's razz hand (r324)
    POSITION = "position"  # the winner first clockwise from the button (004-GN r148, Drawmaha)


class BringIn(StrEnum):
    NONE = "none"
    LOW_CARD = "low_card"  # 7-stud: lowest up-card by suit brings in
    HIGH_CARD = "high_card"  # razz: highest up-card (aces low) brings in
    LOW_CARD_ACE_HIGH = "low_card_ace_high"  # stud/8: lowest, ace counts high
    HIGH_CARD_ACE_HIGH = "high_card_ace_high"  # Kansas City razz: highest, ace counts high


class BoardSplit(StrEnum):
    """How a pot is shared between two boards (flop games with `boards` 2)."""

    EACH = "each"  # each board half the pot (Double Board Omaha, the bomb pot)
    EITHER = "either"  # best high on either board half, best low on either the other (Ult. Big O)


@dataclass(frozen=True, slots=True)
class GameSpec:
    name: str
    title: str
    family: Family
    structure: Structure
    high: HighEval
    low: LowEval
    hole_cards: int = 0  # flop and draw games: cards dealt to each player face down
    board: tuple[int, ...] = ()  # flop games: board cards per later street (3, 1, 1)
    draws: int = 0  # draw games: number of draw rounds
    max_draw: int = 5  # draw games: most cards a player may exchange in one draw
    short_deck: bool = False
    joker: bool = False
    bring_in: BringIn = BringIn.NONE
    open_pair: bool = False  # 7-stud: an open pair on 4th street allows the big bet
    max_players: int = 10
    structures: tuple[Structure, ...] = ()  # others a setup may choose (`with_structure`)
    source: str = ""  # the rulebook section the game follows
    boards: int = 1  # flop games: boards dealt (Double Board Omaha: two)
    board_split: BoardSplit = BoardSplit.EACH
    flop_burn: bool = True  # Ultimate Big O: no burn card for the flop
    bomb: bool = False  # antes only, no betting before the flop, no burn for it (bomb pot)
    hole_by_players: tuple[tuple[int, int], ...] = ()  # Big Easy: (players at most, cards)
    discard: int = 0  # cards each player discards, none replaced (Pineapple 1, Super Stud 2)
    discard_after: int = 0  # the betting round after which they are discarded
    stud_start: tuple[bool, ...] = (False, False, True)  # stud: the starting cards, up or not
    stud_streets: tuple[bool, ...] = (True, True, True, False)  # stud: later cards, up or not
    later_low: bool = False  # stud: the lowest hand showing starts the later streets
    no_ranks: tuple[int, ...] = ()  # ranks taken out of the deck (Mexican stud: 8, 9, 10)
    dealer_button: bool = False  # stud dealt from the button's left, the button moving (Mexican)
    second: Second = Second.NONE  # the other half of a split judged another way
    split_odd: SplitOdd = SplitOdd.FIRST
    draw_after: int = 0  # flop games with a draw (Drawmaha): the betting round the draw follows
    openers: int = 0  # draw high: the pair needed to open (11 = jacks or better); 0 = anything

    @property
    def rounds(self) -> int:
        """Number of betting rounds."""
        if self.family is Family.FLOP:
            return len(self.board) + (0 if self.bomb else 1)
        if self.family is Family.STUD:
            return 1 + len(self.stud_streets)
        return 1 + self.draws

    def uses_joker(self, a5_joker: bool) -> bool:
        """Whether the deck holds a joker: draw high's as the game says, A-5 lowball's as the
        profile's switch says (D60: RR/USPA in use unless posted, GN not unless posted)."""
        return self.joker and (self.low is not LowEval.A5 or a5_joker)

    @property
    def hi_lo(self) -> bool:
        return self.high is not HighEval.NONE and self.low is not LowEval.NONE

    @property
    def deck_size(self) -> int:
        """Cards in the deck the game is dealt from (a joker in use counts apart)."""
        if self.short_deck:
            return 36
        return 52 - 4 * len(self.no_ranks)

    def big_bet_from(self) -> int:
        """Fixed limit: index of the first betting round played at the big bet."""
        if self.family is Family.FLOP:
            return 1 if self.bomb else 2  # the turn (Drawmaha: the round after the draw)
        if self.family is Family.STUD:
            return 2  # 5th street (Mexican stud: the fourth card)
        return 1 if self.draws == 1 else 2  # single draw: after the draw; triple: after 2nd

    def street_cards(self, street: int) -> int:
        """Flop games: board cards per board dealt for betting round `street` (> 0)."""
        return self.board[street - (0 if self.bomb else 1)]

    def street_names(self) -> tuple[str, ...]:
        """The betting rounds' names (the display's and the prompts')."""
        if self.family is Family.FLOP:
            return ("flop", "turn", "river") if self.bomb else ("preflop", "flop", "turn", "river")
        if self.family is Family.STUD:
            first = len(self.stud_start) - self.discard  # Super Stud: 3rd street after discards
            return tuple(f"{n}{_TH.get(n, 'th')} street" for n in range(first, first + self.rounds))
        return ()

    def hole_for(self, players: int) -> int:
        """Starting cards per player in a hand of `players` (The Big Easy: more when fewer)."""
        for most, cards in self.hole_by_players:
            if players <= most:
                return cards
        return self.hole_cards

    def with_structure(self, structure: Structure) -> GameSpec:
        """The game played at `structure`, one of its `structures` (ValueError otherwise)."""
        if structure is self.structure:
            return self
        if structure not in self.structures:
            allowed = ", ".join(s.value for s in (self.structure, *self.structures))
            raise ValueError(f"{self.title} is played {allowed}, not {structure.value}")
        return replace(self, structure=structure)


_TH = {1: "st", 2: "nd", 3: "rd"}


def _flop(
    name: str,
    title: str,
    structure: Structure,
    high: HighEval = HighEval.STANDARD,
    low: LowEval = LowEval.NONE,
    hole: int = 2,
    **kw: object,
) -> GameSpec:
    return GameSpec(name, title, Family.FLOP, structure, high, low, hole, (3, 1, 1), **kw)  # type: ignore[arg-type]


NL, PL, FL = Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT
_ANY = (NL, PL, FL)
_HE = "001-RR11 §5; 004-GN §VII"
_OMAHA = "001-RR11 §6; 004-GN §VIII"
_O8 = "001-RR11 §7; 004-GN §VIII Omaha High-Low"
_GN8 = "004-GN §VIII"
_GN9 = "004-GN §IX"
NONE, POS = LowEval.NONE, SplitOdd.POSITION

# Draw high, big-bet A-5 lowball and the split draw and stud games (001-RR11 §11-§12, 004-GN
# §X-§XI). Player limits the rulebooks leave open follow the nearest game they name (house
# practice): Archie and draw high as triple draw (six) and single-draw lowball (eight).
DRAW_SPLITS: Final = (
    GameSpec(
        "a5nl", "No-limit A-5 lowball (single draw)", Family.DRAW, NL, HighEval.NONE,
        LowEval.A5, hole_cards=5, draws=1, joker=True, max_players=8,
        source="001-RR11 §11 No-limit and Pot-limit Lowball; 004-GN §X r282-r285",
    ),
    GameSpec(
        "a5pl", "Pot-limit A-5 lowball (single draw)", Family.DRAW, PL, HighEval.NONE,
        LowEval.A5, hole_cards=5, draws=1, joker=True, max_players=8,
        source="001-RR11 §11 No-limit and Pot-limit Lowball; 004-GN §X r282-r285",
    ),
    GameSpec(
        "drawhigh", "Draw high with the joker (limit)", Family.DRAW, FL, HighEval.JOKER, NONE,
        hole_cards=5, draws=1, joker=True, max_players=8,
        source="001-RR11 §12 Draw High, The Joker",
    ),
    GameSpec(
        "jacks", "Jacks-or-better draw with the joker (limit)", Family.DRAW, FL, HighEval.JOKER,
        NONE, hole_cards=5, draws=1, joker=True, max_players=8, openers=11,
        source="001-RR11 §12; catalog JACKS-OR-BETTER",
    ),
    GameSpec(
        "archie", "Archie (triple draw, high 9s or better / low 8 or better)", Family.DRAW, FL,
        HighEval.NINES, LowEval.A5_8, hole_cards=5, draws=3, max_players=6,
        source="004-GN §X Archie r286-r289",
    ),
    GameSpec(
        "baduci", "Baduci (2-7 and badugi, triple draw)", Family.DRAW, FL, HighEval.NONE,
        LowEval.D27, hole_cards=5, draws=3, max_players=6, second=Second.BADUGI_ACE_HIGH,
        split_odd=POS, source="004-GN §XI Baduci r300-r308",
    ),
    GameSpec(
        "badaci", "Badaci (A-5 and badugi, triple draw)", Family.DRAW, FL, HighEval.NONE,
        LowEval.A5, hole_cards=5, draws=3, max_players=6, second=Second.BADUGI, split_odd=POS,
        source="004-GN §XI Badaci r309-r318",
    ),
    GameSpec(
        "razzdugi", "Razzdugi (razz and badugi)", Family.STUD, FL, HighEval.NONE, LowEval.A5,
        bring_in=BringIn.HIGH_CARD, max_players=8, later_low=True, second=Second.BADUGI,
        source="004-GN §XI Razzdugi r319-r324",
    ),
    GameSpec(
        "razzduci", "Razzduci (razz and 2-7)", Family.STUD, FL, HighEval.NONE, LowEval.A5,
        bring_in=BringIn.HIGH_CARD, max_players=8, later_low=True, second=Second.D27,
        source="004-GN §XI Razzduci r325-r329",
    ),
)  # fmt: skip

# Drawmaha (004-GN §VIII): five down, a flop, a draw of up to three after the flop's betting
# whose cards come after the turn; half the pot to the Omaha high, half to the draw hand of the
# five hole cards, in each listed form and structure. At most seven players.
_DRAWMAHA_FORMS: Final = (
    ("high", "High", Second.HIGH),
    ("27", "2-7", Second.D27),
    ("a5", "Ace-to-Five", Second.A5),
    ("badugi", "Badugi", Second.BADUGI),
    ("badugihigh", "Badugi High", Second.BADUGI_HIGH),
    ("49", "49", Second.FORTY_NINE),
)
_STRUCTURE_NAMES: Final = (
    (FL, "fl", "Limit"),
    (PL, "pl", "Pot-limit"),
    (NL, "nl", "No-limit"),
)
DRAWMAHA: Final = tuple(
    GameSpec(
        f"drawmaha-{form}-{short}", f"{words} Drawmaha {title}", Family.FLOP, structure,
        HighEval.OMAHA, NONE, 5, (3, 1, 1), max_draw=3, max_players=7, second=second,
        split_odd=POS, draw_after=1, source="004-GN §VIII Drawmaha",
    )
    for form, title, second in _DRAWMAHA_FORMS
    for structure, short, words in _STRUCTURE_NAMES
)  # fmt: skip

GAMES: Final[dict[str, GameSpec]] = {
    g.name: g
    for g in (
        _flop("nlhe", "No-limit hold'em", NL, source=_HE),
        _flop("plhe", "Pot-limit hold'em", PL, source=_HE),
        _flop("flhe", "Limit hold'em", FL, source=_HE),
        _flop(
            "pineapple", "Pineapple", NL, hole=3, discard=1, discard_after=0, structures=(PL, FL),
            source="004-GN §VII Pineapple",
        ),
        _flop(
            "crazypine", "Crazy Pineapple", NL, hole=3, discard=1, discard_after=1,
            structures=(PL, FL), source="004-GN §VII Crazy Pineapple",
        ),
        _flop("nlo", "No-limit Omaha", NL, HighEval.OMAHA, hole=4, source=_OMAHA),
        _flop("plo", "Pot-limit Omaha", PL, HighEval.OMAHA, hole=4, source=_OMAHA),
        _flop("flo", "Limit Omaha", FL, HighEval.OMAHA, hole=4, source=_OMAHA),
        _flop(
            "plo5", "Five-card pot-limit Omaha", PL, HighEval.OMAHA, hole=5, max_players=8,
            structures=(NL, FL), source=f"{_GN8} (five cards: The Big O without the low)",
        ),
        _flop(
            "plo8", "Pot-limit Omaha hi-lo", PL, HighEval.OMAHA, LowEval.OMAHA_A5_8, hole=4,
            structures=(NL,), source=_O8,
        ),
        _flop(
            "flo8", "Limit Omaha hi-lo", FL, HighEval.OMAHA, LowEval.OMAHA_A5_8, hole=4,
            source=_O8,
        ),
        _flop(
            "o8reg", "Omaha hi-lo regular (no qualifier)", PL, HighEval.OMAHA, LowEval.OMAHA_A5,
            hole=4, structures=(NL, FL), source=f"{_GN8} Omaha High Low Regular",
        ),
        _flop(
            "bigo", "The Big O (five-card Omaha hi-lo)", PL, HighEval.OMAHA,
            LowEval.OMAHA_A5_8, hole=5, max_players=8, structures=(NL, FL),
            source=f"{_GN8} The Big O",
        ),
        _flop(
            "bigeasy", "The Big Easy (Omaha hi-lo, five or more cards)", PL, HighEval.OMAHA,
            LowEval.OMAHA_A5_8, hole=5, max_players=8, structures=(NL, FL),
            hole_by_players=((4, 7), (6, 6)), source=f"{_GN8} The Big Easy",
        ),
        _flop(
            "dbo", "Double Board Omaha", PL, HighEval.OMAHA, hole=4, max_players=8, boards=2,
            structures=(NL, FL), source=f"{_GN8} Double Board Omaha",
        ),
        _flop(
            "bomb5", "Five-card double-board bomb pot PLO", PL, HighEval.OMAHA, hole=5,
            max_players=8, boards=2, bomb=True, source=f"{_GN8} 5 Card Double Board Bomb Pot PLO",
        ),
        _flop(
            "ubigo", "Ultimate Big O", PL, HighEval.OMAHA, LowEval.OMAHA_A5_8, hole=5,
            max_players=8, boards=2, board_split=BoardSplit.EITHER, flop_burn=False,
            structures=(NL, FL), source=f"{_GN8} Ultimate Big O",
        ),
        _flop(
            "sdhe", "Short-deck hold'em", NL, HighEval.SHORT_DECK, short_deck=True, max_players=9,
            source="004-GN Short Deck r356-r360",
        ),
        GameSpec(
            "stud", "Seven-card stud", Family.STUD, FL, HighEval.STANDARD, LowEval.NONE,
            bring_in=BringIn.LOW_CARD, open_pair=True, max_players=8,
            source="001-RR11 §8; 004-GN §IX Seven-Card Stud",
        ),
        GameSpec(
            "razz", "Razz", Family.STUD, FL, HighEval.NONE, LowEval.A5,
            bring_in=BringIn.HIGH_CARD, max_players=8, later_low=True,
            source="001-RR11 §9; 004-GN §IX Razz",
        ),
        GameSpec(
            "kcrazz", "Kansas City razz (deuce-to-seven)", Family.STUD, FL, HighEval.NONE,
            LowEval.D27, bring_in=BringIn.HIGH_CARD_ACE_HIGH, max_players=8, later_low=True,
            source=f"{_GN9} Razz r232",
        ),
        GameSpec(
            "stud8", "Seven-card stud hi-lo", Family.STUD, FL, HighEval.STANDARD, LowEval.A5_8,
            bring_in=BringIn.LOW_CARD_ACE_HIGH, max_players=8,
            source="001-RR11 §10; 004-GN §IX Stud 8/O",
        ),
        GameSpec(
            "stud8reg", "Seven-card stud hi-lo regular (no qualifier)", Family.STUD, FL,
            HighEval.STANDARD, LowEval.A5, bring_in=BringIn.HIGH_CARD, max_players=8,
            later_low=True, source=f"{_GN9} Seven Card Stud High Low Regular r243",
        ),
        GameSpec(
            "superstud", "Super Stud", Family.STUD, FL, HighEval.STANDARD, LowEval.NONE,
            bring_in=BringIn.LOW_CARD, open_pair=True, max_players=7, discard=2,
            stud_start=(False, False, False, False, True), source=f"{_GN9} Super Stud r244-r247",
        ),
        GameSpec(
            "superstud8", "Super Stud 8/O", Family.STUD, FL, HighEval.STANDARD, LowEval.A5_8,
            bring_in=BringIn.HIGH_CARD, max_players=7, discard=2,
            stud_start=(False, False, False, False, True), source=f"{_GN9} Super Stud r244-r247",
        ),
        GameSpec(
            "mexstud", "Mexican poker (Mexican stud)", Family.STUD, FL, HighEval.MEXICAN,
            LowEval.NONE, bring_in=BringIn.HIGH_CARD_ACE_HIGH, max_players=8, joker=True,
            stud_start=(False, True), stud_streets=(False, False, False), no_ranks=(8, 9, 10),
            dealer_button=True, source=f"{_GN9} Mexican Poker r248-r259",
        ),
        GameSpec(
            "27td", "2-7 triple draw", Family.DRAW, FL, HighEval.NONE, LowEval.D27,
            hole_cards=5, draws=3, max_players=6, source="004-GN §X Deuce-To-Seven",
        ),
        GameSpec(
            "27sd", "No-limit 2-7 single draw", Family.DRAW, NL, HighEval.NONE, LowEval.D27,
            hole_cards=5, draws=1, max_players=7,
            source="001-RR11 §11 Deuce-to-Seven; 004-GN §X No-Limit and Pot-Limit Lowball",
        ),
        GameSpec(
            "a5sd", "A-5 lowball (limit, single draw)", Family.DRAW, FL, HighEval.NONE,
            LowEval.A5, hole_cards=5, draws=1, joker=True, max_players=8,
            source="001-RR11 §11 Ace-to-Five; 004-GN §X Ace-To-Five",
        ),
        GameSpec(
            "a5td", "A-5 triple draw", Family.DRAW, FL, HighEval.NONE, LowEval.A5,
            hole_cards=5, draws=3, max_players=6, source="004-GN §X Ace-To-Five (triple draw)",
        ),
        GameSpec(
            "badugi", "Badugi", Family.DRAW, FL, HighEval.NONE, LowEval.BADUGI,
            hole_cards=4, draws=3, max_draw=4, max_players=8, source="004-GN §XI r290-r299",
        ),
        *DRAW_SPLITS,
        *DRAWMAHA,
    )
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlannedGame:
    """A game the rulebooks describe that the station does not run at the table yet, and why
    (listed by `station games`; a setup naming it is refused with `reason`)."""

    name: str
    title: str
    family: str
    max_players: int
    source: str
    reason: str


_CHINESE_WHY = (
    "it settles in units between players, not in pots: the settlement is written "
    "(station.engine.chinese) but the table cannot take each player's setting yet "
    "(docs/CHINESE-POKER.md)"
)
NOT_YET_RUN: Final[dict[str, PlannedGame]] = {
    g.name: g
    for g in (
        PlannedGame(
            "chinese", "Chinese poker", "chinese", 5, "004-GN §XII r330-r337", _CHINESE_WHY
        ),
        PlannedGame(
            "chinese-draw", "Chinese draw poker", "chinese", 4, "004-GN §XII r338", _CHINESE_WHY
        ),
        PlannedGame(
            "ofc", "Open-face Chinese poker", "chinese", 4, "004-GN §XII r339-r345", _CHINESE_WHY
        ),
        PlannedGame(
            "ofc-turbo", "Turbo open-face Chinese poker", "chinese", 4, "004-GN §XII r346",
            _CHINESE_WHY,
        ),
        PlannedGame(
            "ofc-pineapple", "Pineapple open-face Chinese poker", "chinese", 3,
            "004-GN §XII r351-r352", _CHINESE_WHY,
        ),
        PlannedGame(
            "ofc-pineapple-27", "Pineapple open-face Chinese poker, 2-7 middle", "chinese", 3,
            "004-GN §XII r353-r355", _CHINESE_WHY,
        ),
        PlannedGame(
            "taiwanese", "Taiwanese poker", "chinese", 6, "004-GN §XII r347-r350",
            "the rulebook's payout table leaves how hands are compared open "
            "(docs/CHINESE-POKER.md)",
        ),
    )
}  # fmt: skip


class UnknownGameError(ValueError):
    pass


def game_spec(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        planned = NOT_YET_RUN.get(name)
        if planned is not None:
            why = f"{name} ({planned.title}) is not run yet: {planned.reason}"
            raise UnknownGameError(why) from None
        raise UnknownGameError(name) from None
