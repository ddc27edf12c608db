"""CSV cells a spreadsheet would run as a formula are written as text (issue 31): `=`, `+`,
`-`, `@`, a tab or a carriage return first gets a leading `'`; numbers, a lone `-` and other
text stay as they are."""

from __future__ import annotations

import pytest

from station.formats.cells import safe_cell, safe_row


@pytest.mark.parametrize(
    ("given", "written"),
    [
        ('=HYPERLINK("http://x","CAM 4")', '\'=HYPERLINK("http://x","CAM 4")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-5", "-5"),
        ("+12.5", "+12.5"),
        ("-", "-"),
        ("CAM 3", "CAM 3"),
        ("", ""),
        (7, 7),
        (None, None),
    ],
)
def test_a_formula_is_written_as_text(given: object, written: object) -> None:
    assert safe_cell(given) == written


def test_a_row_keeps_its_keys() -> None:
    assert safe_row({"camera": "=1+1", "hand": 3}) == {"camera": "'=1+1", "hand": 3}
