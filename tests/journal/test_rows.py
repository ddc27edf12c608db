"""The row hash: `LogRow.fields_json` writes the hashed text out directly (recovery and verify
hash every row); it must be exactly `canonical_json(fields())`, or every journal ever written
would stop verifying."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from station.journal.rows import LogRow, canonical_json

TEXT = st.text(st.characters(codec="utf-8"), max_size=40)  # quotes, controls, emoji, U+2028
INTS = st.integers(min_value=-(2**63), max_value=2**63 - 1)


ROWS = st.builds(
    LogRow,
    seq=INTS,
    station_id=TEXT,
    boot_id=TEXT,
    recorded_utc=TEXT,
    recorded_at_ns=INTS,
    clock_ok=st.booleans(),
    hand=INTS,
    code=TEXT,
    actor=TEXT,
    role=TEXT,
    ref=st.none() | INTS,
    payload=TEXT | st.dictionaries(TEXT, TEXT | INTS, max_size=4).map(canonical_json),
    prev_hash=TEXT,
    hash=st.just(""),
)


@given(ROWS)
def test_fields_json_is_the_canonical_json_of_the_fields(row: LogRow) -> None:
    slow = canonical_json(row.fields())
    assert row.fields_json() == slow
    want = hashlib.sha256((row.prev_hash + slow).encode("utf-8")).hexdigest()
    assert row.computed_hash() == want


@given(ROWS)
def test_a_stored_row_reads_back_as_the_row_that_was_written(row: LogRow) -> None:
    """`from_tuple` takes a row with the schema's types as it is (its fast path): the same
    values, `clock_ok` a bool again (SQLite stores 0 or 1)."""
    stored = row.as_tuple()
    back = LogRow.from_tuple(stored)
    assert back == row
    assert type(back.clock_ok) is bool and type(back) is LogRow


def test_a_row_with_values_of_other_types_is_converted_or_refused() -> None:
    """SQLite stores what it is given whatever a column's type: a number written as text is read
    as the number (the hash decides whether the row is intact), a value that is no number is an
    unreadable row (TypeError or ValueError), never a row that holds a string as its hand."""
    good = (7, "st", "b", "2026-11-26T00:00:00Z", 5, 1, 3, "input.draw", "a", "device", None)
    tail = ('{"type":"end"}', "0" * 64, "1" * 64)
    as_text = LogRow.from_tuple((*good[:6], "3", *good[7:], *tail))
    assert as_text.hand == 3 and type(as_text.hand) is int
    assert as_text == LogRow.from_tuple((*good, *tail))
    with pytest.raises(ValueError, match="invalid literal"):
        LogRow.from_tuple((*good[:6], "three", *good[7:], *tail))
