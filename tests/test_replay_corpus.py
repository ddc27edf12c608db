"""The replay corpus (tests/corpus): every rule scenario, every PHH sample hand and 600 real hands
with a dealer's mistakes replay byte-identically to their recording, table snapshots included.

`station replay --json --trace` output is a public contract (docs/session-format.md); this is what
lets the engine's structure change safely. A failure names the session and its first differing
line; `python -m tests.corpus.corpus check` prints the same, `record` re-records after a
deliberate change (say why in the commit).
"""

from __future__ import annotations

import pytest

from tests.corpus.corpus import PARTS, compare, read_part


@pytest.mark.parametrize("part", PARTS)
def test_every_recorded_session_replays_byte_identically(part: str) -> None:
    assert read_part(part), f"the {part} corpus is empty"
    problems = compare(part)
    assert not problems, f"{len(problems)} sessions differ; first:\n" + "\n".join(problems[:5])
