"""CSV cells a spreadsheet will not run: a text cell starting with `=`, `+`, `-`, `@`, a tab or
a carriage return is a formula to Excel and LibreOffice (`=HYPERLINK(...)` typed into a camera
field would be a live link in the floor's export), so it is written with a leading `'`, which
the spreadsheet shows as text and does not display. Numbers stay numbers (`-5`), and so does a
lone `-` (nobody). Pure."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
_NUMBER: Final = re.compile(r"^[+-]?[0-9]+(\.[0-9]+)?$")


def safe_cell(value: object) -> object:
    """`value` as a CSV cell that cannot be a formula (text only; other values unchanged)."""
    if (
        isinstance(value, str)
        and len(value) > 1  # a lone "-" (nobody) is no formula
        and value.startswith(FORMULA_START)
        and not _NUMBER.match(value)
    ):
        return "'" + value
    return value


def safe_row(row: Mapping[str, object]) -> dict[str, object]:
    return {k: safe_cell(v) for k, v in row.items()}
