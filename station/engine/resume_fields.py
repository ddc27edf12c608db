"""The strict reader of a resume document's JSON objects (`Fields`, `ResumeError`) and its
plain values: whole numbers, numbers, seat numbers and seat maps, cards. Pure.

Reading is strict: a field of the wrong type, an unknown field or a value the engine does not
know raises `ResumeError` naming where it is (`last_hand.seats.3.stack: ...`); a missing field
takes its default, so a document written before a field existed still reads. The document itself
is `station.engine.resume` (writing) and `station.engine.resume_read` (reading).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from station.engine.cards import Card, CardError
from station.engine.profiles import PROFILES, Profile


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


def seat_dict(values: Mapping[int, Any]) -> dict[str, Any]:
    """seat -> value as a JSON object (keys in seat order)."""
    return {str(s): v for s, v in sorted(values.items())}


def profile_of(f: Fields, default: str | None = None) -> tuple[str, dict[str, Any], Profile]:
    """The document's `profile` (its name), `rules` (the switches it overrides) and the
    profile they make, each refused as the reader refuses: an unknown name, rules that are no
    object of switches, or a switch the profile does not have."""
    name = f.text("profile", default)
    if name not in PROFILES:
        raise ResumeError(f"{f.where('profile')}: unknown profile {name!r}")
    rules = f.raw("rules", {})
    if not isinstance(rules, dict):
        raise ResumeError(f"{f.where('rules')}: not an object of rule switches")
    try:
        return name, rules, PROFILES[name].with_overrides(rules)
    except ValueError as exc:
        raise ResumeError(f"{f.where('rules')}: {exc}") from None
