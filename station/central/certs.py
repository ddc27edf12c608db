"""The site's certificate authority and one TLS certificate per station and service, made with
the `openssl` command. Edge adapter (files, a subprocess).

`station central certs --dir DIR --site S T01 T02 ...` makes (or reuses) `DIR/ca.key` and
`DIR/ca.crt` and, for each name, `DIR/NAME.key` (0600) and `DIR/NAME.crt` signed by the CA:

- a station's certificate has CN = its station id: the broker takes the CN as the MQTT user
  name (`use_identity_as_username`) and the ACL lets that user publish only under
  `casino/<site>/<station_id>/` (see `station.central.broker`);
- the services' names contain a dot (`svc.ingest`), which a station id cannot, so a station
  can never be issued a service's identity;
- the broker's server certificate (`broker`) names the host names and addresses stations dial;
  the floor console's (`console`, `station central setup`) the names browsers open.

Keys are EC P-256. The CA key signs everything: keep it off the broker host in production.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from station.output import Guard, OutputRefusedError, check_target, write_output

BROKER: Final = "broker"
CONSOLE: Final = "console"  # the floor console's HTTPS server certificate
SERVERS: Final = frozenset({BROKER, CONSOLE})
INGEST: Final = "svc.ingest"
SERVICE = re.compile(r"^svc\.[a-z][a-z0-9-]{0,30}$")
STATION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")  # station_id in station.toml
CA_DAYS: Final = 3650
LEAF_DAYS: Final = 825


class CertError(RuntimeError):
    """openssl is missing or failed; the message says which step."""


@dataclass(frozen=True, slots=True)
class Identity:
    """The files one client (a station or a service) presents."""

    name: str
    ca: Path
    cert: Path
    key: Path


def openssl() -> str:
    path = shutil.which("openssl")
    if path is None:
        raise CertError("the openssl command is not installed (Debian package openssl)")
    return path


def _run(args: list[str], what: str) -> None:
    done = subprocess.run(
        [openssl(), *args], capture_output=True, text=True, check=False, timeout=60
    )
    if done.returncode != 0:
        raise CertError(f"openssl {what} failed: {done.stderr.strip()[-400:]}")


def ensure_ca(directory: Path, site: str) -> Path:
    """The site CA (made once; an existing one is kept). Returns the CA certificate's path."""
    directory.mkdir(parents=True, exist_ok=True)
    key, crt = directory / "ca.key", directory / "ca.crt"
    if key.exists() and crt.exists():
        return crt
    with tempfile.TemporaryDirectory() as tmp:
        made_key, made_crt = Path(tmp) / "ca.key", Path(tmp) / "ca.crt"
        _new_key(made_key)
        _run(
            [
                "req", "-x509", "-new", "-key", str(made_key), "-sha256", "-days", str(CA_DAYS),
                "-subj", f"/O=Dealer Station/OU={site}/CN={site} site CA",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                "-out", str(made_crt),
            ],
            "making the site CA",
        )  # fmt: skip
        _put(made_key, key, force=True, private=True)  # a half-made CA is made again
        _put(made_crt, crt, force=True)
    return crt


def issue(
    directory: Path, site: str, name: str, *, hosts: tuple[str, ...] = (), force: bool = True
) -> Identity:
    """A key and a certificate for `name` (a station id, a `svc.*` service, or a server:
    `broker`, `console`), signed by the site CA. `hosts` are a server's DNS names and IP
    addresses. Without `force` an identity already issued is refused (`station central certs`
    without --force)."""
    if name not in SERVERS and not (STATION.match(name) or SERVICE.match(name)):
        raise CertError(f"{name!r}: a station id (letters, digits, '-', '_') or svc.NAME")
    directory.mkdir(parents=True, exist_ok=True)
    key, crt = directory / f"{name}.key", directory / f"{name}.crt"
    for path in (key, crt):
        check_target(path, Guard(), force=force)  # before anything is made
    ca = ensure_ca(directory, site)
    usage = "serverAuth" if name in SERVERS else "clientAuth"
    lines = [
        "basicConstraints=critical,CA:FALSE",
        "keyUsage=critical,digitalSignature",
        f"extendedKeyUsage={usage}",
    ]
    if hosts:
        alt = [f"IP:{h}" if _is_ip(h) else f"DNS:{h}" for h in hosts]
        lines.append("subjectAltName=" + ",".join(alt))
    with tempfile.TemporaryDirectory() as tmp:
        csr, ext = Path(tmp) / "req.csr", Path(tmp) / "ext.cnf"
        made_key, made_crt = Path(tmp) / "leaf.key", Path(tmp) / "leaf.crt"
        _new_key(made_key)
        ext.write_text("\n".join(lines) + "\n", encoding="ascii")
        _run(
            ["req", "-new", "-key", str(made_key), "-subj",
             f"/O=Dealer Station/OU={site}/CN={name}", "-out", str(csr)],
            f"requesting a certificate for {name}",
        )  # fmt: skip
        _run(
            [
                "x509", "-req", "-in", str(csr), "-CA", str(ca),
                "-CAkey", str(directory / "ca.key"),
                "-set_serial", str(int.from_bytes(os.urandom(15), "big")), "-days",
                str(LEAF_DAYS), "-sha256", "-extfile", str(ext), "-out", str(made_crt),
            ],
            f"signing the certificate of {name}",
        )  # fmt: skip
        _put(made_key, key, force=force, private=True)
        _put(made_crt, crt, force=force)
    return Identity(name, ca, crt, key)


def identity(directory: Path, name: str) -> Identity:
    """The files of an identity already issued into `directory`."""
    d = directory
    return Identity(name, d / "ca.crt", d / f"{name}.crt", d / f"{name}.key")


def _new_key(path: Path) -> None:
    _run(
        ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", str(path)],
        f"making the key {path.name}",
    )
    path.chmod(0o600)


def _put(made: Path, target: Path, *, force: bool, private: bool = False) -> None:
    """Move what openssl made (in a private temporary folder) into place through
    `station.output`: keys 0600, certificates 0644, never over a journal or config."""
    try:
        write_output(target, made.read_bytes(), Guard(), force=force, private=private)
    except OutputRefusedError as exc:
        raise CertError(str(exc)) from None


def _is_ip(host: str) -> bool:
    return bool(re.match(r"^[0-9.]+$", host)) or ":" in host
