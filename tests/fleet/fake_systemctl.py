"""A stand-in for `systemctl` inside a throw-away system layout ($STATION_SETUP_ROOT), for the
set-up test: `restart`/`start` runs a unit's ExecStartPre and ExecStart lines as the unit's
`User=` (root when it names none, as systemd does), detached, and keeps the main process's id
in ROOT/run/fake-systemd/UNIT.pid; `stop` ends it; `enable` and `daemon-reload` are noted.
Every call is appended to ROOT/systemctl.log.

Units are read from ROOT/etc/systemd/system and ROOT/lib/systemd/system. When the unit's user
cannot execute the program at all here (this machine's Python lives in root's home), it runs
as root and says so in the log: the files' owners and modes are checked by the test itself.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ["STATION_SETUP_ROOT"])
RUN = ROOT / "run" / "fake-systemd"


def note(text: str) -> None:
    with (ROOT / "systemctl.log").open("a", encoding="utf-8") as f:
        f.write(text + "\n")


def unit(name: str) -> dict[str, list[str]]:
    name = name if name.endswith(".service") else f"{name}.service"
    for folder in ("etc/systemd/system", "lib/systemd/system"):
        path = ROOT / folder / name
        if path.is_file():
            break
    else:
        raise SystemExit(f"Unit {name} not found.")
    out: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif "=" in line and not line.startswith("#") and section == "Service":
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def spawn(
    argv: list[str], user: str | None, env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    ids: dict[str, Any] = {}
    if user is not None:  # the user, its group and its other groups, as systemd sets them
        pw = pwd.getpwnam(user)
        groups = [g.gr_gid for g in grp.getgrall() if user in g.gr_mem]
        ids = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": groups}
    with log.open("ab") as out:
        try:
            return subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, env=env, cwd="/", **ids,
            )  # fmt: skip
        except PermissionError:
            note(f"  as root: {user} cannot execute {argv[0]} on this machine")
            return subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, env=env, cwd="/",
            )  # fmt: skip


def start(name: str) -> None:
    stop(name)
    u = unit(name)
    user = u.get("User", [""])[-1] or None
    env = dict(os.environ)
    for line in u.get("Environment", []):
        for pair in shlex.split(line):
            key, _, value = pair.partition("=")
            env[key] = value
    if user is not None:
        env["HOME"] = pwd.getpwnam(user).pw_dir
    RUN.mkdir(parents=True, exist_ok=True)
    log = RUN / f"{name}.log"
    for pre in u.get("ExecStartPre", []):
        privileged = pre.startswith(("+", "!"))
        argv = shlex.split(pre.lstrip("-+!@"))
        proc = spawn(argv, None if privileged else user, env, log)
        if proc.wait(120) != 0 and not pre.startswith("-"):
            raise SystemExit(f"{name}: ExecStartPre failed: {pre} (see {log})")
    argv = shlex.split(u["ExecStart"][-1].lstrip("-+!@"))
    proc = spawn(argv, user, env, log)
    (RUN / f"{name}.pid").write_text(str(proc.pid), encoding="ascii")
    time.sleep(0.3)
    if proc.poll() is not None:
        raise SystemExit(f"{name}: exited at once ({proc.returncode}); see {log}")


def stop(name: str) -> None:
    pidfile = RUN / f"{name}.pid"
    if not pidfile.is_file():
        return
    pid = int(pidfile.read_text(encoding="ascii"))
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)
        for _ in range(100):
            if not alive(pid):
                break
            time.sleep(0.1)
        else:
            os.killpg(pid, signal.SIGKILL)
    pidfile.unlink()


def alive(pid: int) -> bool:
    """Running (a zombie nobody has reaped yet is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def main(argv: list[str]) -> int:
    note("systemctl " + " ".join(argv))
    args = [a for a in argv if not a.startswith("--")]
    if not args:
        return 0
    verb, units = args[0], args[1:]
    for name in units:
        match verb:
            case "start" | "restart":
                start(name)
            case "stop":
                stop(name)
            case "enable" if "--now" in argv:
                start(name)
            case _:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
