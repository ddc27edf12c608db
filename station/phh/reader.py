"""PHH reader: `.phh` (one hand) and `.phhs` (tables [1], [2], ...) files into `PhhHand`s. Edge
adapter (files).

TOML is read with `tomllib`, floats as exact decimals, so amounts such as 10112.5 stay exact
(`Fraction`). Unknown optional fields and comments are ignored. Every problem raises `PhhError`
whose text is `FILE: problem`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from station.engine.games import Family, Structure, game_spec
from station.phh.actions import Action, ActionError, parse_action

# PHH variant code -> our game name (station.engine.games).
VARIANT_GAMES: Final = {
    "NT": "nlhe",
    "NS": "sdhe",
    "PO": "plo",
    "FT": "flhe",
    "FO/8": "flo8",
    "F7S": "stud",
    "F7S/8": "stud8",
    "FR": "razz",
    "N2L1D": "27sd",
    "F2L3D": "27td",
    "FB": "badugi",
}
PHH_SUFFIXES: Final = (".phh", ".phhs")


class PhhError(ValueError):
    """A PHH file that cannot be read or makes no sense; the text is `FILE: problem`."""


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One hand history, amounts exact. `None` stacks are infinite (`inf` in the file)."""

    source: str  # the file, with "[key]" for a table of a .phhs bundle
    name: str  # relative name: the output path (without suffix) and the seed of the deal
    variant: str
    game: str
    antes: tuple[Fraction, ...]
    blinds: tuple[Fraction, ...]  # blinds_or_straddles, all zero in stud games
    bring_in: Fraction | None
    small_bet: Fraction | None
    big_bet: Fraction | None
    min_bet: Fraction | None
    starting_stacks: tuple[Fraction | None, ...]
    finishing_stacks: tuple[Fraction, ...] | None
    actions: tuple[Action, ...]
    ante_trimming: bool


def find_phh_files(paths: Sequence[str | Path]) -> Iterator[tuple[Path, str]]:
    """(file, relative name) for each PHH file named or found (recursively) under a directory.

    The relative name is the path under the directory given (or the file name), without suffix.
    """
    for raw in paths:
        root = Path(raw)
        if root.is_dir():
            found = sorted(p for p in root.rglob("*") if p.suffix in PHH_SUFFIXES and p.is_file())
            for p in found:
                yield p, p.relative_to(root).with_suffix("").as_posix()
        else:
            yield root, root.with_suffix("").name


def read_phh(path: Path, name: str) -> list[PhhHand]:
    """All hands of one file (one for .phh, one per table for .phhs)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise PhhError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise PhhError(f"{path}: not UTF-8 text ({exc.reason})") from None
    return loads_phh(text, str(path), name, bundle=path.suffix == ".phhs")


def loads_phh(text: str, source: str, name: str, *, bundle: bool = False) -> list[PhhHand]:
    """The hands of PHH text: one, or one per table `[1]`, `[2]`, ... of a bundle (.phhs)."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{source}: not valid TOML: {exc}") from None
    if bundle:
        tables = [(k, v) for k, v in data.items() if isinstance(v, dict)]
        if not tables:
            raise PhhError(f"{source}: a .phhs bundle holds tables [1], [2], ...; found none")
        tables.sort(key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0))
        return [_hand(v, f"{source}[{k}]", f"{name}/{k}") for k, v in tables]
    return [_hand(data, source, name)]


def _hand(data: Mapping[str, Any], source: str, name: str) -> PhhHand:
    try:
        return _parse_hand(data, source, name)
    except (ActionError, _FieldError) as exc:
        raise PhhError(f"{source}: {exc}") from None


class _FieldError(ValueError):
    pass


def _number(value: object, field: str, *, allow_inf: bool = False) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise _FieldError(f"{field}: {value!r} is not a number")
    if isinstance(value, Decimal) and not value.is_finite():
        if allow_inf and value == Decimal("Infinity"):
            return None
        raise _FieldError(f"{field}: {value} is not a finite amount")
    if value < 0:
        raise _FieldError(f"{field}: {value} is negative")
    return Fraction(value)


def _amount(data: Mapping[str, Any], field: str, *, required: bool) -> Fraction | None:
    if field not in data:
        if required:
            raise _FieldError(f"missing field {field!r}")
        return None
    return _number(data[field], field)


def _values(data: Mapping[str, Any], field: str, count: int) -> tuple[Fraction, ...]:
    raw = data.get(field, 0)
    if isinstance(raw, int | Decimal) and not isinstance(raw, bool):
        raw = [raw] * count
    if not isinstance(raw, list):
        raise _FieldError(f"{field}: an array of amounts expected")
    values = [_number(v, field) or Fraction(0) for v in raw]
    if len(values) > count:
        raise _FieldError(f"{field}: {len(values)} values for {count} players")
    return tuple(values + [Fraction(0)] * (count - len(values)))


def _parse_hand(data: Mapping[str, Any], source: str, name: str) -> PhhHand:
    variant = data.get("variant")
    if variant not in VARIANT_GAMES:
        known = ", ".join(VARIANT_GAMES)
        raise _FieldError(f"variant {variant!r} is not supported (known: {known})")
    game = VARIANT_GAMES[variant]
    spec = game_spec(game)
    raw_stacks = data.get("starting_stacks")
    if not isinstance(raw_stacks, list) or len(raw_stacks) < 2:
        raise _FieldError("starting_stacks: an array of at least two stacks expected")
    stacks = tuple(_number(s, "starting_stacks", allow_inf=True) for s in raw_stacks)
    n = len(stacks)
    if n > spec.max_players:
        raise _FieldError(f"{n} players: {spec.title} is played by at most {spec.max_players}")
    if "antes" not in data:
        raise _FieldError("missing field 'antes'")
    stud = spec.family is Family.STUD
    if not stud and "blinds_or_straddles" not in data:
        raise _FieldError("missing field 'blinds_or_straddles'")
    limit = spec.structure is Structure.FIXED_LIMIT
    finishing = None
    if "finishing_stacks" in data:
        fin = _values(data, "finishing_stacks", n)
        if len(data["finishing_stacks"]) != n:
            raise _FieldError("finishing_stacks: one stack per player expected")
        finishing = fin
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise _FieldError("actions: an array of strings expected")
    actions = []
    for text in raw_actions:
        action = parse_action(text)
        if action is None:
            continue
        if action.player is not None and action.player > n:
            raise _FieldError(f"action {text!r}: there are only {n} players")
        actions.append(action)
    trimming = data.get("ante_trimming_status", False)
    return PhhHand(
        source=source,
        name=name,
        variant=str(variant),
        game=game,
        antes=_values(data, "antes", n),
        blinds=_values(data, "blinds_or_straddles", n) if not stud else (Fraction(0),) * n,
        bring_in=_amount(data, "bring_in", required=stud),
        small_bet=_amount(data, "small_bet", required=limit),
        big_bet=_amount(data, "big_bet", required=limit),
        min_bet=_amount(data, "min_bet", required=not limit),
        starting_stacks=stacks,
        finishing_stacks=finishing,
        actions=tuple(actions),
        ante_trimming=bool(trimming),
    )
