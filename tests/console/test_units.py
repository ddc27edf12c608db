"""The console's pure parts: what it stores of the station's folds comes back equal; passwords
hash and check; the colours of every text/background pair have a contrast of at least 7:1; the
`[console]` section of central.toml loads and says what is wrong."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from station.central.console.passwords import (
    WeakPasswordError,
    check_policy,
    hash_password,
    password_matches,
)
from station.central.console.records import (
    fold_from_json,
    fold_to_json,
    ops_from_json,
    ops_to_json,
    record_from_json,
    record_to_json,
    severity,
)
from station.incidents.records import FOLD_CODES, IncidentFold, fold_incidents
from station.incidents.workflow import incidents as station_incidents
from station.journal.ops import OpsTracker
from station.journal.rows import LogRow
from station.journal.store import Journal
from tests.console.fleet import PINS, TABLES, fill_journal


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Journal:
    """A journal with real incidents: T02's misdeal session, then ruled and reviewed."""
    from station.journal import SystemClock

    path = tmp_path_factory.mktemp("j") / "journal.sqlite"
    fill_journal(path, "T02", TABLES["T02"])
    return Journal.open(path, clock=SystemClock())


def test_incident_records_come_back_equal_from_json(journal: Journal) -> None:
    records = station_incidents(journal)
    assert records
    for rec in records.values():
        assert record_from_json(record_to_json(rec)) == rec


def test_the_fold_resumed_from_json_in_pieces_gives_what_one_pass_gives(journal: Journal) -> None:
    """The indexer stores the fold's context and keeps only live incidents between pieces."""
    import json

    from station.incidents.records import FOLD_CODES

    rows = list(journal.rows(codes=FOLD_CODES))
    whole = fold_incidents(rows)
    stored: dict[int, object] = {}
    fold = IncidentFold()
    for start in range(0, len(rows), 7):
        piece = rows[start : start + 7]
        for row in piece:
            fold.row(row)
        stored.update(fold.incidents)
        live = [r for r in fold.incidents.values() if r.next_deal_seq is None]
        state = json.loads(json.dumps(fold_to_json(fold, piece[-1].seq - 5000)))
        fold = fold_from_json(state, [record_from_json(json.loads(json.dumps(record_to_json(r))))
                                      for r in live])  # fmt: skip
    stored.update(fold.incidents)
    assert stored == whole


def _in_pieces(rows: list[LogRow], size: int) -> dict[int, object]:
    """Fold `rows` as the indexer does: `size` rows at a time, only the live incidents and the
    fold's context carried (through JSON) from one piece to the next."""
    stored: dict[int, object] = {}
    fold = IncidentFold()
    for start in range(0, len(rows), size):
        piece = rows[start : start + size]
        for row in piece:
            fold.row(row)
        stored.update(fold.incidents)
        live = [r for r in fold.incidents.values() if r.next_deal_seq is None]
        state = json.loads(json.dumps(fold_to_json(fold, piece[-1].seq - 5000)))
        fold = fold_from_json(state, [record_from_json(json.loads(json.dumps(record_to_json(r))))
                                      for r in live])  # fmt: skip
    stored.update(fold.incidents)
    return stored


def test_a_floor_call_in_a_later_piece_reaches_the_hands_open_incidents(tmp_path: Path) -> None:
    """A CALL FLOOR after the hand's incidents, folded in a later catch-up than they were: the
    incidents still waiting for the next deal take the call (a resumed fold must know them)."""
    from station.daemon.operations import StationOps
    from station.journal import ActorRole, Recorder, SystemClock

    path = tmp_path / "journal.sqlite"
    fill_journal(path, "X01", [*TABLES["T02"], "scripted:2"])
    journal = Journal.open(path, clock=SystemClock())
    try:
        recorder = Recorder(journal)
        recorder.recover()
        ops = StationOps(recorder)
        if recorder.op_state().floor_call is not None:  # the misdeal's, seen by the floor
            ops.clear_floor_call("flo", PINS["flo"], "seen")
        assert ops.raise_floor_call("dan", ActorRole.DEALER, "test") is not None
        rows = list(journal.rows(codes=FOLD_CODES))
    finally:
        journal.close()
    whole = fold_incidents(rows)
    called = [r for r in whole.values() if r.floor_called_seq == rows[-1].seq]
    assert called  # the last hand's open incidents were there when the floor was called
    for size in (1, 3, 7, len(rows) - 1):
        assert _in_pieces(rows, size) == whole, size


def test_ops_state_comes_back_equal(journal: Journal) -> None:
    ops = OpsTracker()
    for row in journal.rows():
        ops.apply(row)
    assert ops.state().sessions  # the dealer is signed in
    again = ops_from_json(ops_to_json(ops))
    assert again.state() == ops.state()


def test_severity_follows_the_engine_ruling(journal: Journal) -> None:
    by_rule = {r.rule: severity(r) for r in station_incidents(journal).values()}
    assert by_rule["MISDEAL-TWO-CARDS-EXPOSED"] == 3  # misdeal: the hand stops
    assert by_rule["EXPOSE-HOLDEM-OTHER-HOLECARD"] == 2  # replace: the station corrects it


def test_passwords_hash_with_scrypt_and_check_in_constant_time() -> None:
    stored = hash_password("correct horse battery", b"0123456789abcdef")
    assert stored.startswith("scrypt$32768$8$1$")
    assert "correct horse" not in stored
    assert password_matches("correct horse battery", stored)
    assert not password_matches("correct horse batterY", stored)
    assert not password_matches("x", "not a hash")
    assert hash_password("same", b"a" * 16) != hash_password("same", b"b" * 16)


@pytest.mark.parametrize(
    ("password", "name", "why"),
    [("short1", "flo", "10 to"), ("aaaaaaaaaaaa", "flo", "4 different"),
     ("my-name-is-fayette!", "fayette", "name")],
)  # fmt: skip
def test_weak_passwords_are_refused(password: str, name: str, why: str) -> None:
    with pytest.raises(WeakPasswordError, match=why):
        check_policy(password, name)


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_every_text_and_background_pair_has_a_contrast_of_at_least_7() -> None:
    css = (resources.files("station.central.console") / "static" / "console.css").read_text()
    colours = dict(re.findall(r"--([a-z]+-(?:fg|bg)):\s*(#[0-9a-fA-F]{6})", css))
    names = {k.rsplit("-", 1)[0] for k in colours}
    assert len(names) >= 10
    for name in sorted(names):
        ratio = contrast(colours[f"{name}-fg"], colours[f"{name}-bg"])
        assert ratio >= 7.0, f"{name}: {ratio:.2f}"
    # The contrast computation itself: black on white is 21:1, equal colours 1:1.
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)


def test_the_console_section_loads_and_its_mistakes_are_named(tmp_path: Path) -> None:
    from station.central.config import load_central
    from station.config.station_toml import ConfigError

    for name in ("ca.crt", "svc.crt", "svc.key"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    base = (
        'site = "main"\n[broker]\nhost = "h"\nport = 8883\nca = "ca.crt"\ncert = "svc.crt"\n'
        'key = "svc.key"\n[database]\ndsn = "dbname=fleet"\n'
    )
    path = tmp_path / "central.toml"
    path.write_text(base + "[console]\nport = 8443\nsession_idle_min = 20\n", encoding="utf-8")
    cfg = load_central(path)
    assert (cfg.console.port, cfg.console.session_idle_min, cfg.console.lockout_after) == (
        8443, 20, 5
    )  # fmt: skip
    path.write_text(base + '[console]\nport = 0\ntls_cert = "c.pem"\nlockot_after = 3\n')
    with pytest.raises(ConfigError) as err:
        load_central(path)
    keys = sorted(p.key for p in err.value.problems)
    assert keys == ["console.lockot_after", "console.port", "console.tls_cert", "console.tls_key"]


def test_the_catalog_text_is_generated_from_the_catalog_snapshot() -> None:
    """`station/engine/rulebook_text.py` is what tools/gen_rulebook.py makes of
    docs/RULES-CATALOG.md (regenerate it after updating the snapshot)."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("gen", root / "tools" / "gen_rulebook.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    rules = gen.parse((root / "docs" / "RULES-CATALOG.md").read_text(encoding="utf-8"))
    made = gen.render_text(rules)
    assert made == (root / "station" / "engine" / "rulebook_text.py").read_text(encoding="utf-8")
    from station.engine.rulebook_text import RULE_TEXT

    # the catalog's own words for a rule the station rules on (RULES-CATALOG.md, section 5)
    condition, ruling = RULE_TEXT["EXPOSE-HOLDEM-OTHER-HOLECARD"]
    assert condition.startswith("any other single holecard is exposed by dealer error")
    assert "the exposed card becomes the burncard" in ruling


def test_every_template_and_static_file_is_package_data() -> None:
    """The console's pages ship in the wheel: pyproject's package-data patterns cover every
    file under templates/ and static/ (a new kind of asset needs its pattern)."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["station.central.console"]
    folder = root / "station" / "central" / "console"
    files = [p for sub in ("templates", "static") for p in (folder / sub).rglob("*") if p.is_file()]
    assert len(files) >= 15
    for path in files:
        rel = path.relative_to(folder).as_posix()
        assert any(fnmatch.fnmatch(rel, pat) for pat in patterns), rel
