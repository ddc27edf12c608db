"""`station bench tamper`: every kind of tampering and loss it tries is detected, both by
`journal verify` and by a station starting on the files; what is beyond a local check is
reported apart, with what closes it (a head known off the station)."""

from __future__ import annotations

import json

import pytest

from station.bench.tamper import COPY_CASES
from station.cli import main


@pytest.mark.timeout(600)
def test_bench_tamper_detects_every_case_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "tamper", "--hands", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    figures = json.loads(out[0])
    assert figures["bench"] == "tamper"
    assert figures["cases"] == len(COPY_CASES) + 2  # and the two made by a killed process
    assert figures["missed_cases"] == []
    assert figures["detected"] == figures["cases"]
    assert figures["detected_by_verify"] == figures["detected_at_start"] == figures["cases"]
    assert figures["ok"] is True
    beyond = figures["out_of_reach"]["rewrite journal and witness together"]
    assert beyond == {"detected_locally": False, "detected_with_central_head": True}
    # The second round (issue 27): every writing command at the journal's files, second names
    # for a journal, a second demo, a full disk at the start and mid-hand, forged link frames.
    second = figures["hardening"]
    assert second["lost"] == 0 and second["missed_cases"] == []
    assert second["refused_or_detected"] == second["cases"]
    sections = second["by_section"]
    assert sections["overwrite"] >= 70 and sections["names"] == 4 and sections["link"] == 5
    if not second["not_run"]:  # a small file system needs root (CI runs as root)
        assert sections["full disk"] == 2
    assert figures["hardening_missed"] == figures["hardening_lost"] == 0


def test_the_cases_cover_what_the_issue_names() -> None:
    """Each row edit kind (every column, re-hash, delete, move), truncation, a recomputed chain,
    an older copy restored, and (made by a real process) the WAL deleted after kill -9."""
    names = set(COPY_CASES)
    columns = {n.removeprefix("edit ") for n in names if n.startswith("edit ") and " " not in n[5:]}
    assert columns >= {"payload", "hash", "prev_hash", "actor", "code", "hand", "recorded_utc"}
    for wanted in (
        "edit a row and recompute its hash",
        "delete a row",
        "swap two rows",
        "truncate (anchor left)",
        "truncate and rewrite the anchor",
        "recompute the chain on the same file",
        "restore an older copy",
    ):
        assert wanted in names
