#!/usr/bin/env python3
"""Generate station/engine/rulebook_data.py from docs/RULES-CATALOG.md.

The catalog is the product owner's specification (a snapshot is kept in docs/). This script
extracts, for every rule id, its heading, section, observability label and source citations, so
that incidents can cite the rulebook clause of the active profile. Run it after updating the
catalog snapshot:  .venv/bin/python tools/gen_rulebook.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "docs" / "RULES-CATALOG.md"
OUT = ROOT / "station" / "engine" / "rulebook_data.py"
OUT_TEXT = ROOT / "station" / "engine" / "rulebook_text.py"

ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"
WORD_ID = r"[A-Z]{2,}"  # a heading's one-word rule id ("### RIT — running it twice ...")
LABEL = re.compile(r"\b(OBS\+D|OBS\+F|OBS|D/OBS|D/F|N/F|N/D|D|F|N)\b")


SOURCE = re.compile(r"\b(000-USPA|001-RR11|002-RRPG|003-RR5|003-HPT|004-GN|001-PN)\b")


def _label(block: str) -> str:
    """The observability label of a rule block ('' when it states none)."""
    flat = " ".join(block.split())
    m = re.search(r"\*\*Observability:\*\*\s*([^.;,(]*)", flat)
    if m:
        found = LABEL.search(m.group(1).replace("*", ""))
        if found:
            return found.group(1)
    inline = re.findall(r"\*\*((?:OBS|D|F|N)[A-Z+/]*)\*\*", flat)
    return inline[-1] if inline and LABEL.fullmatch(inline[-1]) else ""


def _sources(block: str) -> str:
    """The citations of a rule block: its Sources bullet, else every citation it contains."""
    flat = " ".join(block.split())
    m = re.search(r"\*\*Sources:\*\*\s*(.*?)(?=\* \*\*[A-Z][a-z]+[^*]*:\*\*|$)", flat)
    if m and SOURCE.search(m.group(1)):
        return m.group(1).strip().rstrip(".")
    cites = re.findall(
        r"((?:000-USPA|001-RR11|002-RRPG|003-RR5|003-HPT|004-GN|001-PN)[^;()]*)", flat
    )
    return "; ".join(c.strip().rstrip(".,") for c in cites)


def _bullets(lines: list[str]) -> dict[str, str]:
    """The block's top-level bullets by their bold label (`* **Ruling:** ...` -> "Ruling"),
    continuation lines joined, markdown emphasis dropped."""
    out: dict[str, str] = {}
    label = ""
    for raw in lines:
        m = re.match(r"^\* \*\*([^*:]+?)(?: \([^)]*\))?:\*\*\s*(.*)$", raw)
        if m:
            label = m.group(1).strip()
            out[label] = m.group(2)
        elif label and raw.startswith("  ") and raw.strip():
            out[label] += " " + raw.strip()
        elif not raw.strip() or raw.startswith("#"):
            label = ""
    return {k: " ".join(v.replace("**", "").split()) for k, v in out.items()}


def rule_text(rid: str, lines: list[str]) -> tuple[str, str]:
    """(condition, ruling) of a rule's catalog entry; a sub-rule line's own text as the
    ruling."""
    found = _bullets(lines)
    if rid in found:
        return "", found[rid]
    return found.get("Condition", ""), found.get("Ruling", "")


def parse(text: str) -> list[dict[str, str]]:
    """Every rule id with its heading, section, label and sources (Part A only)."""
    body = text.split("# PART B", maxsplit=1)[0]
    rules: list[dict[str, str]] = []
    section = ""
    blocks: list[tuple[list[str], str, str, list[str]]] = []  # (ids, title, section, lines)
    for raw in body.splitlines():
        line = raw.rstrip()
        if line.startswith("## "):
            section = line[3:].strip()
            blocks.append(([], "", section, []))
            continue
        if line.startswith("### "):
            heading = line[4:].strip()
            head = heading.split(" — ")[0]
            ids = re.findall(ID, head) if " and " in head else re.findall(ID, head)[:1]
            if not ids and re.fullmatch(WORD_ID, head):
                ids = [head]  # one word ("RIT"): a rule if its block has a label (below)
            blocks.append((ids, heading, section, []))
            continue
        sub = re.match(rf"^\* \*\*({ID})(?: \([^)]*\))?:\*\* ", line)
        if sub and blocks and blocks[-1][1] and sub.group(1) not in blocks[-1][0]:
            blocks.append(([sub.group(1)], sub.group(1), section, [line]))
            continue
        if blocks:
            blocks[-1][3].append(line)
    for ids, title, sect, lines in blocks:
        block = "\n".join(lines)
        if ids and "-" not in ids[0] and not _label(block):
            continue  # a one-word heading over rules of its own ("TOURN"), not a rule
        for rid in ids:
            condition, ruling = rule_text(rid, lines)
            rules.append(
                {
                    "id": rid,
                    "condition": condition,
                    "ruling": ruling,
                    "title": title,
                    "section": sect,
                    "label": _label(block),
                    "sources": _sources(block),
                }
            )
    return rules


# Rules whose catalog entry points at another rule's sources ("same as", "see", "as above").
SOURCES_FROM = {
    "MISDEAL-AFTER-CUTOFF": "MISDEAL-CUTOFF-BUTTON",
    "DECK-BOXED-LATE": "DECK-BOXED-SINGLE",
    "DECK-BOXED-MULTIPLE": "MISDEAL-TWO-BOXED-CARDS",
    "EXPOSE-HOLDEM-MULTIPLE": "MISDEAL-TWO-CARDS-EXPOSED",
    "DEAD-JOKER-ACTED-ON": "DECK-JOKER-NOT-IN-USE",
    "DEAD-MISSED-BLIND-LOOKED": "BLIND-MISSED",
    "LOWBALL-RAISE-CAP": "BET-CAP-LIMIT",
    "TOURN-BUTTON": "BUTTON-HEADS-UP",
}
# Catalog entries that cite their sources without the source tags.
SOURCES_TEXT = {
    "BURN-ERROR-ANY-STREET": '001-RR11 §3 "Irregularities" r16, §5 r6; 003-RR5 §5 r7; '
    '003-HPT "Poker Dealer Errors"; 004-GN §VI r121, §VII r164',
    "DRAW-BURN": "001-RR11 §11 r11, §12 r7 (inferred)",
}


def render(rules: list[dict[str, str]]) -> str:
    lines = [
        '"""Rule ids, titles, observability and citations from the rules catalog. Pure data.',
        "",
        "GENERATED by tools/gen_rulebook.py from docs/RULES-CATALOG.md: do not edit by hand.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "# id -> (title, section, observability label, sources text)",
        "RULES: Final[dict[str, tuple[str, str, str, str]]] = {",
    ]
    seen: set[str] = set()
    for r in rules:
        if r["id"] in seen:
            continue
        seen.add(r["id"])
        fields = ", ".join(repr(r[k]) for k in ("title", "section", "label", "sources"))
        lines.append(f"    {r['id']!r}: ({fields}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_text(rules: list[dict[str, str]]) -> str:
    lines = [
        '"""The rules catalog\'s own words for each rule: its condition and ruling, as the floor',
        "console shows them beside an incident. Pure data.",
        "",
        "GENERATED by tools/gen_rulebook.py from docs/RULES-CATALOG.md: do not edit by hand.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "# id -> (condition, ruling); either may be empty",
        "RULE_TEXT: Final[dict[str, tuple[str, str]]] = {",
    ]
    seen: set[str] = set()
    for r in rules:
        if r["id"] in seen or not (r["condition"] or r["ruling"]):
            continue
        seen.add(r["id"])
        lines.append(f"    {r['id']!r}: ({r['condition']!r}, {r['ruling']!r}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    rules = parse(CATALOG.read_text(encoding="utf-8"))
    by_id = {r["id"]: r for r in rules}
    for rid, other in SOURCES_FROM.items():
        if rid in by_id and not by_id[rid]["sources"]:
            by_id[rid]["sources"] = by_id[other]["sources"]
    for rid, text in SOURCES_TEXT.items():
        if rid in by_id:
            by_id[rid]["sources"] = text
    OUT.write_text(render(rules), encoding="utf-8")
    OUT_TEXT.write_text(render_text(rules), encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len({r['id'] for r in rules})} rules", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
