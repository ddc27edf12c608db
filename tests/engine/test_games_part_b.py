"""Issue 29 part B: every game of the rulebooks' draw, Drawmaha and Chinese sections is either
dealt (a `GameSpec` with its source) or listed as not run yet with the reason - no silent gaps."""

from __future__ import annotations

from dataclasses import replace

import pytest

from station.engine.games import GAMES, NOT_YET_RUN, Structure, UnknownGameError, game_spec
from station.formats.events import EventFormatError, decode_event

DEALT = ("a5nl", "a5pl", "drawhigh", "jacks", "archie", "baduci", "badaci", "razzdugi", "razzduci")
DRAWMAHA_FORMS = ("high", "27", "a5", "badugi", "badugihigh", "49")
CHINESE = (
    "chinese", "chinese-draw", "ofc", "ofc-turbo", "ofc-pineapple", "ofc-pineapple-27", "taiwanese"
)  # fmt: skip


def test_every_listed_draw_game_is_dealt_and_names_its_rulebook_section() -> None:
    for name in DEALT:
        assert GAMES[name].source, name


def test_drawmaha_in_each_listed_form_limit_pot_and_no_limit() -> None:
    # 004-GN §VIII: "Different variations of this game consist of High, 2-7, Ace-5, Badugi,
    # Badugi High and 49" ... "Drawmaha can be played as a Limit, No Limit, or Pot Limit
    # structure." ... "( 7 Participant maximum )"
    for form in DRAWMAHA_FORMS:
        structures = {GAMES[f"drawmaha-{form}-{s}"].structure for s in ("fl", "pl", "nl")}
        assert structures == set(Structure)
        spec = GAMES[f"drawmaha-{form}-pl"]
        assert (spec.hole_cards, spec.max_draw, spec.max_players, spec.draw_after) == (5, 3, 7, 1)


def test_the_chinese_games_are_listed_as_not_run_yet_with_the_reason() -> None:
    assert set(NOT_YET_RUN) == set(CHINESE)
    for name in CHINESE:
        assert name not in GAMES
        assert NOT_YET_RUN[name].source.startswith("004-GN §XII")
        with pytest.raises(UnknownGameError, match="not run yet"):
            game_spec(name)


def test_a_session_naming_a_chinese_game_is_refused_in_words() -> None:
    with pytest.raises(EventFormatError, match=r"not run yet.*CHINESE-POKER"):
        decode_event(
            {"type": "setup", "game": "ofc", "stakes": {"sb": 1, "bb": 2}, "seats": {"1": 100}},
            strict=True,
        )


def test_the_parts_of_a_split_pot_survive_the_journal_round_trip() -> None:
    # hand_end splits (extension): what the floor's hand recall reads back.
    from station.demo.shots import drawmaha_hand
    from station.formats.decisions import decision_to_dict
    from station.formats.payload import decision_from_dict

    _, snap = drawmaha_hand()
    assert snap.result is not None
    as_json = decision_to_dict(snap.result)
    assert "parts" not in as_json["pots"][0]
    assert as_json["splits"] == [
        {"pot": 0, "part": "omaha_high", "amount": 32, "won": {"3": 32}},
        {"pot": 0, "part": "draw_high", "amount": 33, "won": {"2": 33}},
    ]
    # The winning hand's words (`named`) are the screen's only, not in the JSON.
    unnamed = tuple(
        replace(p, named="", parts=tuple(replace(q, named="") for q in p.parts))
        for p in snap.result.pots
    )
    assert decision_from_dict(as_json) == replace(snap.result, pots=unnamed)
