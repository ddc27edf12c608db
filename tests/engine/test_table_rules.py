"""Table-level rules with no hand state of their own (catalog §11-§12), worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.engine.tablekit import Run, draw, key, setup, zone


def _limped_flop(flop: list[str], rules: dict[str, Any]) -> Run:
    """GN, seats 1, 2, 3, button 3: everyone limps, the big blind checks, burn and flop."""
    run = Run()
    run.feed(
        setup(
            "nlhe",
            {1: 200, 2: 200, 3: 200},
            profile="GN",
            stakes={"sb": 1, "bb": 2},
            button=3,
            rules=rules,
        )
    )
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["4h", "5h", "6h", "4c", "5c", "6c"])
    run.feed(zone(3, 2), zone(1, 2), key("CHECK", 2))
    run.feed(zone(1, 0), zone(2, 0), zone(3, 0))
    run.feed(draw("2d"), *(draw(c) for c in flop))
    return run


def _time_prompts(run: Run) -> list[str]:
    return [d["text"] for d in run.out if d["type"] == "prompt" and "TIME FLOP" in d["text"]]


def test_MISC_TIME_COLLECTION_ace_names_seat_one() -> None:
    run = _limped_flop(["Ac", "Kd", "Qs"], {"time_flop": True})
    assert _time_prompts(run) == ["TIME FLOP: Ac - SEAT 1 PAYS EVERYONE'S TIME"]


def test_MISC_TIME_COLLECTION_empty_seat_passes_to_the_next_card() -> None:
    run = _limped_flop(["8c", "Kd", "3s"], {"time_flop": True})  # nobody in seat 8
    assert _time_prompts(run) == ["TIME FLOP: 3s - SEAT 3 PAYS EVERYONE'S TIME"]


def test_MISC_TIME_COLLECTION_only_when_the_house_plays_the_time_flop() -> None:
    assert _time_prompts(_limped_flop(["Ac", "Kd", "Qs"], {})) == []


def test_BET_INFO_RIGHTS_silent_when_the_betting_was_reopened() -> None:
    # Seat 2's all-in to 300 is a full raise over seat 1's 100: seat 1 may re-raise, so the
    # station has nothing to tell him.
    run = Run()
    run.feed(setup("nlhe", {1: 1000, 2: 302, 3: 1000}, stakes={"sb": 1, "bb": 2}, button=3))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["As", "7d", "9c", "Ks", "7h", "9d"])
    run.feed(zone(3, 2), zone(1, 2), key("CHECK", 2), zone(1, 0), zone(2, 0), zone(3, 0))
    run.feed(draw("2c"), draw("Qh"), draw("Jd"), draw("3s"))
    out = run.feed(zone(1, 100), zone(2, 300), zone(3, 300))
    assert not [d for d in out if d["type"] == "prompt" and "NOT REOPENED" in d["text"]]
    assert run.snap.to_act == 1 and run.snap.min_raise_to is not None


def test_DECK_MISSING_CARDS_and_extras_in_one_audit() -> None:
    from station.engine.cards import JOKER, STANDARD_DECK
    from station.engine.deck_audit import audit

    deck = list(STANDARD_DECK)
    scanned = [c for c in deck if c.code != "7h"] + [deck[0], JOKER]
    result = audit(scanned, deck)
    assert [c.code for c in result.missing] == ["7h"]
    assert sorted(c.code for c in result.extra) == sorted([deck[0].code, "JOKER"])
    assert audit(deck, deck).ok


def test_DECK_CHECK_cards_are_not_strays_or_a_new_hand() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200}, stakes={"sb": 1, "bb": 2}, button=1))
    out = run.feed(key("DECK_CHECK"), draw("Ah"), draw("Kd"))
    assert [d["role"] for d in out if d["type"] == "draw"] == ["audit", "audit"]
    assert not run.incidents()


def _race(profile: str) -> Run:
    run = Run()
    seats = {1: 1000, 2: 1000, 3: 1000, 4: 25}
    stakes = {"sb": 100, "bb": 200}
    rules = {"tournament": True}
    run.feed(setup("nlhe", seats, profile=profile, stakes=stakes, button=4, rules=rules))
    run.feed(key("CHIP_RACE", amount=100))
    for seat, n in ((1, 3), (2, 1), (3, 2), (4, 1)):
        run.feed(zone(seat, 25 * n, chips=[25] * n))
    run.feed(draw(c, face_up=True) for c in ["4c", "9d", "Jh", "Ks", "Qd", "2s", "3h"])
    return run


def test_TOURN_CHIP_RACE_stacks_after_the_race_rr11() -> None:
    # 7 odd chips of 25 = 175: two new 100 chips (75 left is half a chip or more). Seat 4 would
    # be raced out: he gets the first; the king of spades (seat 2) the second.
    run = _race("RR11")
    assert run.table.stacks == {1: 925, 2: 1075, 3: 950, 4: 100}
    assert sum(v or 0 for v in run.table.stacks.values()) == 3025 + 25  # 175 odd -> 200 new


def test_TOURN_CHIP_RACE_the_snapshot_shows_the_race_under_way_until_it_is_settled() -> None:
    run = Run()
    seats = {1: 1000, 2: 1000}
    run.feed(setup("nlhe", seats, stakes={"sb": 100, "bb": 200}, button=2))
    assert run.snap.chip_race is None
    run.feed(key("CHIP_RACE", amount=100))
    assert run.snap.chip_race == 100  # the floor's CHIP RACE screen says so
    run.feed(zone(1, 25, chips=[25]), zone(2, 50, chips=[25, 25]))
    run.feed(draw(c, face_up=True) for c in ["4c", "9d", "Jh"])
    assert run.snap.chip_race is None


def test_TOURN_CHIP_RACE_uspa_states_no_protection_highest_cards_win() -> None:
    run = _race("USPA")
    assert run.table.stacks == {1: 925, 2: 1075, 3: 1050, 4: 0}  # Ks, then Qd
