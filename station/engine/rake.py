"""The house's take: the rake schedule and the arithmetic of a pot's rake. Pure.

A table may carry a rake schedule (a session's `setup` `"rake"`, the config's `[table.rake]`);
without one nothing is raked and every output stays as it was. MISC-TIME-COLLECTION / RAKE:
004-GN §I r28 "House Rake is 10%, up to $6 maximum unless the game is time raked with the rate
indicated on the placard"; time games collect per seat and half hour instead, paid in advance
(001-RR11 §2 "Procedures" r4, 000-USPA App III §3 r2), or as a GN "time-pot", the whole table's
time taken from the pot of the first hand dealt after the half hour is announced.

The schedule's keys (`schedule_from_dict`, `schedule_to_dict`):

- `percent`: the share of the pot (0-100, at most two decimals); rounded down to whole chips.
- `cap`: the most taken from one hand; `cap_by_players` ({"2": 1, "5": 6}: hands dealt to at
  least that many players) and `cap_by_game` ({"plo": 5}) add caps of their own; every cap that
  applies holds (the smallest wins).
- `min_pot`: a pot smaller than this pays nothing (the pot size where the rake starts).
- `every`: increments; the pot counts in whole steps of this size (`percent` 10, `every` 10 is
  one chip for each full 10 in the pot), so `every` x `percent` must be whole chips.
- `no_flop_no_drop`: a hand that ends before the flop pays nothing (stud and draw games: a hand
  that ends on its first betting round).
- `time`: `{"per_seat": 6, "minutes": 30, "mode": "seat"}` instead of a percentage: `seat`
  collects from each player dealt in, before the first deal and again on the first deal of each
  new period; `pot` (the GN time-pot) takes everyone's time from the pot of that deal (main pot
  first), and what a small pot cannot cover from the next; `flop` (the GN time-flop): the first
  card seen off the next flop names the seat that pays `per_seat` for each player dealt in, from
  his stack when the hand ends (`housekeeping.time_flop` reads the card).

The rake of a hand is figured on the whole pot (every pot layer, after uncalled chips went back)
and taken from the main pot first, then from the side pots in order: the dealer pulls the drop
from the middle as the pot builds, before a later all-in splits side pots off it. What is left of
each pot is then split by the odd-chip rules as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from station.engine.games import GAMES

BASIS = 10_000  # `percent` is held in hundredths of a percent
MAX_SEATS = 10
KEYS = (
    "percent",
    "cap",
    "min_pot",
    "every",
    "no_flop_no_drop",
    "cap_by_players",
    "cap_by_game",
    "time",
)
TIME_KEYS = ("per_seat", "minutes", "mode")


class TimeMode(StrEnum):
    SEAT = "seat"  # each player pays his own time before the deal (RR11 §2 r4)
    POT = "pot"  # GN time-pot: everyone's time comes out of the pot of the deal
    FLOP = "flop"  # GN time-flop: the first flop card names the seat that pays everyone's time


@dataclass(frozen=True, slots=True)
class TimeCollection:
    per_seat: int
    minutes: int = 30
    mode: TimeMode = TimeMode.SEAT


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    basis_points: int = 0  # `percent` x 100
    cap: int | None = None
    min_pot: int = 0
    every: int = 1
    no_flop_no_drop: bool = False
    cap_by_players: tuple[tuple[int, int], ...] = ()  # (at least n players, cap), ascending
    cap_by_game: tuple[tuple[str, int], ...] = ()
    time: TimeCollection | None = None

    def cap_for(self, game: str, players: int) -> int | None:
        """The cap of a hand of `game` dealt to `players`: the smallest that applies."""
        caps = [self.cap] if self.cap is not None else []
        caps += [cap for g, cap in self.cap_by_game if g == game]
        by_players = [cap for n, cap in self.cap_by_players if n <= players]
        if by_players:
            caps.append(by_players[-1])
        return min(caps) if caps else None


@dataclass(frozen=True, slots=True)
class RakeResult:
    """What the house took with one hand: `pots` per pot of the hand (main first), `total`
    their sum; `time` the time collected from seats with it; `time_pot` when the pots' take
    was the table's time (GN time-pot), not a percentage rake."""

    total: int
    pots: tuple[int, ...]
    time: Mapping[int, int] = field(default_factory=dict)
    time_pot: bool = False


class RakeScheduleError(ValueError):
    """A schedule that cannot be used; `key` names the offending key (`rake.cap`)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


# --- arithmetic ---------------------------------------------------------------------------------


def rake_for(schedule: RakeSchedule, pot: int, *, game: str, players: int, flop: bool) -> int:
    """The percentage rake of a hand whose pots hold `pot` chips in all. `flop`: the hand got
    past the flop (or, in games without one, past the first betting round)."""
    if schedule.basis_points == 0 or pot <= 0 or pot < schedule.min_pot:
        return 0
    if schedule.no_flop_no_drop and not flop:
        return 0
    counted = pot // schedule.every * schedule.every
    rake = counted * schedule.basis_points // BASIS
    cap = schedule.cap_for(game, players)
    return min(rake, pot, cap if cap is not None else rake)


def take_from_pots(amounts: Sequence[int], rake: int) -> tuple[int, ...]:
    """How much of `rake` each pot gives: the main pot first, then the side pots in order,
    never more than a pot holds."""
    out: list[int] = []
    left = rake
    for amount in amounts:
        part = min(left, amount)
        out.append(part)
        left -= part
    return tuple(out)


def describe(schedule: RakeSchedule) -> str:
    """One line for people: "rake 10% up to 6 from a pot of 20, no flop no drop"."""
    t = schedule.time
    if t is not None:
        how = {TimeMode.SEAT: "from each seat", TimeMode.POT: "time-pot"}.get(t.mode, "time-flop")
        return f"time {t.per_seat} a seat every {t.minutes} min ({how})"
    whole, part = divmod(schedule.basis_points, 100)
    out = f"rake {whole if part == 0 else schedule.basis_points / 100}%"
    if schedule.every > 1:
        out += f" in steps of {schedule.every}"
    if schedule.cap is not None:
        out += f" up to {schedule.cap}"
    if schedule.cap_by_players:
        out += " (" + ", ".join(f"{c} from {n} players" for n, c in schedule.cap_by_players) + ")"
    if schedule.cap_by_game:
        out += " (" + ", ".join(f"{g} {c}" for g, c in schedule.cap_by_game) + ")"
    if schedule.min_pot:
        out += f" from a pot of {schedule.min_pot}"
    if schedule.no_flop_no_drop:
        out += ", no flop no drop"
    return out


# --- the schedule as data -------------------------------------------------------------------------


def _whole(key: str, value: object, *, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RakeScheduleError(key, f"must be a whole number >= {low}, not {value!r}")
    return value


def _percent(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RakeScheduleError("rake.percent", f"must be a number 0-100, not {value!r}")
    share = Fraction(str(value)) * 100
    if share.denominator != 1 or not 0 <= share <= BASIS:
        raise RakeScheduleError(
            "rake.percent", f"must be 0-100 with at most two decimals, not {value!r}"
        )
    return int(share)


def _caps(key: str, raw: object, names: Sequence[str] | None) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise RakeScheduleError(key, 'must be an object of caps, e.g. {"2": 1, "5": 6}')
    out: dict[str, int] = {}
    for name, cap in raw.items():
        if names is None:
            text = str(name)
            if not (text.isascii() and text.isdecimal()) or not 2 <= int(text) <= MAX_SEATS:
                raise RakeScheduleError(key, f"{name!r} is not a number of players 2-{MAX_SEATS}")
        elif name not in names:
            raise RakeScheduleError(key, f"unknown game {name!r}")
        out[str(name)] = _whole(f"{key}.{name}", cap)
    return out


def _time(raw: object) -> TimeCollection:
    if not isinstance(raw, Mapping):
        raise RakeScheduleError("rake.time", 'must be an object such as {"per_seat": 6}')
    for name in raw:
        if name not in TIME_KEYS:
            raise RakeScheduleError(
                f"rake.time.{name}", f"unknown key (known: {', '.join(TIME_KEYS)})"
            )
    if "per_seat" not in raw:
        raise RakeScheduleError("rake.time.per_seat", "missing: the time each seat pays")
    per_seat = _whole("rake.time.per_seat", raw["per_seat"], low=1)
    minutes = _whole("rake.time.minutes", raw.get("minutes", 30), low=1)
    mode_raw = raw.get("mode", TimeMode.SEAT.value)
    try:
        mode = TimeMode(mode_raw)
    except ValueError:
        known = ", ".join(m.value for m in TimeMode)
        raise RakeScheduleError("rake.time.mode", f"{mode_raw!r} is not {known}") from None
    return TimeCollection(per_seat, minutes, mode)


def schedule_from_dict(raw: object) -> RakeSchedule:
    """A schedule from its JSON/TOML form; raises RakeScheduleError naming the key."""
    if not isinstance(raw, Mapping):
        raise RakeScheduleError("rake", 'must be an object such as {"percent": 10, "cap": 6}')
    for name in raw:
        if name not in KEYS:
            raise RakeScheduleError(f"rake.{name}", f"unknown key (known: {', '.join(KEYS)})")
    time = _time(raw["time"]) if "time" in raw else None
    if time is not None and "percent" in raw:
        raise RakeScheduleError(
            "rake.time", "a game is raked by percent or time-collected, not both (004-GN r28)"
        )
    if time is not None:
        for name in ("cap", "min_pot", "every", "no_flop_no_drop", "cap_by_players", "cap_by_game"):
            if name in raw:
                raise RakeScheduleError(f"rake.{name}", "belongs to a percentage rake, not to time")
    if time is None and "percent" not in raw:
        raise RakeScheduleError("rake.percent", "missing: give a percent, or a time collection")
    basis = _percent(raw["percent"]) if "percent" in raw else 0
    cap = _whole("rake.cap", raw["cap"]) if raw.get("cap") is not None else None
    every = _whole("rake.every", raw.get("every", 1), low=1)
    if every > 1 and every * basis % BASIS:
        raise RakeScheduleError(
            "rake.every", f"{every} at {raw.get('percent')}% is not a whole chip per step"
        )
    flag = raw.get("no_flop_no_drop", False)
    if not isinstance(flag, bool):
        raise RakeScheduleError("rake.no_flop_no_drop", f"must be true or false, not {flag!r}")
    by_players = _caps("rake.cap_by_players", raw.get("cap_by_players", {}), None)
    by_game = _caps("rake.cap_by_game", raw.get("cap_by_game", {}), list(GAMES))
    return RakeSchedule(
        basis_points=basis,
        cap=cap,
        min_pot=_whole("rake.min_pot", raw.get("min_pot", 0)),
        every=every,
        no_flop_no_drop=flag,
        cap_by_players=tuple(sorted((int(n), c) for n, c in by_players.items())),
        cap_by_game=tuple(sorted(by_game.items())),
        time=time,
    )


def schedule_to_dict(schedule: RakeSchedule) -> dict[str, object]:
    """The schedule's canonical JSON form (what the journal keeps); reads back the same."""
    out: dict[str, object] = {}
    if schedule.time is None:
        whole, part = divmod(schedule.basis_points, 100)
        out["percent"] = whole if part == 0 else schedule.basis_points / 100
    if schedule.cap is not None:
        out["cap"] = schedule.cap
    if schedule.min_pot:
        out["min_pot"] = schedule.min_pot
    if schedule.every != 1:
        out["every"] = schedule.every
    if schedule.no_flop_no_drop:
        out["no_flop_no_drop"] = True
    if schedule.cap_by_players:
        out["cap_by_players"] = {str(n): c for n, c in schedule.cap_by_players}
    if schedule.cap_by_game:
        out["cap_by_game"] = dict(schedule.cap_by_game)
    if schedule.time is not None:
        t = schedule.time
        out["time"] = {"per_seat": t.per_seat, "minutes": t.minutes, "mode": t.mode.value}
    return out
