"""The deck registry file: the enrolled physical decks, each an id, a back colour and its RFID
tags. Reader, validator and writer. Edge adapter (files); the parsing itself is pure.

```toml
[[deck]]
id = "blue-1"          # unique; letters, digits, '-', '_'
back = "blue"          # the back colour (a card of another back voids a hand)
[deck.tags]            # tag (hex UID, 4-10 bytes, ':' allowed) -> card ("Ah", "Td", "JOKER")
"04A1B2C3D4E5F6" = "Ah"
"04A1B2C3D4E5F7" = "Kd"

[[deck]]
id = "red-1"
back = "red"
emulated = true        # tags derived from the id, as the emulated shoe's decks have them
jokers = 2             # emulated decks only: how many jokers (default 2)
```

Without a registry file the station uses the embedded one (`default_registry()`: two emulated
decks, `blue-1` and `red-1`). A card appears at most once in a deck (jokers aside) and a tag
in at most one deck.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

from station.config.checks import Problem
from station.config.schema import Problems, Section
from station.engine.cards import (
    Card,
    CardError,
    DeckRegistry,
    RegisteredDeck,
    normalise_tag,
    synthetic_deck,
)

DECK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
TAG_HEX = re.compile(r"^(?:[0-9A-F]{2}){4,10}$")


class RegistryError(ValueError):
    """The registry file is not valid; `problems` holds every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def parse_registry(text: str, source: str) -> DeckRegistry:
    problems = Problems(source)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError([Problem(source, "toml", str(exc))]) from None
    top = Section(doc, "", problems)
    decks_raw = top.raw("deck")
    top.done()
    decks: list[RegisteredDeck] = []
    if not isinstance(decks_raw, list) or not decks_raw:
        problems.add("deck", "the registry needs at least one [[deck]]")
        raise RegistryError(problems.items)
    seen_ids: set[str] = set()
    for i, entry in enumerate(decks_raw):
        key = f"deck[{i + 1}]"
        if not isinstance(entry, dict):
            problems.add(key, "must be a table")
            continue
        deck = _deck(Section(entry, key, problems), seen_ids)
        if deck is not None:
            decks.append(deck)
    if not problems:
        try:
            return DeckRegistry(tuple(decks))
        except ValueError as exc:  # a tag enrolled in two decks
            problems.add("deck", str(exc))
    raise RegistryError(problems.items)


def _deck(sec: Section, seen_ids: set[str]) -> RegisteredDeck | None:
    deck_id = sec.text("id", required=True)
    back = sec.text("back", required=True)
    emulated = sec.flag("emulated", False)
    jokers = sec.integer("jokers", low=0, high=4) if emulated else None
    tags_sec = sec.table("tags", required=not emulated)
    if emulated and tags_sec is not None:
        sec.bad("tags", "an emulated deck derives its tags from its id: remove the tags")
    if deck_id is not None:
        if not DECK_ID.match(deck_id):
            sec.bad("id", f"{deck_id!r}: letters, digits, '-' and '_' only (up to 32)")
        elif deck_id in seen_ids:
            sec.bad("id", f"deck {deck_id!r} is listed twice")
        seen_ids.add(deck_id)
    if deck_id is None or back is None:
        sec.done()
        return None
    if emulated:
        sec.done()
        return synthetic_deck(deck_id, back, jokers=2 if jokers is None else jokers)
    tags: dict[str, Card] = {}
    if tags_sec is not None:
        tags = _tags(tags_sec)
    sec.done()
    return RegisteredDeck(deck_id, back, tags)


def _tags(sec: Section) -> dict[str, Card]:
    out: dict[str, Card] = {}
    owner: dict[Card, str] = {}
    for raw_tag in list(sec.doc):
        value = sec.raw(raw_tag)
        tag = normalise_tag(raw_tag)
        if not TAG_HEX.match(tag):
            sec.bad(raw_tag, "not a tag id (4 to 10 bytes of hex, e.g. 04A1B2C3D4E5F6)")
            continue
        if not isinstance(value, str):
            sec.bad(raw_tag, f"must name a card such as 'Ah', not {value!r}")
            continue
        try:
            card = Card.parse(value)
        except CardError as exc:
            sec.bad(raw_tag, str(exc))
            continue
        if tag in out:
            sec.bad(raw_tag, f"tag {tag} is listed twice")
            continue
        if card in owner and not card.is_joker:
            sec.bad(raw_tag, f"{card.code} is already the card of tag {owner[card]}")
            continue
        owner[card] = tag
        out[tag] = card
    if not out and not sec.problems.items:
        sec.problems.add(sec.prefix, "a deck needs at least one tag")
    sec.done()
    return out


def load_registry(path: str | Path) -> DeckRegistry:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RegistryError([Problem(str(p), "file", "not UTF-8 text")]) from None
    except OSError as exc:
        raise RegistryError([Problem(str(p), "file", f"cannot read: {exc.strerror}")]) from None
    return parse_registry(text, str(p))


def format_deck(deck_id: str, back: str, tags: Mapping[str, str]) -> str:
    """One `[[deck]]` in the file's format (what deck enrolment saves)."""
    lines = ["[[deck]]", f'id = "{deck_id}"', f'back = "{back}"', "[deck.tags]"]
    lines += [f'"{normalise_tag(tag)}" = "{code}"' for tag, code in tags.items()]
    return "\n".join(lines) + "\n"


def save_deck(path: Path, deck_id: str, back: str, tags: Mapping[str, str]) -> DeckRegistry:
    """Put one enrolled deck into the registry file at `path` (a new file when there is none):
    a deck with the same id is replaced, the others kept as written. The result is validated
    before it replaces the file (atomically: a temporary file renamed over it, the previous
    version kept as `FILE.bak`), so the station never reads a half-written or invalid registry.
    Raise RegistryError (the file untouched) when the merged registry is not valid."""
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    kept = _without_deck(old, deck_id)
    text = (kept.rstrip() + "\n\n" if kept.strip() else "") + format_deck(deck_id, back, tags)
    registry = parse_registry(text, str(path))  # raises RegistryError: nothing written
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    with tmp.open("rb") as f:
        os.fsync(f.fileno())
    if old:
        path.with_name(path.name + ".bak").write_text(old, encoding="utf-8")
    os.replace(tmp, path)
    return registry


def _without_deck(text: str, deck_id: str) -> str:
    """The registry text without the `[[deck]]` block whose id is `deck_id` (blocks run from
    one `[[deck]]` line to the next)."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip() == "[[deck]]":
            blocks.append([])
        blocks[-1].append(line)
    kept = [b for b in blocks if not _names(b, deck_id)]
    return "\n".join(line for b in kept for line in b)


def _names(block: list[str], deck_id: str) -> bool:
    if not block or block[0].strip() != "[[deck]]":
        return False
    try:
        doc = tomllib.loads("\n".join(block))
    except tomllib.TOMLDecodeError:
        return False
    decks = doc.get("deck")
    return isinstance(decks, list) and bool(decks) and decks[0].get("id") == deck_id


def describe(registry: DeckRegistry) -> str:
    decks = ", ".join(f"{d.deck_id} ({d.back})" for d in registry.decks)
    return f"{len(registry.decks)} deck(s): {decks}; {len(registry)} tags"
