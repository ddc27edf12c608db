"""The values of a resume document (`station.engine.resume`): a strict reader of its JSON objects,
and the JSON forms of the records it holds (cards, the setup, incidents, prompts, a hand's
result). Pure.

The records are written in the public forms: a setup as the session format's setup line, an
incident, prompt or hand end as `station replay --json` prints it (`station.formats` holds the
public codecs; the engine may not import them, and `tests/engine/test_resume.py` pins these to
them). Reading is strict: a field of the wrong type, an unknown field or a value the engine does
not know raises `ResumeError` naming where it is (`last_hand.seats.3.stack: ...`); a missing
field takes its default, so a document written before a field existed still reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from station.engine.cards import Card, CardError
from station.engine.decisions import (
    HandEnd,
    Incident,
    PotPart,
    PotResult,
    Prompt,
    PromptCode,
    Ruling,
)
from station.engine.events import Rotation, RotationGame, Setup, Stakes
from station.engine.games import GAMES, Structure
from station.engine.levels import Schedule, ScheduleError
from station.engine.levels import schedule_from_dict as tournament_from_dict
from station.engine.levels import schedule_to_dict as tournament_to_dict
from station.engine.profiles import PROFILES
from station.engine.rake import RakeResult, RakeScheduleError, schedule_from_dict, schedule_to_dict

STAKE_KEYS: Final = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "straddle", "bb_ante")
KILL_KINDS: Final = ("full", "half")


class ResumeError(ValueError):
    """A resume document this engine cannot read; the message says which field and why."""


class Fields:
    """One JSON object of the document, read field by field. Unknown fields are refused (a
    document from a newer engine that this one would misread); missing ones take defaults."""

    __slots__ = ("obj", "path")

    def __init__(self, obj: object, path: str, known: frozenset[str]) -> None:
        if not isinstance(obj, dict):
            raise ResumeError(f"{path}: not an object")
        for key in obj:
            if key not in known:
                raise ResumeError(f"{path}.{key}: unknown field")
        self.obj: dict[str, Any] = obj
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}"

    def raw(self, key: str, default: object = None) -> Any:
        return self.obj.get(key, default)

    def has(self, key: str) -> bool:
        return key in self.obj

    def whole(self, key: str, default: int | None = None) -> int:
        """A whole number; `default` when missing (None: it must be there)."""
        return whole(self._get(key, default), self.where(key))

    def opt_whole(self, key: str) -> int | None:
        v = self.obj.get(key)
        return None if v is None else whole(v, self.where(key))

    def flag(self, key: str, default: bool = False) -> bool:
        v = self.obj.get(key, default)
        if type(v) is not bool:
            raise ResumeError(f"{self.where(key)}: not true or false")
        return v

    def text(self, key: str, default: str | None = None) -> str:
        """Text; `default` when missing (None: it must be there)."""
        v = self._get(key, default)
        if type(v) is not str:
            raise ResumeError(f"{self.where(key)}: not text")
        return v

    def opt_number(self, key: str) -> float | None:
        v = self.obj.get(key)
        return None if v is None else number(v, self.where(key))

    def wholes(self, key: str) -> list[int]:
        return [whole(v, f"{self.where(key)}[{i}]") for i, v in enumerate(self.items(key))]

    def items(self, key: str) -> list[Any]:
        v = self.obj.get(key, [])
        if type(v) is not list:
            raise ResumeError(f"{self.where(key)}: not a list")
        return v

    def obj_of(self, key: str, known: frozenset[str]) -> Fields:
        return Fields(self.obj.get(key, {}), self.where(key), known)

    def opt_obj(self, key: str, known: frozenset[str]) -> Fields | None:
        v = self.obj.get(key)
        return None if v is None else Fields(v, self.where(key), known)

    def seat_map(self, key: str) -> dict[int, Any]:
        """An object of seat number -> value (keys are decimal text)."""
        v = self.obj.get(key, {})
        if not isinstance(v, dict):
            raise ResumeError(f"{self.where(key)}: not an object of seats")
        return {seat_key(k, self.where(key)): x for k, x in v.items()}

    def _get(self, key: str, default: object) -> Any:
        if key in self.obj:
            return self.obj[key]
        if default is None:
            raise ResumeError(f"{self.where(key)}: missing")
        return default


def whole(v: object, where: str) -> int:
    if type(v) is not int:
        raise ResumeError(f"{where}: not a whole number")
    return v


def opt_whole(v: object, where: str) -> int | None:
    return None if v is None else whole(v, where)


def number(v: object, where: str) -> float:
    if type(v) is not int and type(v) is not float:
        raise ResumeError(f"{where}: not a number")
    return float(v)


def seat_key(key: object, where: str) -> int:
    if not isinstance(key, str) or not key.isdecimal():
        raise ResumeError(f"{where}: {key!r} is not a seat number")
    return int(key)


def seats_of(values: object, where: str) -> list[int]:
    if type(values) is not list:
        raise ResumeError(f"{where}: not a list of seats")
    return [whole(v, f"{where}[{i}]") for i, v in enumerate(values)]


# --- cards --------------------------------------------------------------------------------------


def card(raw: object, where: str) -> Card:
    if type(raw) is not str:
        raise ResumeError(f"{where}: not a card")
    try:
        found = Card.parse(raw)
    except CardError as exc:
        raise ResumeError(f"{where}: {exc}") from None
    if found.code != raw:
        raise ResumeError(f"{where}: {raw!r} is not a card's code")
    return found


def cards(raw: object, where: str) -> list[Card]:
    if type(raw) is not list:
        raise ResumeError(f"{where}: not a list of cards")
    return [card(c, f"{where}[{i}]") for i, c in enumerate(raw)]


def codes(cs: list[Card] | tuple[Card, ...]) -> list[str]:
    return [c.code for c in cs]


# --- the setup ----------------------------------------------------------------------------------


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
    name = f.text("profile", "RR11")
    if name not in PROFILES:
        raise ResumeError(f"{f.where('profile')}: unknown profile {name!r}")
    rules = f.raw("rules", {})
    if not isinstance(rules, dict):
        raise ResumeError(f"{f.where('rules')}: not an object of rule switches")
    try:
        PROFILES[name].with_overrides(rules)
    except ValueError as exc:
        raise ResumeError(f"{f.where('rules')}: {exc}") from None
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


# --- decisions (the public forms of `station replay --json`) -------------------------------------


def incident_to_dict(d: Incident) -> dict[str, Any]:
    return {
        "type": "incident",
        "hand": d.hand,
        "rule": d.rule,
        "seat": d.seat,
        "ruling": d.ruling.value,
        "text": d.text,
        "event": d.event,
        "seats": list(d.seats),
        "citation": d.citation,
        "events": list(d.events),
    }


_INCIDENT: Final = frozenset(
    {"type", "hand", "rule", "seat", "ruling", "text", "event", "seats", "citation", "events"}
)


def incident_from_dict(raw: object, where: str) -> Incident:
    f = Fields(raw, where, _INCIDENT)
    if f.raw("type") != "incident":
        raise ResumeError(f"{where}: not an incident")
    try:
        ruling = Ruling(f.text("ruling"))
    except ValueError:
        raise ResumeError(f"{f.where('ruling')}: unknown ruling") from None
    return Incident(
        hand=f.whole("hand"),
        rule=f.text("rule"),
        ruling=ruling,
        text=f.text("text"),
        event=f.whole("event"),
        seat=f.opt_whole("seat"),
        seats=tuple(f.wholes("seats")),
        citation=f.text("citation", ""),
        events=tuple(f.wholes("events")),
    )


def prompt_to_dict(d: Prompt) -> dict[str, Any]:
    return {
        "type": "prompt",
        "hand": d.hand,
        "text": d.text,
        "event": d.event,
        "code": d.code.value,
    }


_PROMPT: Final = frozenset({"type", "hand", "text", "event", "code"})


def prompt_from_dict(raw: object, where: str) -> Prompt:
    f = Fields(raw, where, _PROMPT)
    if f.raw("type") != "prompt":
        raise ResumeError(f"{where}: not a prompt")
    try:
        code = PromptCode(f.text("code", PromptCode.INFO.value))
    except ValueError:
        raise ResumeError(f"{f.where('code')}: unknown prompt code") from None
    return Prompt(f.whole("hand"), f.text("text"), f.whole("event"), code)


def _pot_to_dict(p: PotResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "amount": p.amount,
        "eligible": list(p.eligible),
        "won": {str(s): a for s, a in sorted(p.won.items())},
    }
    if p.named:  # the winning hand as announced; an uncontested pot has none
        out["named"] = p.named
    return out


def _split_to_dict(pot: int, part: PotPart) -> dict[str, Any]:
    out: dict[str, Any] = {
        "pot": pot,
        "part": part.name,
        "amount": part.amount,
        "won": {str(s): a for s, a in sorted(part.won.items())},
    }
    if part.named:
        out["named"] = part.named
    return out


def hand_end_to_dict(d: HandEnd) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "hand_end",
        "hand": d.hand,
        "board": list(d.board),
        "pots": [_pot_to_dict(p) for p in d.pots],
        "payouts": {str(s): a for s, a in sorted(d.payouts.items())},
        "void": d.void,
        "event": d.event,
        "stacks": {str(s): a for s, a in sorted(d.stacks.items())},
    }
    if d.boards:
        out["boards"] = [list(b) for b in d.boards]
    splits = [
        _split_to_dict(i, part) for i, p in enumerate(d.pots) for part in p.parts
    ]  # `station replay --json`'s `splits`, each with its winning hand as announced
    if splits:
        out["splits"] = splits
    if d.shown:
        out["shown"] = {str(s): list(c) for s, c in sorted(d.shown.items())}
    if d.rake is not None:
        r = d.rake
        rake: dict[str, Any] = {"total": r.total, "pots": list(r.pots)}
        if r.time:
            rake["time"] = {str(s): a for s, a in sorted(r.time.items())}
        if r.time_pot:
            rake["time_pot"] = True
        out["rake"] = rake
    if d.carried:
        out["carried"] = d.carried  # a pass-out's antes, for the next deal (JACKS-OR-BETTER)
    if d.eliminated:
        out["eliminated"] = [{"seat": s, "start_stack": c} for s, c in d.eliminated]
    return out


_HAND_END: Final = frozenset(
    {
        "type",
        "hand",
        "board",
        "pots",
        "payouts",
        "void",
        "event",
        "stacks",
        "boards",
        "splits",
        "shown",
        "rake",
        "carried",
        "eliminated",
    }
)
_SPLIT: Final = frozenset({"pot", "part", "amount", "won", "named"})
_ELIMINATED: Final = frozenset({"seat", "start_stack"})
_POT: Final = frozenset({"amount", "eligible", "won", "named"})
_RAKE: Final = frozenset({"total", "pots", "time", "time_pot"})


def _texts(raw: object, where: str) -> tuple[str, ...]:
    if type(raw) is not list or any(type(c) is not str for c in raw):
        raise ResumeError(f"{where}: not a list of card codes")
    return tuple(raw)


def _amounts(f: Fields, key: str) -> dict[int, int]:
    return {s: whole(v, f"{f.where(key)}.{s}") for s, v in f.seat_map(key).items()}


def hand_end_from_dict(raw: object, where: str) -> HandEnd:
    f = Fields(raw, where, _HAND_END)
    if f.raw("type") != "hand_end":
        raise ResumeError(f"{where}: not a hand's end")
    raw_pots = f.items("pots")
    parts: list[list[PotPart]] = [[] for _ in raw_pots]
    for i, raw_split in enumerate(f.items("splits")):
        sf = Fields(raw_split, f"{f.where('splits')}[{i}]", _SPLIT)
        pot = sf.whole("pot")
        if not 0 <= pot < len(raw_pots):
            raise ResumeError(f"{sf.where('pot')}: no pot {pot}")
        parts[pot].append(
            PotPart(sf.text("part"), sf.whole("amount"), _amounts(sf, "won"), sf.text("named", ""))
        )
    pots = []
    for i, p in enumerate(raw_pots):
        pf = Fields(p, f"{f.where('pots')}[{i}]", _POT)
        pots.append(
            PotResult(
                pf.whole("amount"),
                tuple(pf.wholes("eligible")),
                _amounts(pf, "won"),
                pf.text("named", ""),
                tuple(parts[i]),
            )
        )
    rake = None
    rf = f.opt_obj("rake", _RAKE)
    if rf is not None:
        rake = RakeResult(
            total=rf.whole("total"),
            pots=tuple(rf.wholes("pots")),
            time=_amounts(rf, "time"),
            time_pot=rf.flag("time_pot"),
        )
    return HandEnd(
        hand=f.whole("hand"),
        event=f.whole("event"),
        board=_texts(f.raw("board", []), f.where("board")),
        pots=tuple(pots),
        payouts=_amounts(f, "payouts"),
        void=f.flag("void"),
        stacks={
            s: opt_whole(v, f"{f.where('stacks')}.{s}") for s, v in f.seat_map("stacks").items()
        },
        boards=tuple(
            _texts(b, f"{f.where('boards')}[{i}]") for i, b in enumerate(f.items("boards"))
        ),
        shown={s: _texts(v, f"{f.where('shown')}.{s}") for s, v in f.seat_map("shown").items()},
        rake=rake,
        carried=f.whole("carried", 0),
        eliminated=tuple(_eliminated(f)),
    )


def _eliminated(f: Fields) -> list[tuple[int, int]]:
    out = []
    for i, raw in enumerate(f.items("eliminated")):
        e = Fields(raw, f"{f.where('eliminated')}[{i}]", _ELIMINATED)
        out.append((e.whole("seat"), e.whole("start_stack")))
    return out


def seat_dict(values: Mapping[int, Any]) -> dict[str, Any]:
    """seat -> value as a JSON object (keys in seat order)."""
    return {str(s): v for s, v in sorted(values.items())}
