"""Who may post what before the deal (catalog §9 and §15), with positions worked out by hand.

The scenarios under tests/scenarios cover whole sessions; these pin the pure helpers of
`station.engine.seating` and `pots.split` on the cases their rulebook clauses name.
"""

from __future__ import annotations

from station.engine.games import game_spec
from station.engine.positions import button_layout
from station.engine.pots import split
from station.engine.profiles import profile
from station.engine.seating import (
    between_button_and_big_blind,
    hands_to_big_blind,
    kill_amount,
    newcomer_due,
    straddle_refusal,
    waiting,
)
from tests.engine.tablekit import Run, key, setup, zone

# Five players, button 1: small blind 2, big blind 3, under the gun 4.
LAYOUT = button_layout([1, 2, 3, 4, 5], 1)


def test_BLIND_STRADDLE_rr11_only_left_of_the_big_blind_for_twice_the_big_blind() -> None:
    rr11, nl = profile("RR11"), game_spec("nlhe")
    ok = straddle_refusal(4, 4, spec=nl, profile=rr11, layout=LAYOUT, bb=2, kill=False)
    assert ok is None
    assert straddle_refusal(4, 6, spec=nl, profile=rr11, layout=LAYOUT, bb=2, kill=False) == (
        "THE STRADDLE IS 4"
    )
    assert straddle_refusal(1, 4, spec=nl, profile=rr11, layout=LAYOUT, bb=2, kill=False) == (
        "NO BUTTON STRADDLE"
    )
    assert straddle_refusal(5, 4, spec=nl, profile=rr11, layout=LAYOUT, bb=2, kill=False) == (
        "STRADDLE ONLY LEFT OF THE BIG BLIND"
    )
    limit = game_spec("flhe")
    assert straddle_refusal(4, 4, spec=limit, profile=rr11, layout=LAYOUT, bb=2, kill=False) == (
        "NO STRADDLE AT LIMIT"
    )


def test_BLIND_STRADDLE_gn_button_straddle_but_not_at_limit_nor_in_a_kill_pot() -> None:
    gn = profile("GN")
    nl, limit = game_spec("nlhe"), game_spec("flhe")
    assert straddle_refusal(1, 4, spec=nl, profile=gn, layout=LAYOUT, bb=2, kill=False) is None
    assert straddle_refusal(4, 4, spec=limit, profile=gn, layout=LAYOUT, bb=2, kill=False) is None
    assert straddle_refusal(1, 4, spec=limit, profile=gn, layout=LAYOUT, bb=2, kill=False) == (
        "NO BUTTON STRADDLE"
    )
    assert straddle_refusal(4, 4, spec=nl, profile=gn, layout=LAYOUT, bb=2, kill=True) == (
        "NO STRADDLE IN A KILL POT"
    )


def test_BLIND_NEW_PLAYER_between_the_button_and_the_big_blind() -> None:
    # A new player in the small-blind seat (2) or any seat after the button up to the big blind
    # waits; under the gun (4) or behind him he does not.
    layout = button_layout([1, 3, 4, 5], 1)  # seat 2 empty: blinds 3 and 4
    assert between_button_and_big_blind(2, layout)
    assert between_button_and_big_blind(3, layout)
    assert not between_button_and_big_blind(5, layout)


def _due(seat: int, game: str, name: str, *, killed: bool = False, **rules: object) -> int | None:
    layout = button_layout([1, 3, 4, 5], 1) if rules.get("tournament") else LAYOUT
    return newcomer_due(
        seat,
        spec=game_spec(game),
        profile=profile(name).with_overrides(rules),
        layout=layout,
        bb=2,
        sb=1,
        killed=killed,
    )


def test_BLIND_NEW_PLAYER_dues_per_profile() -> None:
    assert _due(5, "nlhe", "RR11") == 2  # post the big blind or wait
    assert _due(5, "nlhe", "GN") == 0  # GN r99a: no post in NL/PL
    assert _due(5, "a5sd", "RR11") is None  # RR11 §11 r3: kill or wait
    assert _due(5, "a5sd", "RR11", killed=True) == 4  # the kill is twice the big blind
    assert _due(5, "a5sd", "GN") == 2  # GN r262: may post the big blind


def test_TOURN_NEW_PLAYERS_AT_TABLE_small_blind_seat_waits_under_rr11_not_rrpg() -> None:
    # Seat 2 empty last hand: button 1, blinds 3 and 4; a player moved in to seat 2.
    assert _due(2, "nlhe", "RR11", tournament=True) is None
    assert _due(2, "nlhe", "RRPG", tournament=True) == 0
    assert _due(5, "nlhe", "RR11", tournament=True) == 0  # an ordinary seat: dealt in at once


def test_BLIND_SEAT_CHANGE_hands_until_the_big_blind() -> None:
    assert hands_to_big_blind(3, LAYOUT) == 0
    assert hands_to_big_blind(4, LAYOUT) == 1
    assert hands_to_big_blind(2, LAYOUT) == 4
    assert waiting({4: 2, 6: 1, 7: 3}, dealt=[7]) == {4: 1}


def test_KILL_POTS_full_and_half_kill_sizes() -> None:
    assert kill_amount(20, 10) and kill_amount(15, 10)
    assert not kill_amount(10, 10) and not kill_amount(30, 10)


def test_CHIP_ODD_UNIT_odd_chip_in_the_smallest_unit_one_per_player() -> None:
    assert split(105, [2, 3], unit=5) == {2: 55, 3: 50}
    assert split(5, [2, 3]) == {2: 3, 3: 2}
    assert split(20, [1, 2, 3], unit=5) == {1: 10, 2: 5, 3: 5}  # no player gets two odd chips
    assert sum(split(107, [1, 2], unit=5).values()) == 107  # less than a unit is not lost


def test_BLIND_SEAT_CHANGE_chips_follow_the_player() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 150, 3: 200}, stakes={"sb": 1, "bb": 2}, button=1))
    run.feed(key("SEAT_CHANGE", 2, to_seat=5))
    snap = run.table.snapshot()
    stacks = {s.seat: s.stack for s in snap.seats}
    assert stacks.get(5) == 150
    assert 2 not in stacks or stacks[2] is None


def test_STRADDLE_key_between_hands_is_not_an_unexpected_key() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200, 3: 200, 4: 200}, stakes={"sb": 1, "bb": 2}, button=4))
    out = run.feed(zone(1, 1), zone(2, 2), key("STRADDLE", 3), zone(3, 4))
    assert not [d for d in out if d.get("rule") == "STATION-UNEXPECTED-KEY"]


def test_KILL_POTS_a_misdealt_kill_pot_is_redealt_as_a_kill_pot() -> None:
    # MISDEAL-PROCEDURE: the same hand is redealt with its forced bets; the kill (and the limits
    # it doubled) goes with them.
    run = Run()
    stakes = {"sb": 5, "bb": 10, "small_bet": 10, "big_bet": 20}
    run.feed(setup("flhe", dict.fromkeys(range(1, 6), 500), stakes=stakes, button=5))
    run.feed(zone(1, 5), zone(2, 10), key("KILL", 4), zone(4, 20), key("NEW_HAND"))
    hand = run.table.hand
    assert hand is not None and hand.bet_size(0) == 20
    run.feed(key("MISDEAL"), key("NEW_HAND"))
    redealt = run.table.hand
    assert redealt is not None and redealt is not hand
    assert redealt.terms.kill_post == (4, 20) and redealt.bet_size(0) == 20


def test_BUTTON_METHOD_the_marker_between_hands_is_where_the_next_button_will_be() -> None:
    """001-RR11 §4 r2(a): the moving button "always moves forward to the next player". The setup
    gives the button to seat 2, whose player leaves before the deal: the seats, the snapshot's
    button and the posting prompt all put it on seat 3 (not on the empty seat 2)."""
    run = Run()
    run.feed(
        setup("nlhe", {1: 200, 2: 200, 3: 200, 4: 200}, stakes={"sb": 1, "bb": 2}, button=2),
        {"type": "seat", "seat": 2, "occupied": False},
    )
    snap = run.snap
    assert snap.button == 3
    assert [s.seat for s in snap.seats if s.button] == [3]
    assert snap.next_hand is not None and snap.next_hand.button == 3
    assert snap.next_step == "BUTTON SEAT 3 / SB SEAT 4 1 / BB SEAT 1 2"


def test_BUTTON_METHOD_a_dead_button_stays_on_the_empty_seat_the_setup_names() -> None:
    """GN designates the dead button (004-GN §VI "Button and Blind Use"): a button in front of an
    empty seat is allowed, so the marker stays on seat 2."""
    run = Run()
    run.feed(
        setup(
            "nlhe",
            {1: 200, 2: 200, 3: 200, 4: 200},
            stakes={"sb": 1, "bb": 2},
            button=2,
            profile="GN",
        ),
        {"type": "seat", "seat": 2, "occupied": False},
    )
    assert run.snap.button == 2
    assert [s.seat for s in run.snap.seats if s.button] == [2]
