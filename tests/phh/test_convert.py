"""PHH -> recorded session: the conventions of docs/session-format.md, checked on real hands.

Each expectation is read off the PHH file and the conventions (catalog DEAL-HOLDEM, DEAL-STUD-ORDER,
DRAW-BURN, BUTTON-HEADS-UP), never off the converter's output.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from station.formats.session import parse_session

from .helpers import (
    STRADDLE,
    after_new_hand,
    before_new_hand,
    convert_file,
    convert_text,
    draw_runs,
    hole_cards,
)


def zone(seat: int, amount: int) -> dict[str, object]:
    return {"type": "zone", "seat": seat, "amount": amount}


def key(name: str, seat: int | None = None, **extra: object) -> dict[str, object]:
    out: dict[str, object] = {"type": "key", "key": name}
    if seat is not None:
        out["seat"] = seat
    out.update(extra)
    return out


ONE_FILE_PER_VARIANT = [
    "pluribus/30/12",  # NT
    "phua-xuan-2019",  # NS
    "antonius-blom-2009",  # PO
    "wsop/2023/43/5/01-46-42",  # FT
    "wsop/2023/43/5/00-43-47",  # FO/8
    "wsop/2023/43/5/00-22-43",  # F7S
    "wsop/2023/43/5/02-28-14",  # F7S/8
    "wsop/2023/43/5/01-13-57",  # FR
    "wsop/2023/43/5/01-59-02",  # N2L1D
    "wsop/2023/43/5/02-34-51",  # F2L3D
    "alice-carol-wikipedia",  # FB
]


@pytest.mark.parametrize("rel", ONE_FILE_PER_VARIANT)
def test_every_variant_converts_into_a_valid_session(rel: str) -> None:
    lines = convert_file(rel)
    text = "\n".join(json.dumps(x) for x in lines)
    session = parse_session(text, rel)
    assert len(session.lines) == len(lines)
    cards = [x["card"] for x in lines if x["type"] == "draw"]
    assert len(cards) == len(set(cards)), "no card leaves the shoe twice"
    assert all(x["face_up"] is False for x in lines if x["type"] == "draw")
    assert sum(x.get("key") == "NEW_HAND" for x in lines) == 1


def test_six_max_seats_button_blinds_and_round_robin_deal() -> None:
    lines = convert_file("pluribus/30/12")
    setup = lines[0]
    assert setup["game"] == "nlhe"
    assert setup["profile"] == "RR11"
    assert setup["seats"] == {str(s): 10000 for s in range(1, 7)}
    assert setup["button"] == 6  # the last player is the button; p1 is left of it
    assert setup["stakes"] == {"sb": 50, "bb": 100}
    # From the file's finishing_stacks: p1 lost the small blind, p2 beat p6 for 1475 each.
    assert setup["_finishing_stacks"] == {
        "1": 9950, "2": 11525, "3": 10000, "4": 10000, "5": 10000, "6": 8525,
    }  # fmt: skip
    assert before_new_hand(lines) == [zone(1, 50), zone(2, 100)]
    # DEAL-HOLDEM: one card at a time from seat 1 (left of the button); round k = k-th cards.
    holes = hole_cards("pluribus/30/12")
    deal = draw_runs(lines)[0]
    assert deal == [holes[s][0] for s in range(1, 7)] + [holes[s][1] for s in range(1, 7)]


def test_burns_and_street_draw_counts_in_holdem() -> None:
    lines = convert_file("pluribus/30/12")
    runs = draw_runs(lines)
    # 12 hole cards, then burn + flop, burn + turn, burn + river (catalog DEAL-HOLDEM: 2n, 4, 2, 2).
    assert [len(r) for r in runs] == [12, 4, 2, 2]
    assert runs[1][1:] == ["3d", "Qc", "2c"]
    assert runs[2][1:] == ["9s"]
    assert runs[3][1:] == ["5s"]
    known = {c for r in runs for c in r[1:]} | set(runs[0])
    assert not {runs[1][0], runs[2][0], runs[3][0]} & known  # burns come from the rest


def test_checks_calls_collection_and_showdown_keys() -> None:
    body = after_new_hand(convert_file("pluribus/30/12"))
    not_draws = [x for x in body if x["type"] != "draw"]
    assert not_draws == [
        key("FOLD", 3), key("FOLD", 4), key("FOLD", 5), zone(6, 225), key("FOLD", 1),
        zone(2, 225),
        zone(1, 0), zone(2, 0), zone(6, 0),  # collected in seat order; the folded SB's 50 too
        key("CHECK", 2), zone(6, 250), zone(2, 250),
        zone(2, 0), zone(6, 0),
        key("CHECK", 2), zone(6, 1000), zone(2, 1000),
        zone(2, 0), zone(6, 0),
        key("CHECK", 2), key("CHECK", 6),
        key("TABLED", 2), key("MUCK", 6),
    ]  # fmt: skip


def test_a_hand_won_by_folds_ends_without_collection() -> None:
    body = after_new_hand(convert_file("pluribus/30/1"))
    assert [x for x in body if x["type"] != "draw"] == [
        key("FOLD", 3), key("FOLD", 4), key("FOLD", 5), key("FOLD", 6), zone(1, 300),
        key("FOLD", 2),
    ]  # fmt: skip


def test_antes_are_collected_before_new_hand_and_blinds_stay() -> None:
    # dwan-ivey-2009: antes 500 each, blinds 1000/2000, three players (p3 is the button).
    lines = convert_file("dwan-ivey-2009")
    assert lines[0]["stakes"] == {"sb": 1000, "bb": 2000, "ante": 500}
    assert lines[0]["button"] == 3
    assert before_new_hand(lines) == [
        zone(1, 500), zone(2, 500), zone(3, 500),
        zone(1, 0), zone(2, 0), zone(3, 0),
        zone(1, 1000), zone(2, 2000),
    ]  # fmt: skip


def test_five_handed_big_blind_ante() -> None:
    # wsop 02-56-12: antes [0, 225000, 0, 0, 0] (the big blind's ante), blinds 75000/150000.
    lines = convert_file("wsop/2023/43/5/02-56-12")
    setup = lines[0]
    assert setup["button"] == 5
    assert "ante" not in setup["stakes"]  # not uniform: only zone amounts and `_antes`
    assert setup["stakes"] == {"sb": 75000, "bb": 150000}
    assert setup["_antes"] == {"2": 225000}
    assert setup["_ante_trimming_status"] is False
    assert before_new_hand(lines) == [zone(2, 225000), zone(2, 0), zone(1, 75000), zone(2, 150000)]
    # p3 (first left of the big blind) acts first.
    assert next(x for x in after_new_hand(lines) if x["type"] != "draw") == zone(3, 300000)


def test_heads_up_button_posts_the_small_blind_and_the_big_blind_gets_the_first_card() -> None:
    # wsop 03-42-38, FO/8 heads-up, blinds_or_straddles [150000, 300000]: PokerKit reverses the
    # blinds heads-up, so p1 is the big blind and p2 the button (catalog BUTTON-HEADS-UP; 003-HPT:
    # the big blind gets the first card).
    rel = "wsop/2023/43/5/03-42-38"
    lines = convert_file(rel)
    assert lines[0]["button"] == 2
    assert lines[0]["stakes"] == {
        "sb": 150000,
        "bb": 300000,
        "small_bet": 300000,
        "big_bet": 600000,
    }
    assert before_new_hand(lines) == [zone(2, 150000), zone(1, 300000)]
    holes = hole_cards(rel)
    assert draw_runs(lines)[0] == [c for pair in zip(holes[1], holes[2], strict=True) for c in pair]
    # The button acts first before the flop: "p2 cbr 600000".
    assert next(x for x in after_new_hand(lines) if x["type"] != "draw") == zone(2, 600000)


def test_straddle_is_the_third_blind_and_the_next_seat_acts_first() -> None:
    # Third non-zero blinds_or_straddles entry = straddle by p3; p4 (UTG after the straddle) acts
    # first; the button is still the last player. Finishing stacks by hand: the pot is
    # 1 + 2 + 12 + 12 (preflop) + 20 + 20 (flop) = 67, won by the aces: 200 - 32 + 67 = 235.
    lines = convert_text(STRADDLE, "straddle")
    assert lines[0]["stakes"] == {"sb": 1, "bb": 2, "straddle": 4}
    assert lines[0]["button"] == 6
    assert lines[0]["_blinds"] == {"1": 1, "2": 2, "3": 4}
    assert before_new_hand(lines) == [zone(1, 1), zone(2, 2), zone(3, 4)]
    assert next(x for x in after_new_hand(lines) if x["type"] != "draw") == zone(4, 12)


def test_stud_deal_order_bring_in_and_later_streets() -> None:
    # wsop 00-22-43, F7S five-handed: antes 50000, no button; p5 brings in.
    rel = "wsop/2023/43/5/00-22-43"
    lines = convert_file(rel)
    assert "button" not in lines[0]
    assert lines[0]["stakes"] == {
        "ante": 50000, "bring_in": 50000, "small_bet": 200000, "big_bet": 400000,
    }  # fmt: skip
    pre = before_new_hand(lines)
    assert pre == [zone(s, 50000) for s in range(1, 6)] + [zone(s, 0) for s in range(1, 6)]
    holes = hole_cards(rel)
    runs = draw_runs(lines)
    # Third street: two down rounds then the up round, from the lowest seat (DEAL-STUD-ORDER).
    assert runs[0] == [holes[s][k] for k in range(3) for s in range(1, 6)]
    body = after_new_hand(lines)
    assert [x for x in body if x["type"] != "draw"][:8] == [
        zone(5, 50000), key("FOLD", 1), key("FOLD", 2), key("FOLD", 3),
        zone(4, 200000), zone(5, 200000), zone(4, 0), zone(5, 0),
    ]  # fmt: skip
    # Fourth and fifth streets: a burn, then one card per seat still in, in seat order.
    assert [len(r) for r in runs[1:]] == [3, 3]
    assert runs[1][1:] == ["6d", "9s"]
    assert runs[2][1:] == ["Ah", "Ad"]


def test_draw_rounds_draw_keys_burns_and_replacements() -> None:
    # arieh-yockey-2019, 2-7 triple draw: p1 stands pat three times; p4 draws 2, 1, 1.
    lines = convert_file("arieh-yockey-2019")
    body = after_new_hand(lines)
    draws = [i for i, x in enumerate(body) if x.get("key") == "DRAW"]
    first = body[draws[0] : draws[0] + 6]
    assert first[0] == key("DRAW", 1, count=0)
    assert first[1] == key("DRAW", 4, count=2, cards=["As", "Qs"])
    assert first[2]["type"] == "draw"  # the burn, before the first replacement card
    assert first[2]["card"] not in {"2h", "Qh", "As", "Qs"}
    assert [x["card"] for x in first[3:5]] == ["2h", "Qh"]
    assert first[5]["type"] == "zone"  # then the betting round after the draw
    assert [len(r) for r in draw_runs(lines)] == [20, 3, 2, 2]  # 4 x 5 dealt; burn + k each time
    second = body[draws[2] : draws[3] + 3]
    assert second[0] == key("DRAW", 1, count=0)
    assert second[1] == key("DRAW", 4, count=1, cards=["Qh"])
    assert second[3]["card"] == "4d"


def test_unknown_draw_game_cards_follow_the_hand_to_the_showdown() -> None:
    # alice-carol-wikipedia: every card unknown ("????????"), yet Alice (p4) shows 2s4c6d9h and
    # Carol (p2) 3s5d7c8h. Following each seat through the session must end with those hands.
    lines = convert_file("alice-carol-wikipedia")
    body = after_new_hand(lines)
    deal = draw_runs(lines)[0]
    hands = {s: [deal[k * 4 + s - 1] for k in range(4)] for s in range(1, 5)}
    for i, x in enumerate(body):
        if x.get("key") == "DRAW" and x["count"]:
            for card in x["cards"]:
                hands[x["seat"]].remove(card)
            following = []
            for y in body[i + 1 :]:
                if y["type"] != "draw":
                    break
                following.append(y["card"])
            # [a burn before the round's first replacement card,] then this seat's cards
            assert len(following) in (x["count"], x["count"] + 1)
            hands[x["seat"]].extend(following[-x["count"] :])
    assert sorted(hands[4]) == sorted(["2s", "4c", "6d", "9h"])
    assert sorted(hands[2]) == sorted(["3s", "5d", "7c", "8h"])


def test_all_in_showdown_keys_stay_before_the_last_board_cards() -> None:
    # antonius-blom-2009: all in on the flop, both hands shown, then turn and river.
    body = after_new_hand(convert_file("antonius-blom-2009"))
    tabled = [i for i, x in enumerate(body) if x.get("key") == "TABLED"]
    assert [body[i]["seat"] for i in tabled] == [1, 2]
    after = body[tabled[-1] + 1 :]
    assert [x["type"] for x in after] == ["draw"] * 4  # burn, turn, burn, river
    assert [after[1]["card"], after[3]["card"]] == ["5h", "9c"]


def test_fractional_stacks_are_scaled_to_whole_chips() -> None:
    # antonius-blom-2009 starts with 1259450.25 and 678473.5: every amount times 4.
    lines = convert_file("antonius-blom-2009")
    assert lines[0]["_chip_scale"] == 4
    assert lines[0]["seats"] == {"1": 5037801, "2": 2713894}
    assert lines[0]["stakes"] == {"sb": 2000, "bb": 4000}
    # Pluribus 32/23 is a split pot recorded in half chips (10387.5): scale 2.
    lines = convert_file("pluribus/32/23")
    assert lines[0]["_chip_scale"] == 2
    assert lines[0]["stakes"] == {"sb": 100, "bb": 200}
    assert lines[0]["_finishing_stacks"] == {
        "1": 19900, "2": 18550, "3": 20775, "4": 20000, "5": 20000, "6": 20775,
    }  # fmt: skip
    assert before_new_hand(lines) == [zone(1, 100), zone(2, 200)]


def test_unknown_cards_are_drawn_from_the_rest_of_the_deck() -> None:
    # dwan-ivey-2009: Antonius (p2) is dealt "????".
    lines = convert_file("dwan-ivey-2009")
    deal = draw_runs(lines)[0]
    p2 = [deal[1], deal[4]]
    seen_in_file = {"Ac", "2d", "7h", "6h", "Jc", "3d", "5c", "4h", "Jh"}
    assert not set(p2) & seen_in_file
    cards = [x["card"] for x in lines if x["type"] == "draw"]
    assert len(cards) == len(set(cards)) == 6 + 4 + 2 + 2


def test_short_deck_draws_come_from_the_36_card_deck() -> None:
    lines = convert_file("phua-xuan-2019")
    ranks = Counter(x["card"][0] for x in lines if x["type"] == "draw")
    assert not set(ranks) & {"2", "3", "4", "5"}
    assert lines[0]["stakes"] == {"bb": 3000, "ante": 3000}  # the button blind is the only blind
    assert lines[0]["_blinds"] == {"6": 3000}


def test_same_seed_same_session_other_seed_other_burns() -> None:
    a = convert_file("pluribus/30/12", seed=0)
    assert convert_file("pluribus/30/12", seed=0) == a
    b = convert_file("pluribus/30/12", seed=1)
    assert len(a) == len(b)
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    assert differ, "another seed must change the burns"
    for i in differ:  # only burns differ: every card of the history stays where it was
        assert a[i]["type"] == b[i]["type"] == "draw"
    burns = {draw_runs(a)[k][0] for k in (1, 2, 3)}
    assert {a[i]["card"] for i in differ} <= burns
