"""The row hash: `LogRow.fields_json` writes the hashed text out directly (recovery and verify
hash every row); it must be exactly `canonical_json(fields())`, or every journal ever written
would stop verifying."""

from __future__ import annotations

import hashlib

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
