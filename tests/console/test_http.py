"""The console's HTTP rules, on the running server (httpx, no browser): pages need a session;
every form needs the session's CSRF token and the console's own origin; the sign-in form its
own token; sessions end when idle too long or past their lifetime, and on sign-out; the
security headers are on every response; a page a role may not use is refused."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.console.fleet import PASSWORDS, Fleet


def _client(fleet: Fleet) -> httpx.Client:
    return httpx.Client(base_url=fleet.console_url, follow_redirects=False, timeout=15)


def sign_in(fleet: Fleet, name: str, password: str = "") -> tuple[httpx.Client, str]:
    """A client signed in as `name` and its CSRF token."""
    client = _client(fleet)
    try:
        page = client.get("/login")
        token = re.search(r'name="login_token" value="([^"]+)"', page.text)
        assert token is not None
        done = client.post(
            "/login",
            data={"login_token": token.group(1), "name": name,
                  "password": password or PASSWORDS[name]},
            headers={"origin": fleet.console_url},
        )  # fmt: skip
        assert done.status_code == 303, done.text
        assert done.headers["location"] == "/map"
        page = client.get("/map")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf is not None
    except BaseException:
        client.close()
        raise
    return client, csrf.group(1)


@pytest.fixture
def flo(fleet: Fleet) -> Iterator[tuple[httpx.Client, str]]:
    client, csrf = sign_in(fleet, "flo")
    yield client, csrf
    client.close()


def test_pages_need_a_session(fleet: Fleet) -> None:
    with _client(fleet) as client:
        for path in ("/", "/map", "/incidents", "/hands", "/audit", "/incidents/T03/1"):
            answer = client.get(path)
            assert answer.status_code == 303, path
            assert answer.headers["location"] == "/login"
        assert client.get("/events").status_code == 401
        assert client.get("/map/tables").status_code == 303


def test_security_headers_and_cookie_flags(fleet: Fleet) -> None:
    with _client(fleet) as client:
        page = client.get("/login")
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["cache-control"] == "no-store"
        cookie = page.headers["set-cookie"]
        assert "HttpOnly" in cookie
        assert "SameSite=strict" in cookie or "samesite=strict" in cookie.lower()


def test_the_sign_in_form_needs_its_own_token(fleet: Fleet) -> None:
    with _client(fleet) as client:
        client.get("/login")
        answer = client.post("/login", data={"name": "flo", "password": PASSWORDS["flo"]})
        assert answer.status_code == 403
        assert client.cookies.get("console_session") is None


def test_forms_need_the_csrf_token_and_the_console_s_origin(
    fleet: Fleet, flo: tuple[httpx.Client, str]
) -> None:
    client, csrf = flo
    incident = fleet.query(
        "SELECT id FROM console_incidents WHERE station_id = 'T02' ORDER BY id LIMIT 1"
    )[0][0]
    url = f"/incidents/T02/{incident}/rule"
    before = fleet.query("SELECT count(*) FROM commands")[0][0]
    origin = {"origin": fleet.console_url}
    assert client.post(url, data={"ruling": "void"}, headers=origin).status_code == 403
    assert (
        client.post(url, data={"ruling": "void", "csrf": "x" * 43}, headers=origin).status_code
        == 403
    )
    evil = {"origin": "http://evil.example"}
    assert client.post(url, data={"ruling": "void", "csrf": csrf}, headers=evil).status_code == 403
    assert fleet.query("SELECT count(*) FROM commands")[0][0] == before


def test_roles_are_checked_by_the_handlers(fleet: Fleet) -> None:
    client, csrf = sign_in(fleet, "dan")
    with contextlib.closing(client):
        assert client.get("/audit").status_code == 403
        assert client.get("/accounts").status_code == 403
        assert client.get("/incidents/export.csv").status_code == 403
        answer = client.post(
            "/tables/T01/clear-call", data={"csrf": csrf}, headers={"origin": fleet.console_url}
        )
        assert answer.status_code == 403
    auditor, _ = sign_in(fleet, "aud")
    with contextlib.closing(auditor):
        assert auditor.get("/audit").status_code == 200
        assert auditor.get("/accounts").status_code == 403


def _age_session(fleet: Fleet, client: httpx.Client, column: str, interval: str) -> None:
    import hashlib

    digest = hashlib.sha256(client.cookies["console_session"].encode()).hexdigest()
    fleet.ingest.execute(
        f"UPDATE console_sessions SET {column} = now() - interval '{interval}'"
        " WHERE token_hash = %s",
        (digest,),
    )


@pytest.mark.parametrize(
    ("column", "interval"), [("last_seen", "31 minutes"), ("expires_at", "1 second")]
)
def test_an_idle_or_expired_session_ends(fleet: Fleet, column: str, interval: str) -> None:
    client, _ = sign_in(fleet, "fay")
    with contextlib.closing(client):
        assert client.get("/map").status_code == 200
        _age_session(fleet, client, column, interval)
        answer = client.get("/map")
        assert answer.status_code == 303
        assert answer.headers["location"] == "/login"


def test_signing_out_ends_the_session(fleet: Fleet) -> None:
    client, csrf = sign_in(fleet, "fay")
    with contextlib.closing(client):
        token = client.cookies["console_session"]
        answer = client.post("/logout", data={"csrf": csrf}, headers={"origin": fleet.console_url})
        assert answer.status_code == 303
        client.cookies.set("console_session", token)
        assert client.get("/map").status_code == 303


def test_the_audit_log_records_sign_ins_and_exports(fleet: Fleet) -> None:
    client, _ = sign_in(fleet, "ada")
    with contextlib.closing(client):
        export = client.get("/incidents/export.json?table=T02&state=")
        assert export.status_code == 200
        assert export.headers["content-disposition"].startswith("attachment;")
        page = client.get("/audit?account=ada")
    assert page.status_code == 200
    assert "sign_in" in page.text
    assert "export.incidents.json" in page.text
    rows: list[Any] = fleet.query(
        "SELECT action, target FROM console_audit WHERE account = 'ada' ORDER BY id"
    )
    assert ("export.incidents.json", '{"sort": "severity", "table": "T02"}') in rows


def test_the_queue_filters_what_it_says(fleet: Fleet) -> None:
    client, _ = sign_in(fleet, "aud")
    with contextlib.closing(client):

        def listed(query: str) -> set[tuple[str, str]]:
            page = client.get(f"/incidents?{query}")
            assert page.status_code == 200
            return set(re.findall(r'href="/incidents/(T0\d)/(\d+)"', page.text))

        every = listed("state=")
        assert {s for s, _ in every} >= {"T02", "T03"}
        t03 = listed("state=&table=T03")
        assert t03 and {s for s, _ in t03} == {"T03"}
        misdeal = listed("state=&rule=misdeal")  # a prefix, any case
        rules = dict(fleet.query("SELECT station_id || '/' || id, rule FROM console_incidents"))
        assert misdeal
        assert all(rules[f"{s}/{i}"].startswith("MISDEAL") for s, i in misdeal)
        assert listed("state=closed") == set()
        assert listed("state=&person=nobody") == set()
        by_dan = listed("state=&person=dan")  # the dealer signed in at every table
        assert by_dan == every
        assert listed("state=&since=2000-01-01T00:00&until=2000-01-02T00:00") == set()


def test_an_admin_adds_unlocks_and_disables_accounts(fleet: Fleet) -> None:
    client, csrf = sign_in(fleet, "ada")
    origin = {"origin": fleet.console_url}
    with contextlib.closing(client):
        added = client.post(
            "/accounts",
            data={"csrf": csrf, "what": "add", "name": "newfloor", "role": "floor",
                  "password": "a-long-new-password"},
            headers=origin,
        )  # fmt: skip
        assert added.status_code == 200
        assert "newfloor: done" in added.text
        weak = client.post(
            "/accounts",
            data={"csrf": csrf, "what": "add", "name": "weak1", "role": "floor", "password": "x"},
            headers=origin,
        )
        assert weak.status_code == 400
        fleet.ingest.execute(
            "UPDATE console_accounts SET failures = 5, locked_until = now() + interval '1 hour'"
            " WHERE name = 'newfloor'"
        )
        assert "LOCKED" in client.get("/accounts").text
        client.post(
            "/accounts", data={"csrf": csrf, "what": "unlock", "name": "newfloor"}, headers=origin
        )
        assert fleet.query(
            "SELECT failures, locked_until FROM console_accounts WHERE name = 'newfloor'"
        ) == [(0, None)]
        client.post(
            "/accounts", data={"csrf": csrf, "what": "disable", "name": "newfloor"}, headers=origin
        )
        # Other tests share this fleet and may have added admins (test_cli's "boss"): set
        # them aside so that ada is the last active admin, and put them back after.
        others = [n for (n,) in fleet.query(
            "SELECT name FROM console_accounts WHERE role = 'admin' AND active AND name <> 'ada'"
        )]  # fmt: skip
        fleet.ingest.execute(
            "UPDATE console_accounts SET active = false WHERE name = ANY(%s)", (others,)
        )
        try:
            last = client.post(
                "/accounts", data={"csrf": csrf, "what": "disable", "name": "ada"}, headers=origin
            )
        finally:
            fleet.ingest.execute(
                "UPDATE console_accounts SET active = true WHERE name = ANY(%s)", (others,)
            )
        assert last.status_code == 400  # the last admin stays
        assert "at least one active admin" in last.text
    actions = [a for (a,) in fleet.query(
        "SELECT action FROM console_audit WHERE target = 'newfloor' ORDER BY id"
    )]  # fmt: skip
    assert actions == ["account.added", "account.unlocked", "account.disabled"]
    with pytest.raises(AssertionError, match="disabled"):
        sign_in(fleet, "newfloor", "a-long-new-password")  # disabled: no session


def test_a_range_of_hands_exports_as_phhs_with_the_password(fleet: Fleet) -> None:
    import tomllib

    client, csrf = sign_in(fleet, "flo")
    origin = {"origin": fleet.console_url}
    with contextlib.closing(client):
        wrong = client.post(
            "/hands/T01/export.phhs",
            data={"csrf": csrf, "first": "1", "last": "3", "password": "not-my-password"},
            headers=origin,
        )
        assert wrong.status_code == 403
        done = client.post(
            "/hands/T01/export.phhs",
            data={"csrf": csrf, "first": "1", "last": "3", "password": PASSWORDS["flo"]},
            headers=origin,
        )
    assert done.status_code == 200, done.text[:500]
    hands = tomllib.loads(done.text)
    assert sorted(hands) == ["1", "2", "3"]
    assert all(h["variant"] == "NT" for h in hands.values())
    audit = fleet.query(
        "SELECT target, detail->>'hands' FROM console_audit WHERE account = 'flo'"
        " AND action = 'export.hands.phh' AND station_id = 'T01' ORDER BY id"
    )
    assert ("1-3", "3") in audit
