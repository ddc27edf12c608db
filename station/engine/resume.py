"""The table between hands as a JSON document, both ways: what a station resumes from. Pure.

`table_to_doc(table)` is everything of a `Table` between two hands that carries over to the
next: the setup (game, profile and its switches, stakes, rake), every seat (stack, who sits,
who waits for the big blind, missed blinds and seat-change waits, chips in the zones, posts and
keys for the next hand, absences, forfeits), button and puck, the hand number, the deck, the
chip race, a mixed game's place in its rotation, a kill game's kill button, a void deal's
carried blinds, the time collection's period, the rake zone's drop still to check, a tournament
table's structure and clock (`resume_tourney`), the hand that ended (`resume_hand`) and what the
dealer screen still shows. `table_from_doc(doc, registry)` (`resume_read`)
builds the table back; fed the same inputs, it derives exactly what the original derives
(`tests/engine/test_resume.py` holds every hand end of the replay corpus to that).

The document is versioned (`format`); a reader refuses another format, an unknown field or a
bad value with `ResumeError` naming the field, and gives a missing field its default, so a
later engine reads what an earlier one wrote. The format is described, field by field, in
station/journal/JOURNAL.md ("The resume document").

Only a table between hands has a document: one with a hand in progress, or halfway through an
input, or whose state an engine fault left inconsistent (a setup whose game it does not hold),
raises `ResumeError` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from station.engine.events import Setup
from station.engine.resume_fields import ResumeError, codes, seat_dict
from station.engine.resume_hand import hand_to_doc, screen_to_doc
from station.engine.resume_setup import setup_to_dict
from station.engine.resume_tourney import tourney_to_doc
from station.engine.rotation import spec_of
from station.engine.table import setup_profile
from station.engine.table_state import Mix, Race, TableState

FORMAT: Final = 1

# Every field of the table's state, and where the document carries it (tests/engine/
# test_resume.py fails for a field added to the engine and not placed here).
CARRIED: Final = {
    "registry": "not carried: the station's deck registry, given to table_from_doc",
    "deck": "deck",
    "setup": "setup",
    "spec": "not carried: the setup's game at its structure",
    "profile": "not carried: the setup's profile with its rules",
    "hand_no": "hand",
    "hand": "last_hand (resume_hand)",
    "stacks": "seats.N.stack",
    "occupied": "seats.N.occupied",
    "button": "button",
    "puck": "puck",
    "floor_call": "floor_call",
    "lineup.newcomers": "seats.N.new",
    "lineup.missed": "seats.N.missed",
    "lineup.seat_wait": "seats.N.seat_wait",
    "lineup.last_blinds": "last_blinds",
    "lineup.big_blinds": "seats.N.big_blind",
    "lineup.last_button": "last_button",
    "lineup.last_players": "last_players",
    "lineup.posts_prompt": "posts_prompt",
    "lineup.button_draw": "button_draw",
    "posting.zone": "seats.N.zone",
    "posting.offset": "seats.N.offset",
    "posting.posted": "seats.N.posted",
    "posting.antes": "seats.N.antes",
    "posting.post_chips": "seats.N.post_chips",
    "posting.min_chip": "min_chip",
    "posting.straddle_keys": "seats.N.straddle",
    "posting.kill_keys": "seats.N.kill",
    "posting.carried": "carried",
    "deck.back": "deck.back",
    "deck.hands": "deck.hands",
    "deck.round": "deck.round",
    "deck.defective": "deck.defective",
    "deck.check": "deck.check",
    "timers.away_since": "seats.N.away_since",
    "timers.away_flagged": "seats.N.away_flagged",
    "timers.time_flop_due": "time_flop.due",
    "timers.time_flop_next": "time_flop.next_at",
    "forfeit.carry": "forfeit.carry",
    "forfeit.entitled": "forfeit.entitled",
    "forfeit.forfeited": "seats.N.forfeited",
    "race": "race",
    "house.time": "not carried: the setup's rake schedule's time collection",
    "house.due": "time.due",
    "house.next_at": "time.next_at",
    "house.owed": "time.owed",
    "house.flop_pending": "time.flop_pending",
    "house.now": "time.now",
    "drop": "drop (every field)",
    "mix": "rotation (null: no rotation; every field)",
    "kills.holder": "kills.holder",
    "kills.due": "kills.due",
    "tourney": "tournament (null: not a tournament table)",
    "tourney.schedule": "setup.tournament",
    "tourney.levels": "tournament.levels (null: the structure's)",
    "tourney.clock": "tournament.clock",
    "tourney.game": "tournament.game",
    "tourney.now": "tournament.now",
    "tourney.applied": "tournament.applied",
    "tourney.locked": "tournament.locked",
    "tourney.hand_level": "tournament.hand_level",
    "tourney.told": "tournament.told",
    "tourney.colour_up": "tournament.colour_up",
    "tourney.raced": "tournament.raced",
    "screen": "screen (resume_hand)",
    "out": "not carried: empty between inputs",
}

__all__ = ["FORMAT", "ResumeError", "between_hands", "table_to_doc"]


def between_hands(table: TableState) -> bool:
    """No hand in progress (none dealt yet, or the last one has ended) and no input half done."""
    hand = table.hand
    return not table.out and (hand is None or (hand.result is not None and not hand.out))


# --- writing ------------------------------------------------------------------------------------


def table_to_doc(t: TableState) -> dict[str, Any]:
    """The resume document of a table between hands; ResumeError when it is not."""
    _check(t)
    ln, po, tm, fo, house, drop, deck = (
        t.lineup,
        t.posting,
        t.timers,
        t.forfeit,
        t.house,
        t.drop,
        t.deck,
    )
    return {
        "format": FORMAT,
        "hand": t.hand_no,
        "setup": setup_to_dict(t.setup) if t.setup is not None else None,
        "button": t.button,
        "puck": t.puck,
        "floor_call": t.floor_call,
        "seats": seat_dict(_seats(t)),
        "last_blinds": list(ln.last_blinds) if ln.last_blinds is not None else None,
        "last_button": ln.last_button,
        "last_players": ln.last_players,
        "posts_prompt": ln.posts_prompt,
        "button_draw": [[s, c.code] for s, c in ln.button_draw],
        "min_chip": po.min_chip,
        "carried": po.carried,
        "deck": {
            "back": deck.back,
            "hands": deck.hands,
            "round": deck.round,
            "defective": deck.defective,
            "check": codes(deck.check) if deck.check is not None else None,
        },
        "time_flop": {"due": tm.time_flop_due, "next_at": tm.time_flop_next},
        "forfeit": {
            "carry": fo.carry,
            "entitled": sorted(fo.entitled) if fo.entitled is not None else None,
        },
        "race": _race(t.race) if t.race is not None else None,
        "time": {
            "due": house.due,
            "next_at": house.next_at,
            "owed": house.owed,
            "flop_pending": house.flop_pending,
            "now": house.now,
        },
        "drop": {
            "sensor": drop.sensor,
            "reading": drop.reading,
            "placed": drop.placed,
            "events": list(drop.events),
            "due": drop.due,
            "due_hand": drop.due_hand,
            "due_rake": drop.due_rake,
            "due_time": drop.due_time,
            "due_event": drop.due_event,
        },
        "rotation": _mix(t.mix),
        "kills": {"holder": t.kills.holder, "due": t.kills.due},
        "tournament": _tourney(t),
        "last_hand": hand_to_doc(t.hand) if t.hand is not None else None,
        "screen": screen_to_doc(t.screen),
    }


def _mix(mix: Mix | None) -> dict[str, int] | None:
    if mix is None:
        return None
    return {"index": mix.index, "played": mix.played, "round": mix.round}


def _tourney(t: TableState) -> dict[str, Any] | None:
    if t.tourney is None or t.setup is None:
        return None
    return tourney_to_doc(t.tourney, t.setup.stakes)


def _check(t: TableState) -> None:
    if not between_hands(t):
        raise ResumeError("the table is not between hands")
    seen = t.screen.hand  # a setup drops the table's ended hand; the screen's book keeps it,
    # and reads it as it reads no hand (only what is owned by the deal stays open)
    if seen is not t.hand and (t.hand is not None or seen is None or seen.result is None):
        raise ResumeError("the dealer screen has not seen the table's last hand")
    setup = t.setup
    if setup is None:
        if t.spec is not None or t.profile is not None or t.house.time is not None:
            raise ResumeError("a game without a setup")
        if t.tourney is not None:
            raise ResumeError("a tournament clock without a setup")
        return
    if (t.tourney is None) != (setup.tournament is None) or (
        t.tourney is not None and t.tourney.schedule != setup.tournament
    ):
        raise ResumeError("the table's tournament clock is not its setup's structure")
    if (t.mix is None) != (setup.rotation is None) or (
        t.mix is not None and not _mix_fits(t.mix, setup)
    ):
        raise ResumeError("the table's rotation is not its setup's")
    rake_time = setup.rake.time if setup.rake is not None else None
    try:
        consistent = (
            t.spec == spec_of(setup.game, setup.structure)
            and t.profile == setup_profile(setup)
            and t.house.time == rake_time
        )
    except ValueError:
        consistent = False
    if not consistent:  # an engine fault part-way through a setup
        raise ResumeError("the table's game, profile or time collection is not its setup's")


def _mix_fits(mix: Mix, setup: Setup) -> bool:
    """The rotation's place names one of its games."""
    if setup.rotation is None:
        return False
    return 0 <= mix.index < len(setup.rotation.games) and mix.played >= 0 and mix.round >= 0


# Each seat's part of the table, by the set or mapping it comes from. A key is written only
# when the seat is in that set or mapping, so "in it with 0" and "not in it" stay apart.
_SEAT_MAPS: Final = (
    ("stack", "stacks"),
    ("missed", "lineup.missed"),
    ("seat_wait", "lineup.seat_wait"),
    ("zone", "posting.zone"),
    ("offset", "posting.offset"),
    ("posted", "posting.posted"),
    ("antes", "posting.antes"),
    ("post_chips", "posting.post_chips"),
    ("away_since", "timers.away_since"),
    ("forfeited", "forfeit.forfeited"),
    ("big_blind", "lineup.big_blinds"),
)
_SEAT_SETS: Final = (
    ("occupied", "occupied"),
    ("new", "lineup.newcomers"),
    ("straddle", "posting.straddle_keys"),
    ("kill", "posting.kill_keys"),
    ("away_flagged", "timers.away_flagged"),
)
_SEAT_KEYS: Final = frozenset(k for k, _ in (*_SEAT_MAPS, *_SEAT_SETS))


def _part(t: TableState, path: str) -> Any:
    obj: Any = t
    for name in path.split("."):
        obj = getattr(obj, name)
    return obj


def _seats(t: TableState) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for key, path in _SEAT_MAPS:
        values: Mapping[int, Any] = _part(t, path)
        for seat, value in values.items():
            out.setdefault(seat, {})[key] = (
                sorted(value) if key == "missed" else list(value) if key == "post_chips" else value
            )
    for key, path in _SEAT_SETS:
        for seat in _part(t, path):
            out.setdefault(seat, {})[key] = True
    return out


def _race(race: Race) -> dict[str, Any]:
    return {
        "new_chip": race.new_chip,
        "odd": seat_dict({s: list(v) for s, v in race.odd.items()}),
        "cards": seat_dict({s: codes(v) for s, v in race.cards.items()}),
    }
