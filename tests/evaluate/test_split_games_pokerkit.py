"""The split games of issue 29 part B against PokerKit 0.7.7 (the test oracle), half by half.

PokerKit deals none of Drawmaha, Badaci, Razzdugi or Razzduci, but it ranks every hand their
halves are judged by: Omaha high of five hole cards (`OmahaHoldemHand`), the five-card draw hand
as high (`StandardHighHand`), deuce-to-seven (`StandardLowHand`), ace-to-five (`RegularLowHand`)
and badugi (`BadugiHand`). For seeded random showdowns the winners of each half, as the engine's
showdown awards them, must be the hands PokerKit ranks best. Baduci's ace-high badugi, badugi
high, 49, Archie's nines and the joker's draw high have no PokerKit counterpart: they are checked
against the rulebook's own examples in `test_rulebook_split_forms`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

pokerkit = pytest.importorskip("pokerkit")

from station.engine.cards import STANDARD_DECK, Card  # noqa: E402
from station.engine.evaluate import HandKind  # noqa: E402
from station.engine.games import GAMES  # noqa: E402
from station.engine.pots import Pot  # noqa: E402
from station.engine.profiles import profile  # noqa: E402
from station.engine.showdown import Reader, award_pots, halves  # noqa: E402
from tests.pokerkit_memo import kept_entries  # noqa: E402

DEALS = 400

# (game, PokerKit class of each half, whether that half reads the board)
CASES = {
    "drawmaha-high-pl": (("OmahaHoldemHand", True), ("StandardHighHand", False)),
    "drawmaha-27-nl": (("OmahaHoldemHand", True), ("StandardLowHand", False)),
    "drawmaha-a5-fl": (("OmahaHoldemHand", True), ("RegularLowHand", False)),
    "drawmaha-badugi-pl": (("OmahaHoldemHand", True), ("BadugiHand", False)),
    "badaci": (("RegularLowHand", False), ("BadugiHand", False)),
    "razzdugi": (("RegularLowHand", False), ("BadugiHand", False)),
    "razzduci": (("RegularLowHand", False), ("StandardLowHand", False)),
}


def _txt(cards: Sequence[Card]) -> str:
    return "".join(c.code for c in cards)


def _pk_best(cls_name: str, hands: dict[int, list[Card]], board: list[Card]) -> set[int]:
    cls = getattr(pokerkit, cls_name)
    # Pure: PokerKit's answers are unchanged, only not recomputed (tests/pokerkit_memo.py says why).
    with kept_entries():
        values = {s: cls.from_game(_txt(h), _txt(board)) for s, h in hands.items()}
        top = max(values.values())
        return {s for s, v in values.items() if v == top}


@pytest.mark.parametrize("game", sorted(CASES))
def test_each_half_goes_to_the_hand_pokerkit_ranks_best(game: str) -> None:
    spec = GAMES[game]
    rng = random.Random(f"issue29-{game}")
    prof = profile("GN")
    per_hand = 5 if spec.family.value != "stud" else 7
    board_size = 5 if spec.draw_after else 0
    checked = 0
    for _ in range(DEALS):
        players = rng.randint(2, 4)
        deck = list(STANDARD_DECK)
        rng.shuffle(deck)
        hands = {s: deck[(s - 1) * per_hand : s * per_hand] for s in range(1, players + 1)}
        board = deck[players * per_hand : players * per_hand + board_size]
        reader = Reader.of(spec, hands, board)
        (award,) = award_pots(
            [Pot(100, tuple(hands))], set(hands), reader, profile=prof, button=players
        )
        kinds = halves(spec)
        for (cls_name, uses_board), kind, won in zip(
            CASES[game], kinds, (award.high, award.low), strict=True
        ):
            expected = _pk_best(cls_name, hands, board if uses_board else [])
            assert set(won) == expected, (game, kind, hands, board)
        checked += 1
    assert checked == DEALS
    assert HandKind.OMAHA_HIGH in halves(GAMES["drawmaha-49-nl"])
