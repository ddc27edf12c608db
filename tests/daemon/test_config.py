"""station.toml: validated before anything opens; every problem as `FILE: KEY: reason`, exit 2,
both from `station config check --config` and from `station run` itself."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from station.cli import main
from station.config.registry import RegistryError, format_deck, parse_registry
from station.config.station_toml import ConfigError, load_station
from station.display.panel import PANEL_7
from station.display.theme import Deck
from station.engine.cards import Card, synthetic_tag
from tests.conftest import StationRun
from tests.daemon.conftest import write_config

EXAMPLE = Path(str(resources.files("station.config").joinpath("example.toml")))


def check(config: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    code = main(["config", "check", "--config", str(config)])
    captured = capsys.readouterr()
    return code, captured.err.splitlines(), captured.out


def test_the_shipped_example_is_a_valid_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Valid as shipped, wherever its journal folder exists (here: moved to a temp folder; on a
    machine without the install the folder is the one problem, said so)."""
    installed = Path("/var/lib/dealer-station/journal.sqlite")
    config = tmp_path / "station.toml"
    text = EXAMPLE.read_text(encoding="utf-8")
    config.write_text(text.replace(f'"{installed}"', '"journal.sqlite"'), encoding="utf-8")
    code, err, out = check(config, capsys)
    assert (code, err) == (0, [])
    assert f"ok: station config {config}: station T01, nlhe RR11, 9 seats" in out
    assert "ok: pin map " in out and "revision A, 10 seats" in out
    assert "ok: deck registry (embedded): 2 deck(s): blue-1 (blue), red-1 (red); 108 tags" in out
    loaded = load_station(config)
    assert loaded.config.table.setup().stakes.bb == 2
    assert loaded.config.journal == tmp_path / "journal.sqlite"
    code, err, _ = check(EXAMPLE, capsys)
    if not installed.parent.is_dir():
        assert code == 2
        assert err[0] == (
            f"{EXAMPLE}: journal.path: the folder {installed.parent} does not exist (create it "
            "for the station's user; the station does not create it)"
        )
        assert len(err) == 2  # and the count


def test_a_misspelt_key_is_named_with_its_file_and_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, shoe='prot = "/dev/dealer/shoe"')
    code, err, _ = check(config, capsys)
    assert code == 2
    assert f"{config}: shoe.prot: unknown key (did you mean port?)" in err
    assert f"{config}: shoe.port: missing (required)" in err
    assert err[-1] == "station config check: 2 problem(s)"


def test_bad_values_are_each_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, extra="[people]\nfloor_pad = 7\n")
    text = config.read_text().replace("settle_ms = 40", 'settle_ms = "fast"')
    text = text.replace('game = "nlhe"', 'game = "holdem"').replace(
        "seats = [1, 2, 3]", "seats = [1, 11]"
    )
    config.write_text(text.replace('driver = "none"', 'driver = "fbdev"'))
    code, err, _ = check(config, capsys)
    assert code == 2
    assert f"{config}: table.game: 'holdem' is not one of" in err[0]
    assert f"{config}: table.seats: must be a list of seat numbers 1-10, not [1, 11]" in err
    assert f"{config}: betzones.settle_ms: must be a whole number, not 'fast'" in err
    assert any(e.startswith(f"{config}: display.driver: 'fbdev' is not one of kmsdrm") for e in err)
    assert f"{config}: people.floor_pad: must be text, not 7" in err


def test_stakes_the_game_needs_are_checked_with_the_session_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace("sb = 1\nbb = 2", "sb = 1"))
    code, err, _ = check(config, capsys)
    assert code == 2
    assert (
        err[0]
        == f"{config}: table.stakes: nlhe needs the stake 'bb' (or 'ante' for an ante-only game)"
    )


def test_a_missing_pin_map_file_is_named_by_the_config_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    config.write_text(
        config.read_text().replace('backend = "mock"', 'backend = "mock"\npinmap = "pins.toml"')
    )
    code, err, _ = check(config, capsys)
    assert code == 2
    assert err == [
        f"{config}: inputs.pinmap: no such file: {tmp_path / 'pins.toml'}",
        "station config check: 1 problem(s)",
    ]
    with pytest.raises(ConfigError) as info:
        load_station(config)
    assert [str(p) for p in info.value.problems] == [err[0]]


def test_the_pin_map_a_config_names_is_checked_and_against_the_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pins = resources.files("hardware.pinmaps").joinpath("rev-a.toml").read_text("utf-8")
    (tmp_path / "pins.toml").write_text(pins.replace("CHECK = 27", "CHECK = 17"))
    config = write_config(tmp_path)
    config.write_text(
        config.read_text().replace('backend = "mock"', 'backend = "mock"\npinmap = "pins.toml"')
    )
    code, err, _ = check(config, capsys)
    assert code == 2
    assert f"{tmp_path / 'pins.toml'}: keys.CHECK: pin 17 is already used by keys.FOLD" in err


def test_a_deck_registry_file_is_validated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tag = synthetic_tag("green-1", Card.parse("Ah"))
    (tmp_path / "decks.toml").write_text(
        '[[deck]]\nid = "green-1"\nback = "green"\n[deck.tags]\n'
        f'"{tag}" = "Ah"\n"04:A1:B2:C3" = "Zz"\n"nothex" = "Kd"\n'
    )
    config = write_config(tmp_path, extra='[registry]\nfile = "decks.toml"\n')
    code, err, _ = check(config, capsys)
    assert code == 2
    decks = tmp_path / "decks.toml"
    not_a_card = "not a card: 'Zz' (expected rank+suit such as 'Ah', or 'JOKER')"
    assert f"{decks}: deck[1].tags.04:A1:B2:C3: {not_a_card}" in err
    assert (
        f"{decks}: deck[1].tags.nothex: not a tag id (4 to 10 bytes of hex, e.g. 04A1B2C3D4E5F6)"
        in err
    )


def test_the_registry_format_round_trips_and_refuses_a_card_twice() -> None:
    text = format_deck("green-1", "green", {"04A1B2C3": "Ah", "04A1B2C4": "Kd"})
    registry = parse_registry(text + '[[deck]]\nid = "red-9"\nback = "red"\nemulated = true\n', "d")
    assert registry.lookup("04:a1:b2:c3") is not None
    assert len(registry) == 2 + 54
    with pytest.raises(RegistryError) as info:
        parse_registry(format_deck("g", "green", {"04A1B2C3": "Ah", "04A1B2C4": "Ah"}), "d")
    assert [str(p) for p in info.value.problems] == [
        "d: deck[1].tags.04A1B2C4: Ah is already the card of tag 04A1B2C3"
    ]


def test_the_table_deck_must_be_an_enrolled_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace("button = 3", 'button = 3\ndeck = "green"'))
    code, err, _ = check(config, capsys)
    assert code == 2
    assert (
        err[0] == f"{config}: table.deck: no enrolled deck has the back 'green' (backs: blue, red)"
    )


def test_a_custom_panel_and_the_7_inch_one(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace('driver = "none"', 'driver = "none"\npanel = "7"'))
    assert load_station(config).config.display.panel == PANEL_7
    custom = (
        "[display.panel]\nwidth_mm = 154.0\nheight_mm = 86.0\nwidth_px = 1024\nheight_px = 600\n"
    )
    config.write_text(write_config(tmp_path).read_text() + custom)
    panel = load_station(config).config.display.panel
    assert (panel.width_px, panel.height_px, panel.viewing_distance_mm) == (1024, 600, 800.0)


def test_station_run_with_a_misspelt_key_exits_2_naming_file_and_key(
    tmp_path: Path, station_cli: StationRun
) -> None:
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace("station_id", "statoin_id"))
    proc = station_cli("run", "--config", str(config))  # in this process; as one: test_smoke
    assert proc.returncode == 2
    assert f"{config}: statoin_id: unknown key (did you mean station_id?)" in proc.stderr
    assert f"{config}: station_id: missing (required)" in proc.stderr
    assert "nothing was started" in proc.stderr
    assert not (tmp_path / "journal.sqlite").exists(), "nothing opens before the config is valid"


def test_station_run_with_a_missing_config_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert (
        f"{tmp_path / 'nope.toml'}: file: cannot read: No such file or directory"
        in capsys.readouterr().err
    )


def test_station_run_on_another_stations_journal_exits_2(
    tmp_path: Path, station_cli: StationRun
) -> None:
    from station.journal import Journal, SystemClock

    config = write_config(tmp_path)
    Journal.open(
        tmp_path / "journal.sqlite", clock=SystemClock(), station_id="T99", create=True
    ).close()
    proc = station_cli("run", "--config", str(config))
    assert proc.returncode == 2
    assert f"{config}: station_id: " in proc.stderr and "not T07" in proc.stderr
    # ... and says what to do about a renamed table.
    assert "If this table was renamed to T07: either set station_id back" in proc.stderr
    assert f"for f in {tmp_path / 'journal.sqlite'}*; do mv" in proc.stderr


@pytest.mark.parametrize(
    ("before", "after", "key", "message"),
    [
        ("button = 3", "button = 5", "table.button", "seat 5 is not one of the seats in play"),
        ("sb = 1", "sb = 5", "table.stakes.sb", "5 is more than bb (2)"),
        ("bb = 2", "bb = 9223372036854775807", "table.stakes.bb", "must be 0-1000000000"),
    ],
)
def test_a_table_that_cannot_be_dealt_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    before: str,
    after: str,
    key: str,
    message: str,
) -> None:
    config = write_config(tmp_path)
    text = config.read_text(encoding="utf-8")
    assert before in text
    config.write_text(text.replace(before, after), encoding="utf-8")
    code, err, _ = check(config, capsys)
    assert code == 2
    assert any(line.startswith(f"{config}: {key}: ") and message in line for line in err), err


def test_the_shoe_and_the_bet_zones_on_one_port_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = tmp_path / "ttyACM0"
    link = tmp_path / "shoe-link"
    link.symlink_to(port)  # a udev name and its target are one port
    config = write_config(tmp_path, shoe=f'port = "{link}"', zones=f'port = "{port}"')
    code, err, _ = check(config, capsys)
    assert code == 2
    assert f"{config}: betzones.port: {port}: the shoe's port too" in err


def test_the_scrub_schedule_is_read_and_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    assert load_station(config).config.scrub.every_h == 24  # the defaults
    text = config.read_text().replace(
        'path = "journal.sqlite"',
        'path = "journal.sqlite"\nscrub_every_h = 6\nscrub_after_upgrade = false\n'
        "scrub_duty = 0.25",
    )
    config.write_text(text)
    scrub = load_station(config).config.scrub
    assert (scrub.every_h, scrub.after_upgrade, scrub.duty) == (6, False, 0.25)
    config.write_text(
        text.replace("scrub_every_h = 6", "scrub_every_h = -1").replace(
            "scrub_duty = 0.25", "scrub_duty = 2"
        )
    )
    code, err, _ = check(config, capsys)
    assert code == 2
    assert f"{config}: journal.scrub_every_h: must be 0-744, not -1" in err
    assert f"{config}: journal.scrub_duty: must be at most 1 (all of the time), not 2.0" in err


def test_the_deck_colours_are_four_by_default_two_on_request_and_a_wrong_one_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    assert load_station(config).config.display.deck is Deck.FOUR_COLOUR
    text = config.read_text()
    config.write_text(text.replace('driver = "none"', 'driver = "none"\ndeck = "two-colour"'))
    assert load_station(config).config.display.theme.deck is Deck.TWO_COLOUR
    config.write_text(text.replace('driver = "none"', 'driver = "none"\ndeck = "4"'))
    code, err, _ = check(config, capsys)
    assert code == 2
    assert err[0].startswith(f"{config}: display.deck:"), err
    assert "four-colour" in err[0] and "two-colour" in err[0], err
