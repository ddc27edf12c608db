"""docs/fleet.md's central set-up, run as written (issue 31 item 1): the lines of its
`central-setup` block go to bash one by one, on a throw-away system layout: a folder standing
for `/` ($STATION_SETUP_ROOT) with Debian's `mosquitto.conf` and `mosquitto.service` (their
paths moved into it), a throw-away PostgreSQL cluster (`station.central.services`, as the
fleet tests start it) as the server's database, a throw-away service user, and on PATH `sudo`
(runs the command), `apt` (checks the packages are installed) and a `systemctl` that starts
the units from the layout as systemd would (`tests/fleet/fake_systemctl.py`).

Then: the real mosquitto runs (as the `mosquitto` user it drops to, reading the key set-up
gave that user), the ingest beats, a table forwards rows with the files set-up made for it,
the console answers over HTTPS and its first admin signs in; the files have their owners and
modes; and the set-up run a second time keeps every certificate and password.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import ssl
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fleet.conftest import append, new_journal, wait_until

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "setup-admin-lantern"
SITE = "main"


def readme_block() -> list[str]:
    text = (ROOT / "docs" / "fleet.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- central-setup -->\n```sh\n(.*?)```", text, re.S)
    assert found, "docs/fleet.md's central-setup block"
    return [line for line in found.group(1).splitlines() if line.strip()]


@dataclass
class Layout:
    root: Path
    env: dict[str, str]
    user: str
    db: Any

    def run(self, line: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", line], env=self.env, input=PASSWORD + "\n", text=True,
            capture_output=True, timeout=300, check=False,
        )  # fmt: skip

    def etc(self, path: str) -> Path:
        return self.root / "etc" / path


def _shim(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/bash\n" + body + "\n", encoding="utf-8")
    path.chmod(0o755)


def _moved(text: str, root: Path) -> str:
    for path in ("/etc/mosquitto", "/var/lib/mosquitto", "/var/log/mosquitto", "/run/mosquitto"):
        text = text.replace(path, f"{root}{path}")
    return text


@pytest.fixture
def layout() -> Iterator[Layout]:
    from tests.fleet.conftest import _unavailable

    if os.geteuid() != 0:
        _unavailable("the set-up test runs as root (it makes a user and chowns files)")
    try:
        import psycopg  # noqa: F401

        from station.central.services import MissingError, Postgres, free_port, mosquitto_binary
    except ModuleNotFoundError as exc:
        _unavailable(f"the central extra is not installed: {exc.name}")
        raise
    main = Path("/etc/mosquitto/mosquitto.conf")
    unit = Path("/lib/systemd/system/mosquitto.service")
    try:
        mosquitto_binary()
        if not main.is_file() or not unit.is_file():
            raise MissingError("mosquitto's Debian files are missing")
    except MissingError as exc:
        _unavailable(str(exc))
        raise
    root = Path(tempfile.mkdtemp(prefix="station-setup-"))
    root.chmod(0o755)  # every service user must get through, as through /
    user = f"dstest{secrets.token_hex(3)}"
    db = None
    try:
        (root / "etc" / "mosquitto" / "conf.d").mkdir(parents=True)
        (root / "etc" / "mosquitto" / "mosquitto.conf").write_text(
            _moved(main.read_text(encoding="utf-8"), root), encoding="utf-8"
        )
        (root / "lib" / "systemd" / "system").mkdir(parents=True)
        (root / "lib" / "systemd" / "system" / "mosquitto.service").write_text(
            _moved(unit.read_text(encoding="utf-8"), root), encoding="utf-8"
        )
        shims = root / "bin"
        shims.mkdir()
        _shim(shims, "sudo", 'while [[ "$1" == -* ]]; do shift; done\nexec "$@"')
        _shim(
            shims, "apt",
            '[ "$1" = install ] || exit 2\nshift\n'
            'for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || { echo "$p: not installed";'
            " exit 1; }; done\necho \"all installed: $*\"",
        )  # fmt: skip
        _shim(
            shims, "systemctl", f'exec {sys.executable} {ROOT}/tests/fleet/fake_systemctl.py "$@"'
        )
        db = Postgres(root / "pg")
        db.start()
        env = {
            **os.environ,
            "PATH": f"{shims}:{Path(sys.executable).parent}:{os.environ['PATH']}",
            "STATION_SETUP_ROOT": str(root),
            "STATION_SETUP_PORT": str(free_port()),
            "STATION_SETUP_CONSOLE_PORT": str(free_port()),
            "STATION_SETUP_SERVICE_USER": user,
            "STATION_SETUP_DB_ADMIN": db.dsn("postgres"),
            "STATION_SETUP_DB_ADMIN_USER": "",
        }
        yield Layout(root, env, user, db)
    finally:
        with contextlib.suppress(Exception):
            subprocess.run(
                [sys.executable, str(ROOT / "tests/fleet/fake_systemctl.py"), "stop", "mosquitto",
                 "dealer-central-ingest", "dealer-central-console"],
                env={**os.environ, "STATION_SETUP_ROOT": str(root)}, timeout=60, check=False,
            )  # fmt: skip
        if db is not None:
            db.kill(hard=False)
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            subprocess.run(["userdel", user], check=False, timeout=30)
        shutil.rmtree(root, ignore_errors=True)


def _mode(path: Path) -> tuple[int, str, str]:
    import grp

    st = path.stat()
    return (
        stat.S_IMODE(st.st_mode),
        pwd.getpwuid(st.st_uid).pw_name,
        grp.getgrgid(st.st_gid).gr_name,
    )


def _readable_by(user: str, path: Path) -> bool:
    """`cat` as `user` with its own groups (as systemd starts a unit's User=) reads `path`."""
    import grp

    pw = pwd.getpwnam(user)
    groups = [g.gr_gid for g in grp.getgrall() if user in g.gr_mem]
    done = subprocess.run(
        ["cat", str(path)], user=pw.pw_uid, group=pw.pw_gid, extra_groups=groups,
        capture_output=True, check=False, cwd="/",
    )  # fmt: skip
    return done.returncode == 0


def test_the_readme_s_central_set_up_runs_as_written_and_a_table_forwards(
    layout: Layout, tmp_path: Path
) -> None:
    import httpx
    import psycopg

    from station.config.model import FleetConfig
    from station.fleet.factory import paho_factory
    from station.fleet.forwarder import Forwarder

    lines = readme_block()
    assert any(line.startswith("sudo station central setup ") for line in lines), lines
    for line in lines:
        done = layout.run(line)
        print(f"$ {line}\n{done.stdout}{done.stderr}")
        assert done.returncode == 0, f"{line}: {done.stderr}"
    broker_port = int(layout.env["STATION_SETUP_PORT"])
    console_port = int(layout.env["STATION_SETUP_CONSOLE_PORT"])

    # owners and modes: the broker's key is the mosquitto user's to read, the CA key root's,
    # the service's files the service user's
    certs = layout.etc("mosquitto/certs/dealer-station")
    assert _mode(certs / "broker.key") == (0o640, "root", "mosquitto")
    assert _mode(layout.etc("dealer-station/fleet/ca.key"))[:2] == (0o600, "root")
    assert _mode(layout.etc("dealer-station/central.toml")) == (0o640, "root", layout.user)
    assert _mode(layout.etc("dealer-station/db-password")) == (0o640, "root", layout.user)
    assert _mode(layout.root / "var/lib/mosquitto")[1] == "mosquitto"
    for path in ("central.toml", "db-password", "ingest/svc.ingest.key", "console/console.key"):
        assert _readable_by(layout.user, layout.etc(f"dealer-station/{path}")), path
    assert not _readable_by(layout.user, layout.etc("dealer-station/fleet/ca.key"))
    assert not _readable_by("mosquitto", layout.etc("dealer-station/db-password"))
    assert _mode(layout.etc("dealer-station/stations/T01/T01.key"))[:2] == (0o600, "root")

    # the broker runs as mosquitto, with persistence where Debian's file puts it
    pid = int((layout.root / "run/mosquitto/mosquitto.pid").read_text().strip())
    uid = int(re.search(r"^Uid:\s+(\d+)", Path(f"/proc/{pid}/status").read_text(), re.M)[1])  # type: ignore[index]
    assert uid == pwd.getpwnam("mosquitto").pw_uid

    # the ingest beats, and table T01 forwards with the three files made for it
    admin = layout.db.dsn("fleet")

    def beating() -> bool:
        with psycopg.connect(admin) as conn, contextlib.suppress(psycopg.errors.UndefinedTable):
            return bool(conn.execute(
                    "SELECT 1 FROM central_health WHERE beat_at > now() - interval '3 seconds'"
                ).fetchone())  # fmt: skip
        return False

    wait_until(beating, 60, "the ingest's heartbeat")
    bundle = layout.etc("dealer-station/stations/T01")
    journal_path = tmp_path / "T01.sqlite"
    journal = new_journal(journal_path, "T01")
    append(journal, 5)
    cfg = FleetConfig(SITE, "127.0.0.1", broker_port, bundle / "ca.crt", bundle / "T01.crt",
                      bundle / "T01.key")  # fmt: skip
    fwd = Forwarder(journal_path, "T01", cfg, paho_factory)
    fwd.start()
    try:
        wait_until(lambda: fwd.status().acked_seq == journal.head()[0], 30, "T01 acknowledged")
    finally:
        fwd.stop()
        journal.close()
    with psycopg.connect(admin) as conn:
        assert conn.execute("SELECT count(*) FROM rows WHERE station_id = 'T01'").fetchone() == (6,)

    # the console answers over HTTPS with the site's certificate; the first admin signs in
    trust = ssl.create_default_context(cafile=str(layout.etc("dealer-station/fleet/ca.crt")))
    with httpx.Client(
        base_url=f"https://127.0.0.1:{console_port}", verify=trust, timeout=15
    ) as client:
        wait_until(lambda: client.get("/healthz").status_code == 200, 60, "the console ready")
        page = client.get("/login")
        token = re.search(r'name="login_token" value="([^"]+)"', page.text)
        assert token is not None
        signed = client.post(
            "/login", data={"login_token": token[1], "name": "ada", "password": PASSWORD},
            headers={"origin": f"https://127.0.0.1:{console_port}"},
        )  # fmt: skip
        assert signed.status_code == 303, signed.text
        assert "T01" in client.get("/map").text

    # a second run keeps the CA, the certificates and the password
    kept = {p: p.read_bytes() for p in (
        layout.etc("dealer-station/fleet/ca.crt"), certs / "broker.key",
        layout.etc("dealer-station/db-password"), layout.etc("dealer-station/stations/T02/T02.key"),
    )}  # fmt: skip
    again = layout.run(lines[-1])
    assert again.returncode == 0, again.stderr
    assert "made   certificate" not in again.stdout
    assert "kept   console account ada" in again.stdout
    assert {p: p.read_bytes() for p in kept} == kept
