"""`station games` lists every game of the engine's table with the rulebook section it follows
(issue 29: "one object per game with id, title, family, structures, players and source")."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from station.engine.games import GAMES, NOT_YET_RUN

# The games of issue 29's hold'em, Omaha and stud families (004-GN §VII-§IX), by id.
ISSUE_29_PART_A = {
    "pineapple": "§VII",
    "crazypine": "§VII",
    "o8reg": "§VIII",
    "plo5": "§VIII",
    "bigo": "§VIII",
    "bigeasy": "§VIII",
    "dbo": "§VIII",
    "bomb5": "§VIII",
    "ubigo": "§VIII",
    "stud8reg": "§IX",
    "superstud": "§IX",
    "superstud8": "§IX",
    "mexstud": "§IX",
    "kcrazz": "§IX",
}
# Part B: the draw, lowball and badugi-hybrid games (001-RR11 §11-§12, 004-GN §X-§XI) and
# Drawmaha (004-GN §VIII), run; Chinese poker's forms (004-GN §XII), listed as not run yet.
ISSUE_29_PART_B = {
    "a5nl": "§11",
    "a5pl": "§11",
    "drawhigh": "§12",
    "jacks": "§12",
    "archie": "§X",
    "baduci": "§XI",
    "badaci": "§XI",
    "razzdugi": "§XI",
    "razzduci": "§XI",
    **{
        f"drawmaha-{form}-{s}": "§VIII"
        for form in ("high", "27", "a5", "badugi", "badugihigh", "49")
        for s in ("fl", "pl", "nl")
    },
}
CHINESE = ("chinese", "chinese-draw", "ofc", "ofc-turbo", "ofc-pineapple", "ofc-pineapple-27",
           "taiwanese")  # fmt: skip
SOURCE = re.compile(r"\b00[0-4]-(USPA|RR11|RRPG|RR5|GN)\b")


def _listing(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "station", "games", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_json_has_one_object_per_game_with_the_public_keys() -> None:
    rows = [json.loads(line) for line in _listing("--json").splitlines()]
    assert [r["id"] for r in rows] == [*GAMES, *NOT_YET_RUN]
    keys = {"id", "title", "family", "structures", "players", "source"}
    for r in rows:
        if r["id"] in NOT_YET_RUN:
            assert set(r) == {*keys, "not_run"} and r["structures"] == [], r
            assert SOURCE.search(r["source"]), r
            continue
        assert set(r) == keys, r
        spec = GAMES[r["id"]]
        assert r["structures"][0] == spec.structure.value
        assert r["players"] == spec.max_players
        assert SOURCE.search(r["source"]), f"{r['id']}: no rulebook section in {r['source']!r}"


def test_every_game_of_the_issue_is_listed_with_its_section() -> None:
    rows = {r["id"]: r for r in map(json.loads, _listing("--json").splitlines())}
    for game, section in ISSUE_29_PART_A.items():
        assert game in rows, game
        assert "004-GN" in rows[game]["source"] and section in rows[game]["source"], rows[game]
    for game, section in ISSUE_29_PART_B.items():
        assert game in rows and "not_run" not in rows[game], game
        assert section in rows[game]["source"], rows[game]
    for game in CHINESE:
        assert rows[game]["family"] == "chinese" and "§XII" in rows[game]["source"], game
        assert rows[game]["not_run"], game


def test_the_text_listing_names_every_game() -> None:
    text = _listing()
    for game in GAMES:
        assert re.search(rf"^{re.escape(game)}\s", text, re.M), game
    for game in NOT_YET_RUN:
        assert re.search(rf"^{re.escape(game)}\s.*not run yet", text, re.M), game
    assert f"{len(GAMES)} games, {len(NOT_YET_RUN)} not run yet" in text
