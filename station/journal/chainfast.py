"""The chain walk's inner loop: rows as SQLite returns them checked against the hash chain. Pure
(an iterator of tuples in, a verdict out; hashlib and the JSON quoting are C code).

Each row's hash must be SHA-256 over the hash before it and the row's canonical text
(`rows.LogRow.fields_json`), written here straight from the tuple with the same quoting
(`json.encoder.encode_basestring`); its seq must follow, its `prev_hash` must be the hash before
and its station this station. Only a row whose every value has exactly the type the schema
stores is taken (`clock_ok` is read by its truth, as `LogRow.from_tuple` does); any other row, or
one that does not check out, is handed back unjudged for the slow way (`chainwalk`), so this loop
never accepts a row the slow way refuses, nor refuses one: it only ever declines to judge.

Compiled with mypyc with the rules engine where the build is current (`station.native`), else
run as it is; both are the same program (tests/journal/test_chainwalk.py runs both). Compiled,
the walk takes 3.3 us per row against 3.7 as Python (`station bench history`): the values that
repeat from row to row (boot_id, actor, role, recorded_utc, hand, recorded_at_ns) are quoted or
formatted again only when they change, the codes once each, and the text is joined without the
interpreter. Run as Python, those caches cost what they save. What is left is C: SQLite and the
sqlite3 module reading 14 columns (1.6 us), SHA-256 (0.5 us), the payload's quoting.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from json.encoder import encode_basestring
from typing import Any, TypeAlias

Verdict: TypeAlias = tuple[int, int, str, tuple[Any, ...] | None]


def check_rows(
    rows: Iterator[tuple[Any, ...]], station_id: str, expected: int, prev_hash: str, limit: int
) -> Verdict:
    """Check up to `limit` rows (seq, station_id, ... `rows.COLUMNS` in order) that follow the
    row `expected - 1` with hash `prev_hash`. Returns (rows taken, the next expected seq, the last
    accepted hash, the row it stopped at or None): that row is taken but not judged."""
    sha = hashlib.sha256
    quote = encode_basestring
    quoted_station = quote(station_id)
    codes: dict[str, str] = {}
    boot_s, boot_q, actor_s, actor_q, role_s, role_q = "", '""', "", '""', "", '""'
    utc_s, utc_q, hand_i, hand_s, at_i, at_s = "", '""', 0, "0", 0, "0"
    taken = 0
    for t in rows:
        taken += 1
        seq, prev = t[0], t[12]
        if not (type(seq) is int and seq == expected and type(prev) is str and prev == prev_hash):
            return taken, expected, prev_hash, t
        boot, at_ns, hand, code, actor, role, ref = t[2], t[4], t[6], t[7], t[8], t[9], t[10]
        utc, payload = t[3], t[11]
        if not (
            t[1] == station_id
            and type(at_ns) is int
            and type(hand) is int
            and (ref is None or type(ref) is int)
            and type(utc) is str
            and type(payload) is str
            and type(code) is str
            and type(boot) is str
            and type(actor) is str
            and type(role) is str
        ):
            return taken, expected, prev_hash, t
        if boot != boot_s:
            boot_s, boot_q = boot, quote(boot)
        if actor != actor_s:
            actor_s, actor_q = actor, quote(actor)
        if role != role_s:
            role_s, role_q = role, quote(role)
        if utc != utc_s:
            utc_s, utc_q = utc, quote(utc)
        if hand != hand_i:
            hand_i, hand_s = hand, str(hand)
        if at_ns != at_i:
            at_i, at_s = at_ns, str(at_ns)
        code_q = codes.get(code)
        if code_q is None:
            code_q = codes[code] = quote(code)
        ref_s = "null" if ref is None else str(ref)
        text = (
            f'{prev}{{"actor":{actor_q},"boot_id":{boot_q},'
            f'"clock_ok":{"true" if t[5] else "false"},"code":{code_q},'
            f'"hand":{hand_s},"payload":{quote(payload)},"recorded_at_ns":{at_s},'
            f'"recorded_utc":{utc_q},"ref":{ref_s},"role":{role_q},"seq":{seq},'
            f'"station_id":{quoted_station}}}'
        )
        digest = t[13]
        if sha(text.encode()).hexdigest() != digest:
            return taken, expected, prev_hash, t
        expected, prev_hash = seq + 1, digest
        if taken == limit:
            break
    return taken, expected, prev_hash, None
