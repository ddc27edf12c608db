"""`[fleet]` in station.toml and central.toml: validated like the rest, every problem as
`FILE: KEY: reason`."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.central.config import central_toml, load_central
from station.config.station_toml import ConfigError, load_station
from tests.daemon.conftest import write_config


def certs(folder: Path) -> tuple[Path, Path, Path]:
    files = tuple(folder / n for n in ("ca.crt", "T07.crt", "T07.key"))
    for f in files:
        f.write_text("x")
    return files  # type: ignore[return-value]


def test_a_fleet_section_is_read_with_its_defaults(tmp_path: Path) -> None:
    certs(tmp_path)
    config = write_config(
        tmp_path,
        extra='[fleet]\nsite = "main"\nbroker = "mqtt.lan:8883"\n'
        'ca = "ca.crt"\ncert = "T07.crt"\nkey = "T07.key"\n',
    )
    fleet = load_station(config).config.fleet
    assert fleet is not None
    assert (fleet.site, fleet.host, fleet.port) == ("main", "mqtt.lan", 8883)
    assert fleet.cert == tmp_path / "T07.crt"
    assert (fleet.window, fleet.batch, fleet.resend_s, fleet.keepalive_s) == (1000, 100, 5.0, 30)


def test_no_fleet_section_means_no_forwarding(tmp_path: Path) -> None:
    assert load_station(write_config(tmp_path)).config.fleet is None


def test_fleet_problems_are_each_named(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        extra='[fleet]\nsite = "a/b"\nbroker = "mqtt.lan"\nca = "nope.crt"\n'
        'cert = "T07.crt"\nwindow = 0\nkeepalive = 9\n',
    )
    with pytest.raises(ConfigError) as err:
        load_station(config)
    text = str(err.value)
    for key in ("site", "broker", "ca", "cert", "key", "window", "keepalive"):
        assert f"{config}: fleet.{key}:" in text, key
    assert "did you mean keepalive_s?" in text


def test_central_toml_round_trips_and_is_checked(tmp_path: Path) -> None:
    ca, cert, key = certs(tmp_path)
    (tmp_path / "pw").write_text("s3cret'\n")
    path = tmp_path / "central.toml"
    path.write_text(
        central_toml(
            site="main", host="127.0.0.1", port=8883, ca=ca, cert=cert, key=key,
            dsn="host=127.0.0.1 dbname=fleet user=ingest", password_file=tmp_path / "pw",
        )
    )  # fmt: skip
    cfg = load_central(path)
    assert cfg.conninfo() == "host=127.0.0.1 dbname=fleet user=ingest password='s3cret\\''"
    path.write_text(path.read_text().replace("port = 8883", "port = 0") + "extra = 1\n")
    with pytest.raises(ConfigError) as err:
        load_central(path)
    assert f"{path}: broker.port: must be 1-65535, not 0" in str(err.value)
