"""What the floor console shows of the event's clock (`station.central.tournament.clock.view`):
a break says the colour-up the tables are racing, and the level before it says it is coming."""

from __future__ import annotations

from station.central.tournament import clock

STRUCTURE = {
    "levels": [
        {"sb": 25, "bb": 50, "minutes": 20},
        {"break": True, "minutes": 10, "colour_up": 25, "colour_up_to": 100},
        {"sb": 100, "bb": 200, "minutes": 20},
    ]
}
START = 1_750_000_000.0


def test_TOURN_CHIP_RACE_the_break_view_says_which_chips_are_raced_off() -> None:
    # 001-RR11 §15 r11: the lowest chip leaves play when no longer needed, raced off at a break.
    levels = clock.parse_levels(STRUCTURE, "nlhe")
    state = clock.start(levels, START)
    before = clock.view(levels, state, "nlhe", START + 60, True)
    assert before.label == "LEVEL 1"
    assert before.next_label == "BREAK 10 MIN · COLOUR UP: 25s RACED OFF FOR 100s"
    during = clock.view(levels, state, "nlhe", START + 20 * 60 + 30, True)
    assert during.label == "BREAK"
    assert during.stakes.endswith(" · COLOUR UP: 25s RACED OFF FOR 100s"), during.stakes
    after = clock.view(levels, state, "nlhe", START + 30 * 60 + 30, True)
    assert "COLOUR UP" not in after.stakes and "COLOUR UP" not in after.next_label
