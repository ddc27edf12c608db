"""`central.toml`: the central services' config, validated before anything opens. Edge
adapter (a file); the validation itself is pure. Format: `station/central/example-central.toml`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from station.config.checks import Problem
from station.config.schema import Problems, Section
from station.config.station_toml import TOPIC_LEVEL, ConfigError


@dataclass(frozen=True, slots=True)
class CentralConfig:
    source: Path
    site: str
    host: str
    port: int
    ca: Path
    cert: Path
    key: Path
    dsn: str
    password_file: Path | None = None
    batch: int = 2000  # rows per PostgreSQL transaction, at most

    def conninfo(self) -> str:
        """The libpq connection string, with the password from its file when there is one."""
        if self.password_file is None:
            return self.dsn
        password = self.password_file.read_text(encoding="utf-8").strip()
        quoted = password.replace("\\", "\\\\").replace("'", "\\'")
        return f"{self.dsn} password='{quoted}'"


def load_central(path: str | Path) -> CentralConfig:
    source = Path(path)
    try:
        doc = tomllib.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError([Problem(str(source), "file", f"cannot read: {exc.strerror}")]) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError([Problem(str(source), "toml", str(exc))]) from None
    problems = Problems(str(source))
    base = source.parent
    top = Section(doc, "", problems)
    site = top.text("site", required=True)
    if site is not None and not TOPIC_LEVEL.match(site):
        top.bad("site", f"{site!r}: letters, digits, '-' and '_' only (up to 32)")
    batch = top.integer("batch", low=1, high=100_000) or 2000
    broker = top.table("broker", required=True)
    host = port = ca = cert = key = None
    if broker is not None:
        host = broker.text("host", required=True)
        port = broker.integer("port", required=True, low=1, high=65535)
        ca, cert, key = (broker.path(n, base, required=True) for n in ("ca", "cert", "key"))
        for name, file in (("ca", ca), ("cert", cert), ("key", key)):
            if file is not None and not file.is_file():
                broker.bad(name, f"no such file: {file}")
        broker.done()
    database = top.table("database", required=True)
    dsn = password_file = None
    if database is not None:
        dsn = database.text("dsn", required=True)
        password_file = database.path("password_file", base)
        if password_file is not None and not password_file.is_file():
            database.bad("password_file", f"no such file: {password_file}")
        database.done()
    top.done()
    if problems:
        raise ConfigError(problems.items)
    assert site is not None
    assert host is not None
    assert port is not None
    assert ca is not None
    assert cert is not None
    assert key is not None
    assert dsn is not None
    return CentralConfig(source, site, host, port, ca, cert, key, dsn, password_file, batch)


def central_toml(
    *,
    site: str,
    host: str,
    port: int,
    ca: Path,
    cert: Path,
    key: Path,
    dsn: str,
    password_file: Path | None = None,
) -> str:
    """A central.toml's text (the throw-away services and the bench write one)."""
    lines = [
        f'site = "{site}"',
        "",
        "[broker]",
        f'host = "{host}"',
        f"port = {port}",
        f'ca = "{ca}"',
        f'cert = "{cert}"',
        f'key = "{key}"',
        "",
        "[database]",
        f'dsn = "{dsn}"',
    ]
    if password_file is not None:
        lines.append(f'password_file = "{password_file}"')
    return "\n".join(lines) + "\n"
