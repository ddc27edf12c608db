"""Reading a resume document: `table_from_doc(doc, registry)` builds the table it describes
(`station.engine.resume` writes it and says what it holds). Pure.

A reader refuses another format, an unknown field or a bad value with `ResumeError` naming the
field, and gives a missing field its default, so a later engine reads what an earlier one wrote.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from station.engine.cards import DeckRegistry
from station.engine.events import Stakes
from station.engine.resume import _SEAT_KEYS, _SEAT_MAPS, _SEAT_SETS, FORMAT, _mix_fits, _part
from station.engine.resume_fields import (
    Fields,
    ResumeError,
    card,
    cards,
    number,
    seats_of,
    whole,
)
from station.engine.resume_hand import hand_from_doc, screen_from_doc
from station.engine.resume_setup import setup_from_dict
from station.engine.resume_tourney import tourney_from_doc, tourney_game
from station.engine.rotation import spec_of
from station.engine.table import Table, setup_profile
from station.engine.table_state import KillBook, Mix, Race, Tourney

_TOP: Final = frozenset(
    {
        "format",
        "hand",
        "setup",
        "button",
        "puck",
        "floor_call",
        "seats",
        "last_blinds",
        "last_button",
        "last_players",
        "posts_prompt",
        "button_draw",
        "min_chip",
        "carried",
        "deck",
        "time_flop",
        "forfeit",
        "race",
        "time",
        "drop",
        "rotation",
        "kills",
        "tournament",
        "last_hand",
        "screen",
    }
)
_DECK: Final = frozenset({"back", "hands", "round", "defective", "check"})
_MIX: Final = frozenset({"index", "played", "round"})
_KILLS: Final = frozenset({"holder", "due"})
_TIME_FLOP: Final = frozenset({"due", "next_at"})
_FORFEIT: Final = frozenset({"carry", "entitled"})
_RACE: Final = frozenset({"new_chip", "odd", "cards"})
_TIME: Final = frozenset({"due", "next_at", "owed", "flop_pending", "now"})
_DROP: Final = frozenset(
    {
        "sensor",
        "reading",
        "placed",
        "events",
        "due",
        "due_hand",
        "due_rake",
        "due_time",
        "due_event",
    }
)


def table_from_doc(doc: object, registry: DeckRegistry | None = None) -> Table:
    """The table a resume document describes; ResumeError naming the first bad field."""
    if not isinstance(doc, dict):
        raise ResumeError("resume: not an object")
    if doc.get("format") != FORMAT:
        raise ResumeError(f"resume.format: {doc.get('format')!r}, this engine reads {FORMAT}")
    f = Fields(doc, "resume", _TOP)
    t = Table(registry)
    t.hand_no = f.whole("hand", 0)
    raw_setup = f.raw("setup")
    if raw_setup is not None:
        _read_setup(t, f, raw_setup)
    elif f.raw("tournament") is not None:
        raise ResumeError(f"{f.where('tournament')}: a tournament clock without a setup")
    t.button, t.puck = f.opt_whole("button"), f.opt_whole("puck")
    t.floor_call = f.flag("floor_call")
    _read_seats(t, f)
    ln = t.lineup
    blinds = f.raw("last_blinds")
    if blinds is not None:
        if type(blinds) is not list or len(blinds) != 2:
            raise ResumeError(f"{f.where('last_blinds')}: not [small blind, big blind]")
        small = None if blinds[0] is None else whole(blinds[0], f.where("last_blinds"))
        ln.last_blinds = (small, whole(blinds[1], f.where("last_blinds")))
    ln.last_button = f.opt_whole("last_button")
    ln.last_players = f.whole("last_players", 0)
    ln.posts_prompt = f.text("posts_prompt", "")
    for i, pair in enumerate(f.items("button_draw")):
        where = f"{f.where('button_draw')}[{i}]"
        if type(pair) is not list or len(pair) != 2:
            raise ResumeError(f"{where}: not [seat, card]")
        ln.button_draw.append((whole(pair[0], where), card(pair[1], where)))
    t.posting.min_chip = f.opt_whole("min_chip")
    t.posting.carried = f.flag("carried")
    k = f.obj_of("kills", _KILLS)
    t.kills = KillBook(k.opt_whole("holder"), k.opt_whole("due"))
    _read_mix(t, f)
    d = f.obj_of("deck", _DECK)
    t.deck.back = d.text("back", t.deck.back)
    t.deck.hands, t.deck.round = d.whole("hands", 0), d.whole("round", 0)
    t.deck.defective = d.flag("defective")
    check = d.raw("check")
    t.deck.check = None if check is None else cards(check, d.where("check"))
    tf = f.obj_of("time_flop", _TIME_FLOP)
    t.timers.time_flop_due, t.timers.time_flop_next = tf.flag("due"), tf.opt_number("next_at")
    fo = f.obj_of("forfeit", _FORFEIT)
    t.forfeit.carry = fo.whole("carry", 0)
    entitled = fo.raw("entitled")
    if entitled is not None:
        t.forfeit.entitled = frozenset(seats_of(entitled, fo.where("entitled")))
    race = f.opt_obj("race", _RACE)
    if race is not None:
        t.race = Race(
            race.whole("new_chip"),
            {s: seats_of(v, f"{race.where('odd')}.{s}") for s, v in race.seat_map("odd").items()},
            {s: cards(v, f"{race.where('cards')}.{s}") for s, v in race.seat_map("cards").items()},
        )
    h = f.obj_of("time", _TIME)
    house = t.house
    house.due, house.next_at = h.flag("due"), h.opt_number("next_at")
    house.owed, house.flop_pending, house.now = (
        h.whole("owed", 0),
        h.flag("flop_pending"),
        h.opt_number("now"),
    )
    dr = f.obj_of("drop", _DROP)
    drop = t.drop
    drop.sensor, drop.reading, drop.placed = (
        dr.flag("sensor"),
        dr.whole("reading", 0),
        dr.whole("placed", 0),
    )
    drop.events = dr.wholes("events")
    drop.due = dr.opt_whole("due")
    drop.due_hand, drop.due_rake = dr.whole("due_hand", 0), dr.whole("due_rake", 0)
    drop.due_time, drop.due_event = dr.whole("due_time", 0), dr.whole("due_event", 0)
    last = f.raw("last_hand")
    if last is not None:
        stakes = t.setup.stakes if t.setup is not None else Stakes()
        t.hand = hand_from_doc(last, f.where("last_hand"), stakes)
        if t.hand.number != t.hand_no:
            raise ResumeError(f"{f.where('last_hand')}.number: not the table's hand {t.hand_no}")
    t.screen = screen_from_doc(f.raw("screen", {}), f.where("screen"), t.hand)
    return t


def _read_setup(t: Table, f: Fields, raw_setup: object) -> None:
    """The setup, and a tournament table's structure and clock (its `tournament`)."""
    raw_tourney = f.raw("tournament")
    game = raw_setup.get("game") if isinstance(raw_setup, dict) else None
    base = tourney_game(raw_tourney, game if isinstance(game, str) else "")
    setup = setup_from_dict(raw_setup, f.where("setup"), base if raw_tourney is not None else None)
    if (raw_tourney is None) != (setup.tournament is None):
        raise ResumeError(
            f"{f.where('tournament')}: a tournament table has both its structure (setup."
            "tournament) and its clock (tournament), another table neither"
        )
    if setup.tournament is not None:
        tourney: Tourney
        tourney, stakes = tourney_from_doc(
            raw_tourney, f.where("tournament"), setup.tournament, base
        )
        setup = replace(setup, stakes=stakes)
        t.tourney = tourney
    try:
        spec = spec_of(setup.game, setup.structure)
    except ValueError as exc:
        raise ResumeError(f"{f.where('setup')}.structure: {exc}") from None
    t.setup, t.spec = setup, spec
    t.profile = setup_profile(setup)
    t.house.time = setup.rake.time if setup.rake is not None else None


def _read_mix(t: Table, f: Fields) -> None:
    """A mixed game's place in its rotation: there exactly when the setup has a rotation."""
    mf = f.opt_obj("rotation", _MIX)
    rotation = t.setup.rotation if t.setup is not None else None
    if (mf is None) != (rotation is None):
        raise ResumeError(
            f"{f.where('rotation')}: a mixed game has both its rotation (setup.rotation) and "
            "its place in it (rotation), another table neither"
        )
    if mf is None:
        return
    mix = Mix(mf.whole("index"), mf.whole("played", 0), mf.whole("round", 0))
    if t.setup is None or not _mix_fits(mix, t.setup):
        raise ResumeError(f"{f.where('rotation')}: not a place in the setup's rotation")
    t.mix = mix


_SEAT: Final = _SEAT_KEYS


def _read_seats(t: Table, f: Fields) -> None:
    for seat, raw in sorted(f.seat_map("seats").items()):
        sf = Fields(raw, f"{f.where('seats')}.{seat}", _SEAT)
        for key, path in _SEAT_MAPS:
            if not sf.has(key):
                continue
            target: dict[int, Any] = _part(t, path)
            where = sf.where(key)
            value = sf.raw(key)
            if key == "stack":
                target[seat] = None if value is None else whole(value, where)
            elif key == "missed":
                if type(value) is not list or not all(v in ("sb", "bb") for v in value):
                    raise ResumeError(f'{where}: not a list of "sb" and "bb"')
                target[seat] = set(value)
            elif key == "post_chips":
                target[seat] = tuple(seats_of(value, where))
            elif key == "away_since":
                target[seat] = number(value, where)
            else:
                target[seat] = whole(value, where)
        for key, path in _SEAT_SETS:
            if sf.has(key):
                if sf.raw(key) is not True:
                    raise ResumeError(f"{sf.where(key)}: only true is written")
                _part(t, path).add(seat)
