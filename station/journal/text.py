"""Free text people type into the journal (rulings, notes, camera ids): cleaned on input. Pure.

What a floor supervisor types ends up in the record a regulator reads and on terminals that
print it (`station incidents show`). So text is taken as plain, printable Unicode: terminal
escape sequences (ANSI CSI and OSC, which could recolour or rewrite what the next reader sees)
are removed whole, other control characters and the bidirectional overrides (which could make
text read differently from how it is stored) are removed, line breaks and tabs become spaces.
Bytes that are not UTF-8 (a command line given `$'\\xff'`) are refused, not guessed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MAX_TEXT: Final = 2000
_ESCAPES: Final = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erase
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window titles, hyperlinks
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|\x1b[@-_]?"  # any other escape
)
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


class TextError(ValueError):
    """The text cannot be taken as it is (not UTF-8, too long)."""


def clean_text(text: str, what: str = "text") -> str:
    """`text` as it may be journaled: printable, one line, stripped. Raises TextError."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise TextError(f"{what} is not UTF-8 text")
    text = _ESCAPES.sub("", text)
    out = []
    for ch in text:
        if ch in "\t\n\r\v\f":
            out.append(" ")
        elif ch in _BIDI or unicodedata.category(ch) == "Cc":
            continue
        else:
            out.append(ch)
    cleaned = " ".join("".join(out).split())
    if len(cleaned) > MAX_TEXT:
        raise TextError(f"{what} is longer than {MAX_TEXT} characters")
    return cleaned
