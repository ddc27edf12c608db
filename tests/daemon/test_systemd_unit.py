"""The systemd unit and the udev rule: `systemd-analyze verify` must print nothing at all (it
exits 0 on a misspelt key or a bad value, only warning: hardware.md section 6), and the
hardening must keep the exposure score under the bar below.

The bar: systemd rates exposure 0 (safe) to 10 (unsafe); the research draft of the unit rated
4.7 "OK". Ours rates about 1.1: the only points left are what the station needs (device access
for the shoe, GPIO, display and touch, supplementary groups, the host's network namespace for
SDL's udev hotplug, no MemoryDenyWriteExecute for libffi callbacks). 2.0 leaves room for a
systemd version that weighs a setting differently, and fails as soon as a hardening line goes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dealer-station.service"
RULES = ROOT / "systemd" / "99-dealer-station.rules"
INSTALLED_STATION = "/opt/dealer-station/venv/bin/station"
EXPOSURE_BAR = 2.0

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (`./dev test` installs it as root with apt-get)",
)


def _unit_here(tmp_path: Path) -> Path:
    """The unit with ExecStart pointed at this checkout's `station` (verify needs the binary)."""
    station = Path(sys.executable).with_name("station")
    assert station.exists(), station
    text = UNIT.read_text(encoding="utf-8")
    assert INSTALLED_STATION in text
    unit = tmp_path / UNIT.name
    unit.write_text(text.replace(INSTALLED_STATION, str(station)), encoding="utf-8")
    return unit


@needs_analyze
def test_systemd_analyze_verify_prints_no_warning(tmp_path: Path) -> None:
    unit = _unit_here(tmp_path)
    proc = subprocess.run(
        ["systemd-analyze", "verify", unit.name],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == "" and proc.stdout.strip() == "", proc.stderr + proc.stdout


@needs_analyze
def test_systemd_analyze_verify_would_catch_a_misspelt_key(tmp_path: Path) -> None:
    """The check above is only worth something if a typo shows: it does, as a warning."""
    unit = _unit_here(tmp_path)
    unit.write_text(unit.read_text().replace("WatchdogSec=", "WachdogSec="))
    proc = subprocess.run(
        ["systemd-analyze", "verify", unit.name],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False,
    )  # fmt: skip
    assert "WachdogSec" in proc.stderr


@needs_analyze
def test_systemd_analyze_security_exposure_is_under_the_bar(tmp_path: Path) -> None:
    unit = _unit_here(tmp_path)
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", unit.name],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False,
    )  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", proc.stdout)
    assert found is not None, proc.stdout + proc.stderr
    score = float(found.group(1))
    print(f"\nsystemd-analyze security --offline=true: exposure {score} {found.group(2)}")
    assert score < EXPOSURE_BAR


def test_the_unit_has_what_the_station_relies_on() -> None:
    text = UNIT.read_text(encoding="utf-8")
    for line in (
        "Type=notify",
        "NotifyAccess=main",
        "WatchdogSec=10",
        "Restart=always",
        "RestartPreventExitStatus=2",
        "StartLimitBurst=5",
        "User=dealer",
        "Group=dealer-floor",
        "SupplementaryGroups=dialout gpio video input",
        "ProtectSystem=strict",
        "StateDirectory=dealer-station",
        "DevicePolicy=closed",
        "DeviceAllow=char-ttyUSB rw",
        "DeviceAllow=char-gpiochip rw",
        "DeviceAllow=char-drm rw",
        "DeviceAllow=char-input r",
        "Wants=modprobe@cdc_acm.service modprobe@cp210x.service",
        "Environment=SDL_VIDEODRIVER=kmsdrm SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1",
        "ExecStart=/opt/dealer-station/venv/bin/station run --config "
        "/etc/dealer-station/station.toml",
    ):
        assert f"\n{line}\n" in text, line


def test_the_udev_rule_names_both_boards_by_serial_number() -> None:
    rules = [
        line for line in RULES.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]  # fmt: skip
    assert len(rules) == 2
    for rule, serial, name in zip(
        rules, ("DS-SHOE-*", "DS-ZONE-*"), ("dealer/shoe", "dealer/betzones"), strict=True
    ):
        fields = dict(re.findall(r'([A-Z_]+(?:\{\w+\})?)[=+!]=?"([^"]*)"', rule))
        assert fields["SUBSYSTEM"] == "tty"
        assert fields["ATTRS{serial}"] == serial
        assert fields["SYMLINK"] == name
        assert fields["GROUP"] == "dialout"


def test_the_install_script_is_valid_shell() -> None:
    script = ROOT / "systemd" / "install.sh"
    proc = subprocess.run(["sh", "-n", str(script)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert script.stat().st_mode & 0o111, "install.sh is executable"


def test_the_install_script_sets_up_a_first_day_table() -> None:
    """The parts of install.sh that tests/daemon/test_install.py cannot run with recorders (the
    terminal's prompts) are there; the rest it runs for real."""
    script = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    for needed in (
        "This table's station id",  # asked at a terminal when STATION_ID is not given
        "stty -echo",  # the first admin's PIN, not echoed
        "Start the service on it ",
        "runuser -u dealer -g dealer-floor",
    ):
        assert needed in script, needed
    example = (ROOT / "station" / "config" / "example.toml").read_text(encoding="utf-8")
    assert "\n# group_read = true " in example  # the line install.sh turns on
    assert '\npath = "/var/lib/dealer-station/journal.sqlite"' in example  # and points
