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
class ConsoleConfig:
    """`[console]`: the floor console's web server (`station central console`)."""

    listen: str = "127.0.0.1"
    port: int = 8080
    tls_cert: Path | None = None  # HTTPS served by the console itself (else a proxy in front)
    tls_key: Path | None = None
    secure_cookies: bool = True  # cookies only over HTTPS (false only for a loopback test)
    session_idle_min: int = 30  # a session ends after this long without a request
    session_max_h: int = 12  # and this long after sign-in, whatever happens
    lockout_after: int = 5  # wrong passwords in a row that lock an account
    lockout_min: int = 15  # for this long (an admin may unlock it sooner)
    offline_after_s: int = 30  # a table not heard for this long is shown OFFLINE


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
    console: ConsoleConfig = ConsoleConfig()

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
    console = _console(top.table("console"), base)
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
    return CentralConfig(
        source, site, host, port, ca, cert, key, dsn, password_file, batch, console
    )


def _console(section: Section | None, base: Path) -> ConsoleConfig:
    if section is None:
        return ConsoleConfig()
    d = ConsoleConfig()
    listen = section.text("listen") or d.listen
    port = section.integer("port", low=1, high=65535) or d.port
    cert, key = section.path("tls_cert", base), section.path("tls_key", base)
    for name, file in (("tls_cert", cert), ("tls_key", key)):
        if file is not None and not file.is_file():
            section.bad(name, f"no such file: {file}")
    if (cert is None) != (key is None):
        section.bad("tls_key" if key is None else "tls_cert", "tls_cert and tls_key go together")
    console = ConsoleConfig(
        listen=listen,
        port=port,
        tls_cert=cert,
        tls_key=key,
        secure_cookies=section.flag("secure_cookies", d.secure_cookies),
        session_idle_min=section.integer("session_idle_min", low=1, high=24 * 60)
        or d.session_idle_min,
        session_max_h=section.integer("session_max_h", low=1, high=7 * 24) or d.session_max_h,
        lockout_after=section.integer("lockout_after", low=1, high=100) or d.lockout_after,
        lockout_min=section.integer("lockout_min", low=1, high=7 * 24 * 60) or d.lockout_min,
        offline_after_s=section.integer("offline_after_s", low=2, high=24 * 3600)
        or d.offline_after_s,
    )
    section.done()
    return console


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
    console: str = "",
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
    if console:
        lines += ["", "[console]", console.strip()]
    return "\n".join(lines) + "\n"
