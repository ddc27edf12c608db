"""Fixtures for the floor console's tests: one running fleet for the whole session
(`tests/console/fleet.py`: broker, PostgreSQL, ingest, three station daemons, the console on
uvicorn) and one real Chromium driven by Playwright.

The browser is Debian's `/usr/bin/chromium` (`./dev` installs it with apt), launched by
Playwright through `executable_path`: never a browser Playwright downloads. Under `CI=true` a
missing browser, broker or database is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from station.journal import Journal, ManualClock, Recorder
from tests.console.fleet import PASSWORDS, Fleet, running_fleet

CHROMIUM = os.environ.get("STATION_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = os.environ.get("CONSOLE_SHOTS")  # write the README's screenshots here


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    try:
        import paho.mqtt  # noqa: F401
        import psycopg  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401

        from station.central.services import MissingError
    except ModuleNotFoundError as exc:
        _unavailable(f"the central extra is not installed: {exc.name}")
        raise
    try:
        with running_fleet(tmp_path_factory.mktemp("fleet")) as running:
            yield running
    except MissingError as exc:
        _unavailable(str(exc))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"no Chromium at {CHROMIUM} (Debian package chromium; ./dev installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        _unavailable("playwright is not installed (the dev extra)")
        raise
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(SHOTS) if SHOTS else tmp_path / "shots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Signed:
    """A browser context signed in as one person (its own cookies)."""

    def __init__(self, browser: Any, fleet: Fleet, name: str, width: int = 1600) -> None:
        self.fleet = fleet
        self.context = browser.new_context(
            viewport={"width": width, "height": 1000}, accept_downloads=True
        )
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.name = name

    def sign_in(self, password: str | None = None) -> Any:
        page = self.page
        page.goto(self.fleet.console_url + "/login")
        page.fill("input[name=name]", self.name)
        page.fill("input[name=password]", password or PASSWORDS[self.name])
        page.click("form button[type=submit]")
        return page

    def close(self) -> None:
        self.context.close()


@dataclass
class Shared:
    """A page of its own, for one test, in a context kept signed in as `name` for the whole
    session (the page closed after the test, the context at the session's end)."""

    context: Any
    page: Any
    name: str

    def close(self) -> None:
        self.page.close()


class SignIns:
    """One browser context per (console, person), signed in once through the sign-in form and
    kept for the session: a test that is not about signing in gets a new page in it, on the
    map. A new context and a sign-in cost Chromium about a CPU-second; a new page in a kept
    context a quarter of that. Each test still has a page of its own (closed after it, so that
    no page left open keeps fetching), and a session the console has ended since (a password
    changed, the account locked) is signed in again."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: dict[tuple[str, str], Any] = {}

    def page(self, url: str, name: str, viewport: dict[str, int] | None = None) -> Shared:
        key = (url, name)
        context = self.contexts.get(key)
        if context is None:
            context = self.browser.new_context(
                viewport={"width": 1600, "height": 1000}, accept_downloads=True
            )
            context.set_default_timeout(15_000)
            self.contexts[key] = context
        page = context.new_page()
        if viewport is not None:
            page.set_viewport_size(viewport)
        page.goto(url + "/map")
        if not page.url.endswith("/map"):  # not signed in (yet, or any more)
            page.fill("input[name=name]", name)
            page.fill("input[name=password]", PASSWORDS[name])
            page.click("form button[type=submit]")
            page.wait_for_url("**/map")
        return Shared(context, page, name)

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


@pytest.fixture(scope="session")
def sign_ins(browser: Any) -> Iterator[SignIns]:
    kept = SignIns(browser)
    yield kept
    kept.close()


@pytest.fixture
def signed(browser: Any, fleet: Fleet, sign_ins: SignIns) -> Iterator[Any]:
    """`signed("flo")` -> a page signed in as flo, on the map (closed after the test): a new
    page in flo's kept context. `fresh=True` (a test about signing in) or `sign_in=False`: a
    context of its own, signed in through the form here (closed after the test)."""
    opened: list[Signed | Shared] = []

    def make(name: str, *, width: int = 1600, sign_in: bool = True, fresh: bool = False) -> Any:
        s: Signed | Shared
        if fresh or not sign_in:
            s = Signed(browser, fleet, name, width)
            opened.append(s)
            if sign_in:
                s.sign_in()
                s.page.wait_for_url("**/map")
            return s
        viewport = None if width == 1600 else {"width": width, "height": 1000}
        s = sign_ins.page(fleet.console_url, name, viewport)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[Recorder]:
    """A station's journal (a real SQLite file) with its recorder, for the commands' tests."""
    with Journal.open(
        tmp_path / "journal.sqlite", clock=ManualClock(), station_id="T01", create=True
    ) as journal:
        rec = Recorder(journal)
        rec.recover()
        yield rec
