"""The central ingest's systemd unit and the station's fleet drop-in: `systemd-analyze verify`
prints nothing (a misspelt key is only a warning there), and the example central.toml loads."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from station.config.station_toml import ConfigError

ROOT = Path(__file__).resolve().parents[2]
INGEST = ROOT / "station" / "central" / "units" / "dealer-central-ingest.service"
CONSOLE = ROOT / "station" / "central" / "units" / "dealer-central-console.service"
STATION = ROOT / "systemd" / "dealer-station.service"
DROP_IN = ROOT / "systemd" / "dealer-station-fleet.conf"
INSTALLED = "/opt/dealer-station/venv/bin/station"

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (`./dev test` installs it as root with apt-get)",
)


def verify(tmp_path: Path, unit: Path, drop_in: str | None = None) -> str:
    station = Path(sys.executable).with_name("station")
    text = unit.read_text(encoding="utf-8").replace(INSTALLED, str(station))
    (tmp_path / unit.name).write_text(text, encoding="utf-8")
    if drop_in is not None:
        folder = tmp_path / f"{unit.name}.d"
        folder.mkdir()
        (folder / "fleet.conf").write_text(drop_in, encoding="utf-8")
    proc = subprocess.run(
        ["systemd-analyze", "verify", unit.name],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False,
    )  # fmt: skip
    return (proc.stdout + proc.stderr).strip()


@needs_analyze
def test_the_ingest_unit_verifies_without_a_warning(tmp_path: Path) -> None:
    assert verify(tmp_path, INGEST) == ""


@needs_analyze
def test_the_console_unit_verifies_without_a_warning(tmp_path: Path) -> None:
    assert verify(tmp_path, CONSOLE) == ""


@needs_analyze
def test_the_station_unit_with_the_fleet_drop_in_verifies(tmp_path: Path) -> None:
    drop_in = DROP_IN.read_text(encoding="utf-8").replace("@BROKER_IP@", "10.20.0.5")
    assert verify(tmp_path, STATION, drop_in) == ""


def test_the_drop_in_opens_the_broker_only() -> None:
    text = DROP_IN.read_text(encoding="utf-8")
    assert "\nIPAddressAllow=@BROKER_IP@\n" in text
    assert "IPAddressDeny=any" in STATION.read_text(encoding="utf-8")


def test_the_example_central_toml_names_every_key(tmp_path: Path) -> None:
    from station.central.config import load_central

    example = Path(str(resources.files("station.central").joinpath("example-central.toml")))
    copy = tmp_path / "central.toml"
    copy.write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_central(copy)  # the certificate files do not exist here: only those are named
    keys = sorted(p.key for p in err.value.problems)
    assert keys == ["broker.ca", "broker.cert", "broker.key"]
