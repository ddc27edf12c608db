"""The dealer button off its normal move: the draw for the button, a button not moved. Pure.

The button normally moves after each hand (`hand_cycle`) to where the profile's method puts it
(`lineup.positions`). Two cases need the dealer's cards or the posts to settle it:
BUTTON-INITIAL-DRAW (a new game with no button yet: a card to each player decides it) and
BUTTON-MISPLACED-EARLIER (the same seats posted the same blinds again: the button was not moved).
"""

from __future__ import annotations

from station.engine import lineup
from station.engine.cards import Card
from station.engine.decisions import DealSlot, DrawRole
from station.engine.games import Family, HighEval, LowEval
from station.engine.positions import button_layout
from station.engine.rule_ids import Rule
from station.engine.table_state import TableState


def draw_for_button(table: TableState, card: Card, seq: int) -> bool:
    """BUTTON-INITIAL-DRAW: a new button game with no button yet; one card face up to each
    active player from the dealer's left decides it: the highest card by suit (RR11: the
    lowest in low games)."""
    spec, prof = table.spec, table.profile
    if spec is None or prof is None or table.button is not None or spec.family is Family.STUD:
        return False
    players = sorted(table.occupied)
    if prof.tournament:
        # TOURN-ABSENT: every player with chips is in the game, at his seat or not; the
        # dealer turns a card for an absent one too (001-RR11 §15 r4, r8).
        players = sorted({*table.occupied, *(s for s, st in table.stacks.items() if st != 0)})
    if not players:
        return False
    seat = players[len(table.lineup.button_draw) % len(players)]
    table.lineup.button_draw.append((seat, card))
    table.out.append(DrawRole(table.hand_no, seq, card.code, DealSlot.BUTTON_DRAW, seat))
    if len(table.lineup.button_draw) < len(players):
        return True
    low = prof.button_draw_low_in_low_games and spec.high is HighEval.NONE
    if low and spec.low is LowEval.D27:
        seat, _ = min(table.lineup.button_draw, key=lambda sc: (sc[1].rank, sc[1].suit_rank))
    elif low:
        seat, _ = min(table.lineup.button_draw, key=lambda sc: (sc[1].low_rank, sc[1].suit_rank))
    elif (
        not prof.button_draw_ace_high
        and spec.low in (LowEval.A5, LowEval.BADUGI)
        and (spec.high is HighEval.NONE)
    ):
        # RRPG: the highest card by suit, aces low in a game that plays them low.
        seat, _ = max(table.lineup.button_draw, key=lambda sc: (sc[1].low_rank, sc[1].suit_rank))
    else:
        seat, _ = max(table.lineup.button_draw, key=lambda sc: (sc[1].rank, sc[1].suit_rank))
    table.lineup.button_draw = []
    table.button = seat
    lineup.prompt_posts(table, seq)
    return True


def not_moved(
    table: TableState,
    dealt: list[int],
    button: int | None,
    blinds: tuple[int | None, int] | None,
    seq: int,
) -> int | None:
    """The same seats posted the same blinds as last hand: the button was not moved. The hand
    is played as posted (the dealer deals from last hand's button) and the button is put right
    for the next one, so every player still gets each position once (BUTTON-MISPLACED-EARLIER,
    001-RR11 §3 "Irregularities" r1)."""
    st = table.setup.stakes if table.setup is not None else None
    last, old = table.lineup.last_blinds, table.lineup.last_button
    if button is None or blinds is not None or last is None or old is None or st is None:
        return button
    if old not in dealt or not st.sb or not st.bb or last[0] is None:
        return button
    expected = button_layout(dealt, button)
    posted = table.posting.posted
    if (
        posted.get(last[0]) == st.sb
        and posted.get(last[1]) == st.bb
        and expected.big_blind not in posted
        and button_layout(dealt, old).small_blind == last[0]
    ):
        table.out.append(
            table.incident(
                seq,
                Rule.BUTTON_MISPLACED_EARLIER,
                f"BUTTON NOT MOVED: SEATS {last[0]} AND {last[1]} POSTED THE BLINDS AGAIN. "
                f"THIS HAND IS PLAYED FROM BUTTON SEAT {old}; THE NEXT HAND PUTS IT RIGHT",
            )
        )
        return old
    return button
