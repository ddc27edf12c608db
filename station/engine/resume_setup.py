"""The setup in a resume document, both ways: the session format's setup line (`setup_to_dict`,
which the session writer in `station.formats` uses too) and its strict reader
(`setup_from_dict`), with the one list of stake keys. Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from station.engine.events import Rotation, RotationGame, Setup, Stakes
from station.engine.games import GAMES, Structure
from station.engine.levels import Schedule, ScheduleError
from station.engine.levels import schedule_from_dict as tournament_from_dict
from station.engine.levels import schedule_to_dict as tournament_to_dict
from station.engine.rake import RakeScheduleError, schedule_from_dict, schedule_to_dict
from station.engine.resume_fields import Fields, ResumeError, opt_whole, profile_of

STAKE_KEYS: Final = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "straddle", "bb_ante")
KILL_KINDS: Final = ("full", "half")


def setup_to_dict(
    s: Setup, tournament: Callable[[Schedule], dict[str, object]] | None = None
) -> dict[str, Any]:
    """The session format's setup line, without `type` and `t` (a tournament's without its
    stakes, which its levels say: the document's `tournament` carries the next deal's). The
    session writer (`station.formats.events`) uses it too, with `tournament` the format's own
    writer of the structure (its times rounded); the document's keeps them exact."""
    out: dict[str, Any] = {
        "game": s.game,
        "profile": s.profile,
        "stakes": _stakes_dict(s.stakes),
        "seats": {str(seat): stack for seat, stack in sorted(s.seats.items())},
    }
    if s.tournament is not None:
        del out["stakes"]
    if s.button is not None:
        out["button"] = s.button
    if s.deck is not None:
        out["deck"] = s.deck
    if s.rules:
        out["rules"] = dict(s.rules)
    if s.rake is not None:
        out["rake"] = schedule_to_dict(s.rake)
    if s.structure is not None:
        out["structure"] = s.structure
    if s.kill is not None:
        out["kill"] = s.kill
    if s.rotation is not None:
        out["rotation"] = {
            "games": [
                {
                    "game": g.game,
                    "stakes": _stakes_dict(g.stakes),
                    **({"structure": g.structure} if g.structure else {}),
                }
                for g in s.rotation.games
            ],
            "hands": s.rotation.hands,
        }
    if s.tournament is not None:
        out["tournament"] = (tournament or schedule_doc)(s.tournament)
    return out


def _stakes_dict(stakes: Stakes) -> dict[str, int]:
    return {k: v for k in STAKE_KEYS if (v := getattr(stakes, k)) is not None}


def schedule_doc(schedule: Schedule) -> dict[str, object]:
    """The session format's `"tournament"` object, its times exact (not rounded)."""
    return {
        **tournament_to_dict(schedule),
        "start_t": schedule.start_t,
        "elapsed_s": schedule.elapsed_s,
    }


_SETUP: Final = frozenset(
    {
        "game",
        "profile",
        "stakes",
        "seats",
        "button",
        "deck",
        "rules",
        "rake",
        "structure",
        "kill",
        "rotation",
        "tournament",
    }
)
_ROTATION: Final = frozenset({"games", "hands"})
_ROTATION_GAME: Final = frozenset({"game", "stakes", "structure"})


def _game_structure(f: Fields, game_key: str = "game") -> tuple[str, str | None]:
    """A game id and its `structure` (None: the game's own), both ones this engine knows."""
    game = f.text(game_key)
    if game not in GAMES:
        raise ResumeError(f"{f.where(game_key)}: unknown game {game!r}")
    raw = f.raw("structure")
    if raw is None:
        return game, None
    if type(raw) is not str:
        raise ResumeError(f"{f.where('structure')}: not a betting structure")
    try:
        GAMES[game].with_structure(Structure(raw))
    except ValueError as exc:
        raise ResumeError(f"{f.where('structure')}: {exc}") from None
    return game, raw


def _stakes_of(f: Fields) -> Stakes:
    stakes = f.obj_of("stakes", frozenset(STAKE_KEYS))
    return Stakes(**{k: stakes.opt_whole(k) for k in STAKE_KEYS})


def _rotation_from(f: Fields) -> Rotation | None:
    rf = f.opt_obj("rotation", _ROTATION)
    if rf is None:
        return None
    games = []
    for i, raw in enumerate(rf.items("games")):
        gf = Fields(raw, f"{rf.where('games')}[{i}]", _ROTATION_GAME)
        game, structure = _game_structure(gf)
        games.append(RotationGame(game, _stakes_of(gf), structure))
    if not games:
        raise ResumeError(f"{rf.where('games')}: a rotation without games")
    hands = rf.whole("hands", 0)
    if hands < 0:
        raise ResumeError(f"{rf.where('hands')}: not a number of hands")
    return Rotation(tuple(games), hands)


def setup_from_dict(raw: object, where: str, tourney_game: str | None = None) -> Setup:
    """The setup; a tournament's structure is read for `tourney_game` (the game of every level
    that names none: the setup's game as it was set up; a level may have changed `game`)."""
    f = Fields(raw, where, _SETUP)
    game, structure = _game_structure(f)
    kill = f.raw("kill")
    if kill is not None and kill not in KILL_KINDS:
        raise ResumeError(f"{f.where('kill')}: not one of {', '.join(KILL_KINDS)}")
    tournament = None
    if f.raw("tournament") is not None:
        base = tourney_game if tourney_game is not None else game
        if base not in GAMES:
            raise ResumeError(f"{where}: unknown game {base!r} for the tournament's levels")
        try:
            tournament = tournament_from_dict(f.raw("tournament"), base)
        except ScheduleError as exc:
            raise ResumeError(f"{where}.{exc}") from None
    name, rules, _ = profile_of(f, "RR11")
    rake = None
    if f.raw("rake") is not None:
        try:
            rake = schedule_from_dict(f.raw("rake"))
        except RakeScheduleError as exc:
            raise ResumeError(f"{where}.{exc}") from None
    deck = f.raw("deck")
    if deck is not None and type(deck) is not str:
        raise ResumeError(f"{f.where('deck')}: not a back colour")
    return Setup(
        game=game,
        profile=name,
        stakes=_stakes_of(f),
        seats={s: opt_whole(v, f"{f.where('seats')}.{s}") for s, v in f.seat_map("seats").items()},
        button=f.opt_whole("button"),
        deck=deck,
        rules=dict(rules),
        rake=rake,
        structure=structure,
        kill=kill,
        rotation=_rotation_from(f),
        tournament=tournament,
    )
